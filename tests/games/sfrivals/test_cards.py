"""A scenario test for every one of the 80 SF Rivals cards (71 card types; copies are
identical). Each test reads like the card's power text. Damage values come from the pack
(most are estimates), so the tests hold for any pack that keeps the powers."""

from __future__ import annotations

import pytest

from kumite.games.sfrivals.state import PLAY
from tests.games.sfrivals.helpers import CATALOG, card, dmg, fight, next_round, of_kind

COVERED: set[str] = set()


def cards(*ids: str) -> list[str]:
    COVERED.update(ids)
    return list(ids)


# Cards with a test of their own below.
SINGLES = cards(
    "guile.guard",
    "guile.somersault-kick",
    "chunli.gedankeri",
    "juri.feng-shui-engine",
    "dudley.cross-counter",
)

# ------------------------------------------------------------------------- no special power
NO_POWER = cards(
    "ryu.shoryuken",
    "ryu.jab",
    "ken.weak-shoryuken",
    "zangief.double-lariat",
    "guile.spinning-back-knuckle",
    "poison.whip-of-love",
    "poison.love-meeting",
    "juri.shitsu-kara-sen",
    "chunli.spinning-bird-kick",
    "chunli.kikouken",
    "dudley.jet-upper",
    "dudley.machine-gun-blow",
)


@pytest.mark.parametrize("cid", NO_POWER)
def test_card_without_power__higher_initiative_deals_printed_damage(cid):
    """No special power: the card wins against a lower initiative and deals its damage, and
    nothing else happens (sfr.round.higher-initiative)."""
    assert card(cid).effects == ()
    state, events = fight(cid, "ryu.hurricane-kick")  # initiative 0, reduces damage by 2
    assert state.lives == [10, 10 - max(0, dmg(cid) - 2)]
    assert state.carry[0] == (0, 0, 0)
    assert state.reveal_first == [False, False]
    assert [e.winner for e in of_kind(events, "InitiativeCompared")] == [0]


def test_card_ryu_shoryuken__source_value_three_and_equal_initiative_with_jet_upper():
    """Shoryuken's damage 3 is sourced ([TF]); against Dudley's Jet Upper (also 4) both hit."""
    assert dmg("ryu.shoryuken") == 3
    assert str(card("ryu.shoryuken").provenance["damage"]) == "source:TF"
    state, _ = fight("ryu.shoryuken", "dudley.jet-upper")
    assert state.lives == [10 - dmg("dudley.jet-upper"), 7]


# ------------------------------------------------------------------------ Hurricane Kick
@pytest.mark.parametrize("cid", cards("ryu.hurricane-kick", "ken.hurricane-kick"))
def test_card_hurricane_kick__reduce_damage_by_2_and_plus_2_initiative_next_round(cid):
    """In this round, reduce any damage you receive by 2. Also, in the next round, increase
    your initiative by 2."""
    state, events = fight(cid, "dudley.rocket-upper", round=5)  # initiative 7, damage 4
    assert state.lives[0] == 10 - (dmg("dudley.rocket-upper") - 2)
    assert of_kind(events, "DamageDealt")[0].prevented == 2
    assert state.carry[0].bonus == 2
    events = next_round(state, cid.split(".")[0] + ".shoryuken", "dudley.liver-blow")
    # Shoryuken 4 + 2 = 6 against Liver Blow 6: equal initiative, both hit.
    assert of_kind(events, "InitiativeCompared")[0].initiatives == (6, 6)


# ------------------------------------------------------------------------------- Guards
GUARDS = cards(
    "ryu.guard",
    "ken.guard",
    "zangief.guard",
    "poison.guard",
    "juri.guard",
    "chunli.guard",
    "dudley.guard",
)


@pytest.mark.parametrize("cid", GUARDS)
def test_card_guard__reduce_damage_by_2_and_opponent_reveals_first_next_round(cid):
    """The damage you receive in this round is reduced by 2. Also, your opponent must reveal
    their technique card first in the next round, before you choose yours."""
    state, _ = fight(cid, "dudley.rocket-upper", round=5)
    assert state.lives[0] == 10 - (dmg("dudley.rocket-upper") - 2)
    assert state.reveal_first == [False, True]
    (decision,) = state.pending()
    assert (decision.seat, decision.kind) == (1, "play-first")
    state.apply({1: "play:dudley.jet-upper"})
    assert state.view(0)["players"][1]["revealed"] == "dudley.jet-upper"
    assert [d.seat for d in state.pending()] == [0]


