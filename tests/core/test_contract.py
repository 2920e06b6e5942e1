"""The game contract (DESIGN §2): pending decisions, validation, precise errors."""

from __future__ import annotations

import copy

import pytest

from kumite.core import (
    ChoiceError,
    GameOverError,
    IllegalChoiceError,
    MalformedChoiceError,
    MissingChoiceError,
    NotPendingError,
)
from tests.core.toy import GAME


def snapshot(state):  # the observable state
    return copy.deepcopy((state.stage, state.numbers, state.history, state.choices))


def test_simultaneous_decision_lists_every_pending_seat():
    state = GAME.new_state(1)
    assert [d.seat for d in state.pending()] == [0, 1]
    assert state.legal(0) == ("raise", "stay")


def test_sequential_decision_after_simultaneous_one():
    state = GAME.new_state(1)
    state.apply({0: "raise", 1: "stay"})
    assert [d.seat for d in state.pending()] == [0]
    assert state.legal(1) == ()


@pytest.mark.parametrize(
    ("choices", "error", "words"),
    [
        ({0: "raise"}, MissingChoiceError, "seat 1"),
        ({0: "raise", 1: "jump"}, IllegalChoiceError, "'jump'"),
        ({0: "raise", 1: 7}, MalformedChoiceError, "must be a string"),
        ({0: "raise", 1: "stay", 2: "stay"}, NotPendingError, "seat 2"),
        ({"0": "raise", 1: "stay"}, MalformedChoiceError, "not a seat number"),
        ([("raise")], MalformedChoiceError, "map seats"),
    ],
)
def test_bad_choices_raise_precise_errors_and_change_nothing(choices, error, words):
    state = GAME.new_state(3)
    before = snapshot(state)
    with pytest.raises(error) as info:
        state.apply(choices)
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)
    assert snapshot(state) == before


def test_out_of_turn_choice_is_rejected():
    state = GAME.new_state(1)
    state.apply({0: "raise", 1: "stay"})
    before = snapshot(state)
    with pytest.raises(NotPendingError, match="seat 1"):
        state.apply({1: "call"})
    assert snapshot(state) == before


def test_game_over_rejects_choices():
    state = GAME.new_state(1)
    state.apply({0: "stay", 1: "stay"})
    assert state.is_terminal
    with pytest.raises(GameOverError):
        state.apply({0: "call"})


def test_choice_error_names_seat_choice_and_reason():
    err = IllegalChoiceError(1, "play:x", "not in your hand")
    assert str(err) == "seat 1: choice 'play:x' rejected: not in your hand"
    assert isinstance(err, ChoiceError)


def test_seeded_chance_replays_and_clone_is_independent():
    a, b = GAME.new_state(42), GAME.new_state(42)
    assert a.numbers == b.numbers
    c = a.clone()
    c.apply({0: "raise", 1: "raise"})
    assert a.history == [] and a.stage == "bet"


def test_action_ids_round_trip():
    state = GAME.new_state(0)
    for seat in (0, 1):
        for action in state.legal_actions(seat):
            assert state.choice_to_action(seat, state.action_to_choice(seat, action)) == action
    state.apply_action({0: 0, 1: 1})
    assert state.history == [{0: "raise", 1: "stay"}]


def test_events_know_who_may_see_them():
    from kumite.core import visible_events
    from tests.core.toy import Dealt

    private = Dealt(rule="toy.deal", to=frozenset({0}), seat=0, number=5)
    public = Dealt(rule="toy.deal", seat=1, number=2)
    assert visible_events([private, public], 1) == [public]
    assert visible_events([private, public], None) == [public]
    assert visible_events([private, public], 0) == [private, public]
    data = private.to_json()
    assert data["type"] == "Dealt" and data["rule"] == "toy.deal" and data["to"] == [0]


def test_no_event_field_shadows_a_key_of_the_json_form():
    """Event.to_json adds type, rule, to and text; a field of the same name would be lost."""
    import dataclasses
    import importlib

    from kumite.core.events import RESERVED, Event
    from kumite.core.registry import game_ids

    for game_id in [g for g in game_ids() if g != "toy"]:  # kumite's own games
        importlib.import_module(f"kumite.games.{game_id}.events")
    seen, todo = set(), list(Event.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        todo.extend(cls.__subclasses__())
        own = {f.name for f in dataclasses.fields(cls)} - {"rule", "to"}
        assert not own & RESERVED, (cls.__name__, own & RESERVED)
    assert len(seen) > 30


def test_new_decision_is_the_same_frozen_decision():
    """``new_decision`` (slots set directly in pure Python, for simulation speed) makes
    exactly what ``Decision(...)`` makes: equal, same hash and repr, still frozen; and a
    ``Decision`` (a native class in the compiled build) behaves as the frozen dataclass it
    replaced: compared by value, immutable, picklable, matched by position."""
    import copy
    import dataclasses
    import pickle

    from kumite.core.decision import new_decision
    from kumite.core.game import Decision

    for args in [(0, "turn", ("a", "b"), "p"), (3, "defend", ("no-defense",), "")]:
        fast, slow = new_decision(*args), Decision(*args)
        assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
        assert repr(fast) == (
            f"Decision(seat={args[0]!r}, kind={args[1]!r}, legal={args[2]!r}, prompt={args[3]!r})"
        )
        assert pickle.loads(pickle.dumps(fast)) == fast == copy.deepcopy(fast)
        assert fast != Decision(args[0], args[1], (*args[2], "other"), args[3])
        assert fast != args  # not a tuple
        with pytest.raises(dataclasses.FrozenInstanceError):
            fast.seat = 1  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            del fast.kind  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            fast.extra = 1  # type: ignore[attr-defined]
        match fast:
            case Decision(seat, kind, legal, prompt):
                assert (seat, kind, legal, prompt) == args
    assert new_decision(1, "turn", ()).prompt == ""
