"""Invariants of Rivales over random 1vs1 and 2vs2 fights (Hypothesis and seeded games):
every fight ends, cards are conserved, life and energy never go negative, records replay
exactly, and no view or event sent to a seat reveals hands, decks, life markers or cards
played face down."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kumite.core.events import Event
from kumite.core.record import replay
from kumite.games.rivales.game import GAME
from kumite.games.rivales.lines import HIDDEN
from kumite.games.rivales.state import RivalesState
from tests.games.rivales.helpers import clash, position

FIGHTERS = ["zorro", "curie", "mulan", "darwin", "hansel-gretel", "sombrerero"]
RULINGS = {
    "clash_winner": st.sampled_from(["damage", "attacker"]),
    "max_combo_card": st.sampled_from(["energy", "exhausted"]),
    "max_combo_cut": st.sampled_from(["holds", "while-down"]),
    "final_round_zones": st.sampled_from(["in-order", "together"]),
    "pinzas": st.sampled_from(["zone", "facing"]),
    "final_round_limit": st.integers(1, 3),
}
OPTIONS_1V1 = st.fixed_dictionaries(
    {},
    optional={
        **RULINGS,
        "fighters": st.lists(st.sampled_from([*FIGHTERS, None]), min_size=2, max_size=2),
    },
)
OPTIONS_2V2 = st.fixed_dictionaries(
    {"mode": st.just("2v2")},
    optional={**RULINGS, "fighters": st.permutations(FIGHTERS).map(lambda p: p[:4])},
)


def check_cards_conserved(state: RivalesState) -> None:
    placed: list[Counter[str]] = [Counter() for _ in state.seats]
    for zone in state.lines:
        for line in zone:
            for slot in line:
                placed[slot.owner][slot.card.id] += 1
    for s in state.seats:
        fighter = state.fighters[s]
        if fighter is None or state.round == 0:
            continue
        count = placed[s]
        count.update(c.id for c in state.hand[s] + state.deck[s])
        for extra in (state.marker[s], state.ultra[s], state.ready[s]):
            if extra is not None:
                count[extra.id] += 1
        assert count == Counter(c.id for c in fighter.cards), (s, count)


def check_ranges(state: RivalesState) -> None:
    for s in state.seats:
        if state.fighters[s] is not None:
            assert 0 <= state.life(s) <= state.fighter(s).life
            assert state.taken[s] >= 0
    for zone in state.view(None)["zones"]:
        assert all(n >= 0 for n in zone["energy"] + zone["exhausted"])
    for fight in state.fights:
        if fight.stats is not None:
            assert all(v >= 0 for stats in fight.stats for v in stats)


def check_views_hide_hidden(state: RivalesState, rng: random.Random) -> None:
    """A seat's view is the same whatever the hidden cards are (a resampled copy gives the
    same view), and never holds another seat's hand or life marker."""
    for seat in state.seats:
        view = state.view(seat)
        for p in view["players"]:
            if p["seat"] != seat:
                assert "hand" not in p and "marker" not in p
        for zone in view["zones"]:
            for line in zone["lines"]:
                for slot in line:
                    if slot["side"] == "hidden":  # a seat sees only its own card
                        assert (slot["card"] is None) == (slot["owner"] != seat)
        json.dumps(view)
        assert state.determinize(seat, rng).view(seat) == view
    spectator = state.view(None)
    assert all("hand" not in p and "known_hand" not in p for p in spectator["players"])


def check_events(state: RivalesState, events: list[Event]) -> None:
    """Private events go to their owner only; public twins name no hidden card."""
    for e in events:
        json.dumps(e.to_json())
        kind = e.kind
        if kind in ("CardsDrawn", "LifeMarkerChosen"):
            if e.to is None:
                assert getattr(e, "card", None) is None and not getattr(e, "cards", ())
            else:
                assert e.to == frozenset({e.seat})  # type: ignore[attr-defined]
        if kind == "HandShown":
            if e.to is None:
                assert e.cards == ()  # type: ignore[attr-defined]
            else:
                assert e.to == frozenset({e.to_seat})  # type: ignore[attr-defined]
        if kind == "CardPlayed" and e.card is not None:  # type: ignore[attr-defined]
            assert e.rule == "rv.dodge"


