"""Rivales 1vs1 rulebook clauses, one test (or more) per clause, named after it.

Values are read from the pack where a test depends on them, so the tests hold for any pack
that keeps the rules (a user's overlay with the real numbers included)."""

from __future__ import annotations

import random

import pytest

from kumite.core.errors import IllegalChoiceError, MissingChoiceError
from kumite.games.rivales.decisions import BOOST, MARKER, PLAY
from kumite.games.rivales.lines import DOWN, HIDDEN, SPENT, UP
from tests.games.rivales.helpers import (
    GAME,
    card,
    clash,
    curie_cut_then_flipped_up,
    of_kind,
    position,
    sides,
)

GOLPE, PATADA, BLOQUEO = card("basic.golpe"), card("basic.patada"), card("basic.bloqueo")


def fresh(seed: int = 1, fighters=("zorro", "curie")):
    return GAME.new_state(seed, {"fighters": list(fighters)})


# ------------------------------------------------------------------------------- setup
def test_components_deck__four_basic_five_unique_one_ultra_per_fighter():
    """rv.components.deck: 10 movement cards: x4 basic (the same for all), x5 unique, x1 ultra."""
    basics = None
    for fighter in GAME.catalog().fighters.values():
        types = [c.type for c in fighter.cards]
        assert (types.count("basic"), types.count("unique"), types.count("ultra")) == (4, 5, 1)
        shared = [c for c in fighter.cards if c.type == "basic"]
        basics = basics or shared
        assert shared == basics


def test_setup_fighter__each_player_selects_a_fighter():
    """rv.setup.fighter: each player selects a fighter (at the same time in 1vs1)."""
    state = GAME.new_state(1)
    assert [(d.seat, d.kind) for d in state.pending()] == [(0, "fighter"), (1, "fighter")]
    assert len(state.pending()[0].legal) == 6
    events = state.apply({0: "fighter:mulan", 1: "fighter:darwin"})
    assert [e.fighter for e in of_kind(events, "FighterChosen")] == ["Mulan", "Darwin"]
    assert state.phase == MARKER


def test_setup_ultra_aside__the_ultra_starts_face_up_aside():
    """rv.setup.ultra-aside: the ultra is set aside face up, out of deck and hand."""
    state = fresh()
    for s in (0, 1):
        ultra = state.fighter(s).ultra
        assert state.ultra[s] is ultra
        assert ultra not in state.deck[s] and ultra not in state.hand[s]
        assert state.view(1 - s)["players"][s]["ultra"] == "aside"


def test_setup_deck__the_other_nine_cards_are_shuffled_into_the_deck():
    """rv.setup.deck: the remaining 9 cards are shuffled and form the deck."""
    orders = set()
    for seed in range(6):
        state = fresh(seed)
        cards = state.hand[0] + state.deck[0]
        assert sorted(c.id for c in cards) == sorted(c.id for c in state.fighter(0).deck)
        orders.add(tuple(c.id for c in cards))
    assert len(orders) > 1


def test_setup_life_marker__draw_five_and_choose_one_as_life_marker():
    """rv.setup.life-marker: draw 5 and choose one of them as life marker."""
    state = fresh()
    decisions = state.pending()
    assert [d.kind for d in decisions] == ["marker", "marker"]
    assert len(state.hand[0]) == 5 and len(state.deck[0]) == 4
    assert set(decisions[0].legal) == {f"marker:{c.id}" for c in state.hand[0]}
    chosen = state.hand[0][2]
    state.apply({0: f"marker:{chosen.id}", 1: decisions[1].legal[0]})
    assert state.marker[0] is chosen
    assert chosen not in state.hand[0]


def test_setup_hand__the_four_remaining_cards_are_the_starting_hand():
    """rv.setup.hand: the 4 remaining cards are the starting hand; the life bar is full."""
    state = fresh()
    drawn = list(state.hand[0])
    state.apply({d.seat: d.legal[0] for d in state.pending()})
    assert len(state.hand[0]) == 4
    assert sorted(c.id for c in state.hand[0] + [state.marker[0]]) == sorted(c.id for c in drawn)
    assert state.life(0) == state.fighter(0).life
    assert state.phase == PLAY


