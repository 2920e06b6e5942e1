"""kumite's rulings on unclear SF Rivals clauses (docs/rulings.md), and their options."""

from __future__ import annotations

import pytest

from kumite.core.errors import OptionsError
from kumite.games.sfrivals.game import GAME
from tests.games.sfrivals.helpers import dmg, fight, of_kind
from tests.games.sfrivals.scenario import clash, position


def test_ruling_power_order__cancellation_before_swap():
    """sfr.ruling.power-order: a cancellation is settled before any swap."""
    state, events = fight("ryu.overhead-throw", "ken.saving-attack")
    kinds = [e.kind for e in events]
    assert "InitiativeSwapped" not in kinds
    assert kinds.index("PowerCancelled") < kinds.index("InitiativeCompared")
    assert state.lives == [10, 10 - dmg("ryu.overhead-throw")]


def test_ruling_power_order__carried_bonus_before_swap_before_comparison():
    _state, events = fight("ryu.saving-attack", "ken.shoryuken", carry=((0, 0, 0), (2, 0, 0)))
    kinds = [e.kind for e in events]
    assert kinds.index("InitiativeBonus") < kinds.index("InitiativeSwapped")
    assert kinds.index("InitiativeSwapped") < kinds.index("InitiativeCompared")
    assert of_kind(events, "InitiativeCompared")[0].initiatives == (6, 3)


def test_ruling_mutual_cancel__both_powers_are_lost():
    """sfr.ruling.mutual-cancel: two cards that cancel each other both lose their power."""
    _, events = fight("ryu.overhead-throw", "poison.slapshot")
    assert sorted(e.seat for e in of_kind(events, "PowerCancelled")) == [0, 1]


def test_ruling_powers_regardless_of_winner__a_losing_card_keeps_its_power():
    """sfr.ruling.powers-regardless-of-winner: Hadouken loses to a jab but still gives +2."""
    state, events = fight("ryu.hadouken", "ken.weak-shoryuken")
    assert of_kind(events, "InitiativeCompared")[0].winner == 1
    assert state.carry[0].bonus == 2


def test_ruling_carried_bonus__survives_cancellation_of_the_current_power():
    """sfr.ruling.carried-bonus: a bonus from last round stays when this round's card has its
    power cancelled."""
    state, events = fight("ryu.hadouken", "ken.jigokusha", carry=((2, 0, 0), (0, 0, 0)))
    assert of_kind(events, "PowerCancelled")[0].seat == 0
    assert of_kind(events, "InitiativeCompared")[0].initiatives == (8, 5)
    assert state.carry[0].bonus == 0  # the cancelled Hadouken gives nothing for next round


@pytest.mark.parametrize(("swap", "winner"), [("current", 0), ("printed", 1)])
def test_ruling_swap__current_values_by_default_printed_by_option(swap, winner):
    """sfr.ruling.swap: Saving Attack (3) against Ken's Shoryuken (4) carrying +2. Current
    values: 3 <-> 6, Ryu wins. Printed values: 4 + 0 against 3 + 2, Ken wins."""
    _state, events = fight(
        "ryu.saving-attack", "ken.shoryuken", carry=((0, 0, 0), (2, 0, 0)), options={"swap": swap}
    )
    assert of_kind(events, "InitiativeCompared")[0].winner == winner


def test_ruling_swap__two_swaps_cancel_out():
    _state, events = fight("ryu.saving-attack", "ken.saving-attack", carry=((2, 0, 0), (0, 0, 0)))
    assert len(of_kind(events, "InitiativeSwapped")) == 2
    assert of_kind(events, "InitiativeCompared")[0].initiatives == (5, 3)


def test_ruling_technique_cancel__no_comparison_only_the_10_damage():
    """sfr.ruling.technique-cancel: against a cancelled technique there is no initiative
    comparison and the Ultra deals exactly its 10 damage."""
    state, events = fight("ken.guren-senpukyaku", "ryu.jab", lives=(5, 10))
    assert of_kind(events, "InitiativeCompared") == []
    (damage,) = of_kind(events, "DamageDealt")
    assert (damage.seat, damage.amount) == (1, 10)
    assert state.lives == [5, 0]


