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


def test_overlay_renames_a_character(tmp_path):
    # merge gives an overlay's "name" a provenance; a character's name must accept it
    path = write(tmp_path, OVERLAY_HEAD + '[[characters]]\nid="ryu"\nname="Ryu (Evil)"\n')
    catalog = load_catalog(read_overlay(path), path.name)
    assert catalog.characters["ryu"].name == "Ryu (Evil)"


# [rules] ranges (docs/packs.md): life 1..31, hand (rounds) 1..8, ultra_life_at_most 1..31,
# super_round_at_least 1..8.
@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ("hand = 12", "field 'rules.hand': 12 is outside 1..8"),
        ("hand = 9", "field 'rules.hand': 9 is outside 1..8"),
        ("hand = 0", "field 'rules.hand': 0 is outside 1..8"),
        ("life = 0", "field 'rules.life': 0 is outside 1..31"),
        ("life = -3", "field 'rules.life': -3 is outside 1..31"),
        ("life = 32", "field 'rules.life': 32 is outside 1..31"),
        ("ultra_life_at_most = 0", "field 'rules.ultra_life_at_most': 0 is outside 1..31"),
        ("ultra_life_at_most = 40", "field 'rules.ultra_life_at_most': 40 is outside 1..31"),
        ("super_round_at_least = 0", "field 'rules.super_round_at_least': 0 is outside 1..8"),
        ("super_round_at_least = 9", "field 'rules.super_round_at_least': 9 is outside 1..8"),
        ("life = true", "field 'rules.life': Expected `int`, got `bool`"),
        ("life = 7.5", "field 'rules.life': Expected `int`, got `float`"),
        ("lives = 7", "field 'rules.lives': Object contains unknown field `lives`"),
        ('life = { value = 7, from = "hearsay" }', "field 'rules.life': unknown provenance"),
    ],
)
def test_rules_value_outside_its_range_is_refused_naming_file_and_field(tmp_path, rules, words):
    path = write(tmp_path, OVERLAY_HEAD + f"[rules]\n{rules}\n")
    with pytest.raises(PackError) as info:
        read_overlay(path)
    message = str(info.value)
    # the overlay is the file to fix: the shipped base is not named (issue 13's audit)
    assert message.startswith("mine.toml: ")
    assert words in message
    assert "\n" not in message


@pytest.mark.parametrize(
    "rules",
    [
        "life = 1\nultra_life_at_most = 1\nsuper_round_at_least = 8",
        "life = 31\nultra_life_at_most = 31\nsuper_round_at_least = 1",
        "life = 31\nultra_life_at_most = 1\nhand = 8",
        "life = 4\nhand = 1",  # a one-round fight; the Ultra (at most 5) is always allowed
    ],
)
def test_rules_at_the_ends_of_their_ranges_play_to_the_end(tmp_path, rules):
    from kumite.agents.base import decide
    from kumite.agents.uniform import RandomAgent
    from kumite.games.sfrivals.game import GAME

    path = write(tmp_path, OVERLAY_HEAD + f"[rules]\n{rules}\n")
    text = read_overlay(path)
    for seed in range(20):
        state = GAME.new_state(seed, {"pack": text})
        agents = [RandomAgent(seed * 2 + s) for s in (0, 1)]
        while not state.is_terminal:
            state.apply({d.seat: decide(agents[d.seat], state, d) for d in state.pending()})
        assert state.outcome is not None
        assert state.outcome.detail["rounds"] <= GAME.catalog(state.opts).rules.hand
