"""kumite's readings of unclear Rivales clauses (docs/rulings.md), one test per ruling and
per option."""

from __future__ import annotations

import random

import pytest

from kumite.core.errors import OptionsError
from kumite.games.rivales.decisions import BOOST, MARKER, PERSONA, PLAY
from kumite.games.rivales.lines import DOWN, SPENT
from tests.games.rivales.helpers import (
    CATALOG,
    GAME,
    card,
    clash,
    curie_cut_then_flipped_up,
    of_kind,
    position,
    sides,
)


def speeds(events):
    return of_kind(events, "SpeedCompared")[0].speeds


def test_every_ruling_has_an_entry_in_the_rule_index():
    rulings = [r for r in GAME.rules if r.startswith("rv.ruling.")]
    assert len(rulings) >= 20
    assert all(GAME.rules[r] for r in rulings)


def test_ruling_round_setup__each_round_starts_afresh_and_next_clash_effects_lapse():
    """rv.ruling.round-setup: all cards gathered, full life, new marker; a dodge's card and
    a Pinzas restriction do not cross into the next round."""
    state = position(
        ["mulan", "zorro"], hands=[["esquiva", "pinzas"], ["golpe", "capa"]], clash=7, taken=[2, 5]
    )
    clash(state, {0: "esquiva", 1: "golpe"})
    assert state.round == 2 and state.phase == MARKER
    for s in (0, 1):
        assert state.taken[s] == 0 and state.ready[s] is None
        assert len(state.hand[s]) == 5 and len(state.deck[s]) == 4
        assert state.ultra[s] is state.fighter(s).ultra
    assert state.lines == [[[], []]]


def test_ruling_boost_level__one_level_per_card_oldest_energy_moved_down_first():
    """rv.ruling.boost-level: one of the three levels; the oldest energy cards are spent."""
    state = position(
        ["darwin", "curie"],
        lines=[["v:golpe", "v:patada", "v:bloqueo", "v:esquiva"], []],
        hands=[["pinzon"], ["bloqueo"]],
    )
    state.apply({0: "play:darwin.pinzon", 1: "play:basic.bloqueo"})
    assert state.legal(0) == ("boost:none", "boost:damage", "boost:speed", "boost:both")
    state.apply({0: "boost:speed"})
    assert sides(state, 0)[:4] == [
        "golpe/exhausted",
        "patada/exhausted",
        "bloqueo/down",
        "esquiva/down",
    ]


def test_ruling_boost_no_winner__without_a_clash_winner_both_boost_at_once():
    """rv.ruling.boost-no-winner: nobody has won a clash yet: both decide at the same time."""
    state = position(
        ["darwin", "curie"], lines=[["v:golpe"], ["v:golpe"]], hands=[["pinzon"], ["fisica"]]
    )
    state.apply({0: "play:darwin.pinzon", 1: "play:curie.fisica"})
    assert [(d.seat, d.kind) for d in state.pending()] == [(0, "boost"), (1, "boost")]


@pytest.mark.parametrize(("option", "winner"), [("damage", None), ("attacker", 0)])
def test_ruling_clash_winner__a_fully_guarded_attack_wins_only_under_attacker(option, winner):
    """rv.ruling.clash-winner (option clash_winner)."""
    state = position(
        ["darwin", "curie"], hands=[["golpe"], ["bloqueo"]], options={"clash_winner": option}
    )
    clash(state, {0: "golpe", 1: "bloqueo"})
    assert state.last_winner == winner


def test_ruling_effect_order_tie__same_type_and_speed_the_last_winner_resolves_first():
    """rv.ruling.effect-order-tie: same type and Speed: the most recent clash winner first."""
    for winner in (0, 1):
        state = position(
            ["zorro", "curie"],
            lines=[["bloqueo"], ["v:golpe"]],
            hands=[["latigazo"], ["isotopos"]],
            last_winner=winner,
        )
        assert card("zorro.latigazo").speed == card("curie.isotopos").speed
        events = clash(state, {0: "latigazo", 1: "isotopos"})
        first = of_kind(events, "EffectApplied")[0]
        assert first.seat == winner