def test_ruling_life_marker_hidden__the_rival_does_not_see_the_life_marker():
    """rv.ruling.life-marker-hidden: the owner sees their marker; the rival does not."""
    state = fresh()
    events = state.apply({d.seat: d.legal[0] for d in state.pending()})
    assert state.view(0)["players"][0]["marker"] == state.marker[0].id
    assert "marker" not in state.view(1)["players"][0]
    assert state.view(1)["players"][0]["marker_placed"] is True
    for e in of_kind(events, "LifeMarkerChosen"):
        assert (e.card is None) == (e.to is None)


# ------------------------------------------------------------------------------ clashes
def test_clash_play__both_play_one_card_face_down_at_the_same_time():
    """rv.clash.play: both players play 1 card at once, face down."""
    state = position(
        ["zorro", "curie"],
        lines=[["v:golpe"], []],
        hands=[["patada", "bloqueo"], ["golpe", "salto"]],
    )
    assert [(d.seat, d.kind) for d in state.pending()] == [(0, "play"), (1, "play")]
    with pytest.raises(MissingChoiceError):
        state.apply({0: "play:basic.patada"})
    events = state.apply({0: "play:basic.patada", 1: "play:basic.golpe"})
    assert state.phase == BOOST  # Zorro has energy: the cards wait face down
    assert [e.card for e in of_kind(events, "CardPlayed")] == [None, None]
    assert state.lines[0][0][-1].side == HIDDEN
    rival_view = state.view(1)["zones"][0]["lines"][0]
    assert rival_view[-1] == {"card": None, "owner": 0, "side": "hidden", "cut": False}
    assert "hand" not in state.view(1)["players"][0]


def test_clash_play__cards_are_played_adjacent_to_the_last_played_card():
    """rv.clash.play: each card is placed next to the player's last played card."""
    state = position(["zorro", "curie"], hands=[["golpe", "patada"], ["bloqueo", "salto"]])
    clash(state, {0: "golpe", 1: "bloqueo"})
    clash(state, {0: "patada", 1: "salto"})
    assert [s.card.id for s in state.lines[0][0]] == ["basic.golpe", "basic.patada"]
    assert [s.card.id for s in state.lines[0][1]] == ["basic.bloqueo", "curie.salto"]


def test_clash_reveal__boosts_are_decided_before_the_cards_are_revealed():
    """rv.clash.reveal: players decide whether to boost, then both cards are revealed."""
    state = position(
        ["zorro", "curie"],
        lines=[["v:golpe"], []],
        hands=[["patada", "bloqueo"], ["salto", "radio"]],
    )
    state.apply({0: "play:basic.patada", 1: "play:curie.salto"})
    (d,) = state.pending()
    assert (d.seat, d.kind, d.legal) == (0, "boost", ("boost:none", "boost:damage"))
    assert all(line[-1].side == HIDDEN for line in state.lines[0])
    events = state.apply({0: "boost:damage"})
    assert [e.kind for e in events].index("BoostChosen") < [e.kind for e in events].index(
        "CardRevealed"
    )


def test_clash_immediate_order__ultra_then_basic_then_unique():
    """rv.clash.immediate-order: immediate effects resolve by type: basic before unique."""
    state = position(
        ["zorro", "curie"], lines=[["golpe"], []], hands=[["presion"], ["esquiva", "golpe"]]
    )
    events = clash(state, {0: "presion", 1: "esquiva"}, picks={0: ["golpe"]})
    order = [e.source for e in of_kind(events, "EffectApplied")] + [
        e.name for e in of_kind(events, "CardFlipped") if "Presión" in e.reason
    ]
    assert order.index("Esquiva") == 0
    assert "Golpe" in order


