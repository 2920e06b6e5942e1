"""The solver's SF Rivals agents, named for what they are: ``bounded`` plays the bound
strategy from its own view; ``equilibrium`` exists only where a strategy is certified within
0.05 of an equilibrium; the certified figure is there for listings."""

from __future__ import annotations

from pathlib import Path

import pytest

from kumite.agents import make_agent, run_game
from kumite.agents.registry import agent_info, agent_names
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver.equilibrium import (
    EQUILIBRIUM_AT_MOST,
    CertifiedBoundedAgent,
    ExactEquilibriumAgent,
    NoCertifiedEquilibriumError,
)
from kumite.games.sfrivals.solver.hidden import mini_pack
from kumite.games.sfrivals.solver.setup import solve_matchup
from tests.games.sfrivals.solver.conftest import SHORT_PACK, shared_cache

__all__ = ["shared_cache"]  # the fixture: one cache for the session
OPTIONS = {"characters": ["juri", "guile"], "pack": SHORT_PACK}
MINI4 = {"characters": ["ryu-mini", "ken-mini"], "pack": mini_pack() + "\n[rules]\nhand = 4\n"}


def test_registered_for_sfrivals() -> None:
    names = agent_names("sfrivals")
    assert {"bounded", "belief", "equilibrium"} <= set(names)


def test_bounded_plays_legal_games_and_never_loses_to_random_on_average(
    shared_cache: Path,
) -> None:
    score = 0.0
    for seed in range(12):
        state = GAME.new_state(seed, OPTIONS)
        state.quiet = True
        me = seed % 2
        agents = [
            make_agent("bounded" if s == me else "random", GAME, OPTIONS, s, seed) for s in (0, 1)
        ]
        outcome = run_game(state, agents)
        score += outcome.returns[me]
    assert score >= 0


def test_same_seed_same_game(shared_cache: Path) -> None:
    records = []
    for _ in range(2):
        state = GAME.new_state(9, OPTIONS)
        agents = [make_agent("bounded", GAME, OPTIONS, s, 100 + s) for s in (0, 1)]
        run_game(state, agents)
        records.append(state.history)
    assert records[0] == records[1]


def test_advice_depends_only_on_the_view(shared_cache: Path) -> None:
    """Two fights that differ only in seat 1's hidden cover look the same to seat 0, and
    the agent's advice must be the same."""
    from kumite.games.sfrivals.solver.strategy import advice, matchup_for_view

    views = []
    for cover in ("guile.guard", "guile.dragon-suplex"):
        state = GAME.new_state(2, OPTIONS)
        state.apply({0: "setup:juri.guard:juri.fuusha", 1: f"setup:{cover}:guile.sonic-boom"})
        views.append(state.view(0))
    assert views[0] == views[1]
    sol = matchup_for_view(views[0], OPTIONS)
    assert advice(views[0], sol) == advice(views[1], sol)


def test_equilibrium_is_refused_where_nothing_is_certified(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Honest names: the full game's strategies are far from an equilibrium, so
    ``equilibrium`` is refused with one line that says why and what to play instead."""
    monkeypatch.setenv("KUMITE_CACHE_DIR", str(tmp_path))
    with pytest.raises(NoCertifiedEquilibriumError, match=r"no certified equilibrium.*bounded"):
        make_agent("equilibrium", GAME, {"characters": ["ryu", "ken"]}, 0, 1)
    with pytest.raises(NoCertifiedEquilibriumError, match="matchup fixed"):
        make_agent("equilibrium", GAME, {}, 0, 1)


def test_equilibrium_where_the_bounds_certify_one(shared_cache: Path) -> None:
    """Two rounds: the bounds meet (exploitability 0 <= 0.05), so the bound strategy may be
    called an equilibrium, and listings show its certified figure."""
    solve_matchup(("juri", "guile"), {"pack": SHORT_PACK})
    agent = make_agent("equilibrium", GAME, OPTIONS, 0, 1)
    assert isinstance(agent, CertifiedBoundedAgent) and agent.name == "equilibrium"
    info = agent_info("bounded", "sfrivals", OPTIONS)
    assert info["certified_exploitability"] == pytest.approx(0.0, abs=1e-12)
    assert info["certified_exploitability"] <= EQUILIBRIUM_AT_MOST
    assert info["about"]


def test_equilibrium_of_a_small_variant_is_its_exact_one(shared_cache: Path) -> None:
    """The mini pack (here four rounds of it) is solved whole: ``equilibrium`` plays the
    sequence-form LP's equilibrium, from its own view, and holds its own against random."""
    agent = make_agent("equilibrium", GAME, MINI4, 0, 1)
    assert isinstance(agent, ExactEquilibriumAgent)
    score = 0.0
    for seed in range(6):
        state = GAME.new_state(seed, MINI4)
        state.quiet = True
        me = seed % 2
        agents = [
            make_agent("equilibrium" if s == me else "random", GAME, MINI4, s, seed) for s in (0, 1)
        ]
        score += run_game(state, agents).returns[me]
    assert score >= 0


def test_listing_without_a_fixed_matchup_has_no_figure() -> None:
    info = agent_info("bounded", "sfrivals", {})
    assert info["certified_exploitability"] is None
    assert agent_info("greedy", "sfrivals", {}) == {
        "name": "greedy",
        "about": agent_info("greedy", "sfrivals", {})["about"],
    }
