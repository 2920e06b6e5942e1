"""The official 2vs2 companion ("Reglamento Modo 2vs2"), one test per clause and per listed
fighter adjustment. Seats 0-1 are team A, seats 2-3 team B; by default seats 0 and 2 play
Zone 1, seats 1 and 3 Zone 2."""

from __future__ import annotations

import pytest

from kumite.core.errors import OptionsError
from kumite.games.rivales.decisions import MARKER, PLAY
from kumite.games.rivales.lines import DOWN, UP
from tests.games.rivales.helpers import GAME, card, clash, of_kind, position, sides

TEAM = ["zorro", "curie", "mulan", "darwin"]


def four(**kw):
    return position(kw.pop("fighters", TEAM), **kw)


# ------------------------------------------------------------------------------- teams
def test_2v2_teams__two_teams_of_two_seats_0_1_against_2_3():
    """rv.2v2.teams: 2 teams of 2 fighters, each team on one side of the table."""
    state = GAME.new_state(1, {"mode": "2v2", "fighters": TEAM})
    assert state.players == (0, 1, 2, 3)
    assert state.teams == ((0, 1), (2, 3))
    assert state.view(0)["teams"] == [[0, 1], [2, 3]]


def test_2v2_different_fighters__teammates_must_choose_different_fighters():
    """rv.2v2.different-fighters: each player of a team selects a different fighter."""
    with pytest.raises(OptionsError, match="teammates must choose different fighters"):
        GAME.new_state(1, {"mode": "2v2", "fighters": ["zorro", "zorro", "mulan", "darwin"]})
    state = GAME.new_state(1, {"mode": "2v2"})
    assert [d.seat for d in state.pending()] == [0]
    state.apply({0: "fighter:zorro"})
    assert "fighter:zorro" not in state.legal(1)
    state.apply({1: "fighter:curie"})
    assert "fighter:zorro" in state.legal(2)  # the rival team may mirror (rv.ruling.mirror)


def test_2v2_setup__each_fighter_is_set_up_as_in_1vs1():
    """rv.2v2.setup: each fighter: ultra aside, deck, draw 5, life marker, hand of 4."""
    state = GAME.new_state(1, {"mode": "2v2", "fighters": TEAM})
    assert state.phase == MARKER
    assert [d.seat for d in state.pending()] == [0, 1, 2, 3]
    assert all(len(h) == 5 for h in state.hand)
    state.apply({d.seat: d.legal[0] for d in state.pending()})
    assert all(len(h) == 4 for h in state.hand)
    assert all(state.ultra[s] is state.fighter(s).ultra for s in range(4))


def test_2v2_objective__two_rounds_out_of_three_win_the_fight_for_the_team():
    """rv.2v2.objective: the team that wins 2 of 3 rounds wins; both its seats win."""
    state = four(hands=[["bloqueo"]] * 4, clash=7, taken=[0, 0, 3, 0], round=2, rounds_won=(1, 0))
    clash(state, {0: "bloqueo", 1: "bloqueo", 2: "bloqueo", 3: "bloqueo"})
    assert state.outcome.winners == (0, 1)
    assert state.outcome.returns == (1.0, 1.0, -1.0, -1.0)
    assert state.outcome.detail["rounds_won"] == [2, 0]
    assert state.outcome.detail["rounds_won_by_seat"] == [2, 2, 0, 0]


# ------------------------------------------------------------------------------- zones
def test_2v2_zones__each_team_calls_its_zones_one_player_per_zone():
    """rv.2v2.zones / rv.2v2.zone-choice: only one player of a team per zone; the teams
    choose in private and at the same time (rv.ruling.zone-caller)."""
    state = GAME.new_state(2, {"mode": "2v2", "fighters": TEAM})
    state.apply({d.seat: d.legal[0] for d in state.pending()})
    decisions = state.pending()
    assert [(d.seat, d.kind, d.legal) for d in decisions] == [
        (0, "zones", ("zone:1", "zone:2")),
        (2, "zones", ("zone:1", "zone:2")),
    ]
    assert state.view(1)["players"][0]["zone"] is None  # nothing known before both chose
    events = state.apply({0: "zone:2", 2: "zone:1"})
    assert state.zone_of == [1, 0, 0, 1]
    (taken,) = of_kind(events, "ZonesTaken")
    assert taken.zones == (("P2 Curie", "P3 Mulan"), ("P1 Zorro", "P4 Darwin"))
    assert state.phase == PLAY


