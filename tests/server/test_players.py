"""Players (issue 18): a display name and a secret key, seats held by key, "My games",
resign and leave. docs/protocol.md, "Players"; docs/rulings.md, ``kumite.ruling.resign``."""

from __future__ import annotations

import httpx
import pytest
from sqlalchemy import func, select

from kumite.server.storage import PlayerRow
from tests.server.live import Seat, create_table

HEADER = "X-Kumite-Player"
VS_BOT = [{"kind": "you"}, {"kind": "bot", "agent": "random"}]


def new_player(base: str, name: str) -> dict[str, str]:
    # A long timeout: on a loaded machine the first write of a new server may take seconds.
    response = httpx.post(f"{base}/api/players", json={"name": name}, timeout=60)
    assert response.status_code == 200, response.text
    made: dict[str, str] = response.json()
    return made


def as_player(player: dict[str, str]) -> dict[str, str]:
    return {HEADER: player["key"]}


def players_stored(server) -> int:
    with server.app.state.store.session() as s:
        return int(s.scalar(select(func.count()).select_from(PlayerRow)))


def key_hello(base: str, table: str, seat: int, key: str) -> Seat:
    client = Seat(base, table, hello=False)
    client.seat = seat
    client.send({"type": "hello", "seat": seat, "key": key})
    return client


def test_a_player_is_a_name_and_a_key_the_server_keeps_only_hashed(server):
    me = new_player(server.base, "  Chun   Li ")
    assert me["name"] == "Chun Li"  # spaces tidied
    assert len(me["key"]) >= 22  # 128 bits, URL-safe
    with server.app.state.store.session() as s:
        row = s.get(PlayerRow, me["id"])
        assert row is not None
        assert me["key"] not in (row.key_hash, row.id, row.name)
    got = httpx.get(f"{server.base}/api/players/me", headers=as_player(me)).json()
    assert got == {"id": me["id"], "name": "Chun Li"}
    renamed = httpx.put(
        f"{server.base}/api/players/me", json={"name": "Chun"}, headers=as_player(me)
    ).json()
    assert renamed["name"] == "Chun"
    assert httpx.get(f"{server.base}/api/players/me", headers=as_player(me)).json()["name"] == (
        "Chun"
    )


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "at least one visible character"),
        ("   ", "at least one visible character"),
        ("Ryu\x00", "control character"),  # refused with every text that holds one
        ("Ken\nMasters", "control or invisible"),
        ("\u202eevil", "control or invisible"),  # a right-to-left override
        ("zero\u200bwidth", "control or invisible"),
        ("x" * 25, "at most 24 characters"),
    ],
)
def test_bad_names_get_a_one_line_error_and_make_no_player(server, name, words):
    before = players_stored(server)
    response = httpx.post(f"{server.base}/api/players", json={"name": name})
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert words in detail
    assert "\n" not in detail
    assert players_stored(server) == before
    me = new_player(server.base, "Guile")
    renamed = httpx.put(f"{server.base}/api/players/me", json={"name": name}, headers=as_player(me))
    assert renamed.status_code == 400
    assert httpx.get(f"{server.base}/api/players/me", headers=as_player(me)).json()["name"] == (
        "Guile"
    )


@pytest.mark.parametrize("key", ["x" * 22, "not a key at all", "A" * 64, "key with spaces and %"])
def test_an_unknown_player_key_is_refused_in_one_line(server, key):
    response = httpx.get(f"{server.base}/api/players/me", headers={HEADER: key})
    assert response.status_code == 403
    assert response.json()["detail"] == "unknown player key: make a new player"
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "sfrivals", "seats": VS_BOT},
        headers={HEADER: key},
    )
    assert made.status_code == 403
    assert httpx.get(f"{server.base}/api/tables").json() == []  # nothing made


def test_my_games_need_a_player(server):
    response = httpx.get(f"{server.base}/api/players/me/games")
    assert response.status_code == 401
    assert HEADER in response.json()["detail"]


def test_a_players_name_is_shown_at_their_seat_and_their_key_opens_it(server):
    me = new_player(server.base, "Sakura")
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "sfrivals", "seats": VS_BOT},
        headers=as_player(me),
    ).json()
    mine = made["links"][0]
    assert mine["play"] == f"/table/{made['id']}#seat=0"  # no token in the address
    info = httpx.get(f"{server.base}/api/tables/{made['id']}").json()
    assert [s["name"] for s in info["seats"]] == ["Sakura", "random bot"]
    client = key_hello(server.base, made["id"], 0, me["key"])
    state = client.ready()
    assert state["seat"] == 0
    assert state["seats"][0]["name"] == "Sakura"
    client.close()
    games = httpx.get(f"{server.base}/api/players/me/games", headers=as_player(me)).json()
    assert [(g["id"], g["seat"], g["status"]) for g in games] == [(made["id"], 0, "playing")]
    assert games[0]["your_move"] is True
    assert games[0]["seats"][0]["name"] == "Sakura"


def test_a_key_opens_only_the_seats_its_player_holds(server):
    me = new_player(server.base, "Ryu")
    other = new_player(server.base, "Ken")
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "sfrivals", "seats": [{"kind": "you"}, {"kind": "open"}]},
        headers=as_player(me),
    ).json()
    # Ken's key is no key for Ryu's seat, nor for the open seat Ken has not joined.
    for seat in (0, 1):
        client = key_hello(server.base, made["id"], seat, other["key"])
        assert client.error()["code"] == "bad-token"
        client.close()
    refused = httpx.post(
        f"{server.base}/api/tables/{made['id']}/resign",
        json={"seat": 0},
        headers=as_player(other),
    )
    assert refused.status_code == 403
    assert httpx.get(f"{server.base}/api/tables/{made['id']}").json()["outcome"] is None