def test_card_guile_guard__reduce_2_plus_2_initiative_and_opponent_reveals_first():
    """Guard / Storing Up: the damage you receive is reduced by 2; next round your initiative
    is increased by 2 and your opponent has to show you their card first."""
    cid = "guile.guard"
    state, _ = fight(cid, "dudley.rocket-upper", round=5)
    assert state.lives[0] == 10 - (dmg("dudley.rocket-upper") - 2)
    assert state.carry[0].bonus == 2
    assert state.reveal_first == [False, True]
    assert card(cid).copies == 2


# ------------------------------------------------------------------------------- Swaps
SAVING_ATTACKS = cards(
    "ryu.saving-attack",
    "ken.saving-attack",
    "zangief.saving-attack",
    "poison.saving-attack",
    "juri.saving-attack",
    "chunli.saving-attack",
    "dudley.ducking-uppercut",
)


@pytest.mark.parametrize("cid", SAVING_ATTACKS)
def test_card_saving_attack__initiatives_swapped(cid):
    """This round, the initiative values of you and your opponent's cards are swapped."""
    state, events = fight(cid, "dudley.liver-blow")  # initiative 6
    (swap,) = of_kind(events, "InitiativeSwapped")
    assert swap.initiatives == (6, 3)
    assert state.lives == [10, 10 - dmg(cid)]


@pytest.mark.parametrize(
    "cid", [*SAVING_ATTACKS, *cards("zangief.banishing-flat", "dudley.ducking-straight")]
)
def test_card_swap__cancelled_when_opponent_initiative_is_7(cid):
    """However, if your opponent's card's initiative is 7, then this special power is
    cancelled (sfr.powers.check-printed-initiative)."""
    state, events = fight(cid, "dudley.machine-gun-blow")
    assert of_kind(events, "InitiativeSwapped") == []
    (cancel,) = of_kind(events, "PowerCancelled")
    assert cancel.seat == 0
    assert state.lives == [10 - dmg("dudley.machine-gun-blow"), 10]
    assert state.carry[0].bonus == 0  # the whole power is cancelled, next-round bonus too


@pytest.mark.parametrize(
    ("cid", "bonus"), [("zangief.banishing-flat", 1), ("dudley.ducking-straight", 2)]
)
def test_card_swap_with_bonus__swapped_and_initiative_up_next_round(cid, bonus):
    """Banishing Flat / Ducking Straight: initiatives swapped this round, and your initiative is
    increased next round."""
    state, events = fight(cid, "ryu.hadouken")
    assert of_kind(events, "InitiativeSwapped")[0].initiatives == (6, 3)
    assert state.lives == [10, 10 - dmg(cid)]
    assert state.carry[0].bonus == bonus


# --------------------------------------------------------------------- Cancel the power
CANCELLERS = cards(
    "ryu.overhead-throw",
    "ken.jigokusha",
    "zangief.flying-power-bomb",
    "zangief.screw-pile-driver",
    "guile.dragon-suplex",
    "poison.slapshot",
    "juri.ensaikyaku",
    "chunli.ryuuseiraku",
    "dudley.liver-crusher",
)


@pytest.mark.parametrize("cid", CANCELLERS)
def test_card_cancel__opponents_special_power_is_cancelled(cid):
    """Your opponent's card's special power is cancelled."""
    state, events = fight(cid, "ryu.hadouken")  # would give Ryu +2 next round
    (cancel,) = of_kind(events, "PowerCancelled")
    assert (cancel.seat, cancel.by_seat) == (1, 0)
    assert state.carry[1].bonus == 0
    assert state.lives == [10 - dmg("ryu.hadouken"), 10]  # 6 beats 5: the technique still hits


@pytest.mark.parametrize("cid", CANCELLERS)
def test_card_cancel__stops_a_swap(cid):
    """A cancelled Saving Attack does not swap: the higher printed initiative wins."""
    state, events = fight(cid, "ken.saving-attack")
    assert of_kind(events, "InitiativeSwapped") == []
    assert state.lives == [10, 10 - dmg(cid)]


def test_card_guile_somersault_kick__cancels_power_only_of_a_printed_3():
    """If your opponent's card's initiative is 3 this round then their card's power is
    cancelled — printed 3 only (sfr.powers.check-printed-initiative)."""
    cid = "guile.somersault-kick"
    state, events = fight(cid, "ryu.saving-attack")
    assert of_kind(events, "InitiativeSwapped") == []
    assert state.lives == [10, 10 - dmg(cid)]
    # A Hadouken (6) is not a 3: its power stays.
    state, events = fight(cid, "ryu.hadouken")
    assert of_kind(events, "PowerCancelled") == []
    assert state.carry[1].bonus == 2
    # A Guard (2) raised to 3 by a bonus is still printed 2: its power stays.
    state, events = fight(cid, "ryu.guard", carry=((0, 0, 0), (1, 0, 0)))
    assert of_kind(events, "PowerCancelled") == []
    assert state.reveal_first == [True, False]


