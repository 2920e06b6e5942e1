"""Per-game search hooks of ``ismcts`` (Rivales, SF DBG): legal narrowing, view-only
information, reproducibility, whole games at a small budget."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

import pytest

from kumite.agents import make_agent, run_game
from kumite.agents.base import decide
from kumite.agents.ismcts import ISMCTSAgent
from kumite.agents.search import DEFAULT_HOOKS, DEFAULT_LEVEL, SearchHooks, search_hooks
from kumite.agents.uniform import RandomAgent
from kumite.core.game import Decision, Game, State
from kumite.core.registry import get_game
from kumite.games.rivales.bots.search import RivalesHooks, match_value
from kumite.games.sfdbg.bots.search import SFDBGHooks

HOOKED = ("rivales", "sfdbg")
TINY = "tiny"


def _hooks(game: Game[Any], options: Mapping[str, Any], iterations: int = 8) -> SearchHooks:
    hooks = search_hooks(game, options)
    # A per-test budget: the shipped levels are sized for play, not for the test suite.
    level = dataclasses.replace(hooks.levels[DEFAULT_LEVEL], iterations=iterations)
    hooks.levels = {**hooks.levels, TINY: level}
    return hooks


def _positions(game_id: str, seed: int, steps: int) -> list[State]:
    """Positions of a random game (every ``steps``-th decision point), for probing hooks."""
    game = get_game(game_id)
    state = game.new_state(seed, {})
    state.quiet = True
    rng = random.Random(seed)
    out: list[State] = []
    k = 0
    while state.pending():
        if k % steps == 0:
            out.append(state.clone())
        state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
        k += 1
    return out


def test_registered_hooks() -> None:
    assert isinstance(search_hooks(get_game("rivales"), {}), RivalesHooks)
    assert isinstance(search_hooks(get_game("sfdbg"), {}), SFDBGHooks)
    assert search_hooks(get_game("sfrivals"), {}) is DEFAULT_HOOKS


@pytest.mark.parametrize("game_id", HOOKED)
def test_hooks_narrow_choices_only_to_legal_ones(game_id: str) -> None:
    """``candidates`` is a non-empty subset of the legal choices, without repeats; a
    ``forced`` choice in a determinisation is legal there."""
    game = get_game(game_id)
    hooks = search_hooks(game, {})
    checked = 0
    for state in _positions(game_id, seed=3, steps=2):
        for d in state.pending():
            cands = hooks.candidates(state.view(d.seat), d)
            assert cands and set(cands) <= set(d.legal) and len(set(cands)) == len(cands)
            world = state.determinize(d.seat, random.Random(checked))
            world.quiet = True
            (same,) = [e for e in world.pending() if e.seat == d.seat]
            forced = hooks.forced(world, same)
            assert forced is None or forced in same.legal
            checked += 1
    assert checked > 15


def test_sfdbg_searches_only_buys_and_ending_the_turn() -> None:
    game = get_game("sfdbg")
    hooks = search_hooks(game, {})
    searched = 0
    for state in _positions("sfdbg", seed=5, steps=1):
        (d,) = state.pending()
        cands = hooks.candidates(state.view(d.seat), d)
        if len(cands) > 1:
            searched += 1
            assert d.kind == "turn" and "end" in cands
            assert all(c == "end" or c.startswith("buy:") for c in cands)
    assert searched > 5


class _Spy(SearchHooks):
    """Hooks that record every state and view they are handed."""

    def __init__(self, inner: SearchHooks) -> None:
        self.inner = inner
        self.levels = {TINY: dataclasses.replace(inner.levels[DEFAULT_LEVEL], iterations=10)}
        self.states: list[State] = []
        self.views: list[Mapping[str, Any]] = []

    def candidates(self, view: Mapping[str, Any], decision: Decision) -> tuple[str, ...]:
        self.views.append(view)
        return self.inner.candidates(view, decision)

    def forced(self, state: State, decision: Decision) -> str | None:
        self.states.append(state)
        return self.inner.forced(state, decision)

    def rollout(self, state: State, rng: random.Random) -> tuple[float, ...]:
        self.states.append(state)
        return self.inner.rollout(state, rng)


@pytest.mark.parametrize("game_id", HOOKED)
def test_hooks_never_get_the_true_state(game_id: str) -> None:
    """Everything the hooks see is a view or a state derived from a determinisation the
    sampler made (tagged; paired sweeps play clones of it) — never the true state — and
    some determinisation differs from the truth in what the deciding seat cannot see."""
    game = get_game(game_id)
    spy = _Spy(search_hooks(game, {}))
    differs = 0
    for truth in _positions(game_id, seed=8, steps=7)[2:6]:
        d = truth.pending()[0]
        worlds: list[State] = []

        def sample(
            rng: random.Random, truth: State = truth, seat: int = d.seat, out: list[State] = worlds
        ) -> State:
            world = truth.determinize(seat, rng)
            world.spy_sampled = True  # type: ignore[attr-defined]
            out.append(world)
            return world

        agent = ISMCTSAgent(d.seat, 1, TINY, spy)
        spy.states.clear()
        choice = agent.choose_with(truth.view(d.seat), d, sample)
        assert choice in d.legal
        assert all(s is not truth for s in spy.states)
        assert all(getattr(s, "spy_sampled", False) for s in spy.states)
        assert not hasattr(truth, "spy_sampled")
        other = 1 - d.seat
        differs += sum(w.view(other) != truth.view(other) for w in worlds)
    assert differs


@pytest.mark.parametrize("game_id", HOOKED)
def test_search_is_reproducible_from_the_seed(game_id: str) -> None:
    game = get_game(game_id)
    hooks = _hooks(game, {}, iterations=12)
    for state in _positions(game_id, seed=11, steps=9)[1:4]:
        d = state.pending()[0]
        picks = {decide(ISMCTSAgent(d.seat, 7, TINY, hooks), state, d) for _ in range(2)}
        assert len(picks) == 1


@pytest.mark.parametrize("game_id", HOOKED)
def test_small_budget_game_against_greedy(game_id: str) -> None:
    """A whole game of the searching agent (tiny budget) against greedy ends normally."""
    game = get_game(game_id)
    state = game.new_state(21, {})
    state.quiet = True
    hooks = _hooks(game, state.options_json, iterations=4)
    agents = [
        ISMCTSAgent(0, 5, TINY, hooks),
        make_agent("greedy", game, state.options_json, 1, 6),
    ]
    outcome = run_game(state, agents)
    assert outcome is state.outcome
    assert len(outcome.returns) == 2


def test_rivales_rollout_stops_at_the_end_of_the_round() -> None:
    """The Rivales rollout plays one round and values the fight from rounds won."""
    (state, *_) = _positions("rivales", seed=2, steps=1000)
    hooks = RivalesHooks()
    world = state.determinize(0, random.Random(0))
    world.quiet = True
    start: Any = world.round
    values = hooks.rollout(world, random.Random(1))
    after: Any = world
    assert after.round != start or after.outcome is not None
    assert len(values) == 2 and values[0] == -values[1]
    assert -1.0 <= values[0] <= 1.0


def test_rivales_match_value() -> None:
    assert match_value(2, 0, 2) == 1.0
    assert match_value(0, 2, 2) == -1.0
    assert match_value(1, 0, 2) == 0.5
    assert match_value(0, 0, 2) == 0.0


def test_sfdbg_evaluation_favours_the_player_ahead() -> None:
    game = get_game("sfdbg")
    hooks = search_hooks(game, {})
    assert isinstance(hooks, SFDBGHooks)
    state = game.new_state(4, {})
    state.quiet = True
    agents = [RandomAgent(1), RandomAgent(2)]
    for _ in range(60):
        state.apply({d.seat: decide(agents[d.seat], state, d) for d in state.pending()})
    st: Any = state
    stage = st.catalog.stages[0].index
    st.discard[0] += [stage] * 3  # three defeated Stages: VP for seat 0
    a, b = hooks.evaluate(st)
    assert a > 0 > b and a == -b
