"""Choice labels and the 2vs2 team-talk limits, shared by the terminal and the web table:
readable, built from the deciding seat's view only, and never a channel for hidden cards."""

from __future__ import annotations

import random

import pytest

from kumite.games.rivales.labels import choice_label, choice_labels
from kumite.games.rivales.talk import (
    forbidden_cards,
    named,
    refusal,
    team_message_refusal,
    unseen_cards,
)
from tests.games.rivales.helpers import CATALOG, GAME, card, clash, position


def decisions(mode: str, seeds: range):
    """(state, decision) of every decision of random fights."""
    for seed in seeds:
        state = GAME.new_state(seed, {"mode": mode})
        rng = random.Random(seed)
        while not state.is_terminal:
            pending = state.pending()
            for d in pending:
                yield state, d
            state.apply({d.seat: rng.choice(d.legal) for d in pending})


@pytest.mark.parametrize("mode", ["1v1", "2v2"])
def test_every_legal_choice_has_a_distinct_readable_label_from_the_seats_view_only(mode):
    rng = random.Random(5)
    kinds = set()
    for state, d in decisions(mode, range(8)):
        view = state.view(d.seat)
        labels = choice_labels(d.legal, CATALOG, view)
        assert len(labels) == len(d.legal)
        assert len(set(labels)) == len(labels), (d.kind, labels)
        for choice, label in zip(d.legal, labels, strict=True):
            assert label != choice and " " in label, (d.kind, choice, label)
        twin = state.determinize(d.seat, rng)
        assert choice_labels(d.legal, CATALOG, twin.view(d.seat)) == labels
        kinds.add(d.kind)
    assert {"fighter", "marker", "play", "boost", "dodge"} <= kinds
    if mode == "2v2":
        assert "zones" in kinds


def test_boost_labels_name_their_energy_cost():
    """rv.energy.boost: x1 energy = +1 Damage, x2 = +1 Speed, x3 = both."""
    view = {"seat": 0, "pending": [{"seat": 0, "kind": "boost"}]}
    assert [
        choice_label(c, CATALOG, view)
        for c in ("boost:none", "boost:damage", "boost:speed", "boost:both")
    ] == [
        "No boost",
        "+1 Damage (spend 1 energy)",
        "+1 Speed (spend 2 energy)",
        "+1 Speed and +1 Damage (spend 3 energy)",
    ]


def test_guard_labels_do_the_subtraction_for_the_defender():
    """rv.energy.guard: the defender may exhaust energy for +1 Guard each."""
    s = position(
        ["zorro", "curie"],
        hands=[["golpe"], ["patada"]],
        lines=[["v:patada"], ["v:golpe", "v:esquiva"]],
    )
    s.apply({0: "play:basic.golpe", 1: "play:basic.patada"})
    while s.pending() and s.pending()[0].kind == "boost":
        s.apply({d.seat: "boost:none" for d in s.pending()})
    (d,) = s.pending()
    assert (d.seat, d.kind) == (1, "guard")
    labels = choice_labels(d.legal, CATALOG, s.view(1))
    assert labels == [
        "No Guard boost — Guard 0 against Damage 2: you take 2",
        "Exhaust 1 energy: +1 Guard — Guard 1 against Damage 2: you take 1",
        "Exhaust 2 energy: +2 Guard — Guard 2 against Damage 2: no Damage",
    ]


def test_zone_persona_marker_and_play_labels():
    view = {"seat": 0, "pending": [{"seat": 0, "kind": "zones"}]}
    assert choice_label("zone:2", CATALOG, view) == "Play in Zone 2 (your partner takes Zone 1)"
    assert choice_label("persona:gretel", CATALOG, view) == "GRETEL (cookie): +1 Damage"
    assert choice_label("play:basic.golpe", CATALOG, view) == (
        "Play Golpe† face down (Speed 4, Damage 2, link)"
    )
    assert choice_label("marker:basic.bloqueo", CATALOG, view).startswith(
        "Cover your life bar with Bloqueo†"
    )
    assert choice_label("fighter:zorro", CATALOG, view).startswith("Fight as Zorro (life 9†")


def test_effect_picks_say_whose_card_they_act_on_in_2v2():
    """rv.2v2.adjust.zorro: Presión may flip a card of their own or of their partner."""
    s = position(
        ["zorro", "curie", "mulan", "darwin"],
        hands=[["presion"], ["golpe"], ["golpe"], ["golpe"]],
        lines={(0, 0): ["p1:patada", "p2:golpe"]},
        zones=[0, 1, 0, 1],
    )
    s.apply(
        {
            0: "play:zorro.presion",
            1: "play:basic.golpe",
            2: "play:basic.golpe",
            3: "play:basic.golpe",
        }
    )
    while s.pending() and s.pending()[0].kind != "flip-own-down":
        s.apply({d.seat: d.legal[0] for d in s.pending()})
    (d,) = s.pending()
    labels = dict(zip(d.legal, choice_labels(d.legal, CATALOG, s.view(0)), strict=True))
    assert labels["pick:0:basic.patada"] == "Flip your Patada† face down (it becomes energy)"
    assert labels["pick:1:basic.golpe"] == "Flip P2 Curie's Golpe† face down (it becomes energy)"
    assert labels["pass"] == "Flip nothing"


# -- team talk ------------------------------------------------------------------------------