def test_ruling_combo_after_immediate__presion_can_break_its_own_combo():
    """rv.ruling.combo-after-immediate: the combo is counted after the immediate effects."""
    state = position(["zorro", "curie"], lines=[["golpe"], []], hands=[["presion"], ["bloqueo"]])
    events = clash(state, {0: "presion", 1: "bloqueo"}, picks={0: ["golpe"]})
    assert not of_kind(events, "ComboFormed")


def test_ruling_counts__counting_effects_ignore_the_cards_of_this_clash():
    """rv.ruling.counts: Onda Radiactiva does not count itself; face-down includes exhausted."""
    state = position(["curie", "darwin"], lines=[["golpe"], []], hands=[["onda"], ["golpe"]])
    events = clash(state, {0: "onda", 1: "golpe"})
    assert [e.what for e in of_kind(events, "EffectApplied") if e.source == "Onda Radiactiva"] == [
        "+1 Damage"
    ]


def test_ruling_flip_cancels__a_damaged_card_loses_its_end_of_clash_effect():
    """rv.ruling.flip-cancels: Radio, damaged, refreshes nothing."""
    state = position(
        ["curie", "mulan"], lines=[["x:golpe"], []], hands=[["radio"], ["espada"]], taken=[0, 1]
    )
    clash(state, {0: "radio", 1: "espada"})
    assert state.lines[0][0][1].side == DOWN
    assert state.lines[0][0][0].side == SPENT


@pytest.mark.parametrize(("option", "side"), [("energy", DOWN), ("exhausted", SPENT)])
def test_ruling_max_combo_end__the_cut_card_is_energy_or_exhausted(option, side):
    """rv.ruling.max-combo-end (option max_combo_card)."""
    top = GAME.catalog().fighters["curie"].max_combo
    state = position(
        ["curie", "darwin"],
        lines=[["golpe", "patada", "isotopos", "salto"][:top], []],
        hands=[["polonio"], ["bloqueo"]],
        options={"max_combo_card": option},
    )
    events = clash(state, {0: "polonio", 1: "bloqueo"})
    assert of_kind(events, "ComboFormed")[0].maximum
    assert state.lines[0][0][-1].side == side
    # the cut happens after the card dealt its Damage
    kinds = [e.kind for e in events]
    assert kinds.index("AttackResolved") < kinds.index("CardFlipped")


@pytest.mark.parametrize(("option", "links"), [("holds", 1), ("while-down", 4)])
def test_ruling_max_combo_cut__a_cut_card_face_up_again_starts_no_chain(option, links):
    """rv.ruling.max-combo-cut (option max_combo_cut): Curie's passive turns the card that
    closed her maximum combo face up again. ``holds`` (default): the next card started a
    new combo, so the chain stops after the cut card; ``while-down``: face up again, it
    links like any face-up card (a 4-link chain, a maximum combo again)."""
    _, events = curie_cut_then_flipped_up({"max_combo_cut": option})
    (combo,) = [e for e in of_kind(events, "ComboFormed") if e.seat == 0]
    assert combo.links == links and combo.maximum == (option == "while-down")


def test_ruling_max_combo_cut__eslabon_perdido_flips_the_cut_card_but_starts_a_new_combo():
    """rv.ruling.max-combo-cut: Eslabón Perdido ("If the card of the previous clash is face
    down, flip it face up") after Darwin's maximum combo turns the cut card face up; Eslabón
    is the next card, and starts a new combo: no link."""
    top = CATALOG.fighters["darwin"].max_combo
    state = position(
        ["darwin", "curie"],
        lines=[["golpe", "patada", "mutacion"][:top], []],
        hands=[["pinzon", "eslabon"], ["bloqueo", "radio"]],
    )
    events = clash(state, {0: "pinzon", 1: "bloqueo"})
    assert of_kind(events, "ComboFormed")[0].maximum
    assert sides(state, 0)[-1] == "pinzon/down"
    events = clash(state, {0: "eslabon", 1: "radio"})
    assert sides(state, 0)[-2] == "pinzon/up"  # flipped up by Eslabón Perdido
    assert not [e for e in of_kind(events, "ComboFormed") if e.seat == 0]