def test_2v2_zones__the_caller_alternates_between_teammates():
    state = four(hands=[["golpe", "patada"]] * 4)
    clash(state, dict.fromkeys(range(4), "golpe"))
    assert [d.seat for d in state.pending()] == [1, 3]  # clash 2: the second seat calls


def test_2v2_preparation__all_players_place_a_card_face_down_in_their_zone():
    """rv.2v2.preparation: all players place a card from hand face down in their zone."""
    state = four(
        hands=[["golpe", "patada"], ["patada", "golpe"], ["bloqueo", "golpe"], ["golpe", "patada"]]
    )
    assert [(d.seat, d.kind) for d in state.pending()] == [(s, "play") for s in range(4)]
    clash(state, {0: "golpe", 1: "patada", 2: "bloqueo", 3: "golpe"})
    assert sides(state, 0, zone=0) == ["golpe/up"] and sides(state, 1, zone=0) == ["bloqueo/up"]
    assert sides(state, 0, zone=1) == ["patada/down"] and sides(state, 1, zone=1) == ["golpe/up"]
    assert [s.owner for s in state.lines[1][0]] == [1]


def test_2v2_preparation__a_dodge_card_is_played_first_in_its_zone():
    """A dodge left face up binds its fighter to that zone; the card is played first."""
    state = four(
        hands=[
            ["golpe", "patada"],
            ["esquiva", "salto", "radio"],
            ["golpe", "patada"],
            ["golpe", "patada"],
        ]
    )
    clash(state, {0: "golpe", 1: "esquiva", 2: "golpe", 3: "golpe"}, picks={1: ["salto"]})
    assert state.ready[1] is card("curie.salto") and state.ready_zone[1] == 1
    # clash 2: seat 1 (Curie) would call; she is bound to Zone 2, so only team B decides
    assert [d.seat for d in state.pending()] == [3]
    events = clash(state, {0: "patada", 2: "patada", 3: "patada"}, zones={3: 1})
    (taken,) = of_kind(events, "ZonesTaken")
    assert "P2 Curie" in taken.zones[1] and "P1 Zorro" in taken.zones[0]
    played = {e.seat: e.card for e in of_kind(events, "CardPlayed")}
    assert played[1] == "curie.salto"


# ---------------------------------------------------------------------------- boosting
def test_2v2_boosting__energy_of_both_teammates_but_only_of_the_zone():
    """rv.2v2.boosting: the zone's energy cards of both fighters, not the other zone's."""
    state = four(
        lines={(0, 0): ["p2:v:golpe"], (1, 0): ["p1:v:patada", "p1:v:bloqueo"]},
        hands=[["golpe", "patada"], ["golpe", "patada"], ["golpe", "patada"], ["golpe", "patada"]],
    )
    state.apply(
        {
            0: "play:basic.patada",
            1: "play:basic.golpe",
            2: "play:basic.golpe",
            3: "play:basic.golpe",
        }
    )
    state.apply({0: "order:1"})  # Zone 1 first (rv.ruling.zone-order)
    assert {d.seat: d.legal for d in state.pending()} == {
        0: ("boost:none", "boost:damage")  # Zone 1 holds Curie's face-down Golpe
    }
    events = state.apply({0: "boost:damage"})
    assert {d.seat: d.legal for d in state.pending()} == {
        1: ("boost:none", "boost:damage", "boost:speed")  # then Zone 2, separately
    }
    events += state.apply({1: "boost:none"})
    assert state.lines[0][0][0].side == 2  # Curie's card, moved down by Zorro
    assert of_kind(events, "BoostChosen")[0].rule == "rv.2v2.boosting"


def test_2v2_resolution__effects_count_only_the_cards_of_their_zone():
    """rv.2v2.resolution: cards in the other zone are not taken into account."""
    state = four(
        lines={(0, 0): ["v:golpe"], (1, 0): ["p2:v:golpe", "p2:v:patada", "p1:v:patada"]},
        hands=[
            ["la-marca", "bloqueo"],
            ["bloqueo", "golpe"],
            ["bloqueo", "golpe"],
            ["bloqueo", "golpe"],
        ],
        ultra_taken=[0],
    )
    events = clash(state, {0: "la-marca", 1: "bloqueo", 2: "bloqueo", 3: "bloqueo"})
    marca = [e for e in of_kind(events, "EffectApplied") if e.source == "La Marca"]
    assert marca[0].what == "+1 Damage"