def test_a_message_naming_a_card_in_hand_is_refused_case_and_accents_ignored():
    """rv.2v2.communication: cards in hand may not be shown or named between teammates."""
    hand = [card("curie.fisica"), card("basic.golpe")]
    assert refusal("go zone 2, I have FISICA imposible", hand)
    assert refusal("golpe ready", hand)
    assert "Física Imposible" in (refusal("física imposible!", hand) or "")
    assert refusal("their zone 1 has 2 energy, take it", hand) is None
    assert named("golpear", hand) is None  # whole words only


@pytest.mark.parametrize("mode", ["1v1", "2v2"])
def test_the_forbidden_cards_depend_on_public_information_only(mode):
    """A refusal must tell the partner nothing: the forbidden cards are computed from what the
    whole table sees (the spectator's view), never from the hand itself."""
    for state, d in decisions(mode, range(4)):
        mine = state.view(d.seat)
        public = {**state.view(None), "seat": d.seat}
        assert sorted(c.id for c in forbidden_cards(mine, CATALOG)) == sorted(
            c.id for c in forbidden_cards(public, CATALOG)
        )
        hand = mine["players"][d.seat].get("hand", [])
        ids = {c.id for c in forbidden_cards(mine, CATALOG)}
        assert set(hand) <= ids
        marker = mine["players"][d.seat]["marker"]
        assert marker is None or marker in ids  # the life marker is hidden too


def test_cards_on_the_table_may_be_named_cards_that_could_be_in_hand_may_not():
    s = position(
        ["zorro", "curie", "mulan", "darwin"],
        hands=[["latigazo", "golpe"], ["golpe"], ["golpe"], ["golpe"]],
        lines={(0, 0): ["estocada", "v:capa"]},
        zones=[0, 1, 0, 1],
    )
    view = s.view(0)
    unseen = {c.id for c in unseen_cards(view, 0, CATALOG)}
    assert "zorro.estocada" not in unseen and "zorro.capa" not in unseen
    assert "zorro.la-marca" not in unseen  # the ultra, face up aside
    assert {"zorro.latigazo", "basic.golpe", "zorro.presion"} <= unseen  # hand and deck
    assert team_message_refusal("my Estocada is up, Capa is energy", view, CATALOG) is None
    assert team_message_refusal("rival's La Marca is still aside", view, CATALOG) is None
    assert team_message_refusal("I have Latigazo", view, CATALOG)
    assert team_message_refusal("presion next?", view, CATALOG)  # could be in hand


def test_a_hand_shown_by_lluvia_de_sombreros_may_not_be_passed_on():
    """rv.2v2.adjust.sombrerero: show your cards only to the player you are facing; that
    player may not tell their partner which cards you have."""
    s = position(
        ["sombrerero", "zorro", "curie", "mulan"],
        hands=[["lluvia", "tetera", "golpe"], ["golpe"], ["golpe", "patada"], ["golpe"]],
        zones=[0, 1, 0, 1],
    )
    clash(s, {0: "lluvia", 1: "golpe", 2: "golpe", 3: "golpe"})
    faced, partner = s.view(2), s.view(3)
    assert faced["players"][0]["shown_to"] == [2]
    assert partner["players"][0]["shown_to"] == [2]  # public: Lluvia is played face up
    assert set(faced["players"][0]["known_hand"]) == {"sombrerero.tetera", "basic.golpe"}
    assert "known_hand" not in partner["players"][0]
    assert team_message_refusal("watch out for the Tetera Voladora", faced, CATALOG)
    assert team_message_refusal("watch out for the Tetera Voladora", partner, CATALOG) is None


def test_marks__a_reconstructed_name_carries_a_dagger_a_rulebook_name_none():
    """Honest marks: Estocada is kumite's name (†); La Marca is the rulebook's."""
    view = {"seat": 0, "players": [{"fighter": "zorro"}], "pending": [{"seat": 0, "kind": "play"}]}
    assert CATALOG.cards["zorro.estocada"].provenance["name"].label == "reconstructed"
    assert choice_label("play:zorro.estocada", CATALOG, view).startswith("Play Estocada† ")
    assert CATALOG.cards["zorro.la-marca"].provenance["name"].label == "rulebook"
    assert choice_label("play:zorro.la-marca", CATALOG, view).startswith("Play La Marca face")
    assert "Maestro espadachín†" in choice_label("fighter:zorro", CATALOG, view)


def test_marks__a_move_list_names_the_copies_of_a_card_when_a_deck_holds_several():
    """Copies (×N) in move lists: a Rivales deck holds one of each card (rv.components.deck),
    so no ×N shows with this pack; a deck holding two copies would say ×2."""
    import dataclasses

    zorro = CATALOG.fighters["zorro"]
    golpe = CATALOG.cards["basic.golpe"]
    doubled = dataclasses.replace(zorro, cards=(golpe, *zorro.cards[1:]))
    doubled = dataclasses.replace(doubled, cards=(golpe, golpe, *zorro.cards[2:]))
    catalog = dataclasses.replace(CATALOG, fighters={**CATALOG.fighters, "zorro": doubled})
    view = {"seat": 0, "players": [{"fighter": "zorro"}], "pending": [{"seat": 0, "kind": "play"}]}
    assert choice_label("play:basic.golpe", catalog, view).startswith("Play Golpe† ×2 face down")
    assert "×" not in choice_label("play:basic.golpe", CATALOG, view)