def test_ruling_double_ko__both_ko_in_an_exchange_both_win_the_round():
    """rv.ruling.double-ko."""
    life = GAME.catalog().fighters["zorro"].life
    state = position(
        ["zorro", "zorro"], hands=[["golpe", "patada"], ["golpe", "patada"]], taken=[life - 1] * 2
    )
    events = clash(state, {0: "golpe", 1: "golpe"})
    (ended,) = of_kind(events, "RoundEnded")
    assert ended.winners == (0, 1) and ended.rule == "rv.ruling.double-ko"


def test_ruling_final_round__an_exchange_decides_nothing():
    """rv.ruling.final-round: Damage caused by both at once decides nothing."""
    state = position(
        ["zorro", "curie"],
        hands=[["golpe", "patada"], ["golpe", "patada"]],
        final=True,
        round=4,
        rounds_won=(2, 2),
    )
    clash(state, {0: "golpe", 1: "golpe"})
    assert not state.is_terminal and state.clash == 2


def test_ruling_final_round__the_limit_of_final_rounds_ends_in_a_draw():
    state = position(
        ["zorro", "curie"],
        hands=[["bloqueo"], ["bloqueo"]],
        clash=7,
        final=True,
        round=4,
        rounds_won=(2, 2),
        options={"final_round_limit": 1},
        taken=[0, 0],
    )
    state.lines[0] = [[], []]
    events = clash(state, {0: "bloqueo", 1: "bloqueo"})
    # the exchange: both caused Damage: no winner of the final round, and the limit is 1
    assert state.is_terminal and state.outcome.draw
    assert state.outcome.returns == (0.0, 0.0)
    assert of_kind(events, "FightEnded")[0].rule == "rv.ruling.final-round"


@pytest.mark.parametrize(
    ("option", "first_zone", "winners"),
    [("in-order", 1, (0, 1)), ("in-order", 2, (2, 3)), ("together", 1, None)],
)
def test_ruling_final_round__2v2_zones_in_order_or_together(option, first_zone, winners):
    """rv.ruling.final-round (option final_round_zones): Team A deals Damage in Zone 1,
    Team B in Zone 2. ``in-order`` (default): the zones resolve one at a time
    (rv.ruling.zone-order), so the zone resolved first decides; ``together``: Damage by both
    teams in one clash decides nothing, and the final round goes on."""
    state = position(
        ["zorro", "curie", "mulan", "darwin"],
        hands=[["golpe", "patada"]] * 4,
        final=True,
        round=4,
        rounds_won=(2, 2),
        options={"final_round_zones": option},
    )
    clash(state, {0: "golpe", 1: "patada", 2: "patada", 3: "golpe"}, first_zone=first_zone)
    if winners is None:
        assert not state.is_terminal and state.clash == 2
        assert [state.life(s) for s in range(4)] == [
            CATALOG.fighters[f].life - d
            for f, d in zip(["zorro", "curie", "mulan", "darwin"], [0, 2, 2, 0], strict=True)
        ]
    else:
        assert state.is_terminal and state.outcome.winners == winners


def test_ruling_final_round__the_zones_option_is_validated():
    with pytest.raises(OptionsError, match="final_round_zones"):
        GAME.new_state(0, {"mode": "2v2", "final_round_zones": "both"})


def test_ruling_final_round__limit_is_validated():
    with pytest.raises(OptionsError, match="final_round_limit"):
        GAME.new_state(0, {"final_round_limit": 0})


