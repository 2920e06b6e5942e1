"""The ``equilibrium`` agent plays the solved strategy from its own view."""

from __future__ import annotations

from pathlib import Path

from kumite.agents import make_agent, run_game
from kumite.agents.registry import agent_names
from kumite.games.sfrivals.game import GAME
from tests.solve.conftest import SHORT_PACK, shared_cache

__all__ = ["shared_cache"]  # the fixture: one cache for the session
OPTIONS = {"characters": ["juri", "guile"], "pack": SHORT_PACK}


def test_registered_for_sfrivals() -> None:
    assert "equilibrium" in agent_names("sfrivals")


def test_plays_legal_games_and_never_loses_to_random_on_average(shared_cache: Path) -> None:
    options = OPTIONS
    score = 0.0
    for seed in range(12):
        state = GAME.new_state(seed, options)
        state.quiet = True
        eq_seat = seed % 2
        agents = [
            make_agent("equilibrium" if s == eq_seat else "random", GAME, options, s, seed)
            for s in (0, 1)
        ]
        outcome = run_game(state, agents)
        score += outcome.returns[eq_seat]
    assert score >= 0


def test_same_seed_same_game(shared_cache: Path) -> None:
    options = OPTIONS
    records = []
    for _ in range(2):
        state = GAME.new_state(9, options)
        agents = [make_agent("equilibrium", GAME, options, s, 100 + s) for s in (0, 1)]
        run_game(state, agents)
        records.append(state.history)
    assert records[0] == records[1]


def test_advice_depends_only_on_the_view(shared_cache: Path) -> None:
    """Two fights that differ only in seat 1's hidden cover look the same to seat 0, and
    the agent's advice must be the same."""
    from kumite.games.sfrivals.solver.strategy import advice, matchup_for_view

    options = OPTIONS
    views = []
    for cover in ("guile.guard", "guile.dragon-suplex"):
        state = GAME.new_state(2, options)
        state.apply({0: "setup:juri.guard:juri.fuusha", 1: f"setup:{cover}:guile.sonic-boom"})
        views.append(state.view(0))
    assert views[0] == views[1]
    sol = matchup_for_view(views[0], options)
    assert advice(views[0], sol) == advice(views[1], sol)
