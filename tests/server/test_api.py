"""The lobby and table REST API."""

from __future__ import annotations

import httpx
import pytest

from tests.server.live import Seat, create_table, drive

SEATS_VS_BOT = [{"kind": "you"}, {"kind": "bot", "agent": "greedy"}]


def test_games_list_describes_the_lobby_form(server):
    games = httpx.get(f"{server.base}/api/games").json()
    sfr = next(g for g in games if g["id"] == "sfrivals")
    assert sfr["min_players"] == sfr["max_players"] == 2
    assert {"random", "greedy"} <= {a["name"] for a in sfr["agents"]}
    assert len(sfr["seat_field"]["choices"]) == 8
    names = {o["name"]: o for o in sfr["options"]}
    assert names["ultra_rule"]["choices"] == ["card", "power"]
    assert names["ultra_rule"]["default"] == "card"
    assert (
        "card: an Ultra Combo may only be played at life 5 or under" in names["ultra_rule"]["doc"]
    )


def test_create_table_returns_secret_seat_links_and_lists_it(server):
    made = create_table(server.base, "sfrivals", [{"kind": "you"}, {"kind": "human"}], seed=3)
    assert made["seat"] == 0
    assert [link["seat"] for link in made["links"]] == [0, 1]
    assert all(f"#seat={link['seat']}&token=" in link["url"] for link in made["links"])
    listed = httpx.get(f"{server.base}/api/tables").json()
    assert made["id"] in [t["id"] for t in listed]
    info = httpx.get(f"{server.base}/api/tables/{made['id']}").json()
    assert info["step"] == 0
    assert not info["finished"]
    assert "token" not in str(info)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess", "seats": SEATS_VS_BOT}, 400, "unknown game"),
        ({"game": "sfrivals", "seats": [{"kind": "you"}]}, 400, "needs 2-2 seats"),
        (
            {"game": "sfrivals", "seats": SEATS_VS_BOT, "options": {"swap": "x"}},
            400,
            "sfrivals options",
        ),
        (
            {"game": "sfrivals", "seats": [{"kind": "you"}, {"kind": "bot", "agent": "genius"}]},
            400,
            "no agent 'genius'",
        ),
        (
            {"game": "sfrivals", "seats": [{"kind": "you"}, {"kind": "you"}]},
            400,
            "only one seat can be yours",
        ),
        ({"game": "sfrivals", "seats": [{"kind": "alien"}, {"kind": "you"}]}, 422, ""),
    ],
)
def test_bad_table_requests_get_clear_errors(server, body, status, words):
    response = httpx.post(f"{server.base}/api/tables", json=body)
    assert response.status_code == status
    assert words in str(response.json()["detail"])


def test_cards_endpoint_carries_provenance(server):
    made = create_table(server.base, "sfrivals", SEATS_VS_BOT)
    cards = httpx.get(f"{server.base}/api/tables/{made['id']}/cards").json()
    assert cards["cards"]["ryu.shoryuken"]["provenance"]["damage"]["from"] == "source:TF"
    assert cards["cards"]["ryu.jab"]["provenance"]["damage"]["from"] == "estimate"


def test_record_and_replay_only_after_the_game(server):
    made = create_table(server.base, "sfrivals", SEATS_VS_BOT, seed=5)
    table = made["id"]
    me = Seat(server.base, table, 0, made["links"][0]["token"])
    me.ready()
    assert httpx.get(f"{server.base}/api/tables/{table}/record").status_code == 403
    assert httpx.get(f"{server.base}/api/tables/{table}/replay").status_code == 403
    drive({0: me})
    record = httpx.get(f"{server.base}/api/tables/{table}/record").json()
    assert record["format"] == "kumite-record"
    assert record["seed"] == 5
    assert record["outcome"] == me.state["outcome"]
    frames = httpx.get(f"{server.base}/api/tables/{table}/replay").json()["frames"]
    assert len(frames) == len(record["steps"]) + 1
    assert frames[-1]["view"]["phase"] == "over"


def test_a_table_of_bots_alone_plays_from_its_creation(server):
    made = create_table(
        server.base,
        "sfrivals",
        [{"kind": "bot", "agent": "random"}, {"kind": "bot", "agent": "greedy"}],
        seed=5,
    )
    watcher = Seat(server.base, made["id"])
    watcher.until(lambda m: m["type"] == "update" and m["state"]["outcome"] is not None)
    record = httpx.get(f"{server.base}/api/tables/{made['id']}/record").json()
    assert record["outcome"] == watcher.state["outcome"]


def test_join_leave_and_open_seats(server):
    made = create_table(server.base, "sfrivals", [{"kind": "you"}, {"kind": "open"}])
    table = made["id"]
    assert len(made["links"]) == 1  # the open seat's token is not handed out
    joined = httpx.post(f"{server.base}/api/tables/{table}/join", json={"seat": 1}).json()
    assert joined["seat"] == 1
    again = httpx.post(f"{server.base}/api/tables/{table}/join", json={"seat": 1})
    assert again.status_code == 409
    guest = Seat(server.base, table, 1, joined["token"])
    guest.until(lambda m: m["type"] == "update")
    left = httpx.post(
        f"{server.base}/api/tables/{table}/leave", json={"seat": 1, "token": joined["token"]}
    )
    assert left.json() == {"seat": 1, "open": True}
    bad = Seat(server.base, table, 1, joined["token"])  # the old token no longer works
    assert bad.error()["code"] == "bad-token"
    rejoined = httpx.post(f"{server.base}/api/tables/{table}/join", json={"seat": 1})
    assert rejoined.status_code == 200
    wrong = httpx.post(f"{server.base}/api/tables/{table}/leave", json={"seat": 0, "token": "x"})
    assert wrong.status_code == 403


def test_rematch_creates_a_new_table_for_the_same_seats(server):
    made = create_table(
        server.base, "sfrivals", SEATS_VS_BOT, options={"characters": ["ryu", "ken"]}
    )
    me = Seat(server.base, made["id"], 0, made["links"][0]["token"])
    early = httpx.post(
        f"{server.base}/api/tables/{made['id']}/rematch",
        json={"seat": 0, "token": made["links"][0]["token"]},
    )
    assert early.status_code == 409
    while not me.ready()["outcome"]:
        me.choose()
    rematch = httpx.post(
        f"{server.base}/api/tables/{made['id']}/rematch",
        json={"seat": 0, "token": made["links"][0]["token"]},
    ).json()
    assert rematch["id"] != made["id"]
    assert rematch["seat"] == 0
    note = me.until(lambda m: m["type"] == "rematch")
    assert note["table"] == rematch["id"]
    info = httpx.get(f"{server.base}/api/tables/{rematch['id']}").json()
    assert [s["kind"] for s in info["seats"]] == ["human", "bot"]


def test_pages_and_static_files_are_served(server):
    for path in (
        "/",
        "/table/abc",
        "/replay/abc",
        "/static/js/table.js",
        "/static/games/sfrivals/table.js",
        "/static/css/kumite.css",
    ):
        assert httpx.get(server.base + path).status_code == 200, path
    assert httpx.get(f"{server.base}/api/tables/nope").status_code == 404