def test_ruling_guard_when_damage__no_guard_decision_when_nothing_would_be_dealt():
    """rv.ruling.guard-when-damage."""
    state = position(["darwin", "curie"], lines=[[], ["v:golpe"]], hands=[["golpe"], ["bloqueo"]])
    state.apply({0: "play:basic.golpe", 1: "play:basic.bloqueo"})
    state.apply({1: "boost:none"})
    assert not state.pending() or state.pending()[0].kind != "guard"


def test_ruling_ultra_next_clash__the_ultra_comes_to_hand_even_with_an_empty_deck():
    """rv.ruling.ultra-next-clash."""
    ultra_at = GAME.catalog().fighters["curie"].ultra_at
    state = position(
        ["darwin", "curie"],
        hands=[["golpe", "patada"], ["patada", "bloqueo"]],
        decks=[[], []],
        taken=[0, ultra_at - 1],
    )
    clash(state, {0: "golpe", 1: "patada"})
    assert [c.id for c in state.hand[1]] == ["basic.bloqueo", "curie.onda"]


def test_ruling_dodge__the_card_left_face_up_is_out_of_the_hand_and_public():
    """rv.ruling.dodge."""
    state = position(
        ["darwin", "curie"], hands=[["esquiva", "pinzon"], ["golpe", "salto"]], decks=[[], []]
    )
    clash(state, {0: "esquiva", 1: "golpe"})  # a single card left: no choice to make
    assert state.hand[0] == [] and state.ready[0] is card("darwin.pinzon")
    assert state.view(1)["players"][0]["ready"] == "darwin.pinzon"


def test_ruling_no_basic_only_basics__a_hand_of_basics_may_still_be_played():
    """rv.ruling.no-basic-only-basics."""
    state = position(
        ["mulan", "darwin"], hands=[["pinzas", "golpe"], ["bloqueo", "golpe"]], decks=[[], []]
    )
    clash(state, {0: "pinzas", 1: "bloqueo"})
    assert state.restricted == {1}
    assert state.legal(1) == ("play:basic.golpe",)


def _pinzas_against_a_dodge(option=None):
    """Darwin dodges Mulan's Pinzas de Mantis (faster in combo with Golpe) with Esquiva and
    leaves Golpe face up; Pinzas, still face up, forbids basic cards next clash."""
    state = position(
        ["mulan", "darwin"],
        lines=[["golpe"], []],
        hands=[["pinzas", "espada"], ["esquiva", "golpe", "pinzon"]],
        decks=[[], []],
        options=None if option is None else {"pinzas_dodge": option},
    )
    events = clash(state, {0: "pinzas", 1: "esquiva"}, picks={1: ["golpe"]})
    assert of_kind(events, "NoBasicNextClash")
    assert [e.card for e in of_kind(events, "DodgeCardLeft")] == ["basic.golpe"]
    return state


def test_ruling_pinzas_dodge__a_basic_card_left_face_up_by_a_dodge_is_still_played():
    """rv.ruling.pinzas-dodge (default pinzas_dodge=stands): the dodge's card is already in
    play; Pinzas de Mantis forbids playing basic cards from the hand."""
    state = _pinzas_against_a_dodge()
    assert state.restricted == {1}
    assert [d.seat for d in state.pending()] == [0]  # Darwin's card is the face-up Golpe
    events = clash(state, {0: "espada"})
    played = [e for e in of_kind(events, "CardPlayed") if e.seat == 1]
    assert played[0].card == "basic.golpe" and played[0].rule == "rv.dodge"