def test_2v2_resolution__zones_resolve_one_after_the_other():
    state = four(hands=[["golpe", "patada"]] * 4)
    events = clash(state, {0: "golpe", 1: "golpe", 2: "patada", 3: "patada"})
    compared = of_kind(events, "SpeedCompared")
    assert [c.seats for c in compared] == [(0, 2), (1, 3)]
    assert state.taken == [0, 0, 2, 2]


# ------------------------------------------------------------------- combined combos
def test_2v2_combined_combos__the_chain_of_the_fighter_who_started_it():
    """rv.2v2.combined-combos: Mulan starts the chain; Curie's next link card gets Mulan's
    bonus, and may reach Mulan's maximum combo."""
    state = four(
        fighters=["mulan", "curie", "zorro", "darwin"],
        lines={(0, 0): ["golpe"]},
        hands=[
            ["bloqueo", "patada"],
            ["salto", "golpe"],
            ["bloqueo", "patada"],
            ["golpe", "patada"],
        ],
        zones=[1, 0, 0, 1],
    )
    events = clash(state, {0: "patada", 1: "salto", 2: "bloqueo", 3: "golpe"})
    (combo,) = [c for c in of_kind(events, "ComboFormed") if c.seat == 1]
    mulan = state.fighter(0)
    assert combo.starter == "P1 Mulan"
    assert combo.speed == mulan.combo[0].speed and combo.links == 1
    assert not combo.maximum  # Curie's own maximum (1 link) does not apply


def test_2v2_combined_combos__the_starters_maximum_combo_cuts_the_chain():
    top = GAME.catalog().fighters["curie"].max_combo
    assert top < GAME.catalog().fighters["mulan"].max_combo
    chain = ["golpe", "p2:golpe", "patada", "p2:patada"][:top]  # started by Curie
    state = four(
        fighters=["curie", "mulan", "zorro", "darwin"],
        lines={(0, 0): chain},
        hands=[
            ["bloqueo", "esquiva"],
            ["abanico", "bloqueo"],
            ["bloqueo", "patada"],
            ["golpe", "patada"],
        ],
        zones=[1, 0, 0, 1],
    )
    events = clash(state, {0: "bloqueo", 1: "abanico", 2: "bloqueo", 3: "golpe"})
    (combo,) = [c for c in of_kind(events, "ComboFormed") if c.seat == 1]
    assert combo.starter == "P1 Curie" and combo.links == top
    assert combo.maximum  # Curie's maximum, not Mulan's longer one
    assert sides(state, 0, zone=0)[-1] == "abanico/down"


# ---------------------------------------------------------------------- end of clash
def test_2v2_end_of_clash__effects_then_everyone_draws():
    """rv.2v2.end-of-clash: end-of-clash effects resolve; everyone draws a card."""
    state = four(
        hands=[["capa", "golpe"], ["golpe", "patada"], ["bloqueo", "golpe"], ["golpe", "patada"]]
    )
    events = clash(state, {0: "capa", 1: "golpe", 2: "bloqueo", 3: "golpe"})
    kinds = [e.kind for e in events]
    flipped = [e for e in of_kind(events, "CardFlipped") if e.card == "zorro.capa"]
    assert flipped and kinds.index("CardFlipped") < kinds.index("ClashStarted")
    drawn = [e.seat for e in of_kind(events, "CardsDrawn") if e.to is None]
    assert drawn == [0, 1, 2, 3]


# --------------------------------------------------------------------------- team K.O.
def test_2v2_team_ko__a_team_with_a_ko_at_the_end_of_the_clash_loses_the_round():
    """rv.2v2.team-ko: a K.O. is checked at the end of the clash: the other zone still
    resolves, then the team with the K.O. loses the round."""
    state = four(hands=[["golpe", "patada"]] * 4, taken=[0, 0, 8, 0])
    events = clash(state, {0: "golpe", 1: "golpe", 2: "patada", 3: "patada"})
    hurt = [(e.seat, e.amount) for e in of_kind(events, "DamageTaken")]
    assert hurt == [(2, card("basic.golpe").damage), (3, card("basic.golpe").damage)]
    kinds = [e.kind for e in events]
    assert kinds.index("KnockedOut") < kinds.index("AttackResolved", kinds.index("KnockedOut"))
    (ended,) = of_kind(events, "RoundEnded")
    assert ended.winners == (0,) and ended.rule == "rv.2v2.team-ko"
    assert state.rounds_won == [1, 0]


