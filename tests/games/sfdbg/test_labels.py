"""Choice labels (shared by the terminal and the web table) and the public tally in views."""

from __future__ import annotations

import random

import pytest

from kumite.games.sfdbg.actions import vocabulary
from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.labels import choice_label, choice_labels
from tests.games.sfdbg.scenario import position

CATALOG = GAME.catalog()


def test_every_choice_the_game_can_ask_for_has_a_label_naming_its_card():
    view = GAME.new_state(1, {"players": 5}).view(0)
    for choice in vocabulary(CATALOG).choices:
        label = choice_label(choice, CATALOG, view)
        assert label and label != choice, choice
        card_id = choice.rsplit(":", 1)[-1]
        if card_id in CATALOG.by_id and choice != "buy:kick":
            assert CATALOG.by_id[card_id].name in label, choice


@pytest.mark.parametrize(
    ("choice", "label"),
    [
        ("play:hadoken", "Play Hadoken"),
        ("buy:lineup:hadoken", "Buy Hadoken from the Line-Up (cost 6)"),
        ("buy:kick", "Buy a Kick (cost 3)"),
        ("challenge", "Challenge the Stage Boss of Stage 1: USA (cost 7, 5 VP)"),
        ("defend:sakura", "Avoid the Attack with Sakura, then draw a card"),
        ("no-defense", "Don't avoid the Attack"),
        ("destroy:hand:punch", "Destroy Punch (×4) from your hand"),  # 4 Punches in hand
        ("destroy:play:punch", "Destroy Punch in play"),
        ("destroy:none", "Destroy nothing"),
        ("gain:kick", "Gain a Kick"),
        ("gain:under:hadoken", "Gain Hadoken from under your Super Hero"),
        ("bottom:discard:punch", "Put Punch from your discard pile on the bottom of the main deck"),
        ("name:cost:3", "Name the cost 3"),
        ("name:type:Hero", "Name the type Hero"),
        ("end", "End your turn"),
    ],
)
def test_labels_read_as_plain_english(choice, label):
    view = GAME.new_state(1, {"players": 2}).view(0)
    assert choice_label(choice, CATALOG, view) == label


def test_move_lists_show_the_copies_where_a_card_is_taken_from():
    """Card copies in move lists: "Punch (×3)" when three are where the choice takes one."""
    s = position(
        hands={0: ["punch", "punch", "punch", "sakura"]},
        discards={0: ["kick", "kick"]},
        played={0: ["gill", "gill"]},
        line_up=["juri", "juri", "seth", "rose", "japan"],
        stages=["hong-kong", "japan"],
        power=20,
    )
    view = s.view(0)
    assert choice_labels(
        [
            "play:punch",
            "play:sakura",
            "defend:sakura",
            "discard:punch",
            "buy:lineup:juri",
            "buy:lineup:seth",
            "destroy:discard:kick",
            "bottom:play:gill",
            "gain:juri",
            "challenge",
        ],
        CATALOG,
        view,
    ) == [
        "Play Punch (×3)",
        "Play Sakura",
        "Avoid the Attack with Sakura, then draw a card",
        "Discard Punch (×3)",
        "Buy Juri (×2) from the Line-Up (cost 2)",
        "Buy Seth from the Line-Up (cost 8)",
        "Destroy Kick (×2) from your discard pile",
        "Put Gill (×2) in play on the bottom of the main deck",
        "Gain Juri (×2) from the Line-Up",
        "Challenge the Stage Boss of Stage 2*: Hong Kong (cost 8, 6 VP)",  # 2-8: estimated
    ]


def test_a_foe_is_named_with_the_super_hero_its_chooser_can_see():
    view = GAME.new_state(2, {"players": 3, "heroes": ["ryu", "ken", "guile"]}).view(0)
    assert choice_labels(["foe:1", "foe:2"], CATALOG, view) == [
        "Player 2 (Ken)",
        "Player 3 (Guile)",
    ]
    secret = GAME.new_state(2, {"players": 3, "variant": "secret-heroes"}).view(0)
    assert choice_label("foe:1", CATALOG, secret) == "Player 2"  # still face down


def test_buying_from_under_your_super_hero_shows_the_discounted_cost():
    s = position(hands={0: ["punch"]}, under={0: ["hadoken"]})
    view = s.view(0)
    view["this_turn"]["under_discount"] = 2
    assert choice_label("buy:under:hadoken", CATALOG, view) == (
        "Buy Hadoken from under your Super Hero (cost 4)"
    )


def test_the_tally_is_public_and_is_what_each_player_would_score():
    """Every card a player gains or loses is announced, so what they own is public: the same
    in every seat's view, kept by determinisation, and equal to the final score."""
    state = GAME.new_state(9, {"players": 3, "round_limit": 5})
    rng = random.Random(9)
    while not state.is_terminal:
        tallies = [state.view(seat)["players"] for seat in (None, 0, 1, 2)]
        for players in tallies[1:]:
            assert [p["tally"] for p in players] == [p["tally"] for p in tallies[0]]
        twin = state.determinize(1, rng).view(1)["players"]
        assert [p["tally"] for p in twin] == [p["tally"] for p in tallies[0]]
        (d,) = state.pending()
        state.apply({d.seat: rng.choice(d.legal)})
    for p in state.view(None)["players"]:
        assert p["tally"] == {
            "vp": p["vp"],
            "stages": p["stages"],
            "cards": p["cards"],
            "weaknesses": p["tally"]["weaknesses"],
        }


def test_a_weakness_gained_shows_in_the_tally():
    s = position(hands={0: ["punch"]})
    before = s.view(1)["players"][0]["tally"]
    s.gain_weakness(0, [], "sfdbg.weakness.from-stack")
    after = s.view(1)["players"][0]["tally"]
    assert after["weaknesses"] == before["weaknesses"] + 1
    assert after["vp"] == before["vp"] - 1
    assert after["cards"] == before["cards"] + 1
