"""Rivales bots: legal choices from their own view only; greedy beats random; a greedy bot
can be a teammate in 2vs2; bots are reproducible."""

from __future__ import annotations

import math

import pytest

from kumite.agents import RandomAgent, make_agent, run_game
from kumite.agents.base import decide
from kumite.games.rivales.bots.greedy import card_value
from tests.games.rivales.helpers import CATALOG, GAME, position


def wilson_lower(wins: float, n: int, z: float = 1.96) -> float:
    p = wins / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - margin) / (1 + z * z / n)


class Spy:
    """Wraps an agent and checks what it is given and what it answers."""

    def __init__(self, inner):
        self.inner = inner
        self.name = inner.name
        self.kinds = set()

    def choose(self, view, decision):
        assert view["seat"] == decision.seat
        for p in view["players"]:
            if p["seat"] != decision.seat:
                assert "hand" not in p and "marker" not in p
        self.kinds.add(decision.kind)
        choice = self.inner.choose(view, decision)
        assert choice in decision.legal
        return choice


@pytest.mark.parametrize("mode", ["1v1", "2v2"])
def test_bots_choose_legal_moves_from_their_own_view(mode):
    kinds = set()
    for seed in range(4 if mode == "2v2" else 8):
        state = GAME.new_state(seed, {"mode": mode})
        spies = [
            Spy(make_agent("greedy" if s % 2 == 0 else "random", GAME, {"mode": mode}, s, seed))
            for s in state.seats
        ]
        run_game(state, spies)
        for spy in spies[::2]:
            kinds |= spy.kinds
    assert {"fighter", "marker", "play", "boost"} <= kinds
    if mode == "2v2":
        assert {"zones", "zone-order"} <= kinds


def test_greedy_beats_random_with_95_percent_confidence():
    score, n = 0.0, 50
    for seed in range(n):
        seat = seed % 2
        agents = [make_agent("greedy", GAME, {}, seat, seed), RandomAgent(seed)]
        if seat:
            agents.reverse()
        outcome = run_game(GAME.new_state(seed), agents)
        score += (outcome.returns[seat] + 1) / 2
    assert wilson_lower(score, n) > 0.5


def test_a_greedy_teammate_and_a_greedy_team_beat_random_play_in_2v2():
    score, n = 0.0, 10
    for seed in range(n):
        team = seed % 2
        agents = [
            make_agent("greedy", GAME, {"mode": "2v2"}, s, seed)
            if s // 2 == team
            else RandomAgent(seed + s)
            for s in range(4)
        ]
        outcome = run_game(GAME.new_state(seed, {"mode": "2v2"}), agents)
        score += (outcome.returns[team * 2] + 1) / 2
    assert score / n >= 0.7


def test_greedy_is_reproducible_from_its_seed():
    def play(seed):
        state = GAME.new_state(seed)
        run_game(
            state,
            [make_agent("greedy", GAME, {}, 0, seed), make_agent("greedy", GAME, {}, 1, seed + 1)],
        )
        return state.history

    assert play(11) == play(11)


def test_greedy_life_marker_is_its_least_valuable_card():
    state = GAME.new_state(2, {"fighters": ["zorro", "curie"]})
    bot = make_agent("greedy", GAME, state.options_json, 0, 0)
    decision = state.pending()[0]
    choice = bot.choose(state.view(0), decision)
    chosen = CATALOG.cards[choice.partition(":")[2]]
    assert card_value(chosen) == min(card_value(c) for c in state.hand[0])


def test_greedy_guards_against_a_ko():
    from tests.games.rivales.helpers import position

    life = CATALOG.fighters["curie"].life
    state = position(
        ["mulan", "curie"],
        lines=[[], ["v:golpe", "v:bloqueo"]],
        hands=[["furia"], ["salto"]],
        taken=[0, life - 1],
    )
    state.apply({0: "play:mulan.furia", 1: "play:curie.salto"})
    while state.pending()[0].kind == "boost":
        state.apply({d.seat: "boost:none" for d in state.pending()})
    (d,) = state.pending()
    bot = make_agent("greedy", GAME, state.options_json, 1, 0)
    assert bot.choose(state.view(1), d) == "guard:2"


@pytest.mark.parametrize("agent", ["greedy", "ismcts-easy"])
def test_bots_choose_the_order_of_the_zones(agent):
    """rv.ruling.zone-order: the greedy bot and the search bot answer the new decision."""
    state = position(
        ["zorro", "curie", "mulan", "darwin"],
        lines={(0, 0): ["golpe"], (1, 1): ["p4:v:golpe"]},
        hands=[["latigazo", "patada"], ["salto", "golpe"], ["espada", "golpe"], ["pinzon"]],
    )
    state.apply(
        {
            0: "play:zorro.latigazo",
            1: "play:curie.salto",
            2: "play:mulan.espada",
            3: "play:darwin.pinzon",
        }
    )
    (d,) = state.pending()
    assert d.kind == "zone-order"
    bot = make_agent(agent, GAME, state.options_json, d.seat, 3)
    assert decide(bot, state, d) in ("order:1", "order:2")