def test_clash_immediate_order__ultra_resolves_before_basic():
    """Ultra (pink hexagon) before basic: La Marca counts face-down cards before Esquiva."""
    state = position(
        ["zorro", "curie"],
        lines=[["v:golpe", "v:patada"], []],
        hands=[["la-marca"], ["esquiva", "golpe"]],
    )
    events = clash(state, {0: "la-marca", 1: "esquiva"})
    sources = [e.source for e in of_kind(events, "EffectApplied")]
    assert sources.index("La Marca") < sources.index("Esquiva")


def test_clash_immediate_order__same_type_the_faster_card_resolves_first():
    """Same type: whoever has more Speed resolves first (Latigazo 3 before Salto 2)."""
    state = position(
        ["zorro", "curie"], lines=[["golpe"], ["v:golpe"]], hands=[["latigazo"], ["salto"]]
    )
    events = clash(state, {0: "latigazo", 1: "salto"})
    sources = [e.source for e in of_kind(events, "EffectApplied")]
    assert sources[0] == "Latigazo"
    assert "Salto Analítico" in sources


def test_clash_requirement__an_effect_whose_red_requirement_fails_does_nothing():
    """rv.clash.requirement: Latigazo needs the previous card face up."""
    state = position(["zorro", "curie"], lines=[["v:golpe"], []], hands=[["latigazo"], ["bloqueo"]])
    events = clash(state, {0: "latigazo", 1: "bloqueo"})
    (unmet,) = of_kind(events, "RequirementUnmet")[:1]
    assert unmet.source == "Latigazo" and "face up" in unmet.requirement
    (compared,) = of_kind(events, "SpeedCompared")
    assert compared.speeds[0] == card("zorro.latigazo").speed


def test_speed_value__printed_speed_plus_bonuses_from_effects_and_combo():
    """rv.speed.value: Speed = base + bonuses (Latigazo +1 and Zorro's first link +1)."""
    state = position(["zorro", "curie"], lines=[["golpe"], []], hands=[["latigazo"], ["bloqueo"]])
    events = clash(state, {0: "latigazo", 1: "bloqueo"})
    (compared,) = of_kind(events, "SpeedCompared")
    combo = state.fighter(0).combo[0].speed
    assert compared.speeds == (card("zorro.latigazo").speed + 1 + combo, BLOQUEO.speed)


def test_speed_tie_type__a_basic_card_beats_a_unique_card_of_equal_speed():
    """rv.speed.tie-type: on a Speed tie, basic beats unique."""
    state = position(["mulan", "curie"], hands=[["golpe"], ["fisica", "polonio"]])
    assert GOLPE.speed == card("curie.polonio").speed
    events = clash(state, {0: "golpe", 1: "polonio"})
    (compared,) = of_kind(events, "SpeedCompared")
    assert compared.rule == "rv.speed.tie-type"
    assert compared.attacker == 0


def test_speed_tie_type__an_ultra_card_beats_a_basic_card_of_equal_speed():
    """An ultra against a Golpe boosted to the same Speed: the ultra wins (the test sets
    Onda Radiactiva's Speed to Golpe's + 1 with an overlay, whatever the pack says)."""
    overlay = (
        '[pack]\nid = "t"\ngame = "rivales"\n'
        f'[[cards]]\nid = "curie.onda"\nspeed = {card("basic.golpe").speed + 1}\n'
    )
    state = position(
        ["curie", "darwin"],
        lines=[[], ["v:patada", "v:bloqueo"]],
        hands=[["onda"], ["golpe"]],
        options={"pack": overlay},
    )
    events = clash(state, {0: "onda", 1: "golpe"}, boosts={1: "speed"})
    (compared,) = of_kind(events, "SpeedCompared")
    assert compared.speeds[0] == compared.speeds[1] == card("basic.golpe").speed + 1
    assert compared.rule == "rv.speed.tie-type" and compared.attacker == 0


def test_speed_exchange__equal_speed_and_type_both_flip_and_take_1_ignoring_guard():
    """rv.speed.exchange: both flip their card and receive 1 Damage, ignoring Guard."""
    state = position(["zorro", "curie"], hands=[["bloqueo"], ["bloqueo"]])
    events = clash(state, {0: "bloqueo", 1: "bloqueo"})
    assert [s.side for line in state.lines[0] for s in line] == [DOWN, DOWN]
    assert [state.taken[0], state.taken[1]] == [1, 1]
    assert of_kind(events, "SpeedCompared")[0].attacker is None
    assert not of_kind(events, "AttackResolved")


