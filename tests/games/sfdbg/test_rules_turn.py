"""Rulebook: Gameplay, Order of Playing Your Cards, Ending Your Turn, Shuffling Your Deck."""

from __future__ import annotations

import pytest

from kumite.core.errors import IllegalChoiceError
from tests.games.sfdbg.scenario import act, deck_top, ids, kinds, pending, position

LINE_UP = ["ken-masters", "rose", "juri", "seth", "hadoken"]


def test_turn__buy_from_the_line_up_the_kicks_and_the_top_stage():
    """sfdbg.turn.buy: Line-Up, Kick cards, and/or the top card of the Stage stack."""
    s = position(line_up=LINE_UP, power=7)
    legal = pending(s)[2]
    assert {"buy:lineup:ken-masters", "buy:lineup:rose", "buy:lineup:juri"} <= set(legal)
    assert "buy:lineup:seth" not in legal  # costs 8
    assert "buy:kick" in legal and "challenge" in legal


def test_turn__cards_bought_go_to_the_discard_pile():
    """sfdbg.turn.to-discard."""
    s = position(line_up=LINE_UP, power=4)
    act(s, "buy:lineup:ken-masters")
    assert ids(s.discard[0])[-1] == "ken-masters"
    assert s.view(1)["players"][0]["discard"][-1] == "ken-masters"  # face up


def test_turn__buy_any_number_of_cards_with_cost_up_to_your_power():
    """sfdbg.turn.buy-any-number: "two cards each with cost 2"."""
    s = position(line_up=["rose", "juri", "seth", "hadoken", "sagat"], power=4)
    act(s, "buy:lineup:rose")
    assert s.power == 2
    act(s, "buy:lineup:juri")
    assert s.power == 0
    assert ids(s.discard[0])[-2:] == ["rose", "juri"]


def test_turn__a_card_costing_more_than_your_power_cannot_be_bought():
    """sfdbg.turn.buy-any-number."""
    s = position(line_up=LINE_UP, power=3)
    assert "buy:lineup:ken-masters" not in pending(s)[2]
    with pytest.raises(IllegalChoiceError, match="Ken Masters costs 4; you have 3 Power"):
        act(s, "buy:lineup:ken-masters")


def test_turn__you_may_pass_without_buying():
    """sfdbg.turn.pass."""
    s = position(hands={0: ["punch"] * 5}, power=9)
    assert "end" in pending(s)[2]
    act(s, "end")
    assert s.active == 1


def test_turn__weaknesses_are_never_bought():
    """sfdbg.setup.stacks: "Weaknesses are never bought"."""
    s = position(power=20)
    assert not any("weakness" in c for c in pending(s)[2])


def test_turn__vulnerability_may_be_played_without_effect_and_is_discarded_at_end_of_turn():
    """sfdbg.turn.vulnerability."""
    s = position(hands={0: ["vulnerability", "punch"]})
    act(s, "play:vulnerability")
    assert s.power == 0
    assert ids(s.played[0]) == ["vulnerability"]
    assert "vulnerability" not in ids(s.discard[0])
    act(s, "end")
    assert "vulnerability" in ids(s.discard[0])


def test_turn__cards_are_played_in_any_order_and_resolve_at_once():
    """sfdbg.turn.play-order."""
    s = position(hands={0: ["punch", "kick", "yoga-teleport"]}, decks={0: ["hadoken"]})
    legal = pending(s)[2]
    assert {"play:punch", "play:kick", "play:yoga-teleport"} <= set(legal)
    act(s, "play:yoga-teleport")
    assert "hadoken" in ids(s.hand[0])  # drawn at once
    act(s, "play:kick")
    assert s.power == 2


def test_turn__you_may_play_more_cards_after_buying():
    """sfdbg.turn.play-after-buy."""
    s = position(hands={0: ["punch", "punch", "kick"]}, line_up=LINE_UP)
    act(s, "play:punch", "play:punch", "buy:lineup:rose")
    assert s.power == 0
    act(s, "play:kick")
    assert s.power == 2
    assert "buy:lineup:juri" in pending(s)[2]


def test_turn__play_power_plays_every_card_that_only_gives_power():
    """sfdbg.turn.play-order: the ``play-power`` shorthand is the same plays one by one."""
    s = position(hands={0: ["punch", "punch", "kick", "vulnerability", "hadoken"]})
    events = act(s, "play-power")
    assert s.power == 4
    assert ids(s.hand[0]) == ["vulnerability", "hadoken"]
    assert kinds(events).count("CardPlayed") == 3
    assert "play-power" not in pending(s)[2]  # nothing left to play that way


def test_turn__sample_turn_sequence():
    """sfdbg.turn.buy — Sample Turn Sequence: four Punches buy Ken Masters; the Vulnerability
    gives nothing."""
    s = position(
        hands={0: ["punch", "punch", "punch", "punch", "vulnerability"]},
        line_up=LINE_UP,
        decks={0: ["punch"] * 3 + ["vulnerability"] * 2},
    )
    act(s, "play:punch", "play:punch", "play:punch", "play:punch", "play:vulnerability")
    assert s.power == 4
    act(s, "buy:lineup:ken-masters", "end")
    assert "ken-masters" in ids(s.discard[0])
    assert len(s.hand[0]) == 5 and s.active == 1