def test_2v2_team_ko__both_teams_ko_the_surviving_fighter_with_more_life_wins():
    # Zone 1: Zorro and Mulan exchange Golpes: both K.O.; Zone 2: Curie hits Darwin.
    f = GAME.catalog().fighters
    darwin_after = f["darwin"].life - card("basic.golpe").damage
    curie_taken = f["curie"].life - (darwin_after - 2)  # Curie ends 2 behind Darwin
    taken = [f["zorro"].life - 1, curie_taken, f["mulan"].life - 1, 0]
    state = four(hands=[["golpe", "patada"]] * 4, taken=taken)
    events = clash(state, {0: "golpe", 1: "golpe", 2: "golpe", 3: "patada"})
    assert sorted(e.seat for e in of_kind(events, "KnockedOut")) == [0, 2]
    lives = {e.seat: e.life for e in of_kind(events, "DamageTaken")}
    assert lives[3] == darwin_after
    (ended,) = of_kind(events, "RoundEnded")
    assert ended.winners == (1,) and ended.reason == "both teams K.O."


def test_2v2_team_ko__the_tie_persists_both_teams_win_the_round():
    f = GAME.catalog().fighters
    t1 = max(0, f["curie"].life - f["darwin"].life)
    t3 = t1 + f["darwin"].life - f["curie"].life  # Curie and Darwin end with equal life
    taken = [f["zorro"].life - 1, t1, f["mulan"].life - 1, t3]
    state = four(hands=[["golpe", "patada"]] * 4, taken=taken)
    events = clash(state, {0: "golpe", 1: "patada", 2: "golpe", 3: "patada"})
    (ended,) = of_kind(events, "RoundEnded")
    assert ended.winners == (0, 1)
    assert state.rounds_won == [1, 1]


def test_2v2_ruling_team_life__after_the_seventh_clash_more_total_life_wins():
    """rv.ruling.team-life: the team with more life in total."""
    state = four(hands=[["bloqueo"]] * 4, clash=7, taken=[1, 0, 3, 2])
    events = clash(state, dict.fromkeys(range(4), "bloqueo"))
    (ended,) = of_kind(events, "RoundEnded")
    assert ended.winners == (0,) and ended.rule == "rv.ruling.team-life"


def test_2v2_final_round__the_first_team_to_cause_damage_wins():
    state = four(hands=[["golpe", "patada", "bloqueo"]] * 4, final=True, round=4, rounds_won=(2, 2))
    clash(state, {0: "golpe", 1: "golpe", 2: "patada", 3: "bloqueo"})
    assert state.outcome.winners == (0, 1)
    assert state.outcome.rule == "rv.end.final-round"


@pytest.mark.parametrize(("first_zone", "winners"), [(1, (0, 1)), (2, (2, 3))])
def test_2v2_final_round__the_first_damage_in_the_order_of_the_zones_wins(first_zone, winners):
    """rv.end.final-round ("the first to cause 1 or more Damage is the winner") under
    rv.2v2.boosting ("Each zone is resolved separately and in the order the players decide"):
    Team A deals Damage in Zone 1, Team B in Zone 2; the zone resolved first decides, and the
    other zone is not resolved (rv.ruling.final-round)."""
    state = four(hands=[["golpe", "patada"]] * 4, final=True, round=4, rounds_won=(2, 2))
    events = clash(state, {0: "golpe", 1: "patada", 2: "patada", 3: "golpe"}, first_zone=first_zone)
    assert state.is_terminal and state.outcome.winners == winners
    assert state.outcome.rule == "rv.end.final-round"
    assert len(of_kind(events, "AttackResolved")) == 1  # the second zone never resolved
    assert len(of_kind(events, "DamageTaken")) == 1


def test_2v2_final_round__an_exchange_in_the_first_zone_decides_nothing():
    """rv.ruling.final-round: an exchange (both teams at once) decides nothing; the first
    Damage caused by one team alone, in the next zone, does."""
    state = four(hands=[["golpe", "patada"]] * 4, final=True, round=4, rounds_won=(2, 2))
    events = clash(state, {0: "golpe", 1: "patada", 2: "golpe", 3: "golpe"})
    assert of_kind(events, "SpeedCompared")[0].rule == "rv.speed.exchange"
    assert state.is_terminal and state.outcome.winners == (2, 3)


