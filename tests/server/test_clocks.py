"""Clocks and absent players (issue 18): a time per move or per game, sent as the time left;
on expiry the clock bot plays that move (docs/rulings.md, ``kumite.ruling.clock``); a seat
silent long enough may be handed to a bot by the others, until its player comes back."""

from __future__ import annotations

import time

import httpx
import pytest
from sqlalchemy import select

from kumite.server.settings import ServerSettings
from kumite.server.storage import TableRow
from tests.server.live import Seat, ThreadServer, create_table

VS_BOT = [{"kind": "you"}, {"kind": "bot", "agent": "random"}]


def test_a_move_clock_runs_out_and_the_clock_bot_plays_that_move(server):
    made = create_table(server.base, "sfrivals", VS_BOT, clock={"per": "move", "seconds": 2})
    me = Seat(server.base, made["id"], 0, made["links"][0]["token"])
    state = me.ready()
    clock = state["clock"]
    assert (clock["per"], clock["seconds"], clock["bot"]) == ("move", 2, "greedy")
    assert 0 < clock["remaining"]["0"] <= 2
    step = state["step"]
    started = time.monotonic()
    told = me.until(lambda m: m["type"] == "timeout", timeout=10)
    assert time.monotonic() - started >= 1.0  # not before the time is up
    assert (told["seat"], told["bot"], told["step"]) == (0, "greedy", step)
    assert me.at_step(step + 1)["step"] > step
    me.close()


def test_a_game_clock_keeps_what_is_left_of_each_bank_in_storage(server):
    made = create_table(server.base, "sfrivals", VS_BOT, clock={"per": "game", "seconds": 600})
    me = Seat(server.base, made["id"], 0, made["links"][0]["token"])
    me.ready()
    time.sleep(0.3)
    me.choose()
    state = me.ready()
    assert state["clock"]["remaining"]["0"] < 600
    with server.app.state.store.session() as s:
        stored = s.scalar(select(TableRow.clock).where(TableRow.id == made["id"]))
    assert stored["per"] == "game"
    assert 598 < stored["banks"]["0"] < 599.8
    me.close()


def test_a_table_without_a_clock_says_so(server):
    made = create_table(server.base, "sfrivals", VS_BOT)
    me = Seat(server.base, made["id"], 0, made["links"][0]["token"])
    assert me.ready()["clock"] is None
    me.close()


@pytest.mark.parametrize(
    "clock",
    [
        {"per": "hour", "seconds": 60},
        {"per": "move", "seconds": 1},
        {"per": "move", "seconds": 10**9},
        {"per": "move"},
        {"per": "move", "seconds": 30, "extra": 1},
    ],
)
def test_bad_clocks_are_refused_and_make_no_table(server, clock):
    response = httpx.post(
        f"{server.base}/api/tables", json={"game": "sfrivals", "seats": VS_BOT, "clock": clock}
    )
    if "extra" in clock:  # unknown fields are ignored, as everywhere in the REST API
        assert response.status_code == 200
        return
    assert response.status_code == 422
    assert httpx.get(f"{server.base}/api/tables").json() == []


@pytest.fixture
def quick_absence(tmp_path):
    settings = ServerSettings(dev_seeds=True, absent_after=0.5)
    with ThreadServer(f"sqlite:///{tmp_path}/absent.sqlite3", settings=settings) as live:
        yield live


def stand_in(server, table, body):
    return httpx.post(f"{server.base}/api/tables/{table}/stand-in", json=body)


def test_a_silent_seat_is_handed_to_a_bot_until_its_player_comes_back(quick_absence):
    server = quick_absence
    made = create_table(server.base, "sfrivals", [{"kind": "you"}, {"kind": "human"}])
    table = made["id"]
    tokens = {link["seat"]: link["token"] for link in made["links"]}
    a = Seat(server.base, table, 0, tokens[0])
    b = Seat(server.base, table, 1, tokens[1])
    a.ready()
    b.ready()
    refused = stand_in(server, table, {"seat": 0, "token": tokens[0], "target": 1})
    assert refused.status_code == 409  # connected: not silent
    assert "a bot may stand in after" in refused.json()["detail"]
    b.close()
    time.sleep(0.8)
    for body, status in (
        ({"seat": 0, "token": "wrong", "target": 1}, 403),
        ({"seat": 0, "token": tokens[0], "target": 0}, 400),
        ({"seat": 0, "token": tokens[0], "target": 7}, 400),
    ):
        response = stand_in(server, table, body)
        assert response.status_code == status
        assert "\n" not in str(response.json()["detail"])
    handed = stand_in(server, table, {"seat": 0, "token": tokens[0], "target": 1})
    assert handed.status_code == 200, handed.text
    assert handed.json() == {"seat": 1, "bot": "greedy"}
    state = a.until(
        lambda m: m["type"] == "update" and m["state"]["seats"][1]["stand_in"] == "greedy"
    )["state"]
    # The bot plays seat 1's moves: seat 0's choices alone move the game on.
    step = state["step"]
    a.choose()
    assert a.at_step(step + 1)["step"] > step
    again = stand_in(server, table, {"seat": 0, "token": tokens[0], "target": 1})
    assert again.status_code == 409
    # Seat 1's player is back: the seat is theirs again.
    back = Seat(server.base, table, 1, b.token)  # the seat's token since b took it
    assert back.at_step(0)["seats"][1]["stand_in"] is None
    a.close()
    back.close()


def test_a_spectator_cannot_hand_a_seat_to_a_bot(quick_absence):
    server = quick_absence
    made = create_table(server.base, "sfrivals", [{"kind": "you"}, {"kind": "human"}])
    time.sleep(0.8)
    response = stand_in(server, made["id"], {"seat": 1, "token": "", "target": 0})
    assert response.status_code == 403
    assert (
        httpx.get(f"{server.base}/api/tables/{made['id']}").json()["seats"][0]["stand_in"] is None
    )
