"""The SF Rivals card pack: all 80 cards, provenance of every value, the estimate model,
user overlays and clear errors for bad packs."""

from __future__ import annotations

import pytest

from kumite.core.errors import PackError
from kumite.games.sfrivals.cards import base_pack, load_catalog, read_overlay
from kumite.games.sfrivals.estimate import estimated_damage

CATALOG = load_catalog()


def test_pack_has_the_8_characters_and_their_80_cards():
    assert list(CATALOG.characters) == [
        "ryu",
        "ken",
        "zangief",
        "guile",
        "poison",
        "juri",
        "chunli",
        "dudley",
    ]
    for char in CATALOG.characters.values():
        assert len(char.deck) == 10
        assert [c.kind for c in char.cards].count("ultra") == 1
        assert [c.kind for c in char.cards].count("super") == 1


def test_life_10_and_shoryuken_3_come_from_sources():
    assert CATALOG.rules.life == 10
    assert str(CATALOG.rule_provenance["life"]) == "source:4G"
    shoryuken = CATALOG.cards["ryu.shoryuken"]
    assert (shoryuken.damage, str(shoryuken.provenance["damage"])) == (3, "source:TF")


def test_every_other_damage_is_an_estimate_from_the_one_documented_model():
    for card in CATALOG.cards.values():
        prov = card.provenance["damage"]
        if card.id == "ryu.shoryuken":
            continue
        assert prov.label == "estimate", card.id
        effects = [
            {"op": e.op, "amount": e.amount, "if_opponent_printed": e.if_opponent_printed}
            for e in card.effects
        ]
        assert card.damage == estimated_damage(card.initiative, effects, card.kind), card.id
    shoryuken = CATALOG.cards["ryu.shoryuken"]
    assert estimated_damage(shoryuken.initiative, [], "normal") == 3  # the model's anchor


def test_rulebook_values_carry_rulebook_provenance():
    for card in CATALOG.cards.values():
        for field in ("name", "initiative", "kind", "copies", "text"):
            assert str(card.provenance[field]) == "rulebook", (card.id, field)


def test_sources_are_listed_in_the_pack():
    assert {"4G", "TF", "GK", "rulebook"} <= set(base_pack().sources)


def write(tmp_path, text, name="mine.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


OVERLAY_HEAD = '[pack]\nid="mine"\ngame="sfrivals"\nbase="sfrivals-base"\n'


def test_overlay_pack_corrects_a_value_and_labels_it(tmp_path):
    path = write(tmp_path, OVERLAY_HEAD + '[[cards]]\nid="ryu.hadouken"\ndamage=2\n')
    catalog = load_catalog(read_overlay(path), path.name)
    card = catalog.cards["ryu.hadouken"]
    assert card.damage == 2
    assert str(card.provenance["damage"]) == "source:mine"
    assert catalog.cards["ryu.jab"].damage == CATALOG.cards["ryu.jab"].damage
    assert catalog.pack.sha256() != CATALOG.pack.sha256()


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (
            '[[cards]]\nid="ryu.hadouken"\ndamage="two"\n',
            "mine.toml: card 'ryu.hadouken': field 'damage': Expected `int`, got `str`",
        ),
        (
            '[[cards]]\nid="ryu.hadouken"\ninitiative=12\n',
            "card 'ryu.hadouken': field 'initiative': 12 is outside 0..9",
        ),
        (
            '[[cards]]\nid="ryu.hadouken"\neffects=[{op="fly"}]\n',
            "card 'ryu.hadouken': field 'effects",
        ),
        ('[[cards]]\nid="ryu.hadouken"\ncolour="red"\n', "card 'ryu.hadouken': field 'colour'"),
        (
            '[[cards]]\nid="ryu.extra"\ncharacter="ryu"\nname="X"\ninitiative=1\ndamage=1\n',
            "character 'ryu' has 11 cards; it needs 10",
        ),
        (
            '[[cards]]\nid="ryu.hadouken"\ndamage={value=2, from="rumour"}\n',
            "field 'damage': unknown provenance 'rumour'",
        ),
    ],
)
def test_bad_overlay_gives_one_line_naming_file_card_and_field(tmp_path, body, words):
    path = write(tmp_path, OVERLAY_HEAD + body)
    with pytest.raises(PackError) as info:
        read_overlay(path)
    assert words in str(info.value)
    assert "\n" not in str(info.value)


def test_overlay_for_another_game_is_refused(tmp_path):
    path = write(tmp_path, '[pack]\nid="x"\ngame="rivales"\n')
    with pytest.raises(PackError, match="pack is for game 'rivales'"):
        read_overlay(path)
