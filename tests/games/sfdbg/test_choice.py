"""SF DBG's typed choices (games/sfdbg/choice.py): the codec reads and writes every choice the
game can ask for, refuses any other text with a precise reason, and the web table's decision
names what each choice targets on the table."""

from __future__ import annotations

import pytest

from kumite.core.choice import ChoiceSyntaxError
from kumite.core.errors import MalformedChoiceError
from kumite.games.sfdbg import choice
from kumite.games.sfdbg.actions import vocabulary
from kumite.games.sfdbg.choice import (
    Buy,
    Destroy,
    Discard,
    End,
    Foe,
    Gain,
    Give,
    Name,
    Play,
    Under,
    parse,
)
from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.labels import labeler, target
from kumite.web.table import decision_json
from tests.games.sfdbg.scenario import position

CATALOG = GAME.catalog()


def test_every_choice_of_the_vocabulary_reads_back_as_itself():
    """The action ids' vocabulary holds every choice the game can ask for."""
    choices = vocabulary(CATALOG).choices
    assert [parse(c).format() for c in choices] == list(choices)
    assert len({parse(c) for c in choices}) == len(choices)


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("end", End()),
        ("play:punch", Play("punch")),
        ("buy:lineup:hadoken", Buy("lineup", "hadoken")),
        ("buy:kick", Buy("kick")),
        ("discard:none", Discard()),
        ("destroy:play:punch", Destroy("play", "punch")),
        ("gain:kick", Gain("kick")),
        ("gain:under:hadoken", Gain("hadoken", under=True)),
        ("give:none", Give()),
        ("under:main_top:hadoken", Under("main_top", "hadoken")),
        ("foe:3", Foe(3)),
        ("name:cost:0", Name("cost", "0")),
        ("name:type:Super Power", Name("type", "Super Power")),
    ],
)
def test_choices_read_as_values(text, typed):
    assert parse(text) == typed
    assert typed.format() == text


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("end:now", "write it end"),
        ("buy:kick:kick", "write it buy:lineup:<card>, buy:under:<card>, buy:kick or buy:ultra"),
        ("buy:lineup", "write it buy:lineup:<card>, buy:under:<card>, buy:kick or buy:ultra"),
        ("buy:deck:x", "no zone 'deck' here (lineup, under, kick or ultra)"),
        ("destroy:deck:punch", "no zone 'deck' here (hand, discard, play or lineup)"),
        ("bottom:none", "write it bottom:<zone>:<card>"),
        ("gain:over:hadoken", "no zone 'over' here (under)"),
        ("foe:one", "'one' is not a whole number (write it foe:<seat>)"),
        ("name:type:Robot", "no card type 'Robot' (Starter, Hero, Villain, Super Power, "
         "Equipment, Location, Ultra)"),
        ("name:colour:red", "write it name:type:<type> or name:cost:<n>"),
    ],
)  # fmt: skip
def test_the_codec_refuses_other_text_with_the_reason(text, reason):
    with pytest.raises(ChoiceSyntaxError) as error:
        parse(text)
    assert error.value.reason == reason


@pytest.mark.parametrize(
    ("constant", "typed"),
    [
        (choice.END, End()),
        (choice.CHALLENGE, choice.Challenge()),
        (choice.PLAY_POWER, choice.PlayPower()),
        (choice.NO_DEFENSE, choice.NoDefense()),
        (choice.YES, choice.Yes()),
        (choice.NO, choice.No()),
        (choice.BUY_KICK, Buy("kick")),
        (choice.BUY_ULTRA, Buy("ultra")),
        (choice.DISCARD_NONE, Discard()),
        (choice.DESTROY_NONE, Destroy()),
        (choice.UNDER_NONE, Under()),
        (choice.GAIN_NONE, Gain()),
        (choice.GIVE_NONE, Give()),
    ],
)
def test_the_written_out_constants_are_their_kinds_choices(constant, typed):
    assert typed.format() == constant
    assert parse(constant) == typed


def test_a_malformed_choice_is_explained_and_has_no_action_id():
    state = GAME.new_state(1)
    assert state.explain_illegal(state.pending()[0].seat, "buy:deck:x") == (
        "no zone 'deck' here (lineup, under, kick or ultra)"
    )
    with pytest.raises(MalformedChoiceError, match="no zone 'deck' here"):
        state.choice_to_action(0, "buy:deck:x")
    with pytest.raises(MalformedChoiceError, match="unknown choice"):
        state.choice_to_action(0, "play:no-such-card")


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("play:punch", {"zone": "hand", "card": "punch"}),
        ("defend:sakura", {"zone": "hand", "card": "sakura"}),
        ("take:japan", {"zone": "discard", "card": "japan"}),
        ("buy:lineup:juri", {"zone": "lineup", "card": "juri"}),
        ("buy:under:metsu-hadoken", {"zone": "under", "card": "metsu-hadoken"}),
        ("buy:kick", {"zone": "kick"}),
        ("buy:ultra", {"zone": "ultra"}),
        ("challenge", {"zone": "stage"}),
        ("gain:kick", {"zone": "kick"}),
        ("gain:juri", {"zone": "lineup", "card": "juri"}),
        ("destroy:play:gill", {"zone": "play", "card": "gill"}),
        ("under:main_top:seth", {"zone": "main_top", "card": "seth"}),
        ("foe:2", {"seat": 2}),
        ("end", None),
        ("destroy:none", None),
        ("name:cost:3", None),
    ],
)
def test_each_choice_targets_its_place_on_the_table(text, where):
    assert target(parse(text)) == where


def test_a_turn_decision_carries_labels_verbs_and_targets():
    s = position(hands={0: ["punch", "punch", "sakura"]}, line_up=["juri"], power=20)
    (d,) = s.pending()
    message = decision_json(labeler(GAME, {}), s, d, s.view(0))
    by_id = {c["id"]: c for c in message["choices"]}
    assert by_id["play:punch"] == {
        "id": "play:punch",
        "label": "Play Punch (×2)",
        "verb": "play",
        "target": {"zone": "hand", "card": "punch"},
    }
    assert by_id["buy:lineup:juri"]["target"] == {"zone": "lineup", "card": "juri"}
    assert by_id["end"] == {"id": "end", "label": "End your turn", "verb": "end", "target": None}
