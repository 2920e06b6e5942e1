"""Ratings (issue 18): OpenSkill per player and per bot kind from finished rated games; teams
in 2vs2, several sides in SF DBG; each table rated once. docs/protocol.md, "Ratings"."""

from __future__ import annotations

import time

import httpx
import pytest

from kumite.server import ratings
from tests.server.live import create_table
from tests.server.test_players import as_player, new_player

pytestmark = pytest.mark.needs("openskill")


def board(server, query: str = "") -> dict:
    response = httpx.get(f"{server.base}/api/ratings{query}")
    assert response.status_code == 200, response.text
    return response.json()


def rated(server, game: str, count: int, timeout: float = 20.0) -> dict[str, dict]:
    """The ratings of ``game`` once ``count`` subjects have one (they are stored in the
    background after the game ends)."""
    deadline = time.monotonic() + timeout
    while True:
        rows = board(server, f"?game={game}")["ratings"]
        if len(rows) >= count:
            return {r["id"]: r for r in rows}
        if time.monotonic() > deadline:
            raise TimeoutError(f"{len(rows)} ratings, not {count}")
        time.sleep(0.05)


def resign(server, player, table: str, seat: int = 0) -> None:
    response = httpx.post(
        f"{server.base}/api/tables/{table}/resign", json={"seat": seat}, headers=as_player(player)
    )
    assert response.status_code == 200, response.text


def make(server, player, game: str, seats: list[dict], **extra) -> str:
    response = httpx.post(
        f"{server.base}/api/tables",
        json={"game": game, "seats": seats, **extra},
        headers=as_player(player),
    )
    assert response.status_code == 200, response.text
    return str(response.json()["id"])


def test_a_player_who_loses_to_a_bot_drops_and_the_bot_kind_rises(server):
    me = new_player(server.base, "Dan")
    table = make(server, me, "sfrivals", [{"kind": "you"}, {"kind": "bot", "agent": "greedy"}])
    resign(server, me, table)
    rows = rated(server, "sfrivals", 2)
    mine, bot = rows[me["id"]], rows["bot:greedy"]
    assert (mine["name"], mine["kind"], mine["games"]) == ("Dan", "player", 1)
    assert (bot["name"], bot["kind"], bot["games"]) == ("greedy bot", "bot", 1)
    assert bot["mu"] > 25 > mine["mu"]
    assert bot["rating"] == pytest.approx(bot["mu"] - 3 * bot["sigma"], abs=0.02)
    assert board(server)["ratings"][0]["id"] == "bot:greedy"  # the best first
    assert board(server, "?kind=player")["ratings"] == [mine]


def test_each_table_is_rated_once(server):
    me = new_player(server.base, "Dan")
    table = make(server, me, "sfrivals", [{"kind": "you"}, {"kind": "bot", "agent": "greedy"}])
    resign(server, me, table)
    before = rated(server, "sfrivals", 2)
    runtime = server.hub.get(table)
    seated = ratings.entrants([s.to_json() for s in runtime.seats], runtime.holders)
    again = ratings.rate(
        server.app.state.store, table, "sfrivals", seated, [[0], [1]], {"winners": [1]}
    )
    assert again is False
    assert rated(server, "sfrivals", 2) == before


def test_2v2_teams_are_rated_as_teams_and_a_kind_at_two_seats_is_not_moved(server):
    me = new_player(server.base, "Zorro")
    seats = [
        {"kind": "you"},
        {"kind": "bot", "agent": "random"},
        {"kind": "bot", "agent": "greedy"},
        {"kind": "bot", "agent": "greedy"},
    ]
    table = make(server, me, "rivales", seats)
    resign(server, me, table)  # team A (seats 0, 1) loses
    rows = rated(server, "rivales", 3)
    assert rows[me["id"]]["mu"] < 25
    assert rows["bot:random"]["mu"] < 25  # the teammate lost with the team
    assert rows["bot:greedy"]["games"] == 0  # at two seats: an opponent, not moved
    assert rows["bot:greedy"]["mu"] == pytest.approx(25)


def test_sfdbg_with_three_seats_ranks_every_winner_first(server):
    me = new_player(server.base, "Cammy")
    seats = [
        {"kind": "you"},
        {"kind": "bot", "agent": "random"},
        {"kind": "bot", "agent": "greedy"},
    ]
    table = make(server, me, "sfdbg", seats)
    resign(server, me, table)
    rows = rated(server, "sfdbg", 3)
    assert rows[me["id"]]["mu"] < 25
    assert rows["bot:random"]["mu"] > 25
    assert rows["bot:greedy"]["mu"] > 25


@pytest.mark.parametrize("why", ["unrated", "anonymous seat", "bots only"])
def test_games_with_nobody_to_rate_or_unrated_move_nothing(server, why):
    me = new_player(server.base, "Dan")
    bot = {"kind": "bot", "agent": "greedy"}
    if why == "unrated":
        table = make(server, me, "sfrivals", [{"kind": "you"}, bot], rated=False)
        resign(server, me, table)
    elif why == "anonymous seat":
        made = create_table(server.base, "sfrivals", [{"kind": "you"}, bot])
        httpx.post(
            f"{server.base}/api/tables/{made['id']}/resign",
            json={"seat": 0, "token": made["links"][0]["token"]},
        ).raise_for_status()
    else:
        made = create_table(server.base, "sfrivals", [bot, {"kind": "bot", "agent": "random"}])
        deadline = time.monotonic() + 60
        while not httpx.get(f"{server.base}/api/tables/{made['id']}").json()["finished"]:
            assert time.monotonic() < deadline
            time.sleep(0.1)
    time.sleep(0.3)  # ratings are stored in the background: give them the time to be wrong
    assert board(server)["ratings"] == []


@pytest.mark.parametrize("query", ["?kind=robot", "?limit=0", "?limit=500", "?game=" + "x" * 40])
def test_bad_leaderboard_queries_get_a_clear_error(server, query):
    response = httpx.get(f"{server.base}/api/ratings{query}")
    assert response.status_code == 422
    assert all("msg" in d for d in response.json()["detail"])
