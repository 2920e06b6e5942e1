"""Hypothesis properties over random 2-5 player games (DESIGN §6).

Every game ends; all 221 cards are conserved across zones at every step; each seat's VP is
recomputable from its final deck; no seat's view holds another seat's hand or any deck
order; illegal and out-of-turn choices are rejected with the state unchanged.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kumite.core.errors import ChoiceError
from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.scoring import deck_vp
from kumite.games.sfdbg.turn import owned

CATALOG = GAME.catalog()
ALL_CARDS = Counter({c.index: c.copies for c in CATALOG.cards})
games = st.tuples(
    st.integers(0, 2**31),
    st.integers(2, 5),
    st.sampled_from(["standard", "high-powered", "secret-heroes"]),
    st.integers(2, 10),
)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def new_game(seed: int, players: int, variant: str, rounds: int):
    return GAME.new_state(seed, {"players": players, "variant": variant, "round_limit": rounds})


def hidden_leaks(state, seat: int) -> list[str]:
    """What ``seat``'s view shows that it must not: other hands, any deck's contents."""
    view = state.view(seat)
    leaks = []
    for entry in view["players"]:
        if entry["seat"] != seat and "hand" in entry:
            leaks.append(f"hand of seat {entry['seat']}")
        if "deck" in entry:
            leaks.append(f"deck of seat {entry['seat']}")
    for d in view["pending"]:
        if d["seat"] != seat and "legal" in d:
            leaks.append("another seat's legal choices")
    return leaks


@SETTINGS
@given(games)
def test_random_games_end_conserve_cards_and_hide_what_they_must(game):
    seed, players, variant, rounds = game
    state = new_game(seed, players, variant, rounds)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal:
        assert state.census() == ALL_CARDS, f"step {steps}"
        assert state.power >= 0 and len(state.lineup) == 5
        for seat in range(players):
            assert not Counter(state.revealed[seat]) - Counter(state.hand[seat])
        (decision,) = state.pending()
        if steps % 7 == 0:
            for seat in range(players):
                assert not hidden_leaks(state, seat)
            json.dumps(state.view(None))  # plain JSON
        state.apply({decision.seat: rng.choice(decision.legal)})
        steps += 1
        assert steps < GAME.info.max_decisions
    assert state.census() == ALL_CARDS
    outcome = state.outcome
    assert outcome is not None and state.pending() == ()
    for seat in range(players):
        assert outcome.detail["vp"][seat] == deck_vp(CATALOG, owned(state, seat))
        assert state.view(None)["players"][seat]["vp"] == outcome.detail["vp"][seat]
    assert set(outcome.winners) <= set(range(players)) and outcome.winners


@SETTINGS
@given(games, st.integers(0, 400))
def test_determinized_states_look_the_same_to_their_seat(game, stop):
    """A determinisation resamples only what the seat cannot see: its view is unchanged, and
    every card is still somewhere."""
    seed, players, variant, rounds = game
    state = new_game(seed, players, variant, rounds)
    rng = random.Random(seed)
    for _ in range(stop):
        if state.is_terminal:
            break
        (decision,) = state.pending()
        state.apply({decision.seat: rng.choice(decision.legal)})
    for seat in range(players):
        sample = state.determinize(seat, random.Random(seed + seat))
        assert sample.view(seat) == state.view(seat)
        assert sample.census() == ALL_CARDS
        assert sample.hand[seat] == state.hand[seat]
        assert sorted(sample.deck[seat]) == sorted(state.deck[seat])


@SETTINGS
@given(games, st.integers(0, 300), st.text(max_size=12))
def test_illegal_and_out_of_turn_choices_change_nothing(game, stop, junk):
    seed, players, variant, rounds = game
    state = new_game(seed, players, variant, rounds)
    rng = random.Random(seed)
    for _ in range(stop):
        if state.is_terminal:
            return
        (decision,) = state.pending()
        state.apply({decision.seat: rng.choice(decision.legal)})
    if state.is_terminal:
        return
    (decision,) = state.pending()
    before = snapshot(state)
    other = (decision.seat + 1) % players
    bad = [
        {other: decision.legal[0]},
        {decision.seat: junk if junk not in decision.legal else "\x00"},
        {decision.seat: "play:no-such-card"},
        {decision.seat: 3},
        {decision.seat: decision.legal[0], other: decision.legal[0]},
    ]
    for choices in bad:
        with pytest.raises(ChoiceError):
            state.apply(choices)
        assert snapshot(state) == before


def snapshot(state):
    return (
        json.dumps(state.view(None), sort_keys=True),
        repr(state.hand),
        repr(state.deck),
        repr(state.stack),
        repr(state.request),
        len(state.history),
        state.rng.getstate(),
    )
