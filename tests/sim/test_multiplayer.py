"""The lab on a 2-4 player game with heroes and shared cards (as SF DBG will be)."""

from __future__ import annotations

import pytest

from kumite.core.registry import specs
from kumite.core.spec import GameSpec, Ref
from kumite.sim.analysis import analyze
from kumite.sim.backends import simulate
from kumite.sim.engine import Runner, SimSpec
from kumite.sim.report import render
from kumite.sim.results import document


@pytest.fixture(autouse=True)
def heroes(monkeypatch):
    spec = GameSpec(
        id="heroes",
        name="Heroes",
        game=Ref("tests.sim.heroes:GAME"),
        lab=Ref("tests.sim.heroes:ADAPTER"),
    )
    monkeypatch.setitem(specs(), "heroes", spec)


LINEUPS = (("random",) * 2, ("random",) * 3)


def test_balanced_design_uses_distinct_heroes_and_every_player_count():
    runner = Runner(SimSpec("heroes", LINEUPS, 0, seed=1))
    seen = [runner.assignment(i)[1] for i in range(60)]
    assert all(len(set(h)) == len(h) for h in seen)  # heroes are distinct at a table
    assert {len(h) for h in seen} == {2, 3}
    assert len({h for h in seen if len(h) == 3}) == 6  # every permutation of 3 heroes


def test_hero_performance_by_player_count_and_ratings():
    tally = simulate(SimSpec("heroes", LINEUPS, 1200, seed=4)).tally
    a = analyze(tally, entity="hero", turn="turn")
    by = {(r["entity"], r["players"]): r for r in a["entities"]["by_players"]}
    assert set(by) == {(h, p) for h in ("ace", "bo", "cy") for p in (2, 3)}
    for p in (2, 3):
        assert by["ace", p]["win"]["low"] > by["bo", p]["win"]["high"]  # the +1 hero wins more
    ratings = a["entities"]["ratings"]
    assert ratings[0]["name"] == "ace"
    seats = {g["players"]: g for g in a["seats"]}
    assert set(seats) == {2, 3} and len(seats[3]["seats"]) == 3
    cards = {r["card"]: r for r in a["cards"]["impact"]}
    assert set(cards) == {"bid-1", "bid-2", "bid-3"}
    assert all(r["scope"] == "*" for r in cards.values())  # shared cards: baseline all seats
    assert cards["bid-3"]["with"]["win"]["rate"] > cards["bid-1"]["with"]["win"]["rate"]
    assert cards["bid-3"]["significant"]


def test_co_winners_are_not_compared_with_each_other():
    """Seats that share the win (or both lose) give Bradley-Terry no comparison."""
    tally = simulate(SimSpec("heroes", (("random",) * 3,), 300, seed=2)).tally
    pairs = tally.counts("entity_pairs")
    seat_pairs = 300 * 6  # ordered seat pairs of 3-player games
    assert sum(c[0] for c in pairs.values()) < seat_pairs


def test_report_shows_win_rate_by_player_count():
    result = simulate(SimSpec("heroes", LINEUPS, 300, seed=3))
    page = render(document([result]))
    assert "by player count" in page or "by number of players" in page


def test_options_can_depend_on_the_number_of_players():
    """Line-ups of 2 and 3 seats, agents choosing their heroes: each size gets its options."""
    spec = SimSpec(
        "heroes",
        LINEUPS,
        120,
        seed=1,
        design="free",
        options={"players": 2},
        options_by_players=((2, {"players": 2}), (3, {"players": 3})),
    )
    tally = simulate(spec).tally
    assert {n for (n, _seat) in tally.counts("seats")} == {2, 3}
    assert tally.counts("seats")[3, 2][0] == 60
    assert spec.to_json()["options_by_players"] == {"2": {"players": 2}, "3": {"players": 3}}
