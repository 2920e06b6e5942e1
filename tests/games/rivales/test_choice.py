"""Rivales' typed choices (games/rivales/choice.py): the codec reads and writes every choice
the game asks for, refuses any other text with a precise reason, and the web table's decision
names what each choice targets on the table."""

from __future__ import annotations

import random

import pytest

from kumite.core.choice import ChoiceSyntaxError
from kumite.core.errors import MalformedChoiceError
from kumite.games.rivales.actions import NUM_ACTIONS
from kumite.games.rivales.choice import (
    PASS,
    Boost,
    CallZone,
    Count,
    Guard,
    Marker,
    Pass,
    Persona,
    Pick,
    PickFighter,
    Play,
    ZoneOrder,
    parse,
)
from kumite.games.rivales.game import GAME
from kumite.games.rivales.labels import labeler, target
from kumite.web.table import decision_json

#: The kinds of choice each kind of decision offers.
KINDS = {
    "fighter": {PickFighter},
    "marker": {Marker},
    "play": {Play},
    "zones": {CallZone},
    "zone-order": {ZoneOrder},
    "persona": {Persona},
    "boost": {Boost},
    "guard": {Guard},
    "dodge": {Pick},
    "flip-own-down": {Pick, Pass},
    "exchange-with-basic": {Pick, Pass},
    "flip-energy-up": {Count},
}


@pytest.mark.parametrize("mode", ["1v1", "2v2"])
def test_every_choice_of_random_fights_reads_back_as_itself(mode):
    """parse(c).format() == c, of a kind its decision asks for; and so does every action id's
    choice."""
    seen = set()
    for seed in range(12):
        state, rng = GAME.new_state(seed, {"mode": mode}), random.Random(seed)
        while not state.is_terminal:
            for d in state.pending():
                for c in d.legal:
                    typed = parse(c)
                    assert typed.format() == c
                    assert type(typed) in KINDS[d.kind], (d.kind, c)
                    action = state.choice_to_action(d.seat, c)
                    assert 0 <= action < NUM_ACTIONS
                    assert state.action_to_choice(d.seat, action) == c
                seen.add(d.kind)
            state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
    assert {"fighter", "marker", "play", "boost"} <= seen


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("zone:3", "no zone '3' (zones are 1 and 2)"),
        ("order:0", "no zone '0' (zones are 1 and 2)"),
        ("persona:hans", "no persona 'hans' (hansel or gretel)"),
        ("boost:all", "no boost level 'all' (none, damage, speed or both)"),
        ("guard:-1", "'-1' is not a whole number (write it guard:<n>)"),
        ("guard:01", "'01' is not a whole number (write it guard:<n>)"),
        ("pick:zorro.estocada", "write it pick:<seat>:<card>"),
        ("pick:x:zorro.estocada", "'x' is not a whole number (write it pick:<seat>:<card>)"),
        ("pass:now", "write it pass"),
    ],
)
def test_the_codec_refuses_other_text_with_the_reason(text, reason):
    with pytest.raises(ChoiceSyntaxError) as error:
        parse(text)
    assert error.value.reason == reason


def test_pass_written_out_is_the_pass_choice():
    assert Pass().format() == PASS and parse(PASS) == Pass()


def test_a_malformed_choice_is_explained_and_has_no_action_id():
    state = GAME.new_state(1)
    assert state.explain_illegal(0, "boost:all") == (
        "no boost level 'all' (none, damage, speed or both)"
    )
    with pytest.raises(MalformedChoiceError, match="no zone '3'"):
        state.choice_to_action(0, "zone:3")


def test_targets_name_the_hand_a_line_a_zone_or_a_fighter():
    """A dodge's pick is a card of the hand (left face up for the next clash); any other pick
    is a card in a zone's line, of the seat that played it."""
    assert target(Pick(1, "basic.golpe"), "dodge") == {"zone": "hand", "card": "basic.golpe"}
    assert target(Pick(1, "basic.golpe"), "flip-own-down") == {
        "zone": "line",
        "seat": 1,
        "card": "basic.golpe",
    }
    assert target(CallZone(2), "zones") == {"zone": "arena", "index": 1}
    assert target(ZoneOrder(1), "zone-order") == {"zone": "arena", "index": 0}
    assert target(PickFighter("zorro"), "fighter") == {"role": "zorro"}
    assert target(Marker("basic.golpe"), "marker") == {"zone": "hand", "card": "basic.golpe"}
    assert target(Boost("speed"), "boost") is None
    assert target(Pass(), "dodge") is None


def test_a_decision_carries_labels_verbs_and_targets():
    state = GAME.new_state(3, {"fighters": ["zorro", "curie"]})
    (d, _) = state.pending()
    message = decision_json(labeler(GAME, {}), state, d, state.view(0))
    assert d.kind == "marker"
    for c in message["choices"]:
        assert c["verb"] == "marker"
        assert c["target"] == {"zone": "hand", "card": Marker.parse(c["id"]).card}
        assert c["label"].startswith("Cover your life bar with ")
    assert "unplayable" not in message


def test_a_basic_card_pinzas_de_mantis_forbids_says_why():
    """Pinzas de Mantis: the bound rival's basic cards are greyed with the engine's reason."""
    from kumite.games.rivales.lookahead import clash, position

    state = position(
        ["mulan", "darwin"],
        lines=[["v:golpe"], ["v:patada"]],
        hands=[["pinzas", "espada"], ["bloqueo", "golpe", "pinzon"]],
    )
    clash(state, {0: "pinzas", 1: "bloqueo"})
    assert state.restricted == {1}
    (d,) = [d for d in state.pending() if d.seat == 1]
    message = decision_json(labeler(GAME, {}), state, d, state.view(1))
    assert {"zone": "hand", "card": "darwin.pinzon"} in [c["target"] for c in message["choices"]]
    assert message["unplayable"] == [
        {
            "id": "play:basic.golpe",
            "target": {"zone": "hand", "card": "basic.golpe"},
            "reason": "you may not play basic cards this clash (Pinzas de Mantis)",
        }
    ]