# ------------------------------------------------------------------------------ views
def test_2v2_communication__teammates_never_see_each_others_hands():
    """rv.2v2.communication: cards in hand may not be shown between teammates."""
    state = four(hands=[["golpe", "patada"]] * 4)
    view = state.view(0)
    assert "hand" in view["players"][0]
    assert all("hand" not in view["players"][s] for s in (1, 2, 3))


# ----------------------------------------------------------------- fighter adjustments
def test_2v2_adjust_zorro__passive_counts_the_partners_exhausted_cards():
    need = GAME.catalog().fighters["zorro"].static[0].requires.min_exhausted
    mine = ["x:golpe", "x:patada", "x:bloqueo"][: need - 1]
    state = four(
        lines={(0, 0): ["p2:x:golpe", *mine]},
        hands=[
            ["estocada", "esquiva"],
            ["golpe", "patada"],
            ["bloqueo", "golpe"],
            ["golpe", "patada"],
        ],
    )
    events = clash(state, {0: "estocada", 1: "golpe", 2: "bloqueo", 3: "golpe"})
    passive = [e for e in of_kind(events, "EffectApplied") if "Maestro" in e.source]
    assert passive and passive[0].what.startswith("+1 Speed")


def test_2v2_adjust_zorro__la_marca_counts_the_partners_face_down_cards():
    state = four(
        lines={(0, 0): ["p2:v:golpe", "p2:v:patada"]},
        hands=[
            ["la-marca", "golpe"],
            ["bloqueo", "salto"],
            ["bloqueo", "golpe"],
            ["golpe", "patada"],
        ],
        ultra_taken=[0],
    )
    events = clash(state, {0: "la-marca", 1: "bloqueo", 2: "bloqueo", 3: "golpe"})
    assert [e.what for e in of_kind(events, "EffectApplied") if e.source == "La Marca"] == [
        "+2 Damage"
    ]


def test_2v2_adjust_zorro__latigazo_refers_to_the_previous_card_whoever_played_it():
    state = four(
        lines={(0, 0): ["p2:golpe"]},
        hands=[
            ["latigazo", "golpe"],
            ["bloqueo", "salto"],
            ["bloqueo", "golpe"],
            ["golpe", "patada"],
        ],
    )
    events = clash(state, {0: "latigazo", 1: "bloqueo", 2: "bloqueo", 3: "golpe"})
    assert not [e for e in of_kind(events, "RequirementUnmet") if e.source == "Latigazo"]


def test_2v2_adjust_zorro__presion_may_flip_a_card_of_the_partner():
    state = four(
        lines={(0, 0): ["p2:golpe"]},
        hands=[
            ["presion", "golpe"],
            ["bloqueo", "salto"],
            ["bloqueo", "golpe"],
            ["golpe", "patada"],
        ],
    )
    state.apply(
        {
            0: "play:zorro.presion",
            1: "play:basic.bloqueo",
            2: "play:basic.bloqueo",
            3: "play:basic.golpe",
        }
    )
    state.apply({0: "order:1"})
    (d,) = state.pending()
    assert d.legal == ("pick:1:basic.golpe", "pass")
    state.apply({0: "pick:1:basic.golpe"})
    assert state.lines[0][0][0].side == DOWN


def test_2v2_adjust_zorro__amague_only_exchanges_with_his_own_basic_cards():
    state = four(
        lines={(0, 0): ["p2:golpe", "patada"]},
        hands=[
            ["amague", "golpe"],
            ["bloqueo", "salto"],
            ["bloqueo", "golpe"],
            ["golpe", "bloqueo"],
        ],
    )
    state.apply(
        {
            0: "play:zorro.amague",
            1: "play:basic.bloqueo",
            2: "play:basic.bloqueo",
            3: "play:basic.golpe",
        }
    )
    state.apply({0: "order:1"})
    (d,) = state.pending()
    assert d.legal == ("pick:0:basic.patada", "pass")


def test_2v2_adjust_curie__passive_counts_the_partners_energy_cards():
    state = four(
        fighters=["curie", "zorro", "mulan", "darwin"],
        lines={(0, 0): ["p2:v:golpe", "p2:v:patada", "v:bloqueo"]},
        hands=[
            ["salto", "golpe"],
            ["bloqueo", "latigazo"],
            ["bloqueo", "golpe"],
            ["golpe", "patada"],
        ],
    )
    events = clash(state, {0: "salto", 1: "bloqueo", 2: "bloqueo", 3: "golpe"})
    up = [e for e in of_kind(events, "CardFlipped") if e.up]
    assert [e.card for e in up] == ["basic.bloqueo"]  # the most recent energy card
    assert state.lines[0][0][2].side == UP


