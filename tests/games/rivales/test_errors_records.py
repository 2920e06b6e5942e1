"""Rivales beyond the conformance suite: its illegal-choice reasons (from the seat's own view),
rounds won in records, the rule index of cards and passives, events in JSON."""

from __future__ import annotations

import json
import random

import pytest

from kumite.core.errors import (
    IllegalChoiceError,
    MalformedChoiceError,
    MissingChoiceError,
    NotPendingError,
)
from kumite.core.record import GameRecord, replay
from tests.games.rivales.helpers import GAME, position


def snapshot(state):
    return json.dumps([state.view(s) for s in (None, *state.seats)], sort_keys=True), list(
        state.history
    )


@pytest.mark.parametrize(
    ("choices", "error", "words"),
    [
        ({0: "play:basic.golpe"}, MissingChoiceError, "seat 1"),
        (
            {0: "play:basic.esquiva", 1: "play:basic.golpe"},
            IllegalChoiceError,
            "Esquiva is not in your hand",
        ),
        ({0: "play:zorro.nothing", 1: "play:basic.golpe"}, IllegalChoiceError, "no such card"),
        (
            {0: "boost:both", 1: "play:basic.golpe"},
            IllegalChoiceError,
            "a play decision is pending",
        ),
        ({0: 7, 1: "play:basic.golpe"}, MalformedChoiceError, "must be a string"),
        ({0: "play:basic.golpe", 1: "play:basic.golpe", 2: "pass"}, NotPendingError, "seat 2"),
    ],
)
def test_bad_choices_raise_precisely_and_change_nothing(choices, error, words):
    state = position(["zorro", "curie"], hands=[["golpe", "patada"], ["golpe", "salto"]])
    before = snapshot(state)
    with pytest.raises(error, match=words):
        state.apply(choices)
    assert snapshot(state) == before


def test_an_illegal_choice_names_only_what_the_seat_may_know():
    state = position(["zorro", "curie"], hands=[["golpe", "patada"], ["golpe", "salto"]])
    with pytest.raises(IllegalChoiceError) as info:
        state.apply({0: "play:basic.golpe", 1: "play:curie.onda"})
    message = str(info.value)
    assert "seat 1" in message and "golpe" not in message.replace("'play:basic.golpe'", "")


@pytest.mark.parametrize("mode", ["1v1", "2v2"])
def test_a_record_replays_exactly_and_names_rounds_won(mode):
    rng = random.Random(8)
    state = GAME.new_state(8, {"mode": mode})
    while not state.is_terminal:
        state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
    record = GameRecord.from_json(state.to_record(players=["random"] * state.seat_count).to_json())
    assert record.pack["id"] == "rivales-base"
    assert record.outcome is not None and "rounds_won" in record.outcome
    again = replay(record, GAME)
    assert again.outcome == state.outcome


def test_rules_index_names_cards_and_passives():
    rules = GAME.rules
    assert rules["rv.card.zorro.la-marca"].startswith("La Marca:")
    assert rules["rv.fighter.curie"].startswith("Curie — Radiactividad:")
    assert "rv.2v2.adjust.sombrerero" in rules


@pytest.mark.parametrize("mode", ["1v1", "2v2"])
def test_every_event_keeps_its_kind_and_its_text_in_json(mode):
    """No event field may shadow the JSON form's ``type`` (the event kind) or ``text``: the
    web table and replays read them (a card's type is ``card_type``)."""
    state = GAME.new_state(4, {"mode": mode})
    rng = random.Random(4)
    kinds = set()
    while not state.is_terminal:
        for event in state.apply({d.seat: rng.choice(d.legal) for d in state.pending()}):
            data = event.to_json()
            assert (data["type"], data["text"]) == (event.kind, event.describe())
            kinds.add(event.kind)
    assert "CardRevealed" in kinds


def test_clone__a_fighter_chosen_in_a_copy_leaves_the_live_tables_names():
    """Issue 14: a copy shared its list of player names, so a bot's search wrote fighter
    names into the live table before anyone had chosen."""
    for mode in ("1v1", "2v2"):
        state = GAME.new_state(3, {"mode": mode})
        before = [p["who"] for p in state.view(None)["players"]]
        copy = state.clone()
        copy.apply({d.seat: d.legal[-1] for d in copy.pending()})
        assert [p["who"] for p in state.view(None)["players"]] == before
        assert state.who == [f"P{s + 1}" for s in state.seats]
        assert copy.who != state.who


def test_illegal_boost__says_what_the_level_costs_and_how_much_energy_there_is():
    """rv.energy.boost: x2 energies = +1 Speed; with 1 energy the refusal says so, not 'a
    boost decision is pending'."""
    state = position(["darwin", "curie"], lines=[["v:golpe"], []], hands=[["pinzon"], ["salto"]])
    state.apply({0: "play:darwin.pinzon", 1: "play:curie.salto"})
    before = snapshot(state)
    with pytest.raises(IllegalChoiceError) as info:
        state.apply({0: "boost:speed"})
    assert str(info.value) == (
        "seat 0: choice 'boost:speed' rejected: a Speed boost costs 2 energy; you have 1"
    )
    with pytest.raises(IllegalChoiceError, match="no boost level 'fast'"):
        state.apply({0: "boost:fast"})
    assert snapshot(state) == before


def test_illegal_life_marker__says_the_card_is_not_among_the_cards_drawn():
    """rv.setup.life-marker: the marker is one of the 5 cards drawn."""
    state = GAME.new_state(2, {"fighters": ["zorro", "curie"]})
    drawn = [c.removeprefix("marker:") for c in state.legal(0)]
    other = next(c.id for c in state.fighter(0).cards if c.id not in drawn)
    before = snapshot(state)
    with pytest.raises(IllegalChoiceError) as info:
        state.apply({0: f"marker:{other}", 1: state.legal(1)[0]})
    name = state.fighter(0).by_id[other].name
    assert str(info.value).endswith(
        f"rejected: {name} is not among the 5 cards you drew (the life marker is one of them)"
    )
    with pytest.raises(IllegalChoiceError, match="no such card for your fighter"):
        state.apply({0: "marker:zorro.nada", 1: state.legal(1)[0]})
    assert snapshot(state) == before


def test_illegal_guard__says_how_much_energy_can_be_exhausted():
    """rv.energy.guard: the defender exhausts at most the energy it has."""
    state = position(["darwin", "mulan"], lines=[["v:patada"], []], hands=[["golpe"], ["espada"]])
    state.apply({0: "play:basic.golpe", 1: "play:mulan.espada"})
    state.apply({0: "boost:none"})
    assert state.pending()[0].kind == "guard"
    with pytest.raises(IllegalChoiceError, match="you have 1 energy to exhaust for Guard"):
        state.apply({0: "guard:3"})


@pytest.mark.parametrize("action", [999, -1, GAME.info.num_actions, 10**9])
def test_unknown_action_id__is_a_one_line_choice_error(action):
    """A dense action id outside the game's range is refused as a malformed choice."""
    state = position(["zorro", "curie"], hands=[["golpe", "patada"], ["golpe", "salto"]])
    with pytest.raises(MalformedChoiceError) as info:
        state.action_to_choice(0, action)
    assert "\n" not in str(info.value) and f"action id {action}" in str(info.value)


def test_action_before_any_fighter_is_chosen__is_a_choice_error():
    state = GAME.new_state(1)
    with pytest.raises(MalformedChoiceError, match="no fighter yet"):
        state.action_to_choice(0, 26)