def test_speed_attacker__the_faster_card_attacks_and_the_other_defends():
    """rv.speed.attacker: the higher Speed attacks; the rival defends."""
    state = position(["zorro", "curie"], hands=[["golpe"], ["patada"]])
    events = clash(state, {0: "golpe", 1: "patada"})
    (attack,) = of_kind(events, "AttackResolved")
    assert (attack.attacker, attack.defender) == (0, 1)
    assert state.taken == [0, GOLPE.damage]


def test_attack_damage__printed_damage_plus_bonuses():
    """rv.attack.damage: Damage = base + bonuses (a 1-energy boost: +1 Damage)."""
    state = position(["zorro", "curie"], lines=[["v:patada"], []], hands=[["golpe"], ["bloqueo"]])
    events = clash(state, {0: "golpe", 1: "bloqueo"}, boosts={0: "damage"})
    (attack,) = of_kind(events, "AttackResolved")
    assert attack.damage == GOLPE.damage + 1


def test_defense_guard__guard_is_subtracted_and_1_or_more_is_dealt():
    """rv.defense.guard: Damage minus the defender's Guard is dealt when 1 or more."""
    state = position(
        ["zorro", "curie"],
        lines=[["v:patada", "v:golpe", "v:esquiva"], []],
        hands=[["estocada"], ["bloqueo"]],
    )
    clash(state, {0: "estocada", 1: "bloqueo"}, boosts={0: "both"})
    expected = card("zorro.estocada").damage + 1 - BLOQUEO.guard
    assert expected >= 0
    assert state.taken[1] == max(0, expected)


def test_defense_no_damage__the_clash_ends_leaving_both_cards_face_up():
    """rv.defense.no-damage: no Damage — both cards stay face up."""
    state = position(["zorro", "curie"], hands=[["golpe"], ["bloqueo"]])
    assert GOLPE.damage <= BLOQUEO.guard
    events = clash(state, {0: "golpe", 1: "bloqueo"})
    assert [s.side for line in state.lines[0] for s in line] == [UP, UP]
    assert state.taken == [0, 0]
    assert of_kind(events, "AttackResolved")[0].rule == "rv.defense.no-damage"


def test_damage_flip__the_damaged_defender_flips_their_card_cancelling_its_effect():
    """rv.damage.flip: Pinzas de Mantis, damaged, is flipped: no 'no basic cards' next clash."""
    state = position(["mulan", "zorro"], hands=[["pinzas", "golpe"], ["estocada", "golpe"]])
    events = clash(state, {0: "pinzas", 1: "estocada"})
    assert state.lines[0][0][-1].side == DOWN
    assert not of_kind(events, "NoBasicNextClash")
    assert "play:basic.golpe" in state.legal(1)


def test_damage_life_marker__the_marker_moves_right_as_many_spaces_as_damage():
    """rv.damage.life-marker: the life marker moves one space per Damage point."""
    state = position(["zorro", "curie"], hands=[["golpe"], ["patada"]], taken=[0, 2])
    events = clash(state, {0: "golpe", 1: "patada"})
    (taken,) = of_kind(events, "DamageTaken")
    assert state.taken[1] == 2 + GOLPE.damage
    assert taken.life == state.fighter(1).life - 2 - GOLPE.damage


def test_end_ko__uncovering_ko_loses_the_round_immediately():
    """rv.end.ko: a fighter who uncovers K.O. loses at once, ending the round."""
    blow = card("basic.golpe").damage
    life = GAME.catalog().fighters["curie"].life
    state = position(
        ["zorro", "curie"],
        hands=[["golpe", "patada"], ["patada", "bloqueo"]],
        taken=[0, life - blow],
    )
    events = clash(state, {0: "golpe", 1: "patada"})
    assert of_kind(events, "KnockedOut")[0].seat == 1
    (ended,) = of_kind(events, "RoundEnded")
    assert ended.winners == (0,) and ended.reason == "K.O."
    assert state.rounds_won == [1, 0]
    assert state.round == 2 and state.phase == MARKER


