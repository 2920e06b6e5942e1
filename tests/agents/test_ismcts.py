"""Information-set MCTS: generic over the game contract, view-only, and stronger than the
rule-based bot."""

from __future__ import annotations

import math
import random
from typing import Self

import pytest

from kumite.agents import make_agent, run_game
from kumite.agents.base import decide
from kumite.agents.ismcts import LEVELS, ISMCTSAgent
from kumite.agents.registry import agent_names
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


def test_default_level_beats_greedy_in_sfrivals_with_95_percent_confidence() -> None:
    """ismcts (default level) against greedy, alternating seats, fixed seeds: the 95% Wilson
    interval of its share of the decisive fights lies above one half."""
    wins = losses = 0
    for seed in range(8):
        state = GAME.new_state(seed)
        state.quiet = True
        me = seed % 2
        agents = [
            make_agent("ismcts" if s == me else "greedy", GAME, {}, s, 1000 + seed) for s in (0, 1)
        ]
        outcome = run_game(state, agents)
        if not outcome.draw:
            wins += outcome.winners[0] == me
            losses += outcome.winners[0] != me
    assert _wilson_lower(wins, wins + losses) > 0.5, (wins, losses)