# -- Ending Your Turn --------------------------------------------------------------------------


def test_end_of_turn__at_the_end_of_your_turn_effects_resolve_first():
    """sfdbg.end-turn.effects: Tireless Warrior goes on top of the deck before the discard
    and the draw, so it is in the new hand (sfdbg.ruling.end-of-turn-order)."""
    s = position(hands={0: ["tireless-warrior"]}, decks={0: ["punch"] * 6})
    act(s, "play:tireless-warrior", "end")
    assert "tireless-warrior" in ids(s.hand[0])
    assert "tireless-warrior" not in ids(s.discard[0])


def test_end_of_turn__played_cards_and_hand_are_discarded_power_is_lost_five_are_drawn():
    """sfdbg.end-turn.discard-draw."""
    s = position(hands={0: ["punch", "punch", "vulnerability"]}, decks={0: ["kick"] * 7})
    act(s, "play:punch")
    act(s, "end")
    assert sorted(ids(s.discard[0])[-3:]) == ["punch", "punch", "vulnerability"]
    assert s.played[0] == [] and s.power == 0
    assert ids(s.hand[0]) == ["kick"] * 5


def test_end_of_turn__the_turn_passes_to_the_player_on_your_left():
    """sfdbg.end-turn.discard-draw."""
    s = position(players=3, active=2)
    act(s, "end")
    assert s.active == 0


def test_end_of_turn__line_up_slots_are_refilled_at_the_end_not_when_bought():
    """sfdbg.end-turn.refill."""
    s = position(line_up=LINE_UP, power=6, main=["gill", "sodom", "vega"])
    act(s, "buy:lineup:rose")
    assert s.view(0)["line_up"][1] is None  # stays empty during the turn
    act(s, "buy:lineup:juri")
    events = act(s, "end")
    assert s.view(0)["line_up"] == ["ken-masters", "gill", "sodom", "seth", "hadoken"]
    assert "LineUpRefilled" in kinds(events)


def test_end_of_turn__the_stage_is_flipped_only_at_the_end_of_the_turn():
    """sfdbg.end-turn.flip and sfdbg.boss.defeated: the next Stage stays face down."""
    s = position(hands={0: []}, power=7, heroes=["ryu", "ken"])
    s.bosses = [s.catalog.hero_by_id["guile"].index]
    act(s, "challenge", "no-defense")
    assert s.view(0)["stages"]["face_up"] is False
    act(s, "end")
    view = s.view(1)
    assert view["stages"]["top"] == "hong-kong" and view["stages"]["face_up"] is True


# -- Shuffling Your Deck -----------------------------------------------------------------------


def test_shuffle__the_discard_pile_is_not_reshuffled_as_soon_as_the_deck_runs_out():
    """sfdbg.shuffle.when-needed."""
    s = position(hands={0: ["yoga-teleport"]}, decks={0: ["punch"]}, discards={0: ["kick"] * 3})
    act(s, "play:yoga-teleport")
    assert s.deck[0] == [] and ids(s.discard[0]) == ["kick"] * 3


def test_shuffle__the_discard_pile_becomes_the_deck_when_a_draw_needs_a_card():
    """sfdbg.shuffle.when-needed."""
    s = position(hands={0: ["dudley"]}, decks={0: ["punch"]}, discards={0: ["kick", "kick"]})
    events = act(s, "play:dudley")
    assert sorted(ids(s.hand[0])) == ["kick", "punch"]
    assert ids(s.deck[0]) == ["kick"] and s.discard[0] == []
    assert "DeckShuffled" in kinds(events)


def test_shuffle__a_discard_from_the_deck_also_reshuffles():
    """sfdbg.shuffle.when-needed: discarding the top card of an empty deck (Sonic Hurricane)
    reshuffles first."""
    s = position(hands={0: ["sonic-hurricane"]}, decks={1: []}, discards={1: ["kick"]})
    events = act(s, "play:sonic-hurricane", "no-defense")
    assert "DeckShuffled" in kinds(events)
    assert ids(s.discard[1]) == ["kick", "weakness"]  # cost 3: a Weakness too


def test_shuffle__with_no_cards_in_deck_or_discard_nothing_is_drawn():
    """sfdbg.shuffle.when-needed."""
    s = position(hands={0: ["dudley"]}, decks={0: []})
    s.discard[0] = []
    act(s, "play:dudley")
    assert s.hand[0] == []


def test_shuffle__deck_order_is_hidden_from_every_view():
    """sfdbg.shuffle.when-needed."""
    s = position(decks={0: ["hadoken", "punch", "kick"]})
    view = s.view(0)
    assert view["players"][0]["deck_size"] == 3
    assert "hadoken" not in str(view)
    assert deck_top(s, 0) == ["hadoken"]