def test_end_ultra__uncovering_the_ultra_icon_brings_the_ultra_to_hand():
    """rv.end.ultra: the ultra icon uncovered during a clash: the ultra comes to hand."""
    fighter = GAME.catalog().fighters["curie"]
    state = position(
        ["zorro", "curie"],
        hands=[["golpe", "patada"], ["patada", "bloqueo"]],
        taken=[0, fighter.ultra_at - 1],
    )
    events = clash(state, {0: "golpe", 1: "patada"})
    assert of_kind(events, "UltraIconUncovered")[0].seat == 1
    assert of_kind(events, "UltraTaken")[0].card == "curie.onda"
    assert fighter.ultra in state.hand[1]
    assert "play:curie.onda" in state.legal(1)
    assert state.view(0)["players"][1]["ultra"] == "taken"


def test_end_next_clash__each_player_draws_one_card_while_the_deck_lasts():
    """rv.end.next-clash: a new clash begins with each player drawing a card, if any left."""
    state = position(
        ["zorro", "curie"], hands=[["golpe", "patada"], ["patada", "bloqueo"]], decks=[["capa"], []]
    )
    events = clash(state, {0: "golpe", 1: "patada"})
    drawn = of_kind(events, "CardsDrawn")
    assert [(e.seat, e.count, e.to) for e in drawn] == [
        (0, 1, frozenset({0})),
        (0, 1, None),
        (1, 0, None),
    ]
    assert card("zorro.capa") in state.hand[0]
    assert [c.id for c in state.hand[1]] == ["basic.bloqueo"]  # playing with what is left


def test_end_seventh_clash__a_round_lasts_7_clashes_at_most():
    """rv.end.seventh-clash / rv.play.goal: at most 7 clashes a round."""
    rng = random.Random(3)
    for seed in range(20):
        state = fresh(seed)
        seen: dict[int, int] = {}
        while not state.is_terminal:
            seen[state.round] = max(seen.get(state.round, 0), state.clash)
            state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
        assert max(seen.values()) <= 7


def test_end_seventh_clash__after_the_seventh_clash_more_life_wins():
    state = position(["zorro", "zorro"], hands=[["bloqueo"], ["bloqueo"]], clash=7, taken=[3, 1])
    events = clash(state, {0: "bloqueo", 1: "bloqueo"})
    (ended,) = of_kind(events, "RoundEnded")
    assert ended.winners == (1,) and ended.rule == "rv.end.seventh-clash"


def test_end_round_tie__equal_life_the_round_is_won_by_both():
    """rv.end.round-tie: a tie in life: both fighters win the round."""
    state = position(["zorro", "zorro"], hands=[["bloqueo"], ["bloqueo"]], clash=7, taken=[0, 0])
    events = clash(state, {0: "bloqueo", 1: "bloqueo"})
    (ended,) = of_kind(events, "RoundEnded")
    assert ended.winners == (0, 1) and ended.rule == "rv.end.round-tie"
    assert state.rounds_won == [1, 1]


def test_end_match__two_rounds_won_end_the_fight():
    """rv.end.match: the game ends when a player wins 2 out of 3 rounds."""
    state = position(
        ["zorro", "zorro"],
        hands=[["bloqueo"], ["bloqueo"]],
        clash=7,
        taken=[3, 1],
        round=2,
        rounds_won=(1, 1),
    )
    events = clash(state, {0: "bloqueo", 1: "bloqueo"})
    assert state.is_terminal
    outcome = state.outcome
    assert outcome.winners == (1,) and outcome.returns == (-1.0, 1.0)
    assert outcome.detail["rounds_won"] == [1, 2]
    assert of_kind(events, "FightEnded")[0].rule == "rv.end.match"


