"""Information-set MCTS: generic over the game contract, view-only, and stronger than the
rule-based bot."""

from __future__ import annotations

import math
import random
import time
from typing import Self

import pytest

from kumite.agents import make_agent, run_game
from kumite.agents.base import decide
from kumite.agents.ismcts import LEVELS, ISMCTSAgent, untimed
from kumite.agents.registry import agent_names
from kumite.agents.search import MOVE_SECONDS, Level, SearchHooks, search_hooks
from kumite.core.registry import get_game
from kumite.games.sfrivals.game import GAME
from tests.core.toy import ToyGame, ToyState


class _DetToyState(ToyState):
    """The core test game, with the determinisation search needs: resample the other
    seat's hidden number."""

    def determinize(self, seat: int, rng: random.Random) -> Self:
        other = self.clone()
        other.numbers[1 - seat] = rng.randint(1, 6)
        return other


def _toy(numbers: tuple[int, int]) -> _DetToyState:
    state = _DetToyState(ToyGame(), 0, {})
    state.numbers = list(numbers)
    return state


def test_registered_for_every_game() -> None:
    for name in ("ismcts", "ismcts-easy", "ismcts-hard", "ismcts-expert"):
        assert name in agent_names("sfrivals")
        assert name in agent_names("any-other-game")


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown ismcts level"):
        ISMCTSAgent(0, 0, "godlike")


def test_generic_game_calls_with_the_best_hand() -> None:
    """In the core toy game, seat 0 holding 6 must call (folding always loses)."""
    state = _toy((6, 3))
    state.apply({0: "raise", 1: "stay"})
    agent = ISMCTSAgent(0, seed=1)
    assert decide(agent, state, state.pending()[0]) == "call"


def test_choice_depends_only_on_the_view() -> None:
    """Two worlds that differ only in the opponent's hidden number look the same to seat 0:
    the agent must choose the same (it sees determinisations, never the state)."""
    picks = set()
    for hidden in (1, 6):
        state = _toy((3, hidden))
        state.apply({0: "raise", 1: "raise"})
        picks.add(decide(ISMCTSAgent(0, seed=4), state, state.pending()[0]))
    assert len(picks) == 1


def test_levels_set_the_budget() -> None:
    state = _toy((2, 5))
    agent = ISMCTSAgent(0, seed=0, level="easy")
    decide(agent, state, state.pending()[0])
    assert agent.last_iterations == LEVELS["easy"].iterations


def _wilson_lower(wins: int, n: int, z: float = 1.96) -> float:
    p = wins / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - margin) / (1 + z * z / n)


@pytest.mark.slow  # about 90 s on a quiet 2-core machine (24 games of ISMCTS)
def test_default_level_beats_greedy_in_sfrivals_with_95_percent_confidence() -> None:
    """ismcts (default level) against greedy, alternating seats, fixed seeds: the 95% Wilson
    interval of its share of the decisive fights lies above one half."""
    wins = losses = 0
    for seed in range(24):
        state = GAME.new_state(seed)
        state.quiet = True
        me = seed % 2
        # Untimed: the iteration cap alone, whatever the load of the machine running the tests.
        agents = [
            untimed(make_agent("ismcts", GAME, {}, s, 1000 + seed))
            if s == me
            else make_agent("greedy", GAME, {}, s, 1000 + seed)
            for s in (0, 1)
        ]
        outcome = run_game(state, agents)
        if not outcome.draw:
            wins += outcome.winners[0] == me
            losses += outcome.winners[0] != me
    assert _wilson_lower(wins, wins + losses) > 0.5, (wins, losses)


# -- anytime: a time limit and a caller's deadline ------------------------------------------


class _SlowToy(_DetToyState):
    """The toy game where every determinisation and clone takes ``PAUSE`` seconds (a slow
    game, or a loaded machine): each iteration of a search costs at least that."""

    PAUSE = 0.02

    def clone(self) -> Self:
        time.sleep(self.PAUSE)
        return super().clone()

    def determinize(self, seat: int, rng: random.Random) -> Self:
        time.sleep(self.PAUSE)
        return super().determinize(seat, rng)


def _hooks(level: Level) -> SearchHooks:
    hooks = SearchHooks()
    hooks.levels = {"slow": level}
    return hooks


def _raised() -> _SlowToy:
    state = _SlowToy(ToyGame(), 0, {})
    state.numbers = [4, 2]
    state.apply({0: "raise", 1: "raise"})
    return state


def test_a_level_s_time_limit_stops_the_search_with_its_best_move_so_far() -> None:
    """Iteration cap and time limit, whichever comes first (issue 19, bots on time)."""
    state = _raised()
    agent = ISMCTSAgent(0, 1, "slow", _hooks(Level(iterations=10_000, seconds=0.15)))
    started = time.monotonic()
    choice = decide(agent, state, state.pending()[0])
    took = time.monotonic() - started
    assert choice in ("call", "fold")
    assert 1 <= agent.last_iterations < 10_000
    assert took < 0.15 + 0.1  # at most one 0.02 s iteration past the limit, plus slack


def test_a_caller_s_deadline_is_honoured_once() -> None:
    """``deadline`` (a monotonic time, e.g. when the table asked for the move) cuts a search
    with no time limit of its own; the next move has the level's budget again."""
    state = _raised()
    agent = ISMCTSAgent(0, 1, "slow", _hooks(Level(iterations=40, seconds=None)))
    agent.deadline = time.monotonic() + 0.1
    decide(agent, state, state.pending()[0])
    assert 1 <= agent.last_iterations < 40
    assert agent.deadline is None
    decide(agent, state, state.pending()[0])
    assert agent.last_iterations == 40


def test_a_paired_sweep_cut_short_is_dropped() -> None:
    """Paired sweeps compare candidates on the same worlds: a sweep the deadline interrupts
    is not counted, so with no complete sweep the first candidate (the game's own
    preference) is played."""
    state = _raised()
    agent = ISMCTSAgent(0, 1, "slow", _hooks(Level(iterations=100, seconds=0.03, paired=True)))
    decision = state.pending()[0]
    assert decide(agent, state, decision) == decision.legal[0]
    assert agent.last_iterations == 1  # the first sweep's world and one candidate took 0.04 s


def test_every_level_but_expert_has_an_iteration_cap_and_a_move_time_limit() -> None:
    """At the web table every level but ``expert`` answers within a second."""
    for game_id in ("sfrivals", "rivales", "sfdbg"):
        game = get_game(game_id)
        for name, level in search_hooks(game, {}).levels.items():
            if name == "expert":
                continue
            assert level.iterations < 100_000, (game_id, name)
            assert level.seconds is not None and level.seconds <= MOVE_SECONDS < 1.0


def test_untimed_replays_the_iteration_cap_whatever_the_load() -> None:
    state = _raised()
    agent = untimed(ISMCTSAgent(0, 1, "slow", _hooks(Level(iterations=6, seconds=0.001))))
    decide(agent, state, state.pending()[0])
    assert agent.last_iterations == 6


def test_untimed_leaves_other_agents_as_they_are() -> None:
    greedy = make_agent("greedy", GAME, {}, 0, 1)
    assert untimed(greedy) is greedy and not hasattr(greedy, "level")