def test_ruling_reduction__applies_to_the_round_total_down_to_zero():
    """sfr.ruling.reduction: a reduction of 2 against 1 damage leaves 0, never healing."""
    state, events = fight("ryu.guard", "ken.hadouken")  # Hadouken 6 beats Guard 2, damage 1
    assert dmg("ken.hadouken") < 2
    assert state.lives[0] == 10
    assert of_kind(events, "DamageDealt")[0].prevented == dmg("ken.hadouken")


def test_ruling_reveal_first_both__neither_reveals_first():
    """sfr.ruling.reveal-first-both: both Guards — the next round is simultaneous."""
    state, events = fight("ryu.guard", "ken.guard")
    assert of_kind(events, "RevealFirstVoided")
    assert state.reveal_first == [False, False]
    assert [d.seat for d in state.pending()] == [0, 1]


def test_ruling_reveal_first__a_cancelled_guard_gives_no_order():
    state, _ = fight("ryu.guard", "ken.jigokusha")
    assert state.reveal_first == [False, False]


def test_ruling_ultra_play__card_rule_by_default():
    """sfr.ruling.ultra-play: by default the Ultra card itself needs life 5 or under."""
    assert "play:ryu.metsu-hadouken" not in position("ryu", "ken", lives=(6, 10)).legal(0)


def test_ruling_ultra_play__power_rule_option_plays_it_powerless_above_5():
    """ultra_rule=power: the Ultra may always be played; above 5 life it has no power."""
    state = position("ryu", "ken", lives=(6, 10), options={"ultra_rule": "power"})
    assert "play:ryu.metsu-hadouken" in state.legal(0)
    events = clash(state, "metsu-hadouken", "weak-shoryuken")
    assert of_kind(events, "PowerInactive")[0].rule == "sfr.layout.ultra-combo"
    assert state.lives == [6 - dmg("ken.weak-shoryuken"), 10]
    state = position("ryu", "ken", lives=(5, 10), options={"ultra_rule": "power"})
    clash(state, "metsu-hadouken", "weak-shoryuken")
    assert state.lives == [5, 0]


def stuck_position(options=None):
    """Round 7: Ryu holds the Ultra and a jab at life 10; after the jab he holds only the
    Ultra, which he may not play at life 6 or more."""
    state = position(
        "ryu",
        "ken",
        hands=(["metsu-hadouken", "jab"], ["hadouken", "guard"]),
        round=7,
        options=options,
    )
    state.hand_size = 8
    return state


def test_ruling_no_legal_card__the_fight_ends_by_life():
    """sfr.ruling.no-legal-card (default end-fight): a player left with only unplayable cards
    has no technique to use; the fight ends and life decides."""
    state = stuck_position()
    events = clash(state, "jab", "hadouken")
    assert state.outcome is not None
    assert state.outcome.rule == "sfr.ruling.no-legal-card"
    assert state.outcome.winners == (0,)  # 10 against 10 - jab damage
    assert of_kind(events, "FightEnded")[0].reason == "no playable card left"


def test_ruling_no_legal_card__play_powerless_option():
    """no_legal_card=play-powerless: the player must play the card, without its power."""
    state = stuck_position({"no_legal_card": "play-powerless"})
    clash(state, "jab", "hadouken")
    assert state.outcome is None
    assert state.legal(0) == ("play:ryu.metsu-hadouken",)
    events = clash(state, "metsu-hadouken", "guard")
    assert of_kind(events, "PowerInactive")[0].rule == "sfr.ruling.no-legal-card"


def test_ruling_life_floor__life_never_below_zero():
    """sfr.ruling.life-floor."""
    state, _ = fight("ryu.shinkuu-hadouken", "ken.hadouken", lives=(10, 1), round=5)
    assert state.lives == [10, 0]


@pytest.mark.parametrize(
    "options",
    [{"ultra_rule": "sometimes"}, {"swap": 3}, {"characters": ["ryu", "blanka"]}, {"colour": 1}],
)
def test_bad_options_are_rejected_with_a_clear_error(options):
    with pytest.raises(OptionsError):
        GAME.new_state(0, options)