def test_end_match__a_shared_tie_at_one_round_each_plays_on():
    """After 1-0 and a tie (2-1), the player with 2 rounds wins; at 2-2 play goes on."""
    state = position(
        ["zorro", "zorro"], hands=[["bloqueo"], ["bloqueo"]], clash=7, round=2, rounds_won=(1, 1)
    )
    clash(state, {0: "bloqueo", 1: "bloqueo"})  # a tie: 2-2 after two rounds
    assert not state.is_terminal
    assert state.rounds_won == [2, 2] and state.round == 3 and not state.final


def test_end_final_round__a_tie_after_3_rounds_plays_a_final_round():
    """rv.end.final-round: tied after 3 rounds, a final round is played."""
    state = position(
        ["zorro", "zorro"], hands=[["bloqueo"], ["bloqueo"]], clash=7, round=3, rounds_won=(1, 1)
    )
    events = clash(state, {0: "bloqueo", 1: "bloqueo"})
    assert state.rounds_won == [2, 2]
    assert state.final and state.round == 4
    assert of_kind(events, "RoundStarted")[-1].final is True


def test_end_final_round__the_first_to_cause_damage_wins():
    state = position(
        ["zorro", "curie"],
        hands=[["golpe", "bloqueo"], ["patada", "bloqueo"]],
        final=True,
        round=4,
        rounds_won=(2, 2),
    )
    events = clash(state, {0: "golpe", 1: "patada"})
    assert state.is_terminal
    assert state.outcome.winners == (0,)
    assert state.outcome.rule == "rv.end.final-round"
    assert of_kind(events, "RoundEnded")[0].reason == "first Damage"


# ------------------------------------------------------------------------------ energy
def test_energy_flipped__each_flipped_card_is_one_energy():
    """rv.energy.flipped: a card flipped by Damage is 1 energy."""
    state = position(["zorro", "curie"], hands=[["golpe", "patada"], ["patada", "salto"]])
    clash(state, {0: "golpe", 1: "patada"})
    assert state.view(0)["zones"][0]["energy"] == [0, 1]


def test_energy_boost__one_energy_is_plus_one_damage_and_the_card_is_moved_down():
    """rv.energy.boost: x1 energy = +1 Damage; the spent card is moved down."""
    state = position(["zorro", "curie"], lines=[["v:patada"], []], hands=[["golpe"], ["salto"]])
    events = clash(state, {0: "golpe", 1: "salto"}, boosts={0: "damage"})
    (boost,) = of_kind(events, "BoostChosen")
    assert (boost.energy, boost.speed, boost.damage) == (1, 0, 1)
    assert state.lines[0][0][0].side == SPENT
    assert state.taken[1] == GOLPE.damage + 1


def test_energy_boost__two_energies_are_plus_one_speed():
    state = position(
        ["darwin", "curie"], lines=[["v:patada", "v:bloqueo"], []], hands=[["golpe"], ["fisica"]]
    )
    events = clash(state, {0: "golpe", 1: "fisica"}, boosts={0: "speed"})
    (compared,) = of_kind(events, "SpeedCompared")
    assert compared.speeds[0] == GOLPE.speed + 1
    assert sides(state, 0)[:2] == ["patada/exhausted", "bloqueo/exhausted"]


def test_energy_boost__three_energies_are_plus_one_speed_and_plus_one_damage():
    state = position(
        ["darwin", "curie"],
        lines=[["v:patada", "v:bloqueo", "v:esquiva"], []],
        hands=[["golpe"], ["fisica"]],
    )
    events = clash(state, {0: "golpe", 1: "fisica"}, boosts={0: "both"})
    (compared,) = of_kind(events, "SpeedCompared")
    assert compared.speeds[0] == GOLPE.speed + 1
    assert of_kind(events, "AttackResolved")[0].damage == GOLPE.damage + 1
    assert state.view(0)["zones"][0]["energy"][0] == 0


def test_energy_boost__levels_offered_match_the_energy_available():
    state = position(
        ["zorro", "curie"], lines=[["v:patada", "v:bloqueo"], []], hands=[["golpe"], ["fisica"]]
    )
    state.apply({0: "play:basic.golpe", 1: "play:curie.fisica"})
    assert state.legal(0) == ("boost:none", "boost:damage", "boost:speed")
    with pytest.raises(IllegalChoiceError):
        state.apply({0: "boost:both"})