# ---------------------------------------------------------------- Next-round initiative
BONUS = {
    "ryu.hadouken": 2,
    "ken.shoryuken": 2,
    "ken.hadouken": 2,
    "zangief.long-kick": 1,
    "guile.sonic-boom": 2,
    "poison.aeolus-edge": 2,
    "poison.honeytrap": 5,
    "juri.fuusha": 2,
    "chunli.hyakuretsukyaku": 3,
    "dudley.liver-blow": 3,
}
cards(*BONUS)


@pytest.mark.parametrize(("cid", "bonus"), sorted(BONUS.items()))
def test_card_next_round_initiative__increased_next_round_only(cid, bonus):
    """In the next round, your (technique card's) initiative is increased by N — for that
    round only."""
    char = cid.split(".")[0]
    state, _ = fight(cid, "dudley.cross-counter")
    assert state.carry[0].bonus == bonus
    guard = f"{char}.guard" if char != "guile" else "guile.guard"
    events = next_round(state, guard, "dudley.guard")
    assert of_kind(events, "InitiativeCompared")[0].initiatives == (2 + bonus, 2)
    assert state.carry[0].bonus == (2 if char == "guile" else 0)


# ------------------------------------------------------------------- Reveal first powers
@pytest.mark.parametrize("cid", cards("poison.backflip", "juri.kasatsushi"))
def test_card_no_damage_and_reveal_first(cid):
    """You receive no damage this round. In the next round, your opponent has to reveal
    their card first, before you choose yours."""
    state, events = fight(cid, "dudley.rocket-upper", round=5)
    assert state.lives[0] == 10
    assert of_kind(events, "DamageDealt")[0].prevented == dmg("dudley.rocket-upper")
    assert state.reveal_first == [False, True]
    assert [d.kind for d in state.pending()] == ["play-first"]


def test_card_chunli_gedankeri__opponent_reveals_first_next_round():
    """Low Column Kick: in the next round, your opponent has to reveal their chosen card
    before you choose yours."""
    cid = "chunli.gedankeri"
    state, _ = fight(cid, "ryu.hadouken")
    assert state.lives == [10, 10 - dmg(cid)]
    assert state.reveal_first == [False, True]
    (decision,) = state.pending()
    assert decision.seat == 1


# ---------------------------------------------------------------------------- Ultras
ULTRAS = cards(
    "ryu.metsu-hadouken",
    "ken.guren-senpukyaku",
    "guile.somersault-explosion",
    "poison.lovestorm",
    "chunli.kikouken-ultra",
    "dudley.corkscrew-cross",
    "zangief.ultimate-atomic-buster",
)


@pytest.mark.parametrize("cid", ULTRAS)
def test_card_ultra__against_printed_7_cancels_technique_and_deals_10(cid):
    """When your opponent's card's initiative is 7, your opponent's technique is cancelled
    and you deal them 10 damage (sfr.ruling.technique-cancel)."""
    state, events = fight(cid, "dudley.machine-gun-blow", lives=(5, 10))
    assert of_kind(events, "TechniqueCancelled")[0].seat == 1
    assert state.lives == [5, 0]
    assert state.outcome is not None
    assert state.outcome.winners == (0,)


@pytest.mark.parametrize("cid", ULTRAS)
def test_card_ultra__only_playable_at_life_5_or_under(cid):
    """Ultra Combo: this power can only be used when your health is 5 or under
    (sfr.layout.ultra-combo, sfr.ruling.ultra-play)."""
    char = cid.split(".")[0]
    from tests.games.sfrivals.scenario import position

    for life, legal in ((6, False), (5, True), (1, True)):
        s = position(char, "ken", lives=(life, 10))
        assert (f"play:{cid}" in s.legal(0)) is legal


@pytest.mark.parametrize("cid", ULTRAS)
def test_card_ultra__no_effect_against_other_initiatives(cid):
    """Against anything but a printed 7 the Ultra is a plain initiative-1 technique."""
    state, events = fight(cid, "ryu.hurricane-kick", lives=(5, 10))  # initiative 0
    assert of_kind(events, "TechniqueCancelled") == []
    assert state.lives == [5, 10 - max(0, dmg(cid) - 2)]


def test_card_zangief_ultimate_atomic_buster__also_cancels_the_power_of_a_printed_2():
    """Ultimate Atomic Buster: also, if your opponent's card's initiative is 2, their special
    power is cancelled — Zangief's double condition."""
    state, events = fight("zangief.ultimate-atomic-buster", "ryu.guard", lives=(5, 10))
    (cancel,) = of_kind(events, "PowerCancelled")
    assert cancel.seat == 1
    assert state.reveal_first == [False, False]  # the Guard's "reveal first" is gone too
    assert state.lives == [5 - dmg("ryu.guard"), 10]  # 2 beats 1, no damage reduction