def test_ruling_pinzas_dodge__back_the_basic_card_returns_to_the_hand_in_sight():
    """rv.ruling.pinzas-dodge (pinzas_dodge=back): the basic card goes back to the hand,
    seen by everyone, and its owner plays a non-basic card."""
    state = _pinzas_against_a_dodge("back")
    assert state.ready[1] is None and card("basic.golpe") in state.hand[1]
    assert state.legal(1) == ("play:darwin.pinzon",)
    assert state.view(0)["players"][1]["seen_in_hand"] == ["basic.golpe"]
    rng = random.Random(4)
    for _ in range(20):  # the table saw it go back: resampling keeps it there
        assert card("basic.golpe") in state.determinize(0, rng).hand[1]
    events = clash(state, {0: "espada", 1: "pinzon"})
    assert state.view(0)["players"][1]["seen_in_hand"] == ["basic.golpe"]
    assert [e.card for e in of_kind(events, "CardRevealed") if e.seat == 1] == ["darwin.pinzon"]


def test_ruling_pinzas_dodge__back_event_says_why():
    state = position(
        ["mulan", "darwin"],
        lines=[["golpe"], []],
        hands=[["pinzas", "espada"], ["esquiva", "golpe", "pinzon"]],
        options={"pinzas_dodge": "back"},
    )
    events = clash(state, {0: "pinzas", 1: "esquiva"}, picks={1: ["golpe"]})
    (back,) = of_kind(events, "ReadyCardReturned")
    assert back.rule == "rv.ruling.pinzas-dodge" and "Pinzas de Mantis" in back.describe()


def _amague_with_esquiva(option=None):
    state = position(
        ["zorro", "mulan"],
        lines=[["esquiva"], []],
        hands=[["amague", "golpe"], ["espada", "golpe"]],
        options=None if option is None else {"exchanged_card": option},
    )
    events = clash(state, {0: "amague", 1: "espada"}, picks={0: ["esquiva", "golpe"]})
    assert sides(state, 0) == ["amague/up", "esquiva/" + ("up" if option == "effects" else "down")]
    return state, events


def test_ruling_exchanged_card__the_card_swapped_in_brings_its_values_not_its_effect():
    """rv.ruling.exchanged-card (default exchanged_card=values): Esquiva, swapped in by
    Amague, was revealed in an earlier clash: its immediate effect does not act again, so
    Zorro does not dodge; its printed values are those of the clash."""
    state, events = _amague_with_esquiva()
    assert not of_kind(events, "DodgeCardLeft")
    assert speeds(events)[0] == card("basic.esquiva").speed
    assert state.taken[0] == card("mulan.espada").damage


def test_ruling_exchanged_card__effects_the_card_swapped_in_acts_as_if_revealed():
    """rv.ruling.exchanged-card (exchanged_card=effects): Esquiva's dodge acts right after
    Amague's exchange: no Damage, and a card left face up for the next clash."""
    state, events = _amague_with_esquiva("effects")
    assert of_kind(events, "AttackResolved")[0].dodged
    assert state.taken[0] == 0 and state.ready[0] is card("basic.golpe")


def test_ruling_flipped_cards_known__flipped_cards_stay_known_hidden_cards_do_not():
    """rv.ruling.flipped-cards-known."""
    state = position(
        ["darwin", "curie"], lines=[["v:golpe"], ["golpe"]], hands=[["pinzon"], ["salto"]]
    )
    state.apply({0: "play:darwin.pinzon", 1: "play:curie.salto"})
    line = state.view(1)["zones"][0]["lines"][0]
    assert line == [
        {"card": "basic.golpe", "owner": 0, "side": "down", "cut": False},
        {"card": None, "owner": 0, "side": "hidden", "cut": False},
    ]


def test_ruling_zones_before_cards__players_know_whom_they_face_when_they_play():
    """rv.ruling.zones-before-cards."""
    state = GAME.new_state(4, {"mode": "2v2", "fighters": ["zorro", "curie", "mulan", "darwin"]})
    state.apply({d.seat: d.legal[0] for d in state.pending()})
    state.apply({0: "zone:1", 2: "zone:2"})
    assert state.phase == PLAY
    assert state.view(0)["fights"][0]["seats"] == [0, 3]