def run(state: RivalesState, data: st.DataObject, check_views_every: int) -> None:
    rng = random.Random(0)
    steps = 0
    while not state.is_terminal:
        choices = {d.seat: data.draw(st.sampled_from(d.legal)) for d in state.pending()}
        events = state.apply(choices)
        steps += 1
        assert steps <= GAME.info.max_decisions
        check_cards_conserved(state)
        check_ranges(state)
        check_events(state, events)
        if steps % check_views_every == 0:
            check_views_hide_hidden(state, rng)
    outcome = state.outcome
    assert outcome is not None
    assert outcome.draw or len(outcome.winners) == state.seat_count // 2
    assert len(outcome.detail["rounds_won"]) == 2
    again = replay(state.to_record(), GAME)
    assert again.outcome == outcome
    assert again.view(None) == state.view(None)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), options=OPTIONS_1V1, data=st.data())
def test_random_1v1_fights_keep_every_invariant(seed, options, data):
    run(GAME.new_state(seed, options), data, check_views_every=3)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), options=OPTIONS_2V2, data=st.data())
def test_random_2v2_fights_keep_every_invariant(seed, options, data):
    run(GAME.new_state(seed, options), data, check_views_every=5)


def test_thousands_of_random_fights_end_and_use_every_ending():
    rng = random.Random(2026)
    reasons: Counter[str] = Counter()
    for seed in range(1500):
        mode = "2v2" if seed % 5 == 0 else "1v1"
        state = GAME.new_state(seed, {"mode": mode})
        state.quiet = True
        while not state.is_terminal:
            state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
        assert state.outcome is not None
        reasons[state.outcome.rule] += 1
    assert reasons["rv.end.match"] > 0
    assert reasons["rv.end.final-round"] > 0


def test_quiet_and_loud_fights_agree():
    """The quiet fast path (no events) plays exactly the same fight."""
    for seed in range(60):
        options = {"mode": "2v2" if seed % 3 == 0 else "1v1"}
        rng1, rng2 = random.Random(seed), random.Random(seed)
        loud, quiet = GAME.new_state(seed, options), GAME.new_state(seed, options)
        quiet.quiet = True
        while not loud.is_terminal:
            loud.apply({d.seat: rng1.choice(d.legal) for d in loud.pending()})
            quiet.apply({d.seat: rng2.choice(d.legal) for d in quiet.pending()})
            assert loud.view(None) == quiet.view(None)
        assert loud.outcome == quiet.outcome


def test_clone_is_independent():
    rng = random.Random(4)
    state = GAME.new_state(9, {"mode": "2v2"})
    for _ in range(30):
        state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
    before = json.dumps(state.view(None), sort_keys=True)
    twin = state.clone()
    while not twin.is_terminal:
        twin.apply({d.seat: rng.choice(d.legal) for d in twin.pending()})
    assert json.dumps(state.view(None), sort_keys=True) == before


def test_action_ids_round_trip_and_stay_in_range():
    rng = random.Random(1)
    for seed in range(40):
        state = GAME.new_state(seed, {"mode": "2v2" if seed % 2 else "1v1"})
        while not state.is_terminal:
            choices = {}
            for d in state.pending():
                actions = state.legal_actions(d.seat)
                assert all(0 <= a < GAME.info.num_actions for a in actions)
                assert len(set(actions)) == len(actions)
                assert [state.action_to_choice(d.seat, a) for a in actions] == list(d.legal)
                choices[d.seat] = rng.choice(actions)
            state.apply_action(choices)


def test_determinize_keeps_the_seats_own_knowledge_and_resamples_the_rest():
    rng = random.Random(3)
    state = GAME.new_state(11, {"fighters": ["sombrerero", "zorro"]})
    state.apply({d.seat: d.legal[0] for d in state.pending()})
    seen = set()
    for _ in range(20):
        other = state.determinize(0, rng)
        assert [c.id for c in other.hand[0]] == [c.id for c in state.hand[0]]
        assert other.marker[0] is state.marker[0]
        seen.add(tuple(c.id for c in other.hand[1]))
        check_cards_conserved(other)
    assert len(seen) > 1


def test_determinize_resamples_a_card_played_face_down():
    state = GAME.new_state(2, {"fighters": ["zorro", "curie"]})
    rng = random.Random(0)
    while not any(s.side == HIDDEN for zone in state.lines for line in zone for s in line):
        state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
        if state.is_terminal:  # pragma: no cover - a hidden card appears with energy
            return
    hidden = {state.determinize(0, rng).lines[0][1][-1].card.id for _ in range(30)}
    assert len(hidden) > 1


