"""Rulebook: End of Game (``sfdbg.end.*``)."""

from __future__ import annotations

from kumite.games.sfdbg.scoring import decided_by, deck_vp, winners
from tests.games.sfdbg.scenario import act, kinds, position


def cards(s, *names):
    return [s.catalog.by_id[n].index for n in names]


def test_end__the_game_ends_when_no_stage_can_be_flipped():
    """sfdbg.end.no-stage: the last Stage is defeated; at the end of that turn there is
    none to flip."""
    s = position(stages=["thailand"], power=12, heroes=["ryu", "ken"])
    events = act(s, "challenge", "no-defense", "end")
    assert s.is_terminal
    assert s.outcome is not None and s.outcome.rule == "sfdbg.end.no-stage"
    assert kinds(events)[-1] == "GameEnded"


def test_end__the_game_ends_when_the_line_up_cannot_be_refilled():
    """sfdbg.end.line-up."""
    s = position(line_up=["rose", "juri", "seth", "hadoken", "sodom"], main=["gill"], power=4)
    act(s, "buy:lineup:rose", "buy:lineup:juri", "end")
    assert s.is_terminal and s.outcome is not None
    assert s.outcome.rule == "sfdbg.end.line-up"


def test_end__a_full_line_up_with_an_empty_main_deck_does_not_end_the_game():
    """sfdbg.end.line-up."""
    s = position(line_up=["rose", "juri", "seth", "hadoken", "sodom"], main=[])
    act(s, "end")
    assert not s.is_terminal


def test_end__hand_discard_pile_and_locations_return_to_the_deck_for_scoring():
    """sfdbg.end.score."""
    s = position(
        hands={0: ["gill"]},
        decks={0: ["seth"]},
        discards={0: ["hadoken"]},
        locations={0: ["japan"]},
        line_up=["rose", "juri", "seth", "hadoken", "sodom"],
        main=[],
        power=2,
    )
    act(s, "buy:lineup:rose", "end")
    assert s.outcome is not None
    # gill 1 + seth 3 + hadoken 2 + japan 6 + rose 1 (the drawn hand is part of the deck)
    assert s.outcome.detail["vp"][0] == 13


def test_end__weaknesses_subtract_vp():
    """sfdbg.end.weakness."""
    s = position()
    assert deck_vp(s.catalog, cards(s, "weakness", "weakness", "gill")) == -1


def test_end__the_highest_vp_total_wins():
    """sfdbg.end.score."""
    assert winners([(10, 0, 20), (12, 0, 15)]) == (1,)
    assert decided_by([(10, 0, 20), (12, 0, 15)]) == "vp"


def test_end__a_tie_goes_to_the_player_with_more_stages():
    """sfdbg.end.tie."""
    keys = [(20, 1, 30), (20, 2, 25)]
    assert winners(keys) == (1,) and decided_by(keys) == "stages"


def test_end__then_to_the_tied_player_with_the_most_cards():
    """sfdbg.end.tie."""
    keys = [(20, 1, 30), (20, 1, 31), (5, 3, 40)]
    assert winners(keys) == (1,) and decided_by(keys) == "cards"


def test_end__players_still_tied_share_the_win():
    """sfdbg.ruling.tie."""
    keys = [(20, 1, 30), (20, 1, 30), (5, 0, 10)]
    assert winners(keys) == (0, 1) and decided_by(keys) == "tie"


def test_end__the_outcome_lists_every_seats_vp_stages_and_cards():
    """sfdbg.end.score, sfdbg.ruling.returns."""
    s = position(players=3, line_up=["rose"] * 5, main=[], power=2)
    act(s, "buy:lineup:rose", "end")
    outcome = s.outcome
    assert outcome is not None
    assert len(outcome.detail["vp"]) == 3
    assert outcome.detail["vp"][0] == 1
    assert outcome.detail["cards"][0] == 6  # the scenario emptied the hand: 5 in deck + Rose
    assert outcome.returns == tuple(1.0 if w in outcome.winners else -1.0 for w in range(3))
    json = outcome.to_json()
    assert json["vp"] == list(outcome.detail["vp"])


def test_end__everyone_tied_is_a_draw():
    """sfdbg.ruling.tie."""
    s = position(line_up=["rose"] * 5, main=[])
    s.lineup[0] = -1
    act(s, "end")
    assert s.outcome is not None and s.outcome.draw
    assert s.outcome.returns == (0.0, 0.0)