def test_joining_with_a_key_seats_the_name_and_lists_the_game_and_leaving_frees_it(server):
    host = new_player(server.base, "Ryu")
    guest = new_player(server.base, "Ken")
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "sfrivals", "seats": [{"kind": "you"}, {"kind": "open"}]},
        headers=as_player(host),
    ).json()
    joined = httpx.post(
        f"{server.base}/api/tables/{made['id']}/join", json={"seat": 1}, headers=as_player(guest)
    ).json()
    assert joined["play"] == f"/table/{made['id']}#seat=1"
    info = httpx.get(f"{server.base}/api/tables/{made['id']}").json()
    assert [s["name"] for s in info["seats"]] == ["Ryu", "Ken"]
    mine = httpx.get(f"{server.base}/api/players/me/games", headers=as_player(guest)).json()
    assert [(g["id"], g["seat"]) for g in mine] == [(made["id"], 1)]
    # Leave, by key alone: the seat is open again and no longer among Ken's games.
    left = httpx.post(
        f"{server.base}/api/tables/{made['id']}/leave", json={"seat": 1}, headers=as_player(guest)
    )
    assert left.status_code == 200
    info = httpx.get(f"{server.base}/api/tables/{made['id']}").json()
    assert info["seats"][1]["kind"] == "open"
    assert not info["seats"][1]["claimed"]
    assert httpx.get(f"{server.base}/api/players/me/games", headers=as_player(guest)).json() == []
    client = key_hello(server.base, made["id"], 1, guest["key"])
    assert client.error()["code"] == "bad-token"
    client.close()


def test_resigning_ends_the_game_and_the_other_side_wins_after_a_restart_too(server):
    """kumite.ruling.resign: the resigning seat's side loses, every other seat wins."""
    me = new_player(server.base, "Dan")
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "sfrivals", "seats": VS_BOT},
        headers=as_player(me),
    ).json()
    table = made["id"]
    client = key_hello(server.base, table, 0, me["key"])
    client.ready()
    resigned = httpx.post(
        f"{server.base}/api/tables/{table}/resign", json={"seat": 0}, headers=as_player(me)
    )
    assert resigned.status_code == 200
    outcome = resigned.json()["outcome"]
    assert outcome["winners"] == [1]
    assert outcome["rule"] == "kumite.ruling.resign"
    assert outcome["reason"] == "Dan resigned"
    final = client.until(lambda m: m["type"] == "update" and m["state"]["outcome"] is not None)
    assert final["state"]["decision"] is None
    client.send({"type": "choose", "step": final["state"]["step"], "choice": "x"})
    assert client.error()["code"] == "game-over"
    client.close()
    again = httpx.post(
        f"{server.base}/api/tables/{table}/resign", json={"seat": 0}, headers=as_player(me)
    )
    assert again.status_code == 409
    assert again.json()["detail"] == "the game is over"
    # Loaded again from storage (a restarted server): still over, the same result.
    server.hub.drop(table)
    info = httpx.get(f"{server.base}/api/tables/{table}").json()
    assert info["finished"]
    assert info["outcome"]["winners"] == [1]
    games = httpx.get(f"{server.base}/api/players/me/games", headers=as_player(me)).json()
    assert games[0]["status"] == "finished"


def test_resigning_a_2v2_game_loses_it_for_the_whole_team(server):
    me = new_player(server.base, "Zorro")
    seats = [{"kind": "you"}] + [{"kind": "bot", "agent": "random"}] * 3
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "rivales", "seats": seats},
        headers=as_player(me),
    ).json()
    resigned = httpx.post(
        f"{server.base}/api/tables/{made['id']}/resign", json={"seat": 0}, headers=as_player(me)
    ).json()
    assert resigned["outcome"]["winners"] == [2, 3]


def test_no_seat_is_ever_sent_another_players_key_or_token(server):
    host = new_player(server.base, "Ryu")
    guest = new_player(server.base, "Ken")
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "sfrivals", "seats": [{"kind": "you"}, {"kind": "open"}]},
        headers=as_player(host),
    ).json()
    table = made["id"]
    host_token = made["links"][0]["token"]
    joined = httpx.post(
        f"{server.base}/api/tables/{table}/join", json={"seat": 1}, headers=as_player(guest)
    ).json()
    a = key_hello(server.base, table, 0, host["key"])
    b = key_hello(server.base, table, 1, guest["key"])
    watcher = Seat(server.base, table)
    for client in (a, b, watcher):
        client.ready() if client.seat is not None else client.at_step(0)
    a.send({"type": "chat", "text": "good luck"})
    b.until(lambda m: m["type"] == "chat")
    for client, secrets in (
        (a, [guest["key"], joined["token"]]),
        (b, [host["key"], host_token]),
        (watcher, [host["key"], guest["key"], host_token, joined["token"]]),
    ):
        seen = "".join(client.raw)
        for secret in secrets:
            assert secret not in seen
        client.close()
    public = "".join(
        httpx.get(f"{server.base}{path}").text
        for path in ("/api/tables", f"/api/tables/{table}", "/api/tables?waiting=true")
    )
    for secret in (host["key"], guest["key"], host_token, joined["token"]):
        assert secret not in public
    mine = httpx.get(f"{server.base}/api/players/me/games", headers=as_player(guest)).text
    assert host["key"] not in mine
    assert host_token not in mine


def test_a_table_made_without_a_player_still_works_by_token(server):
    made = create_table(server.base, "sfrivals", VS_BOT)
    assert "play" not in made["links"][0]
    client = Seat(server.base, made["id"], 0, made["links"][0]["token"])
    assert client.ready()["seats"][0]["name"] == "Player 1"
    client.close()