def test_energy_boost__exhausted_cards_cannot_be_reused():
    """'They cannot reuse it unless some effect indicates so.'"""
    state = position(
        ["zorro", "curie"],
        lines=[["x:patada", "x:bloqueo"], []],
        hands=[["golpe", "estocada"], ["fisica", "salto"]],
    )
    events = state.apply({0: "play:basic.golpe", 1: "play:curie.fisica"})
    assert not of_kind(events, "BoostChosen")  # no energy: no boost to decide
    assert sides(state, 0)[:2] == ["patada/exhausted", "bloqueo/exhausted"]


def test_energy_boost_order__the_most_recent_clash_winner_decides_first():
    """rv.energy.boost-order: the most recent winner boosts (or passes) first, then the rival."""
    state = position(
        ["zorro", "curie"],
        lines=[["v:patada"], ["v:golpe"]],
        hands=[["golpe"], ["fisica"]],
        last_winner=1,
    )
    state.apply({0: "play:basic.golpe", 1: "play:curie.fisica"})
    assert [d.seat for d in state.pending()] == [1]
    events = state.apply({1: "boost:damage"})
    assert of_kind(events, "BoostChosen")[0].seat == 1
    assert [d.seat for d in state.pending()] == [0]
    assert state.view(0)["fights"][0]["boost"] == [0, 1]  # the rival's boost is known


def test_energy_boost_order__a_winner_is_the_attacker_who_dealt_damage():
    state = position(["zorro", "curie"], hands=[["golpe", "patada"], ["patada", "salto"]])
    clash(state, {0: "golpe", 1: "patada"})
    assert state.last_winner == 0


def test_energy_guard__only_the_defender_may_exhaust_energy_for_guard():
    """rv.energy.guard: the defender raises Guard by as many energies as they exhaust."""
    state = position(
        ["mulan", "curie"],
        lines=[["v:patada"], ["v:golpe", "v:bloqueo"]],
        hands=[["furia"], ["salto"]],
    )
    state.apply({0: "play:mulan.furia", 1: "play:curie.salto"})
    while state.pending()[0].kind == "boost":
        state.apply({d.seat: "boost:none" for d in state.pending()})
    (d,) = state.pending()
    assert (d.seat, d.kind, d.legal) == (1, "guard", ("guard:0", "guard:1", "guard:2"))
    events = state.apply({1: "guard:2"})
    (boosted,) = of_kind(events, "GuardBoosted")
    assert boosted.guard == card("curie.salto").guard + 2
    dealt = card("mulan.furia").damage - card("curie.salto").guard - 2
    assert state.taken[1] == max(0, dealt)
    assert sides(state, 1)[:2] == ["golpe/exhausted", "bloqueo/exhausted"]


def test_energy_guard__the_attacker_is_never_asked():
    state = position(["zorro", "curie"], lines=[["v:patada"], []], hands=[["estocada"], ["salto"]])
    state.apply({0: "play:zorro.estocada", 1: "play:curie.salto"})
    state.apply({0: "boost:none"})
    assert state.pending()[0].kind != "guard"


# ------------------------------------------------------------------------------ combos
def test_combo_link__two_adjacent_face_up_link_cards_get_the_fighter_bonus():
    """rv.combo.link: link cards face up and adjacent are in combo: the card of the clash
    receives the first bonus of the fighter card."""
    state = position(["zorro", "curie"], lines=[["golpe"], []], hands=[["estocada"], ["bloqueo"]])
    events = clash(state, {0: "estocada", 1: "bloqueo"})
    (combo,) = of_kind(events, "ComboFormed")
    step = state.fighter(0).combo[0]
    assert (combo.links, combo.speed, combo.damage) == (1, step.speed, step.damage)


def test_combo_link__a_face_down_card_breaks_the_chain():
    state = position(["zorro", "curie"], lines=[["v:golpe"], []], hands=[["estocada"], ["bloqueo"]])
    events = clash(state, {0: "estocada", 1: "bloqueo"})
    assert not of_kind(events, "ComboFormed")


