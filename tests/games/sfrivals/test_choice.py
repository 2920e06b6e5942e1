"""SF Rivals' typed choices (games/sfrivals/choice.py): the codec reads and writes every
choice the game asks for, refuses any other text with a precise reason, and the web table's
decision names what each choice targets and why a card cannot be played."""

from __future__ import annotations

import random

import pytest

from kumite.core.choice import ChoiceSyntaxError
from kumite.core.errors import MalformedChoiceError
from kumite.games.sfrivals.choice import PickCharacter, Play, SetUp, parse
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.labels import labeler
from kumite.web.table import decision_json
from tests.games.sfrivals.scenario import position

CATALOG = GAME.catalog()


def test_every_choice_of_random_fights_and_every_set_up_reads_back_as_itself():
    """parse(c).format() == c, of the kind its decision asks for."""
    kinds = {"character": PickCharacter, "setup": SetUp, "play": Play, "play-first": Play}
    seen = set()
    for char in CATALOG.characters.values():
        for c in char.setup_choices:
            assert parse(c).format() == c
    for seed in range(20):
        state, rng = GAME.new_state(seed), random.Random(seed)
        while not state.is_terminal:
            for d in state.pending():
                for c in d.legal:
                    typed = parse(c)
                    assert typed.format() == str(typed) == c
                    assert type(typed) is kinds[d.kind]
                    seen.add(d.kind)
            state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
    assert seen == set(kinds)


def test_a_set_up_is_its_cover_then_its_shown_card():
    """sfr.setup.keep-eight: the cover goes face down on the life gauge, the other is shown."""
    setup = SetUp.parse("setup:ryu.guard:ryu.jab")
    assert (setup.cover, setup.shown) == ("ryu.guard", "ryu.jab")
    assert setup == SetUp("ryu.guard", "ryu.jab")
    assert hash(setup) == hash(SetUp("ryu.guard", "ryu.jab"))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("play", "write it play:<card>"),
        ("play:", "an empty part (write it play:<card>)"),
        ("play:ryu.jab:ryu.guard", "write it play:<card>"),
        ("setup:ryu.jab", "write it setup:<cover>:<shown>"),
        ("fight:ryu", "unknown verb 'fight' (one of: character, setup, play)"),
        ("", "unknown verb '' (one of: character, setup, play)"),
    ],
)
def test_the_codec_refuses_other_text_with_the_reason(text, reason):
    with pytest.raises(ChoiceSyntaxError) as error:
        parse(text)
    assert error.value.reason == reason
    assert str(error.value) == f"{text!r} is not a choice: {reason}"


def test_a_choice_of_another_kind_is_refused_by_name():
    with pytest.raises(ChoiceSyntaxError, match=r"not a play choice \(play:<card>\)"):
        Play.parse("character:ryu")


def test_a_malformed_choice_is_explained_and_has_no_action_id():
    state = position("ryu", "ken")
    assert state.explain_illegal(0, "play:ryu.jab:x") == "write it play:<card>"
    with pytest.raises(MalformedChoiceError, match="write it play:<card>"):
        state.choice_to_action(0, "play:ryu.jab:x")


def test_the_decision_targets_the_cards_and_says_why_an_ultra_waits():
    """sfr.layout.ultra-combo and sfr.layout.super-combo: the greyed cards of the hand carry
    the engine's reason, from the deciding seat's own view."""
    state = position("ryu", "ken")
    (d, _) = state.pending()
    message = decision_json(labeler(GAME, {}), state, d, state.view(0))
    assert message["choices"][0] == {
        "id": d.legal[0],
        "label": message["labels"][0],
        "verb": "play",
        "target": {"zone": "hand", "card": Play.parse(d.legal[0]).card},
    }
    assert message["labels"][0].startswith("Play ")
    why = {u["target"]["card"]: u["reason"] for u in message["unplayable"]}
    assert why == {
        "ryu.metsu-hadouken": (
            "an Ultra Combo can only be played when your life is 5 or under (you have 10)"
        ),
        "ryu.shinkuu-hadouken": "a Super Combo can only be played from round 5 (this is round 1)",
    }


def test_a_set_up_targets_its_two_cards_and_a_character_its_role():
    state = GAME.new_state(1)
    labels = labeler(GAME, {})
    (d, _) = state.pending()
    message = decision_json(labels, state, d, state.view(0))
    assert message["choices"][0]["target"] == {"role": PickCharacter.parse(d.legal[0]).character}
    assert message["choices"][0]["label"].startswith("Fight as ")
    state.apply({0: "character:ryu", 1: "character:ken"})
    (d, _) = state.pending()
    first = decision_json(labels, state, d, state.view(0))["choices"][0]
    setup = SetUp.parse(first["id"])
    assert first["target"] == {"zone": "hand", "cards": [setup.cover, setup.shown]}
    assert first["label"].startswith("Cover your life gauge with ")