def test_2v2_adjust_curie__passive_never_flips_up_the_card_of_this_clash():
    """Radiactividad in 2vs2: the card Damage flipped this clash stays face down; the most
    recent energy card of an earlier clash, the partner's here, is flipped instead."""
    state = four(
        fighters=["curie", "zorro", "mulan", "darwin"],
        lines={(0, 0): ["p2:v:golpe", "v:patada", "p2:v:bloqueo"]},
        hands=[
            ["golpe", "salto"],
            ["patada", "latigazo"],
            ["espada", "golpe"],
            ["golpe", "patada"],
        ],
    )
    events = clash(state, {0: "golpe", 1: "patada", 2: "espada", 3: "golpe"})
    assert [e.seat for e in of_kind(events, "DamageTaken")][:1] == [0]
    assert [e.card for e in of_kind(events, "CardFlipped") if e.up] == ["basic.bloqueo"]
    assert sides(state, 0) == ["golpe/down", "patada/down", "bloqueo/up", "golpe/down"]


def _ruled_2v2(card_id):
    text = card(card_id).text
    assert "2vs2" in text and "partner" in text, text  # the text says what the card counts


def test_2v2_your_cards__polonio_counts_the_partners_energy_cards():
    """rv.ruling.your-cards-2v2: "you have 2 or more energy cards" counts the team's line."""
    _ruled_2v2("curie.polonio")
    state = four(
        fighters=["curie", "zorro", "mulan", "darwin"],
        lines={(0, 0): ["p2:v:golpe", "v:patada"]},
        hands=[["polonio", "golpe"], ["bloqueo", "golpe"], ["bloqueo", "golpe"], ["golpe"] * 1],
    )
    events = clash(state, {0: "polonio", 1: "bloqueo", 2: "bloqueo", 3: "golpe"})
    assert [e.what for e in of_kind(events, "EffectApplied") if e.source == "Polonio"] == [
        "+1 Damage"
    ]


def test_2v2_your_cards__radio_refreshes_the_partners_exhausted_card():
    """rv.ruling.your-cards-2v2: Radio's "one of your exhausted cards" may be the partner's."""
    _ruled_2v2("curie.radio")
    state = four(
        fighters=["curie", "zorro", "mulan", "darwin"],
        lines={(0, 0): ["p2:x:golpe"]},
        hands=[["radio", "golpe"], ["bloqueo", "golpe"], ["bloqueo", "golpe"], ["golpe"]],
    )
    clash(state, {0: "radio", 1: "bloqueo", 2: "bloqueo", 3: "golpe"})
    assert sides(state, 0)[0] == "golpe/down"  # Zorro's, energy again


def test_2v2_your_cards__fiesta_refreshes_the_partners_exhausted_cards():
    """rv.ruling.your-cards-2v2: Fiesta de No-Cumpleaños refreshes the team's line."""
    _ruled_2v2("sombrerero.fiesta")
    state = four(
        fighters=["sombrerero", "zorro", "mulan", "darwin"],
        lines={(0, 0): ["p2:x:golpe", "x:patada"]},
        hands=[["fiesta", "golpe"], ["bloqueo", "golpe"], ["bloqueo", "golpe"], ["golpe"]],
        ultra_taken=[0],
    )
    clash(state, {0: "fiesta", 1: "bloqueo", 2: "bloqueo", 3: "golpe"})
    assert sides(state, 0)[:2] == ["golpe/down", "patada/down"]


def test_2v2_your_cards__supervivencia_counts_the_partners_face_down_cards():
    """rv.ruling.your-cards-2v2: Supervivencia del Más Apto counts the team's line."""
    _ruled_2v2("darwin.supervivencia")
    state = four(
        fighters=["darwin", "zorro", "mulan", "curie"],
        lines={(0, 0): ["p2:v:golpe", "p2:x:patada"]},
        hands=[["supervivencia", "golpe"], ["bloqueo", "golpe"], ["espada", "golpe"], ["golpe"]],
    )
    events = clash(state, {0: "supervivencia", 1: "bloqueo", 2: "espada", 3: "golpe"})
    assert [
        e.what for e in of_kind(events, "EffectApplied") if e.source == "Supervivencia del Más Apto"
    ] == ["+1 Guard"]