def test_combo_link__a_card_without_link_is_not_in_combo():
    state = position(["zorro", "curie"], lines=[["golpe"], []], hands=[["amague"], ["bloqueo"]])
    assert not card("zorro.amague").link
    events = clash(state, {0: "amague", 1: "bloqueo"})
    assert not of_kind(events, "ComboFormed")


def test_combo_chained__two_links_add_both_bonuses():
    """rv.combo.chained: a chain of 2 links adds the first and second bonuses."""
    state = position(
        ["mulan", "curie"], lines=[["golpe", "patada"], []], hands=[["abanico"], ["bloqueo"]]
    )
    events = clash(state, {0: "abanico", 1: "bloqueo"})
    (combo,) = of_kind(events, "ComboFormed")
    steps = state.fighter(0).combo
    assert combo.links == 2
    assert combo.speed == steps[0].speed + steps[1].speed
    assert not combo.maximum


def test_combo_maximum__the_last_card_of_a_maximum_combo_is_turned_face_down():
    """rv.combo.maximum: the maximum combo is cut: its last card goes face down (energy)."""
    state = position(
        ["zorro", "curie"],
        lines=[["golpe", "patada"], []],
        hands=[["estocada", "presion"], ["bloqueo", "salto"]],
    )
    assert state.fighter(0).max_combo == 2
    events = clash(state, {0: "estocada", 1: "bloqueo"})
    (combo,) = of_kind(events, "ComboFormed")
    assert combo.maximum and combo.links == 2
    cut = [e for e in of_kind(events, "CardFlipped") if e.rule == "rv.combo.maximum"]
    assert [e.card for e in cut] == ["zorro.estocada"]
    assert sides(state, 0) == ["golpe/up", "patada/up", "estocada/down"]
    # the next link card starts a new combo
    events = clash(state, {0: "presion", 1: "salto"})
    assert not of_kind(events, "ComboFormed")


def test_combo_maximum__the_next_card_starts_a_new_combo_even_once_the_cut_card_is_face_up():
    """rv.combo.maximum: "the last card of that combo is moved face down, cutting it and
    indicating that the next card will start a new combo". Curie's passive turns the cut
    card face up again a clash later: the chain still starts after it, so Salto Analítico
    has 1 link (Isótopos Cargados), not a 4-link maximum combo across the cut
    (rv.ruling.max-combo-cut)."""
    state, events = curie_cut_then_flipped_up()
    (combo,) = [e for e in of_kind(events, "ComboFormed") if e.seat == 0]
    assert (combo.links, combo.maximum) == (1, False)
    assert sides(state, 0)[-1] == "salto/up"  # no maximum combo: not cut
    chain = state.view(0)["zones"][0]["chain"][0]
    assert chain == {"links": 1, "starter": 0}


# ------------------------------------------------------------------------------- dodge
def test_dodge__no_damage_and_a_card_left_face_up_is_played_first_next_clash():
    """rv.dodge: Esquiva avoids the Damage and leaves a hand card face up; next clash that
    card is played first (face up) and the rival chooses knowing it."""
    state = position(
        ["zorro", "curie"], hands=[["esquiva", "estocada", "capa"], ["golpe", "patada", "bloqueo"]]
    )
    events = clash(state, {0: "esquiva", 1: "golpe"}, picks={0: ["estocada"]})
    assert state.taken[0] == 0
    assert sides(state, 0) == ["esquiva/up"]
    assert of_kind(events, "DodgeCardLeft")[0].card == "zorro.estocada"
    assert state.view(1)["players"][0]["ready"] == "zorro.estocada"
    assert card("zorro.estocada") not in state.hand[0]
    assert [d.seat for d in state.pending()] == [1]  # only the rival chooses
    events = clash(state, {1: "patada"})
    played = of_kind(events, "CardPlayed")
    assert [(e.seat, e.card) for e in played] == [(0, "zorro.estocada"), (1, None)]
    assert sides(state, 0)[-1].startswith("estocada")
