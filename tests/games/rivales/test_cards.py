"""A scenario test for every Rivales card and every fighter's passive ability, each reading
like its text. Numbers are read from the pack, so the tests hold for any pack that keeps the
texts (the values are reconstructed; a user's overlay may change them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from kumite.games.rivales.lines import DOWN, SPENT, UP
from tests.games.rivales.helpers import CATALOG, card, clash, of_kind, position, sides

F = TypeVar("F", bound=Callable[..., Any])
COVERED: set[str] = set()
PASSIVES: set[str] = set()


def cards(*ids: str) -> list[str]:
    COVERED.update(ids)
    return list(ids)


def covers(card_id: str) -> Callable[[F], F]:
    """Mark a test as the scenario of ``card_id`` (registered at import, for the coverage
    check to work whatever process runs it)."""
    COVERED.add(card_id)
    return lambda fn: fn


def covers_passive(fighter_id: str) -> Callable[[F], F]:
    PASSIVES.add(fighter_id)
    return lambda fn: fn


def effect_lines(events, source):
    return [e.what for e in of_kind(events, "EffectApplied") if e.source == source]


def speeds(events):
    return of_kind(events, "SpeedCompared")[0].speeds


# --------------------------------------------------------------------- no card effect
PLAIN = cards(
    "basic.golpe",
    "basic.patada",
    "basic.bloqueo",
    "zorro.estocada",
    "mulan.espada",
    "mulan.abanico",
    "mulan.montana",
    "mulan.furia",
    "darwin.pinzon",
    "darwin.caparazon",
    "hansel-gretel.horno",
    "hansel-gretel.baston",
    "sombrerero.te",
    "sombrerero.tetera",
    "sombrerero.liebre",
)


@pytest.mark.parametrize("cid", PLAIN)
def test_card_without_effect__its_printed_values_decide_the_clash(cid):
    """A card without effect: its printed Speed, Damage and Guard are all there is."""
    c = card(cid)
    assert c.effects == ()
    owner = "darwin" if c.fighter == "basic" else c.fighter
    slow = "bloqueo" if cid != "basic.bloqueo" else "patada"
    state = position(
        [owner, "zorro"],
        hands=[[cid], [slow]],
        ultra_taken=[0] if c.type == "ultra" else [],
    )
    events = clash(state, {0: cid, 1: slow}, personas={0: "hansel"})
    other = card(f"basic.{slow}")
    assert speeds(events) == (c.speed, other.speed)
    assert not effect_lines(events, c.name)
    attack = of_kind(events, "AttackResolved")
    if c.speed > other.speed:
        assert attack[0].damage == c.damage
    guard_bonus = 1 if owner == "hansel-gretel" else 0
    if c.speed < other.speed:
        assert attack[0].guard == c.guard + guard_bonus


# -------------------------------------------------------------------------- basics
@covers("basic.esquiva")
def test_card_basic_esquiva__dodge_no_damage_and_a_card_left_face_up_for_next_clash():
    """Esquiva: you receive no Damage this clash; leave a card from your hand face up: it is
    your card of the next clash, played first."""
    state = position(
        ["darwin", "mulan"], hands=[["esquiva", "pinzon", "golpe"], ["espada", "golpe"]]
    )
    events = clash(state, {0: "esquiva", 1: "espada"}, picks={0: ["pinzon"]})
    assert state.taken[0] == 0 and state.lines[0][0][0].side == UP
    assert of_kind(events, "AttackResolved")[0].dodged
    assert state.ready[0] is card("darwin.pinzon")
    assert [d.seat for d in state.pending()] == [1]


def test_card_basic_esquiva__dodges_an_exchange_too_and_leaves_nothing_on_the_last_clash():
    state = position(["darwin", "zorro"], hands=[["esquiva", "golpe"], ["capa", "golpe"]], clash=7)
    state.lines[0][1] = []
    events = clash(state, {0: "esquiva", 1: "golpe"}, boosts={})
    assert not of_kind(events, "DodgeCardLeft")  # no next clash in this round
    assert all(e.seat != 0 for e in of_kind(events, "DamageTaken"))


# ---------------------------------------------------------------------------- Zorro
@covers("zorro.latigazo")
def test_card_zorro_latigazo__previous_card_face_up_plus_one_speed_and_damage():
    """Latigazo: requirement: the card of the previous clash is face up. +1 Speed, +1 Damage."""
    state = position(["zorro", "darwin"], lines=[["bloqueo"], []], hands=[["latigazo"], ["golpe"]])
    events = clash(state, {0: "latigazo", 1: "golpe"})
    assert effect_lines(events, "Latigazo") == ["+1 Speed", "+1 Damage"]
    assert speeds(events)[0] == card("zorro.latigazo").speed + 1
    state = position(
        ["zorro", "darwin"], lines=[["v:bloqueo"], []], hands=[["latigazo"], ["golpe"]]
    )
    events = clash(state, {0: "latigazo", 1: "golpe"})
    assert len(of_kind(events, "RequirementUnmet")) == 2


@covers("zorro.presion")
def test_card_zorro_presion__may_flip_one_of_your_face_up_cards_into_energy():
    """Presión: you may flip one of your face-up cards in play face down."""
    state = position(
        ["zorro", "darwin"], lines=[["golpe", "bloqueo"], []], hands=[["presion"], ["patada"]]
    )
    state.apply({0: "play:zorro.presion", 1: "play:basic.patada"})
    (d,) = state.pending()
    assert d.legal == ("pick:0:basic.golpe", "pick:0:basic.bloqueo", "pass")
    state.apply({0: "pick:0:basic.golpe"})
    assert sides(state, 0)[0] == "golpe/down"
    assert state.view(1)["zones"][0]["energy"][0] >= 1


@covers("zorro.amague")
def test_card_zorro_amague__exchange_with_a_face_up_basic_card_in_play():
    """Amague: exchange this card with one of your face-up basic cards in play: that card
    becomes your card of this clash."""
    state = position(["zorro", "darwin"], lines=[["patada"], []], hands=[["amague"], ["bloqueo"]])
    events = clash(state, {0: "amague", 1: "bloqueo"}, picks={0: ["patada"]})
    assert sides(state, 0) == ["amague/up", "patada/up"]
    assert of_kind(events, "AttackResolved")[0].damage == card("basic.patada").damage
    assert speeds(events)[0] == card("basic.patada").speed


@covers("zorro.capa")
def test_card_zorro_capa__still_face_up_at_the_end_of_the_clash_it_becomes_energy():
    """Capa: end of clash: if this card is still face up, flip it face down."""
    state = position(["zorro", "darwin"], hands=[["capa"], ["golpe"]])
    clash(state, {0: "capa", 1: "golpe"})
    assert state.lines[0][0][0].side == DOWN
    assert state.taken[0] == max(0, card("basic.golpe").damage - card("zorro.capa").guard)


@covers("zorro.la-marca")
def test_card_zorro_la_marca__plus_one_damage_per_face_down_card_at_most_three():
    """La Marca: +1 Damage for each of your face-down cards in play (at most +3)."""
    state = position(
        ["zorro", "darwin"],
        lines=[["v:golpe", "x:patada", "v:bloqueo", "v:esquiva"], []],
        hands=[["la-marca"], ["golpe"]],
    )
    events = clash(state, {0: "la-marca", 1: "golpe"})
    assert effect_lines(events, "La Marca") == ["+3 Damage"]


@covers_passive("zorro")
def test_passive_zorro__three_exhausted_cards_give_plus_one_speed_two_do_not():
    """Maestro espadachín: while there are 3 or more exhausted cards in your line, your cards
    get +1 Speed (the number is the pack's, and its text says it)."""
    zorro = CATALOG.fighters["zorro"]
    need = zorro.static[0].requires.min_exhausted
    assert need == 3 and f"{need} or more exhausted cards" in zorro.passive
    tokens = ["golpe", "patada", "bloqueo", "esquiva"][:need]
    state = position(
        ["zorro", "darwin"],
        lines=[[f"x:{t}" for t in tokens], []],
        hands=[["estocada"], ["bloqueo"]],
    )
    events = clash(state, {0: "estocada", 1: "bloqueo"})
    assert speeds(events)[0] == card("zorro.estocada").speed + 1
    one_short = [f"x:{t}" for t in tokens[:-1]] + [f"v:{tokens[-1]}"]
    state = position(["zorro", "darwin"], lines=[one_short, []], hands=[["estocada"], ["bloqueo"]])
    events = clash(state, {0: "estocada", 1: "bloqueo"})
    assert speeds(events)[0] == card("zorro.estocada").speed


# ---------------------------------------------------------------------------- Curie
@covers("curie.isotopos")
def test_card_curie_isotopos__plus_one_damage_per_rival_face_up_card_at_most_two():
    """Isótopos Cargados: +1 Damage for each face-up card of your rival in play (at most +2;
    the count step and cap come from the pack, and its text says them)."""
    e = card("curie.isotopos").effects[0]
    assert (e.amount, e.every, e.max) == (1, 1, 2) and "at most +2" in card("curie.isotopos").text
    state = position(
        ["curie", "darwin"],
        lines=[[], ["golpe", "v:patada"]],
        hands=[["isotopos"], ["pinzon"]],
    )
    events = clash(state, {0: "isotopos", 1: "pinzon"})
    assert effect_lines(events, "Isótopos Cargados") == ["+1 Damage"]  # one face-up card
    state = position(
        ["curie", "darwin"],
        lines=[[], ["golpe", "patada", "v:bloqueo", "esquiva"]],
        hands=[["isotopos"], ["pinzon"]],
    )
    events = clash(state, {0: "isotopos", 1: "pinzon"})
    assert effect_lines(events, "Isótopos Cargados") == ["+2 Damage"]  # three, at most +2


@covers("curie.fisica")
def test_card_curie_fisica_imposible__wins_speed_ties_whatever_the_card_types():
    """Física Imposible: you win Speed ties, whatever the card types (here against basic)."""
    state = position(["curie", "darwin"], hands=[["fisica"], ["golpe"]])
    events = clash(state, {0: "fisica", 1: "golpe"})
    compared = of_kind(events, "SpeedCompared")[0]
    assert compared.speeds == (4, 4) and compared.attacker == 0
    assert compared.rule == "rv.card.curie.fisica"


@covers("curie.salto")
def test_card_curie_salto_analitico__plus_one_speed_per_face_down_card():
    """Salto Analítico: +1 Speed for each of your face-down cards (at most +3)."""
    state = position(
        ["curie", "darwin"], lines=[["v:golpe", "x:patada"], []], hands=[["salto"], ["golpe"]]
    )
    events = clash(state, {0: "salto", 1: "golpe"})
    assert effect_lines(events, "Salto Analítico") == ["+2 Speed"]


@covers("curie.polonio")
def test_card_curie_polonio__two_energy_cards_plus_one_damage():
    """Polonio: requirement: 2 or more energy cards. +1 Damage."""
    state = position(
        ["curie", "darwin"], lines=[["v:golpe", "v:patada"], []], hands=[["polonio"], ["bloqueo"]]
    )
    events = clash(state, {0: "polonio", 1: "bloqueo"})
    assert effect_lines(events, "Polonio") == ["+1 Damage"]
    state = position(
        ["curie", "darwin"], lines=[["v:golpe", "x:patada"], []], hands=[["polonio"], ["bloqueo"]]
    )
    events = clash(state, {0: "polonio", 1: "bloqueo"})
    assert of_kind(events, "RequirementUnmet")[0].source == "Polonio"


@covers("curie.radio")
def test_card_curie_radio__end_of_clash_an_exhausted_card_becomes_energy_again():
    """Radio: end of clash: if still face up, one exhausted card becomes energy again."""
    state = position(
        ["curie", "darwin"], lines=[["x:golpe", "x:patada"], []], hands=[["radio"], ["golpe"]]
    )
    clash(state, {0: "radio", 1: "golpe"})
    assert sides(state, 0)[:2] == ["golpe/exhausted", "patada/down"]


@covers("curie.onda")
def test_card_curie_onda_radiactiva__plus_one_damage_per_face_up_card():
    """Onda Radiactiva: +1 Damage for each of your face-up cards (at most +3)."""
    state = position(
        ["curie", "darwin"],
        lines=[["golpe", "patada", "v:bloqueo"], []],
        hands=[["onda"], ["bloqueo"]],
    )
    events = clash(state, {0: "onda", 1: "bloqueo"})
    assert effect_lines(events, "Onda Radiactiva") == ["+2 Damage"]


@covers_passive("curie")
def test_passive_curie__three_energy_cards_one_must_be_flipped_face_up():
    """Radiactividad: end of clash: with 3 or more energy cards, the most recent is flipped up."""
    state = position(
        ["curie", "darwin"],
        lines=[["v:golpe", "v:patada", "v:bloqueo"], []],
        hands=[["salto"], ["bloqueo"]],
    )
    events = clash(state, {0: "salto", 1: "bloqueo"})
    up = [e.card for e in of_kind(events, "CardFlipped") if e.up]
    assert up == ["basic.bloqueo"]
    state = position(
        ["curie", "darwin"], lines=[["v:golpe", "v:patada"], []], hands=[["polonio"], ["bloqueo"]]
    )
    events = clash(state, {0: "polonio", 1: "bloqueo"})
    assert not [e for e in of_kind(events, "CardFlipped") if e.up]


def _curie_flips_up(events):
    return [e.card for e in of_kind(events, "CardFlipped") if e.up]


def test_passive_curie__never_flips_up_the_card_of_this_clash_flipped_by_damage():
    """Radiactividad flips the most recent energy card of an earlier clash: the card
    Damage flipped this clash stays face down (rv.damage.flip, rv.ruling.curie-energy)."""
    state = position(
        ["curie", "mulan"],
        lines=[["v:golpe", "v:patada", "v:bloqueo"], []],
        hands=[["salto"], ["espada"]],
    )
    clash(state, {0: "salto", 1: "espada"})
    assert sides(state, 0) == ["golpe/down", "patada/down", "bloqueo/up", "salto/down"]


def test_passive_curie__never_flips_up_the_card_of_this_clash_flipped_by_an_exchange():
    """rv.speed.exchange flips both cards: Radiactividad leaves Curie's face down."""
    state = position(
        ["curie", "darwin"],
        lines=[["v:patada", "v:bloqueo", "v:esquiva"], []],
        hands=[["golpe"], ["golpe"]],
    )
    events = clash(state, {0: "golpe", 1: "golpe"})
    assert of_kind(events, "SpeedCompared")[0].attacker is None  # the exchange
    assert _curie_flips_up(events) == ["basic.esquiva"]
    assert sides(state, 0)[-2:] == ["esquiva/up", "golpe/down"]


def test_passive_curie__never_undoes_the_cut_of_her_maximum_combo():
    """rv.combo.maximum cuts the last card of the maximum combo: Radiactividad flips an
    older energy card instead, and the cut stands."""
    top = CATALOG.fighters["curie"].max_combo
    links = ["isotopos", "salto", "onda", "fisica"][:top]
    state = position(
        ["curie", "darwin"],
        lines=[["v:golpe", "v:patada", "v:bloqueo", *links], []],
        hands=[["polonio"], ["bloqueo"]],
        ultra_taken=[0],
    )
    events = clash(state, {0: "polonio", 1: "bloqueo"})
    assert of_kind(events, "ComboFormed")[0].maximum
    assert _curie_flips_up(events) == ["basic.bloqueo"]
    assert sides(state, 0)[-1] == "polonio/down"


def test_passive_curie__counts_the_energy_cards_of_earlier_clashes_only():
    """rv.ruling.counts: the card Damage flipped this clash is not one of the three."""
    state = position(
        ["curie", "mulan"], lines=[["v:golpe", "v:patada"], []], hands=[["salto"], ["espada"]]
    )
    events = clash(state, {0: "salto", 1: "espada"})
    assert sides(state, 0)[-1] == "salto/down"
    assert not _curie_flips_up(events)
    assert state.carry[0] == [0, 0, 0]


# ---------------------------------------------------------------------------- Mulan
@covers("mulan.pinzas")
def test_card_mulan_pinzas_de_mantis__the_rival_may_not_play_basic_cards_next_clash():
    """Pinzas de Mantis: end of clash, if still face up: no basic cards for the rival next clash."""
    state = position(
        ["mulan", "darwin"], hands=[["pinzas", "golpe"], ["bloqueo", "golpe", "pinzon"]]
    )
    events = clash(state, {0: "pinzas", 1: "bloqueo"})
    assert of_kind(events, "NoBasicNextClash")
    assert "play:darwin.pinzon" in state.legal(1)
    assert not [c for c in state.legal(1) if c.startswith("play:basic.")]
    clash(state, {0: "golpe", 1: "pinzon"})
    assert "play:basic.golpe" in state.legal(1)  # one clash only


@covers("mulan.grillo")
def test_card_mulan_grillo__plus_one_damage_per_link_of_its_combo():
    """Grillo de la Suerte: +1 Damage for each link of the combo this card is in (at most +2)."""
    state = position(
        ["mulan", "darwin"], lines=[["golpe", "patada"], []], hands=[["grillo"], ["bloqueo"]]
    )
    events = clash(state, {0: "grillo", 1: "bloqueo"})
    assert effect_lines(events, "Grillo de la Suerte") == ["+2 Damage"]


@covers_passive("mulan")
def test_passive_mulan__more_damage_received_than_the_rival_plus_one_damage():
    """Valor: while you have received more Damage than the rival you face, +1 Damage; less
    life alone (a shorter life bar) is not enough."""
    assert CATALOG.fighters["mulan"].life < CATALOG.fighters["darwin"].life
    state = position(["mulan", "darwin"], hands=[["espada"], ["bloqueo"]], taken=[0, 0])
    events = clash(state, {0: "espada", 1: "bloqueo"})
    assert of_kind(events, "AttackResolved")[0].damage == card("mulan.espada").damage
    state = position(["mulan", "darwin"], hands=[["espada"], ["bloqueo"]], taken=[3, 0])
    events = clash(state, {0: "espada", 1: "bloqueo"})
    assert of_kind(events, "AttackResolved")[0].damage == card("mulan.espada").damage + 1
    state = position(["mulan", "darwin"], hands=[["espada"], ["bloqueo"]], taken=[0, 1])
    events = clash(state, {0: "espada", 1: "bloqueo"})
    assert of_kind(events, "AttackResolved")[0].damage == card("mulan.espada").damage


# --------------------------------------------------------------------------- Darwin
@covers("darwin.mutacion")
def test_card_darwin_mutacion__previous_card_face_down_plus_two_speed():
    """Mutación: requirement: the previous card is face down. +2 Speed."""
    state = position(["darwin", "mulan"], lines=[["v:golpe"], []], hands=[["mutacion"], ["golpe"]])
    events = clash(state, {0: "mutacion", 1: "golpe"})
    assert effect_lines(events, "Mutación") == ["+2 Speed"]


@covers("darwin.eslabon")
def test_card_darwin_eslabon_perdido__flips_the_previous_face_down_card_up():
    """Eslabón Perdido: if the previous card is face down, flip it face up (it links again)."""
    state = position(["darwin", "mulan"], lines=[["x:golpe"], []], hands=[["eslabon"], ["bloqueo"]])
    events = clash(state, {0: "eslabon", 1: "bloqueo"})
    assert sides(state, 0)[0] == "golpe/up"
    assert of_kind(events, "ComboFormed")[0].links == 1  # the combo counts after the effect


@covers("darwin.supervivencia")
def test_card_darwin_supervivencia__plus_one_guard_per_two_face_down_cards():
    """Supervivencia del Más Apto: +1 Guard for every 2 face-down cards (at most +2)."""
    state = position(
        ["darwin", "mulan"],
        lines=[["v:golpe", "x:patada", "v:bloqueo"], []],
        hands=[["supervivencia"], ["abanico"]],
    )
    events = clash(state, {0: "supervivencia", 1: "abanico"})
    assert effect_lines(events, "Supervivencia del Más Apto") == ["+1 Guard"]
    assert of_kind(events, "AttackResolved")[0].guard == card("darwin.supervivencia").guard + 1


@covers("darwin.evolucion")
def test_card_darwin_evolucion_definitiva__plus_one_damage_per_link():
    """Evolución Definitiva: +1 Damage for each link of the combo it is in (at most +3)."""
    state = position(
        ["darwin", "mulan"], lines=[["golpe", "patada"], []], hands=[["evolucion"], ["bloqueo"]]
    )
    events = clash(state, {0: "evolucion", 1: "bloqueo"})
    assert effect_lines(events, "Evolución Definitiva") == ["+2 Damage"]


@covers_passive("darwin")
def test_passive_darwin__after_receiving_damage_the_next_card_gets_plus_one_speed():
    """Adaptación: when you receive Damage, your next card gets the passive's bonuses."""
    bonus = [0, 0, 0]
    for e in CATALOG.fighters["darwin"].damaged:
        bonus[("speed", "damage", "guard").index(e.stat)] += e.amount
    assert bonus[0] >= 1
    state = position(["darwin", "mulan"], hands=[["patada", "pinzon"], ["golpe", "bloqueo"]])
    clash(state, {0: "patada", 1: "golpe"})
    assert state.carry[0] == bonus
    events = clash(state, {0: "pinzon", 1: "bloqueo"})
    assert speeds(events)[0] == card("darwin.pinzon").speed + bonus[0]
    assert state.carry[0] == [0, 0, 0]


# ------------------------------------------------------------------ Hansel & Gretel
@covers("hansel-gretel.carga")
def test_card_hansel_gretel_carga_crocante__gretel_your_next_card_plus_one_damage():
    """Carga Crocante: GRETEL — end of clash: your next card gets +1 Damage."""
    state = position(["hansel-gretel", "darwin"], hands=[["carga", "horno"], ["bloqueo", "golpe"]])
    clash(state, {0: "carga", 1: "bloqueo"}, personas={0: "gretel"})
    assert state.carry[0] == [0, 1, 0]
    state = position(["hansel-gretel", "darwin"], hands=[["carga", "horno"], ["bloqueo", "golpe"]])
    clash(state, {0: "carga", 1: "bloqueo"}, personas={0: "hansel"})
    assert state.carry[0] == [0, 0, 0]


@covers("hansel-gretel.guardia")
def test_card_hansel_gretel_guardia_galleta__hansel_flips_energy_up_for_guard():
    """Guardia Galleta: HANSEL — you may flip up to 2 energy cards face up: +1 Guard each."""
    state = position(
        ["hansel-gretel", "mulan"],
        lines=[["v:golpe", "v:patada", "v:bloqueo"], []],
        hands=[["guardia"], ["espada"]],
    )
    state.apply({0: "play:hansel-gretel.guardia", 1: "play:mulan.espada"})
    state.apply({0: "persona:hansel"})
    state.apply({0: "boost:none"})
    (d,) = state.pending()
    assert d.legal == ("count:0", "count:1", "count:2")
    events = state.apply({0: "count:2"})
    assert effect_lines(events, "Guardia Galleta") == ["flips 2 energy cards face up: +2 Guard"]
    assert sides(state, 0)[:3] == ["golpe/down", "patada/up", "bloqueo/up"]


@covers("hansel-gretel.migas")
def test_card_hansel_gretel_migas_de_pan__hansel_speed_or_gretel_damage():
    """Migas de Pan: HANSEL +1 Speed; GRETEL +1 Damage."""
    for persona, expected in (("hansel", "+1 Speed"), ("gretel", "+1 Damage")):
        state = position(["hansel-gretel", "darwin"], hands=[["migas"], ["bloqueo"]])
        events = clash(state, {0: "migas", 1: "bloqueo"}, personas={0: persona})
        assert effect_lines(events, "Migas de Pan") == [expected]
        assert len(of_kind(events, "RequirementUnmet")) == 1


@covers("hansel-gretel.bruja")
def test_card_hansel_gretel_la_bruja_al_horno__hansel_two_speed_gretel_two_damage():
    """La Bruja al Horno: HANSEL +2 Speed; GRETEL +2 Damage."""
    state = position(["hansel-gretel", "darwin"], hands=[["bruja"], ["bloqueo"]])
    events = clash(state, {0: "bruja", 1: "bloqueo"}, personas={0: "gretel"})
    assert effect_lines(events, "La Bruja al Horno") == ["+2 Damage"]


@covers_passive("hansel-gretel")
def test_passive_hansel_gretel__hansel_plus_one_guard_gretel_plus_one_damage():
    """Hermanos: HANSEL (candy cane) +1 Guard, GRETEL (cookie) +1 Damage, this clash."""
    state = position(["hansel-gretel", "darwin"], hands=[["horno"], ["golpe"]])
    events = clash(state, {0: "horno", 1: "golpe"}, personas={0: "hansel"})
    assert of_kind(events, "AttackResolved")[0].guard == card("hansel-gretel.horno").guard + 1
    state = position(["hansel-gretel", "darwin"], hands=[["baston"], ["bloqueo"]])
    events = clash(state, {0: "baston", 1: "bloqueo"}, personas={0: "gretel"})
    assert of_kind(events, "AttackResolved")[0].damage == card("hansel-gretel.baston").damage + 1


# ----------------------------------------------------------------------- Sombrerero
@covers("sombrerero.lluvia")
def test_card_sombrerero_lluvia_de_sombreros__show_the_hand_plus_damage_per_basic():
    """Lluvia de Sombreros: show your hand to your rival: +1 Damage per basic card in it."""
    state = position(
        ["sombrerero", "darwin"], hands=[["lluvia", "golpe", "tetera"], ["bloqueo", "pinzon"]]
    )
    events = clash(state, {0: "lluvia", 1: "bloqueo"})
    shown = of_kind(events, "HandShown")
    assert [(e.to, e.cards) for e in shown] == [
        (frozenset({1}), ("basic.golpe", "sombrerero.tetera")),
        (None, ()),
    ]
    assert effect_lines(events, "Lluvia de Sombreros") == ["+1 Damage"]
    assert state.view(1)["players"][0]["known_hand"] == ["basic.golpe", "sombrerero.tetera"]


@covers("sombrerero.reloj")
def test_card_sombrerero_reloj_parado__rival_card_basic_plus_two_speed():
    """Reloj Parado: requirement: your rival's card is basic. +2 Speed."""
    state = position(["sombrerero", "darwin"], hands=[["reloj"], ["golpe"]])
    events = clash(state, {0: "reloj", 1: "golpe"})
    assert effect_lines(events, "Reloj Parado") == ["+2 Speed"]
    state = position(["sombrerero", "darwin"], hands=[["reloj"], ["pinzon"]])
    events = clash(state, {0: "reloj", 1: "pinzon"})
    assert of_kind(events, "RequirementUnmet")[0].requirement == "the rival's card is basic"


@covers("sombrerero.fiesta")
def test_card_sombrerero_fiesta__two_exhausted_cards_become_energy_again():
    """Fiesta de No-Cumpleaños: up to 2 of your exhausted cards become energy again."""
    state = position(
        ["sombrerero", "darwin"],
        lines=[["x:golpe", "x:patada", "x:bloqueo"], []],
        hands=[["fiesta"], ["golpe"]],
    )
    clash(state, {0: "fiesta", 1: "golpe"})
    assert [s.side for s in state.lines[0][0][:3]] == [SPENT, DOWN, DOWN]


@covers_passive("sombrerero")
def test_passive_sombrerero__face_up_basic_cards_boost_unique_cards():
    """Fiesta del Té: each face-up basic card gives your unique cards +1 Damage and +1 Guard
    (at most +2 each); not your basic cards."""
    state = position(
        ["sombrerero", "darwin"],
        lines=[["golpe", "patada", "bloqueo"], []],
        hands=[["tetera"], ["bloqueo"]],
    )
    events = clash(state, {0: "tetera", 1: "bloqueo"})
    assert of_kind(events, "AttackResolved")[0].damage == card("sombrerero.tetera").damage + 2
    state = position(
        ["sombrerero", "darwin"], lines=[["golpe"], []], hands=[["patada"], ["bloqueo"]]
    )
    events = clash(state, {0: "patada", 1: "bloqueo"})
    assert not [e for e in of_kind(events, "EffectApplied") if "Fiesta del Té" in e.source]


# ------------------------------------------------------------------------- coverage
def test_every_card_and_passive_has_a_scenario_test():
    assert set(CATALOG.cards) == COVERED
    assert set(CATALOG.fighters) == PASSIVES