def test_fork_shares_only_what_never_changes_and_copies_the_rest():
    """A fork has every field of its original, the engine's and the contract's: the shared
    ones are the same objects, the copied ones equal but independent."""
    from kumite.games.rivales.engine import COPIED, SHARED, Engine
    from kumite.games.rivales.state import RivalesState

    rng = random.Random(8)
    state = GAME.new_state(21, {})
    for _ in range(12):
        state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
    other = state.fork()
    # compiled, Engine is a native class: its fields are listed in __mypyc_attrs__
    fields = getattr(Engine, "__slots__", None) or Engine.__mypyc_attrs__
    assert set(SHARED) | set(COPIED) == set(fields) - {"__dict__"}
    shared = (*SHARED, "game", "seed")
    copied = (*COPIED, "history", "_opening")
    assert set(shared) | set(copied) == set(SHARED) | set(COPIED) | set(RivalesState.__slots__)
    for name in shared:
        assert getattr(other, name) is getattr(state, name)
    for name in copied:
        value = getattr(state, name)
        if name not in ("fights", "lines"):  # their items compare by identity: see views
            assert getattr(other, name) == value
        assert getattr(other, name) is not value
    assert other.view(None) == state.view(None)


def _held(state, seat):
    cards = [c.id for c in state.hand[seat]]
    cards += [
        s.card.id
        for zone in state.lines
        for line in zone
        for s in line
        if s.owner == seat and s.side == HIDDEN
    ]
    return cards


def test_determinize__an_ultra_taken_into_hand_face_up_stays_in_that_hand():
    """rv.end.ultra: the ultra is taken from the table in view of everyone; resampling never
    moves it into the deck or under the life marker (it may be the card played face down)."""
    state = position(
        ["darwin", "zorro"],
        lines=[["v:golpe"], ["v:golpe"]],
        hands=[["pinzon", "patada"], ["la-marca", "estocada", "capa"]],
    )
    rng = random.Random(1)
    assert all("zorro.la-marca" in _held(state.determinize(0, rng), 1) for _ in range(40))
    state.apply({0: "play:darwin.pinzon", 1: "play:zorro.estocada"})  # both may boost now
    hidden = set()
    for _ in range(60):
        other = state.determinize(0, rng)
        assert "zorro.la-marca" in _held(other, 1)
        hidden.add(other.lines[0][1][-1].card.id)
        check_cards_conserved(other)
    assert "zorro.la-marca" in hidden and len(hidden) > 1


def test_view__a_hand_shown_by_lluvia_is_not_shortened_by_a_card_played_face_down():
    """rv.ruling.flipped-cards-known: a card played face down is hidden until the reveal;
    the hand Lluvia de Sombreros showed stays as it was seen, or the shortened list would
    name the card played."""
    state = position(
        ["sombrerero", "darwin"],
        lines=[["v:golpe"], ["v:golpe"]],
        hands=[["lluvia", "tetera", "liebre", "patada"], ["bloqueo", "pinzon"]],
    )
    clash(state, {0: "lluvia", 1: "bloqueo"})
    shown = state.view(1)["players"][0]["known_hand"]
    assert "sombrerero.tetera" in shown
    state.apply({0: "play:sombrerero.tetera", 1: "play:darwin.pinzon"})
    assert state.pending() and state.pending()[0].kind == "boost"  # before the reveal
    assert state.view(1)["players"][0]["known_hand"] == shown
    rng = random.Random(2)
    for _ in range(20):
        assert set(shown) <= set(_held(state.determinize(1, rng), 0))


def test_determinize__a_rival_bound_by_pinzas_de_mantis_played_a_non_basic_card():
    """Pinzas de Mantis: the rival may not play basic cards (it held a non-basic one), so
    the card it played face down is never resampled into a basic card."""
    state = position(
        ["mulan", "darwin"],
        lines=[["v:golpe"], ["v:patada"]],
        hands=[["pinzas", "espada"], ["bloqueo", "golpe", "pinzon"]],
    )
    clash(state, {0: "pinzas", 1: "bloqueo"})
    assert state.restricted == {1}
    state.apply({0: "play:mulan.espada", 1: "play:darwin.pinzon"})
    assert state.pending()[0].kind == "boost"
    rng = random.Random(3)
    played = {state.determinize(0, rng).lines[0][1][-1].card for _ in range(60)}
    assert len(played) > 1 and not any(c.is_basic for c in played)
