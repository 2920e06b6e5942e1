"""Rematch for everyone (issue 18): each human seat of a finished game gets its own seat in
the rematch, reached by its own player key or its own token; nobody is sent another seat's."""

from __future__ import annotations

import httpx

from tests.server.live import Seat, drive
from tests.server.test_players import as_player, key_hello, new_player


def two_players_game(server):
    """Ryu (seat 0) and Ken (seat 1) play a whole game, each by key; returns the table."""
    ryu, ken = new_player(server.base, "Ryu"), new_player(server.base, "Ken")
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "sfrivals", "seats": [{"kind": "you"}, {"kind": "open"}], "seed": 7},
        headers=as_player(ryu),
    ).json()
    httpx.post(
        f"{server.base}/api/tables/{made['id']}/join", json={"seat": 1}, headers=as_player(ken)
    ).raise_for_status()
    a = key_hello(server.base, made["id"], 0, ryu["key"])
    b = key_hello(server.base, made["id"], 1, ken["key"])
    a.ready()
    b.ready()
    drive({0: a, 1: b})
    return made["id"], ryu, ken, a, b


def test_the_second_human_gets_their_own_seat_in_the_rematch_by_key(server):
    table, ryu, ken, a, b = two_players_game(server)
    asked = httpx.post(
        f"{server.base}/api/tables/{table}/rematch", json={"seat": 0}, headers=as_player(ryu)
    )
    assert asked.status_code == 200, asked.text
    rematch = asked.json()["id"]
    assert [link["seat"] for link in asked.json()["links"]] == [0]
    # Ken's own socket is told of his seat; his key opens it (from "My games" too).
    told = b.until(lambda m: m["type"] == "rematch")
    assert told["seat"] == 1
    assert told["table"] == rematch
    info = httpx.get(f"{server.base}/api/tables/{rematch}").json()
    assert [(s["name"], s["claimed"]) for s in info["seats"]] == [("Ryu", True), ("Ken", True)]
    kens = httpx.get(f"{server.base}/api/players/me/games", headers=as_player(ken)).json()
    assert (rematch, 1) in [(g["id"], g["seat"]) for g in kens]
    seated = key_hello(server.base, rematch, 1, ken["key"])
    state = seated.ready()
    assert state["seat"] == 1
    assert state["decision"] is not None  # a player, not a spectator
    # ... and his token from the message works for his seat alone.
    token = told["url"].split("token=")[1]
    by_token = Seat(server.base, rematch, 1, token)
    assert by_token.ready()["seat"] == 1
    other = Seat(server.base, rematch, 0, token)
    assert other.error()["code"] == "bad-token"
    for client in (a, b, seated, by_token, other):
        client.close()


def test_a_rematch_sends_no_seat_the_other_seats_token(server):
    table, _ryu, ken, a, b = two_players_game(server)
    watcher = Seat(server.base, table)
    watcher.at_step(0)
    made = httpx.post(
        f"{server.base}/api/tables/{table}/rematch", json={"seat": 1}, headers=as_player(ken)
    ).json()
    to_a = a.until(lambda m: m["type"] == "rematch")
    to_b = b.until(lambda m: m["type"] == "rematch")
    to_watcher = watcher.until(lambda m: m["type"] == "rematch")
    token_a = to_a["url"].split("token=")[1]
    token_b = to_b["url"].split("token=")[1]
    assert token_a != token_b
    assert token_a not in "".join(b.raw) + "".join(watcher.raw) + str(made)
    assert token_b not in "".join(a.raw) + "".join(watcher.raw)
    assert to_watcher["seat"] is None
    assert "token" not in to_watcher["url"]
    for client in (a, b, watcher):
        client.close()


def test_a_rematch_of_seats_taken_by_token_alone_still_seats_each_by_its_own_token(server):
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "sfrivals", "seats": [{"kind": "you"}, {"kind": "human"}], "seed": 3},
    ).json()
    tokens = {link["seat"]: link["token"] for link in made["links"]}
    a = Seat(server.base, made["id"], 0, tokens[0])
    b = Seat(server.base, made["id"], 1, tokens[1])
    a.ready()
    b.ready()
    drive({0: a, 1: b})
    httpx.post(
        f"{server.base}/api/tables/{made['id']}/rematch", json={"seat": 0, "token": tokens[0]}
    ).raise_for_status()
    told = b.until(lambda m: m["type"] == "rematch")
    assert told["seat"] == 1
    seated = Seat(server.base, told["table"], 1, told["url"].split("token=")[1])
    assert seated.ready()["seat"] == 1
    for client in (a, b, seated):
        client.close()


def test_only_a_seat_of_the_finished_game_may_ask_for_a_rematch(server):
    table, _ryu, _ken, a, b = two_players_game(server)
    stranger = new_player(server.base, "Dan")
    refused = httpx.post(
        f"{server.base}/api/tables/{table}/rematch", json={"seat": 0}, headers=as_player(stranger)
    )
    assert refused.status_code == 403
    assert refused.json()["detail"] == "wrong seat or token"
    assert httpx.get(f"{server.base}/api/tables/{table}").json()["next_table"] is None
    a.close()
    b.close()
