"""Rulebook: Destroying Cards, Gaining Cards, Cards Underneath Your Super Hero."""

from __future__ import annotations

import pytest

from kumite.core.errors import IllegalChoiceError
from tests.games.sfdbg.scenario import act, ids, pending, position


def test_destroy__a_destroyed_card_goes_to_the_face_up_destroyed_pile():
    """sfdbg.destroy."""
    s = position(hands={0: ["sagats-eyepatch", "vulnerability"]})
    act(s, "play:sagats-eyepatch", "destroy:hand:vulnerability")
    assert ids(s.destroyed) == ["vulnerability"]
    assert s.view(1)["destroyed"] == ["vulnerability"]
    assert s.hand[0] == [] and s.discard[0] == []


def test_destroy__weaknesses_and_kicks_do_not_go_back_to_their_stacks():
    """sfdbg.destroy."""
    s = position(hands={0: ["vega", "weakness", "kick"]}, weaknesses=10, kicks=10)
    act(s, "play:vega", "destroy:hand:weakness")
    s.hand[0].append(s.catalog.by_id["vega"].index)
    s._pending = None
    act(s, "play:vega", "destroy:hand:kick")
    assert (s.weak, s.kicks) == (10, 10)
    assert ids(s.destroyed) == ["weakness", "kick"]


def test_destroy__a_may_destroy_can_be_declined():
    """sfdbg.destroy."""
    s = position(hands={0: ["sagats-eyepatch", "vulnerability"]})
    act(s, "play:sagats-eyepatch")
    assert "destroy:none" in pending(s)[2]
    act(s, "destroy:none")
    assert s.destroyed == []


def test_gain__a_gained_card_goes_to_the_discard_pile_at_no_cost():
    """sfdbg.gain."""
    s = position(hands={0: ["tanden-engine"]}, line_up=["rose", "juri", "seth", "hadoken", "sodom"])
    act(s, "play:tanden-engine", "gain:rose")
    assert ids(s.discard[0]) == ["rose"] and s.power == 3
    assert s.view(0)["line_up"][0] is None


def test_gain__a_named_card_that_is_not_available_is_simply_not_gained():
    """sfdbg.gain.unavailable: Hyakuretsukyaku with no Kick left."""
    s = position(hands={0: ["hyakuretsukyaku"]}, kicks=0)
    act(s, "play:hyakuretsukyaku")
    assert pending(s)[1] == "turn" and s.discard[0] == []


def test_gain__a_revealed_main_deck_card_of_the_wrong_type_stays_on_top():
    """sfdbg.gain.main-top-stays (Sagat gains a Hero or Villain only)."""
    s = position(hands={0: ["sagat"]}, main=["hadoken", "gill"])
    act(s, "play:sagat")
    assert ids(s.main[-1:]) == ["hadoken"] and s.discard[0] == []
    assert s.view(1)["main_deck_top"] == "hadoken"  # sfdbg.ruling.main-top-known


def test_gain__a_revealed_main_deck_card_of_the_right_type_is_gained():
    """sfdbg.gain."""
    s = position(hands={0: ["sagat"]}, main=["gill", "hadoken"])
    act(s, "play:sagat")
    assert ids(s.discard[0]) == ["gill"]
    assert s.view(1)["main_deck_top"] is None


def test_under__cards_under_your_super_hero_can_be_bought_as_if_in_the_line_up():
    """sfdbg.under.buy."""
    s = position(heroes=["ryu", "ken"], power=6)
    assert "buy:under:metsu-hadoken" in pending(s)[2]
    act(s, "buy:under:metsu-hadoken")
    assert ids(s.discard[0]) == ["metsu-hadoken"] and s.under[0] == []


def test_under__other_players_cannot_buy_cards_under_your_super_hero():
    """sfdbg.under.others."""
    s = position(heroes=["ryu", "ken"], power=20)
    legal = pending(s)[2]
    assert "buy:under:shinryuken" not in legal
    with pytest.raises(IllegalChoiceError, match="not under your Super Hero"):
        act(s, "buy:under:shinryuken")


def test_under__other_players_may_inspect_the_cards_under_your_super_hero():
    """sfdbg.under.others."""
    s = position(heroes=["ryu", "ken"])
    assert s.view(0)["players"][1]["under"] == ["shinryuken"]


def test_under__cards_under_your_super_hero_can_be_gained_as_if_in_the_line_up():
    """sfdbg.under.buy: "You may buy or gain any cards that are underneath your Super Hero as
    if they were in the Line-Up" (Tanden Engine gains from the Line-Up)."""
    s = position(
        heroes=["ryu", "ken"],
        hands={0: ["tanden-engine"]},
        under={0: ["metsu-hadoken", "rose"]},
        line_up=["seth"] * 5,
    )
    act(s, "play:tanden-engine")
    assert pending(s)[2] == ("gain:under:rose", "gain:none")  # the Ultra costs 6
    act(s, "gain:under:rose")
    assert ids(s.discard[0]) == ["rose"] and ids(s.under[0]) == ["metsu-hadoken"]


def test_under__they_do_not_count_as_line_up_cards_for_other_purposes():
    """sfdbg.under.buy: Soldier of Justice destroys Line-Up cards, not cards under your
    Super Hero."""
    s = position(
        heroes=["ryu", "ken"],
        hands={0: ["soldier-of-justice"]},
        under={0: ["rose"]},
        line_up=["seth"] * 5,
    )
    act(s, "play:soldier-of-justice")
    assert pending(s)[1] == "turn"  # nothing in the Line-Up costs 7 or less
    assert ids(s.under[0]) == ["rose"]


def test_under__cards_left_under_your_super_hero_are_not_part_of_your_deck():
    """sfdbg.under.not-counted."""
    from kumite.games.sfdbg.turn import owned

    s = position(heroes=["ryu", "ken"])
    assert "metsu-hadoken" not in ids(owned(s, 0))
