"""Agents: one decision interface; bots choose legally and see only their own view."""

from __future__ import annotations

import math

import pytest

from kumite.agents import RandomAgent, UnknownAgentError, make_agent, run_game
from kumite.games.sfrivals.game import GAME


def wilson_lower(wins: float, n: int, z: float = 1.96) -> float:
    p = wins / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - margin) / (1 + z * z / n)


class Spy:
    """Wraps an agent and records the views it is given."""

    def __init__(self, inner):
        self.inner = inner
        self.name = inner.name
        self.views = []

    def choose(self, view, decision):
        self.views.append((view, decision))
        choice = self.inner.choose(view, decision)
        assert choice in decision.legal
        return choice


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_bots_choose_legal_moves_from_their_own_view(name):
    for seed in range(30):
        state = GAME.new_state(seed)
        spies = [Spy(make_agent(name, GAME, {}, s, seed)) for s in (0, 1)]
        run_game(state, spies)
        for seat, spy in enumerate(spies):
            for view, decision in spy.views:
                assert view["seat"] == seat == decision.seat
                opp = view["players"][1 - seat]
                assert "hand" not in opp
                assert "cover" not in opp


def test_greedy_beats_random_with_95_percent_confidence():
    score, n = 0.0, 400
    for seed in range(n):
        agents = [make_agent("greedy", GAME, {}, 0, seed), RandomAgent(seed)]
        greedy_seat = seed % 2
        if greedy_seat:
            agents.reverse()
        outcome = run_game(GAME.new_state(seed), agents)
        score += (outcome.returns[greedy_seat] + 1) / 2  # win 1, draw 1/2
    assert wilson_lower(score, n) > 0.5


def test_bots_are_reproducible_from_their_seed():
    def play(seed):
        state = GAME.new_state(seed)
        run_game(
            state,
            [make_agent("greedy", GAME, {}, 0, seed), make_agent("random", GAME, {}, 1, seed)],
        )
        return state.history

    assert play(11) == play(11)


def test_unknown_agent_is_a_clear_error():
    with pytest.raises(UnknownAgentError, match="no agent 'genius' for sfrivals"):
        make_agent("genius", GAME, {}, 0, 0)


def test_random_agent_draws_exactly_as_random_choice():
    """RandomAgent inlines ``Random.choice``: the same seed must give the same choices."""
    import random

    from kumite.core.game import Decision

    agent, reference = RandomAgent(7), random.Random(7)
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33] * 50:
        legal = tuple(str(i) for i in range(n))
        assert agent.choose({}, Decision(0, "turn", legal)) == reference.choice(legal)