def test_2v2_adjust_curie__onda_radiactiva_counts_the_partners_face_up_cards():
    state = four(
        fighters=["curie", "zorro", "mulan", "darwin"],
        lines={(0, 0): ["p2:golpe", "p2:patada"]},
        hands=[
            ["onda", "golpe"],
            ["bloqueo", "latigazo"],
            ["bloqueo", "golpe"],
            ["golpe", "patada"],
        ],
        ultra_taken=[0],
    )
    events = clash(state, {0: "onda", 1: "bloqueo", 2: "bloqueo", 3: "golpe"})
    assert [e.what for e in of_kind(events, "EffectApplied") if e.source == "Onda Radiactiva"] == [
        "+2 Damage"
    ]


def test_2v2_adjust_curie__isotopos_counts_the_rival_and_their_partners_face_up_cards():
    state = four(
        fighters=["curie", "zorro", "mulan", "darwin"],
        lines={(0, 1): ["golpe", "p4:golpe", "p4:patada", "bloqueo"]},
        hands=[
            ["isotopos", "golpe"],
            ["bloqueo", "latigazo"],
            ["bloqueo", "golpe"],
            ["golpe", "patada"],
        ],
    )
    events = clash(state, {0: "isotopos", 1: "bloqueo", 2: "bloqueo", 3: "golpe"})
    assert [
        e.what for e in of_kind(events, "EffectApplied") if e.source == "Isótopos Cargados"
    ] == ["+2 Damage"]


def test_2v2_adjust_curie__fisica_imposible_wins_speed_ties_regardless_of_type():
    state = four(
        fighters=["curie", "zorro", "mulan", "darwin"],
        hands=[
            ["fisica", "golpe"],
            ["bloqueo", "latigazo"],
            ["golpe", "patada"],
            ["golpe", "patada"],
        ],
    )
    events = clash(state, {0: "fisica", 1: "bloqueo", 2: "golpe", 3: "golpe"})
    compared = of_kind(events, "SpeedCompared")[0]
    assert compared.speeds[0] == compared.speeds[1] and compared.attacker == 0


def test_2v2_adjust_curie__salto_analitico_counts_the_partners_face_down_cards():
    state = four(
        fighters=["curie", "zorro", "mulan", "darwin"],
        lines={(0, 0): ["p2:v:golpe", "p2:x:patada"]},
        hands=[
            ["salto", "golpe"],
            ["bloqueo", "latigazo"],
            ["bloqueo", "golpe"],
            ["golpe", "patada"],
        ],
    )
    events = clash(state, {0: "salto", 1: "bloqueo", 2: "bloqueo", 3: "golpe"})
    assert [e.what for e in of_kind(events, "EffectApplied") if e.source == "Salto Analítico"] == [
        "+2 Speed"
    ]


def pinzas_setup(option: str):
    state = four(
        fighters=["mulan", "zorro", "curie", "darwin"],
        hands=[
            ["pinzas", "golpe"],
            ["bloqueo", "golpe"],
            ["bloqueo", "golpe"],
            ["bloqueo", "golpe"],
        ],
        options={"pinzas": option},
    )
    clash(state, {0: "pinzas", 1: "bloqueo", 2: "bloqueo", 3: "bloqueo"})
    return state


def test_2v2_adjust_mulan__pinzas_binds_whichever_rival_plays_that_zone_next_clash():
    """rv.ruling.pinzas-2v2 (default ``zone``): the rival playing Zone 1 next clash."""
    state = pinzas_setup("zone")
    state.apply({1: "zone:2", 3: "zone:1"})  # team B swaps: Darwin now plays Zone 1
    assert state.restricted == {3}
    assert all(not c.startswith("play:basic") for c in state.legal(3))


def test_2v2_adjust_mulan__pinzas_facing_binds_the_rival_who_faces_mulan():
    state = pinzas_setup("facing")
    state.apply({1: "zone:1", 3: "zone:2"})  # Mulan moves to Zone 2 and faces Darwin
    assert state.zone_of[0] == 1
    assert state.restricted == {3}


def test_2v2_adjust_darwin__evolucion_counts_links_whoever_formed_the_chain():
    state = four(
        fighters=["darwin", "mulan", "zorro", "curie"],
        lines={(0, 0): ["p2:golpe", "p2:patada"]},
        hands=[
            ["evolucion", "golpe"],
            ["bloqueo", "pinzas"],
            ["bloqueo", "golpe"],
            ["golpe", "patada"],
        ],
        ultra_taken=[0],
    )
    events = clash(state, {0: "evolucion", 1: "bloqueo", 2: "bloqueo", 3: "golpe"})
    assert [
        e.what for e in of_kind(events, "EffectApplied") if e.source == "Evolución Definitiva"
    ] == ["+2 Damage"]


