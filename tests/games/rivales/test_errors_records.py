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
    record = GameRecord.from_json(state.to_record(players=["random"] * state.n).to_json())
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
