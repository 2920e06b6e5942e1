"""The Rivales card pack: six fighters, the shared basic cards, provenance of every value,
user overlays and clear errors for bad packs."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from kumite.core.errors import PackError
from kumite.games.rivales.cards import (
    CARD_VALUED,
    FIGHTER_VALUED,
    base_pack,
    load_catalog,
    read_overlay,
)
from kumite.games.rivales.game import GAME

CATALOG = load_catalog()
RULEBOOK_NAMES = {
    "zorro.latigazo": "Latigazo",
    "zorro.presion": "Presión",
    "zorro.amague": "Amague",
    "zorro.la-marca": "La Marca",
    "curie.isotopos": "Isótopos Cargados",
    "curie.fisica": "Física Imposible",
    "curie.salto": "Salto Analítico",
    "curie.onda": "Onda Radiactiva",
    "mulan.pinzas": "Pinzas de Mantis",
    "darwin.evolucion": "Evolución Definitiva",
    "hansel-gretel.carga": "Carga Crocante",
    "hansel-gretel.guardia": "Guardia Galleta",
    "sombrerero.lluvia": "Lluvia de Sombreros",
}


def test_pack_has_the_six_fighters_of_the_rulebook_and_four_basic_cards():
    assert [f.name for f in CATALOG.fighters.values()] == [
        "Zorro",
        "Curie",
        "Mulan",
        "Darwin",
        "Hansel & Gretel",
        "Sombrerero",
    ]
    assert [c.name for c in CATALOG.basics] == ["Golpe", "Patada", "Bloqueo", "Esquiva"]
    assert len(CATALOG.cards) == 4 + 6 * 6


def test_every_card_the_rulebook_names_is_there_with_its_name_from_the_rulebook():
    for cid, name in RULEBOOK_NAMES.items():
        card = CATALOG.cards[cid]
        assert card.name == name
        assert str(card.provenance["name"]) == "rulebook"
        assert card.provenance["text"].note and "rulebook" in card.provenance["text"].note
    for ultra in ("zorro.la-marca", "curie.onda", "darwin.evolucion"):
        assert CATALOG.cards[ultra].type == "ultra"
        assert str(CATALOG.cards[ultra].provenance["type"]) == "rulebook"


def test_every_value_and_text_is_labelled_and_only_rulebook_or_reconstructed():
    for card in CATALOG.cards.values():
        assert set(CARD_VALUED) <= set(card.provenance), card.id
        assert {p.label for p in card.provenance.values()} <= {"rulebook", "reconstructed"}
    for fighter in CATALOG.fighters.values():
        assert set(FIGHTER_VALUED) <= set(fighter.provenance), fighter.id
        assert str(fighter.provenance["name"]) == "rulebook"
        assert str(fighter.provenance["life"]) == "reconstructed"
    for name, prov in CATALOG.rule_provenance.items():
        assert str(prov) == "rulebook", name


def test_rule_values_are_the_rulebooks():
    rules = CATALOG.rules
    assert (rules.draw_at_setup, rules.clashes_per_round, rules.rounds_to_win) == (5, 7, 2)
    assert (rules.boost_damage_cost, rules.boost_speed_cost, rules.boost_both_cost) == (1, 2, 3)


def test_pack_documents_its_method_and_balance():
    assert base_pack().data["pack"]["id"] == "rivales-base"
    source = (resources.files("kumite.games.rivales") / "packs" / "base.toml").read_text("utf-8")
    assert "HOW IT WAS RECONSTRUCTED" in source and "HOW IT WAS BALANCED" in source
    assert "scripts/rivales_balance.py" in source


def test_an_overlay_replaces_values_and_labels_them_as_the_users_source(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(
        '[pack]\nid = "my-box"\ngame = "rivales"\nbase = "rivales-base"\n'
        '[[fighters]]\nid = "zorro"\nlife = 12\n'
        '[[cards]]\nid = "zorro.latigazo"\nspeed = 6\n'
    )
    catalog = load_catalog(read_overlay(path), path.name)
    assert catalog.fighters["zorro"].life == 12
    assert str(catalog.fighters["zorro"].provenance["life"]) == "source:my-box"
    assert catalog.cards["zorro.latigazo"].speed == 6
    state = GAME.new_state(1, {"fighters": ["zorro", "curie"], "pack": path.read_text()})
    assert state.fighter(0).life == 12
    assert (
        GAME.pack_ref(GAME.parse_options({"pack": path.read_text()}))["sha256"]
        != (GAME.pack_ref(GAME.parse_options({}))["sha256"])
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            '[[cards]]\nid = "zorro.latigazo"\nspeed = "fast"\n',
            "card 'zorro.latigazo': field 'speed'",
        ),
        ('[[cards]]\nid = "zorro.latigazo"\nspeed = 99\n', "99 is outside 0..15"),
        ('[[fighters]]\nid = "zorro"\nultra_at = 20\n', "field 'ultra_at'"),
        (
            '[[cards]]\nid = "zorro.latigazo"\neffects = [{ when = "immediate", op = "fly" }]\n',
            "field 'effects[0].op': Invalid enum value 'fly'",
        ),
        (
            '[[cards]]\nid = "zorro.capa"\n'
            'effects = [{ when = "passive", op = "bonus", stat = "speed", amount = 1 }]\n',
            "do not belong on a card",
        ),
        (
            '[[cards]]\nid = "zorro.capa"\n'
            'effects = [{ when = "immediate", op = "bonus", amount = 1 }]\n',
            "needs a 'stat'",
        ),
        (
            '[[cards]]\nid = "zorro.extra"\nfighter = "zorro"\nname = "X"\n'
            'type = "unique"\nspeed = 1\ndamage = 1\n',
            "6 unique",
        ),
    ],
)
def test_a_bad_overlay_names_file_card_and_field(tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text('[pack]\nid = "bad"\ngame = "rivales"\n' + text)
    with pytest.raises(PackError, match=re.escape(words)) as info:
        read_overlay(path)
    assert "bad.toml" in str(info.value)
