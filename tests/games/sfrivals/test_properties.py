"""Invariants of SF Rivals over random games (Hypothesis, and thousands of seeded games):
every game ends, life stays in 0..10, no card is played more often than it exists, records
replay exactly, and no view or event sent to a seat reveals the opponent's hand or cover."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kumite.core.events import Event
from kumite.core.record import replay
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.state import SFRState

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "ultra_rule": st.sampled_from(["card", "power"]),
        "no_legal_card": st.sampled_from(["end-fight", "play-powerless"]),
        "swap": st.sampled_from(["current", "printed"]),
        "characters": st.lists(
            st.sampled_from(
                ["ryu", "ken", "zangief", "guile", "poison", "juri", "chunli", "dudley", None]
            ),
            min_size=2,
            max_size=2,
        ),
    },
)


def check_cards_conserved(state: SFRState) -> None:
    for seat in (0, 1):
        char = state.chars[seat]
        if char is None or not state.hands[seat]:
            continue
        count = Counter({c.id: state.hands[seat][c.index] for c in char.cards})
        count.update(c.id for c in state.played[seat])
        count.update([state.cover[seat].id, state.shown[seat].id])  # type: ignore[union-attr]
        assert +count == Counter({c.id: c.copies for c in char.cards})


def check_views_hide_hidden(state: SFRState) -> None:
    """A seat's view is the same whichever unseen card the opponent covered: the view
    cannot reveal the cover or the hand."""
    for seat in (0, 1):
        view = state.view(seat)
        opp = view["players"][1 - seat]
        assert "hand" not in opp
        assert "cover" not in opp
        json.dumps(view)  # plain JSON
        rng = random.Random(0)
        for _ in range(3):
            assert state.determinize(seat, rng).view(seat) == view
    spectator = state.view(None)
    assert all("hand" not in p and "cover" not in p for p in spectator["players"])


def check_events(state: SFRState, events: list[Event]) -> None:
    """Events a seat may see mention only cards that seat has seen."""
    for seat in (0, 1):
        visible = [e for e in events if e.visible_to(seat)]
        for e in visible:
            if e.kind == "CoverChosen":
                assert e.seat == seat
            if e.kind in ("CardRevealed", "CardShown"):
                owner = e.seat  # type: ignore[attr-defined]
                revealed = {c.id for c in state.played[owner]} | {state.shown[owner].id}
                assert e.card in revealed  # type: ignore[attr-defined]
            json.dumps(e.to_json())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), options=OPTIONS, data=st.data())
def test_random_games_keep_every_invariant(seed, options, data):
    state = GAME.new_state(seed, options)
    steps = 0
    while not state.is_terminal:
        choices = {d.seat: data.draw(st.sampled_from(d.legal)) for d in state.pending()}
        events = state.apply(choices)
        steps += 1
        assert steps <= GAME.info.max_decisions
        assert all(0 <= life <= 10 for life in state.lives)
        check_cards_conserved(state)
        check_views_hide_hidden(state)
        check_events(state, events)
    outcome = state.outcome
    assert outcome is not None
    assert sum(outcome.returns) == 0
    again = replay(state.to_record(), GAME)
    assert again.outcome == outcome
    assert again.view(None) == state.view(None)


def test_thousands_of_random_games_end_with_life_in_range():
    rng = random.Random(2026)
    ends: Counter[str] = Counter()
    for seed in range(3000):
        state = GAME.new_state(seed)
        state.quiet = True
        while not state.is_terminal:
            state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
            assert 0 <= state.lives[0] <= 10
            assert 0 <= state.lives[1] <= 10
        assert state.round - 1 <= 8
        assert state.outcome is not None
        ends[state.outcome.reason] += 1
    assert set(ends) <= {"KO", "double KO", "out of cards", "no playable card left"}
    assert ends["KO"] > 0
    assert ends["out of cards"] > 0


def test_quiet_and_loud_games_agree():
    """The quiet fast path (no events, memoised resolution) plays exactly the same game."""
    for seed in range(200):
        rng1, rng2 = random.Random(seed), random.Random(seed)
        loud, quiet = GAME.new_state(seed), GAME.new_state(seed)
        quiet.quiet = True
        while not loud.is_terminal:
            loud.apply({d.seat: rng1.choice(d.legal) for d in loud.pending()})
            quiet.apply({d.seat: rng2.choice(d.legal) for d in quiet.pending()})
            assert loud.lives == quiet.lives
            assert loud.carry == quiet.carry
        assert loud.outcome == quiet.outcome


def test_clone_is_independent():
    state = GAME.new_state(5, {"characters": ["ryu", "ken"]})
    state.apply({0: "setup:ryu.jab:ryu.hadouken", 1: "setup:ken.guard:ken.hadouken"})
    twin = state.clone()
    twin.apply({0: "play:ryu.shoryuken", 1: "play:ken.jigokusha"})
    assert state.round == 1
    assert sum(state.hands[0]) == 8
    assert state.played == [[], []]


def test_action_ids_round_trip_and_stay_in_range():
    rng = random.Random(1)
    for seed in range(50):
        state = GAME.new_state(seed)
        while not state.is_terminal:
            choices = {}
            for d in state.pending():
                actions = state.legal_actions(d.seat)
                assert all(0 <= a < GAME.info.num_actions for a in actions)
                assert [state.action_to_choice(d.seat, a) for a in actions] == list(d.legal)
                choices[d.seat] = rng.choice(actions)
            state.apply_action(choices)