def test_card_juri_feng_shui_engine__no_damage_then_plus_1_initiative_and_damage_every_round():
    """You receive no damage this round. Also, after this round, for every round, your
    card's initiative is increased by 1 and the damage you deal is increased by 1."""
    cid = "juri.feng-shui-engine"
    state, events = fight(cid, "dudley.rocket-upper", lives=(5, 10), round=5)
    assert state.lives == [5, 10]
    assert state.carry[0] == (0, 1, 1)
    events = next_round(state, "juri.fuusha", "dudley.liver-blow")  # 6 + 1 = 7 beats 6
    assert of_kind(events, "InitiativeCompared")[0].initiatives == (7, 6)
    assert state.lives[1] == 10 - (dmg("juri.fuusha") + 1)
    # Two rounds later, still +1 (with Fuusha's +2); Dudley has Liver Blow's +3.
    events = next_round(state, "juri.guard", "dudley.guard")
    assert of_kind(events, "InitiativeCompared")[0].initiatives == (2 + 2 + 1, 2 + 3)


def test_card_juri_feng_shui_engine__announces_its_bonus_once():
    """One line says what the card gives from the next round on: +1 initiative and +1 damage
    (not one line per bonus, each with a "+0")."""
    _, events = fight("juri.feng-shui-engine", "dudley.rocket-upper", lives=(5, 10), round=5)
    lasting = of_kind(events, "LastingEffect")
    assert len(lasting) == 1
    assert (lasting[0].initiative, lasting[0].damage) == (1, 1)
    assert lasting[0].describe() == (
        "Feng Shui Engine: from the next round on, every card of Player 1 gets "
        "+1 initiative and +1 damage."
    )


def test_card_juri_feng_shui_engine__cancelled_power_gives_nothing():
    state, _ = fight("juri.feng-shui-engine", "ken.jigokusha", lives=(5, 10))
    assert state.carry[0] == (0, 0, 0)
    assert state.lives == [5 - dmg("ken.jigokusha"), 10]


# ------------------------------------------------------------------------ Super Combos
SUPERS = cards(
    "ryu.shinkuu-hadouken",
    "ken.shinkuu-hadouken",
    "guile.double-somersault",
    "poison.thunder-whip",
    "juri.fuuharenjin",
    "chunli.senretsukyaku",
    "dudley.rocket-upper",
    "zangief.final-atomic-buster",
)


@pytest.mark.parametrize("cid", SUPERS)
def test_card_super_combo__only_from_round_5(cid):
    """This card can only be played in the 5th round of the fight or later
    (sfr.layout.super-combo)."""
    from tests.games.sfrivals.scenario import position

    char = cid.split(".")[0]
    for round, legal in ((1, False), (4, False), (5, True), (8, True)):
        s = position(char, "ken", round=round)
        assert s.phase == PLAY
        assert (f"play:{cid}" in s.legal(0)) is legal
    state, _ = fight(cid, "ryu.hadouken", round=5)
    assert state.lives == [10, 10 - dmg(cid)]


def test_card_zangief_final_atomic_buster__cancels_the_power_of_a_printed_2():
    """If your opponent's card's initiative is 2, the special power of their card is
    cancelled."""
    state, events = fight("zangief.final-atomic-buster", "poison.guard", round=5)
    assert of_kind(events, "PowerCancelled")[0].seat == 1
    assert state.lives == [10, 10 - dmg("zangief.final-atomic-buster")]  # no reduction
    assert state.reveal_first == [False, False]


# ------------------------------------------------------------------------ Cross Counter
def test_card_dudley_cross_counter__initiative_is_a_draw_and_both_take_damage():
    """Regardless of actual values, initiative is considered a draw this round and both
    players receive damage according to each other's cards."""
    cid = "dudley.cross-counter"
    state, events = fight(cid, "ryu.jab")
    assert of_kind(events, "InitiativeCompared")[0].winner is None
    assert state.lives == [10 - dmg("ryu.jab"), 10 - dmg(cid)]
    state, _ = fight(cid, "ryu.guard")  # the Guard still reduces the counter by 2
    assert state.lives == [10 - dmg("ryu.guard"), 10 - max(0, dmg(cid) - 2)]
    state, _ = fight(cid, "ryu.overhead-throw")  # cancelled: 5 beats 0
    assert state.lives == [10 - dmg("ryu.overhead-throw"), 10]


# ---------------------------------------------------------------------------- coverage
def test_every_card_has_a_scenario_test():
    """All 80 cards (71 types) are covered by a scenario above."""
    assert sum(c.copies for c in CATALOG.cards.values()) == 80
    assert len(CATALOG.cards) == 71
    assert set(CATALOG.cards) == COVERED