def test_2v2_adjust_hansel_gretel__choose_when_both_cards_of_the_zone_are_played():
    state = four(
        fighters=["hansel-gretel", "zorro", "mulan", "darwin"],
        hands=[["horno", "golpe"], ["bloqueo", "golpe"], ["bloqueo", "golpe"], ["golpe", "patada"]],
    )
    state.apply(
        {
            0: "play:hansel-gretel.horno",
            1: "play:basic.bloqueo",
            2: "play:basic.bloqueo",
            3: "play:basic.golpe",
        }
    )
    (d,) = state.pending()
    assert (d.seat, d.kind) == (0, "persona")
    events = state.apply({0: "persona:gretel"})
    assert of_kind(events, "PersonaChosen")[0].to is None  # out loud


def test_2v2_adjust_hansel_gretel__carga_crocante_only_boosts_your_own_next_card():
    state = four(
        fighters=["hansel-gretel", "zorro", "mulan", "darwin"],
        hands=[
            ["carga", "golpe", "horno"],
            ["bloqueo", "golpe"],
            ["bloqueo", "golpe"],
            ["golpe", "patada"],
        ],
    )
    clash(state, {0: "carga", 1: "bloqueo", 2: "bloqueo", 3: "golpe"}, personas={0: "gretel"})
    assert state.carry[0] == [0, 1, 0] and state.carry[1] == [0, 0, 0]


def test_2v2_adjust_hansel_gretel__guardia_galleta_flips_partners_energy_in_its_zone_only():
    state = four(
        fighters=["hansel-gretel", "zorro", "mulan", "darwin"],
        lines={(0, 0): ["p2:v:golpe"], (1, 0): ["p2:v:patada"]},
        hands=[
            ["guardia", "golpe"],
            ["bloqueo", "golpe"],
            ["espada", "golpe"],
            ["golpe", "patada"],
        ],
    )
    state.apply(
        {
            0: "play:hansel-gretel.guardia",
            1: "play:basic.bloqueo",
            2: "play:mulan.espada",
            3: "play:basic.golpe",
        }
    )
    state.apply({0: "persona:hansel"})
    state.apply({0: "order:1"})
    while state.pending()[0].kind == "boost":
        state.apply({d.seat: "boost:none" for d in state.pending()})
    (d,) = state.pending()
    assert d.legal == ("count:0", "count:1")  # only Zone 1's energy card
    state.apply({0: "count:1"})
    assert state.lines[0][0][0].side == UP and state.lines[1][0][0].side == DOWN


def test_2v2_adjust_sombrerero__his_basic_cards_boost_the_partners_unique_cards():
    state = four(
        fighters=["zorro", "sombrerero", "mulan", "darwin"],
        lines={(0, 0): ["p2:golpe"]},
        hands=[
            ["estocada", "golpe"],
            ["bloqueo", "tetera"],
            ["bloqueo", "golpe"],
            ["golpe", "patada"],
        ],
    )
    events = clash(state, {0: "estocada", 1: "bloqueo", 2: "bloqueo", 3: "golpe"})
    teapot = [
        e for e in of_kind(events, "EffectApplied") if e.seat == 1 and "Fiesta del Té" in e.source
    ]
    assert [e.what for e in teapot] == [
        "+1 Damage to P1 Zorro's Estocada",
        "+1 Guard to P1 Zorro's Estocada",
    ]


def test_2v2_adjust_sombrerero__lluvia_shows_the_hand_only_to_the_player_faced():
    state = four(
        fighters=["sombrerero", "zorro", "mulan", "darwin"],
        hands=[
            ["lluvia", "golpe", "patada"],
            ["bloqueo", "golpe"],
            ["bloqueo", "golpe"],
            ["golpe", "patada"],
        ],
    )
    events = clash(state, {0: "lluvia", 1: "bloqueo", 2: "bloqueo", 3: "golpe"})
    private = [e for e in of_kind(events, "HandShown") if e.to is not None]
    assert [(e.to, e.cards) for e in private] == [(frozenset({2}), ("basic.golpe", "basic.patada"))]
    assert state.view(2)["players"][0]["known_hand"] == ["basic.golpe", "basic.patada"]
    assert "known_hand" not in state.view(3)["players"][0]
    assert "known_hand" not in state.view(1)["players"][0]