def _isotopos_against_presion(first_zone):
    """Zone 1: Mulan (Team B) hits Darwin. Zone 2: Curie's Isótopos Cargados against Zorro's
    Presión, of the same type and Speed at the reveal (Presión's combo with Golpe): the most
    recent clash winner's effect goes first."""
    state = position(
        ["darwin", "curie", "mulan", "zorro"],
        lines={(1, 1): ["p4:golpe"]},
        hands=[
            ["golpe", "patada"],
            ["isotopos", "golpe"],
            ["espada", "golpe"],
            ["presion", "golpe"],
        ],
    )
    combo = CATALOG.fighters["zorro"].combo[0].speed
    assert card("curie.isotopos").speed == card("zorro.presion").speed + combo
    events = clash(
        state,
        {0: "golpe", 1: "isotopos", 2: "espada", 3: "presion"},
        picks={3: ["golpe"]},
        first_zone=first_zone,
    )
    isotopos = [e.what for e in of_kind(events, "EffectApplied") if e.source == "Isótopos Cargados"]
    return state, events, isotopos


def test_ruling_zone_order__the_order_of_the_zones_changes_the_clash():
    """rv.2v2.boosting: "Each zone is resolved separately and in the order the players decide".
    Zone 1 first: Mulan's win makes Team B the most recent winner, Presión resolves first
    and flips Zorro's Golpe: Isótopos +0. Zone 2 first: nobody has won yet, Isótopos (the
    lower seat) resolves first: +1."""
    _, events, first_1 = _isotopos_against_presion(1)
    assert first_1 == ["+0 Damage"]
    (chosen,) = of_kind(events, "ZoneOrderChosen")
    assert (chosen.first, chosen.rule) == (0, "rv.ruling.zone-order")
    _, events, first_2 = _isotopos_against_presion(2)
    assert first_2 == ["+1 Damage"]
    reveals = [e.seat for e in of_kind(events, "CardRevealed")]
    assert reveals == [1, 3, 0, 2]  # Zone 2, then Zone 1


def test_ruling_zone_order__the_zone_resolved_last_gives_the_most_recent_winner():
    """rv.energy.boost-order: the most recent clash winner is the winner of the zone
    resolved last."""
    state, _, _ = _isotopos_against_presion(2)
    assert state.last_winner == 1  # Mulan's zone was resolved last
    state, events, _ = _isotopos_against_presion(1)
    attacks = of_kind(events, "AttackResolved")
    assert attacks[-1].attacker == 1 and attacks[-1].dealt  # Curie, in Zone 2, resolved last
    assert state.last_winner == 0


def test_ruling_zone_order__boosts_go_zone_by_zone_in_the_order_chosen():
    """rv.2v2.boosting: both zones are boosted separately, the first zone completely first."""
    state = position(
        ["darwin", "curie", "mulan", "zorro"],
        lines={(0, 0): ["v:patada"], (1, 0): ["p2:v:patada"], (1, 1): ["p4:v:patada"]},
        hands=[["golpe"], ["golpe"], ["golpe"], ["golpe"]],
    )
    state.apply(dict.fromkeys(range(4), "play:basic.golpe"))
    assert [(d.seat, d.kind) for d in state.pending()] == [(0, "zone-order")]
    state.apply({0: "order:2"})
    assert {d.seat for d in state.pending()} == {1, 3}  # Zone 2: both, at once (no winner)
    state.apply({1: "boost:none", 3: "boost:damage"})
    assert {d.seat for d in state.pending()} == {0}  # then Zone 1
    assert state.view(0)["fights"][0]["zone"] == 1  # the views list the zones in order


