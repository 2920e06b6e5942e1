"""SF DBG beyond the conformance suite: illegal-choice reasons from the seat's own knowledge,
clones mid-attack and field by field, records of a variant, events of every variant."""

from __future__ import annotations

import random

import pytest

from kumite.core.errors import (
    IllegalChoiceError,
    MalformedChoiceError,
    NotPendingError,
)
from kumite.core.record import GameRecord, replay
from kumite.games.sfdbg.attack import Attack
from kumite.games.sfdbg.engine import Ctx, Engine, Request
from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.state import SFDBGState
from tests.games.sfdbg.scenario import act, pending, position


def random_game(
    seed: int, players: int = 3, variant: str = "standard", rounds: int = 6, quiet=False
):
    state = GAME.new_state(seed, {"players": players, "variant": variant, "round_limit": rounds})
    state.quiet = quiet
    rng = random.Random(seed)
    events = []
    while not state.is_terminal:
        (d,) = state.pending()
        events += state.apply({d.seat: rng.choice(d.legal)})
    return state, events


def test_an_out_of_turn_choice_is_rejected():
    s = position(hands={0: ["punch"]})
    with pytest.raises(NotPendingError, match="seat 1"):
        s.apply({1: "end"})
    assert pending(s)[0] == 0


def test_an_illegal_choice_names_the_reason_from_the_seats_own_knowledge():
    s = position(hands={0: ["punch"]}, power=1)
    with pytest.raises(IllegalChoiceError, match="Hadoken is not in your hand"):
        s.apply({0: "play:hadoken"})
    with pytest.raises(IllegalChoiceError, match="a Kick costs 3; you have 1 Power"):
        s.apply({0: "buy:kick"})
    with pytest.raises(MalformedChoiceError, match="must be a string"):
        s.apply({0: 7})  # type: ignore[dict-item]


def test_an_illegal_defense_does_not_reveal_the_defenders_hand():
    s = position(hands={0: ["gill"], 1: ["sakura"]})
    act(s, "play:gill")
    with pytest.raises(NotPendingError) as info:
        s.apply({0: "defend:sakura"})
    assert "sakura" in str(info.value)  # only the choice as seat 0 sent it
    with pytest.raises(IllegalChoiceError) as info:
        s.apply({1: "defend:dash-straight"})
    assert "Sakura" not in str(info.value)


def test_a_clone_copies_every_field_and_shares_no_mutable_zone():
    """The engine's part of ``clone`` is written out field by field (so that it also works
    compiled): a field added to the engine and forgotten there is caught here."""
    state, _ = random_game(5, rounds=3)
    clone = state.clone()
    shell = SFDBGState(state.game, state.seed, state.opts, state.catalog, blank=True)
    shell.copy_from(state)
    declared = getattr(Engine, "__annotations__", {})
    if not declared:
        pytest.skip("compiled classes keep no annotations; the pure-Python run checks this")
    assert set(declared) <= set(vars(shell))
    fields = vars(state)
    assert set(vars(clone)) == set(fields)
    assert clone.rng is not state.rng and clone.rng.getstate() == state.rng.getstate()
    for name, value in fields.items():
        if name == "rng":
            continue
        copied = getattr(clone, name)
        assert copied == value, name
        if isinstance(value, list) and name != "setup_events":  # the set-up's, never changed
            assert copied is not value, name
            assert not any(
                isinstance(z, list) and z is c for z, c in zip(value, copied, strict=True)
            ), name


def test_clone_mid_attack_resumes_identically():
    s = position(players=3, hands={0: ["m-bison"], 1: ["kick", "punch"], 2: ["sakura"]})
    act(s, "play:m-bison")
    c = s.clone()
    for state in (s, c):
        act(state, "no-defense", "defend:sakura", "discard:kick")
    assert s.view(None) == c.view(None)


def test_a_record_replays_to_the_same_outcome():
    state, _ = random_game(5, players=4, variant="secret-heroes", rounds=5)
    record = GameRecord.from_json(state.to_record(players=["random"] * 4).to_json())
    again = replay(record, GAME)
    assert again.outcome == state.outcome
    assert again.view(None) == state.view(None)


def test_every_event_names_a_rule_of_the_index_and_describes_itself():
    rules = GAME.rules
    for seed, variant in [(7, "standard"), (8, "high-powered"), (9, "secret-heroes")]:
        state, events = random_game(seed, players=5, variant=variant, rounds=8)
        for event in [*state.setup_events, *events]:
            assert event.rule in rules, event
            assert event.describe()
            event.to_json()


def test_drawn_cards_are_private_with_a_public_twin():
    s = position(hands={0: ["yoga-teleport"]}, decks={0: ["seth"]})
    events = act(s, "play:yoga-teleport")
    drawn = [e for e in events if e.kind == "CardsDrawn"]
    assert [e.to for e in drawn] == [frozenset({0}), None]
    assert "Seth" in drawn[0].describe() and "Seth" not in drawn[1].describe()


def test_engine_records_make_changed_copies_and_stay_unchanged():
    """``Ctx``, ``Request`` and ``Attack`` (slotted classes with ``Final`` fields, docs/speed.md):
    ``aimed`` turns an effect on the attacker (``who: attacker``), ``revealing`` records a
    reaction, each a new record; the compiled build also refuses writes at run time."""
    ctx = Ctx(me=2, card=40, other=0, hero=3, named="cost:2", gift=7, trigger=9)
    turned = ctx.aimed(ctx.other, ctx.me)
    assert (turned.me, turned.other) == (0, 2)
    assert (turned.card, turned.hero, turned.named, turned.gift, turned.trigger) == (
        40,
        3,
        "cost:2",
        7,
        9,
    )
    assert (ctx.me, ctx.other) == (2, 0)
    assert repr(Ctx(1, 5)) == (
        "Ctx(me=1, card=5, other=None, hero=-1, named=None, gift=-1, trigger=-1)"
    )
    attack = Attack(attacker=1, card=12, hero=-1, effects=(), targets=(2, 3), unavoidable=(3,))
    seen = attack.revealing(30).revealing(31)
    assert seen.revealed == (30, 31) and attack.revealed == ()
    assert (seen.attacker, seen.card, seen.targets, seen.k) == (1, 12, (2, 3), 0)
    moved = seen.next_target(avoided=True)
    assert (moved.k, moved.avoided, moved.revealed, moved.unavoidable) == (1, (2,), (), (3,))
    assert "revealed=(30, 31)" in repr(seen)
    request = Request(0, "foe", (ctx,), True)
    assert (request.seat, request.kind, request.data, request.private) == (0, "foe", (ctx,), True)
    if type(vars(Ctx)["me"]).__name__ == "getset_descriptor":  # compiled: native fields
        for record, field in ((ctx, "me"), (attack, "k"), (request, "kind")):
            with pytest.raises(AttributeError):
                setattr(record, field, 1)