@pytest.mark.parametrize(
    ("option", "last_winner", "clash", "seat"),
    [
        ("winner", None, 1, 0),  # nobody has won: Team A on odd clashes (its first seat)
        ("winner", None, 2, 3),  # Team B on even ones (its caller: the second seat)
        ("winner", 1, 1, 2),  # Team B won most recently: its caller decides
        ("winner", 0, 2, 1),
        ("alternate", 1, 1, 0),  # the teams in turn, whoever won
        ("alternate", 0, 2, 3),
    ],
)
def test_ruling_zone_order__who_chooses(option, last_winner, clash, seat):
    """rv.ruling.zone-order (option zone_order): the team that won a clash most recently
    (its zone caller, rv.ruling.zone-caller) chooses; else the teams take turns."""
    state = position(
        ["darwin", "curie", "mulan", "zorro"],
        hands=[["golpe"]] * 4,
        last_winner=last_winner,
        clash=clash,
        options={"zone_order": option},
    )
    state.apply(dict.fromkeys(range(4), "play:basic.golpe"))
    assert [(d.seat, d.kind) for d in state.pending()] == [(seat, "zone-order")]


def test_ruling_persona_order__hansel_or_gretel_after_the_cards_before_the_boosts():
    """rv.ruling.persona-order."""
    state = position(
        ["hansel-gretel", "curie"], lines=[["v:golpe"], []], hands=[["horno"], ["golpe"]]
    )
    state.apply({0: "play:hansel-gretel.horno", 1: "play:basic.golpe"})
    assert state.phase == PERSONA
    state.apply({0: "persona:gretel"})
    assert state.phase == BOOST


def test_ruling_end_order__card_effects_then_maximum_combo_then_passives():
    """rv.ruling.end-order. Mulan's Pinzas de Mantis closes her maximum combo: its end effect
    still acts, then the combo is cut; Curie's Radio turns an exhausted card into a third
    energy card, and only then does Curie's passive count three and flip one face up."""
    top = CATALOG.fighters["mulan"].max_combo
    chain = ["golpe", "patada", "abanico", "grillo", "montana"][:top]
    state = position(
        ["curie", "mulan"],
        lines=[["v:golpe", "v:patada", "x:bloqueo"], chain],
        hands=[["radio", "salto"], ["pinzas", "espada"]],
    )
    events = clash(state, {0: "radio", 1: "pinzas"})
    assert of_kind(events, "ComboFormed")[0].maximum
    assert of_kind(events, "AttackResolved")[0].dealt == 0  # both cards stay face up
    where = {
        "pinzas": next(i for i, e in enumerate(events) if e.kind == "NoBasicNextClash"),
        "radio": next(
            i for i, e in enumerate(events) if e.kind == "EffectApplied" and e.source == "Radio"
        ),
        "cut": next(
            i
            for i, e in enumerate(events)
            if e.kind == "CardFlipped" and e.rule == "rv.combo.maximum"
        ),
        "passive": next(i for i, e in enumerate(events) if e.kind == "CardFlipped" and e.up),
    }
    assert where["pinzas"] < where["cut"] and where["radio"] < where["cut"] < where["passive"]
    assert sides(state, 1)[-1] == "pinzas/down"  # cut after its effect acted
    assert state.restricted == {0}  # Pinzas de Mantis binds Curie this clash
    assert sides(state, 0) == ["golpe/down", "patada/down", "bloqueo/up", "radio/up"]
    assert state.carry[0] == [1, 0, 0]  # the passive's +1 Speed for Curie's next card


def test_ruling_mirror__two_players_may_fight_with_the_same_fighter_in_1vs1():
    """rv.ruling.mirror."""
    state = GAME.new_state(1, {"fighters": ["zorro", "zorro"]})
    assert state.fighter(0) is state.fighter(1)
    state.apply({d.seat: d.legal[0] for d in state.pending()})
    assert state.who == ["P1 Zorro", "P2 Zorro"]


def test_options__unknown_fighter_or_wrong_count_are_clear_errors():
    with pytest.raises(OptionsError, match="unknown fighter 'batman'"):
        GAME.new_state(0, {"fighters": ["batman", "zorro"]})
    with pytest.raises(OptionsError, match="needs 4 fighters"):
        GAME.new_state(0, {"mode": "2v2", "fighters": ["zorro", "curie"]})
    with pytest.raises(OptionsError, match="rivales options"):
        GAME.new_state(0, {"mode": "3v3"})
