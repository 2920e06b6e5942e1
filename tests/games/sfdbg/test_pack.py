"""The SF DBG card pack: counts, provenance of every value, overlays, errors."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from kumite.cards import Provenance
from kumite.core.errors import PackError
from kumite.games.sfdbg.cards import load_catalog

CATALOG = load_catalog()
TESTS = Path(__file__).parent

#: Card data file: which cards have an Attack or a Defense ability [TTS].
TTS_ATTACK = {
    "juri",
    "balrog",
    "gill",
    "m-bison",
    "master-of-the-fist",
    "rolento",
    "balrogs-gloves",
}
TTS_DEFENSE = {
    "sakura",
    "urien",
    "dash-straight",
    "electric-thunder",
    "rolling-thunder",
    "chun-lis-bracelets",
}
#: Card data file: type/cost/VP of the 49 main-deck cards [TTS] ('*' = variable).
TTS_VALUES = {
    "cammy-delta-red": ("Hero", 2, 1),
    "dudley": ("Hero", 5, 1),
    "fei-long-hong-kong-action-hero": ("Hero", 6, 2),
    "hot-blooded-sumo": ("Hero", 3, 1),
    "jungle-warrior": ("Hero", 5, "*"),
    "ken-masters": ("Hero", 4, 1),
    "mystic-yogi": ("Hero", 4, 1),
    "red-cyclone": ("Hero", 5, 1),
    "rose": ("Hero", 2, 1),
    "sakura": ("Hero", 3, 1),
    "soldier-of-justice": ("Hero", 6, 2),
    "strongest-woman-in-the-world": ("Hero", 7, 2),
    "tireless-warrior": ("Hero", 8, 3),
    "agents-of-shadaloo": ("Villain", 4, "*"),
    "balrog": ("Villain", 3, 1),
    "gill": ("Villain", 5, 1),
    "hugo": ("Villain", 3, 1),
    "juri": ("Villain", 2, 1),
    "m-bison": ("Villain", 7, 3),
    "master-of-the-fist": ("Villain", 6, 2),
    "rolento": ("Villain", 5, 1),
    "sagat": ("Villain", 6, 2),
    "seth": ("Villain", 8, 3),
    "sodom": ("Villain", 5, 1),
    "urien": ("Villain", 3, 1),
    "vega": ("Villain", 6, 2),
    "dash-straight": ("Super Power", 4, 1),
    "electric-thunder": ("Super Power", 7, 3),
    "flying-barcelona": ("Super Power", 3, 1),
    "galactic-tornado": ("Super Power", 6, 2),
    "gohadoken": ("Super Power", 4, 1),
    "hadoken": ("Super Power", 6, 2),
    "hundred-hand-slap": ("Super Power", 3, 1),
    "hyakuretsukyaku": ("Super Power", 3, 1),
    "psycho-crusher": ("Super Power", 8, 3),
    "rolling-thunder": ("Super Power", 1, 1),
    "shinku-hadoken": ("Super Power", 4, 1),
    "shippu-jinraikyaku": ("Super Power", 4, 1),
    "sonic-boom": ("Super Power", 3, 1),
    "tiger-shot": ("Super Power", 6, 2),
    "yoga-teleport": ("Super Power", 2, 1),
    "akumas-gi": ("Equipment", 4, "*"),
    "balrogs-gloves": ("Equipment", 2, 1),
    "chun-lis-bracelets": ("Equipment", 3, 1),
    "rolentos-baton": ("Equipment", 5, "*"),
    "ryus-headband": ("Equipment", 2, 1),
    "sagats-eyepatch": ("Equipment", 3, 1),
    "tanden-engine": ("Equipment", 7, 2),
    "vegas-claw-and-mask": ("Equipment", 6, 2),
}
STAGES = [("usa", 7, 5), ("hong-kong", 8, 6), ("japan", 9, 6), ("india", 10, 6)]
STAGES += [("brazil", 10, 7), ("russia", 10, 7), ("united-kingdom", 11, 7), ("thailand", 12, 8)]


def test_pack__221_cards_and_14_super_heroes():
    """Contents: 221 Game Cards; 14 Oversized Super Heroes."""
    assert sum(c.copies for c in CATALOG.cards) == 221
    assert len(CATALOG.heroes) == 14
    piles = Counter()
    for card in CATALOG.cards:
        piles[card.pile] += card.copies
    assert piles == {
        "starter": 52,
        "ultra": 14,
        "kick": 16,
        "stage": 8,
        "weakness": 20,
        "main": 111,
    }
    assert CATALOG.by_id["punch"].copies == 36 and CATALOG.by_id["vulnerability"].copies == 16


def test_pack__every_known_main_deck_card_with_its_tts_type_cost_and_vp():
    main = {c.id: c for c in CATALOG.pile("main")}
    assert set(main) == set(TTS_VALUES)
    for card_id, (type_, cost, vp) in TTS_VALUES.items():
        card = main[card_id]
        assert (card.type, card.cost) == (type_, cost), card_id
        assert card.vp_rule is not None if vp == "*" else card.vp == vp, card_id
        for field in ("name", "type", "cost", "vp"):
            assert str(card.provenance[field]).startswith("source:TTS"), (card_id, field)


def test_pack__attack_and_defense_flags_are_the_sources():
    for card in CATALOG.pile("main"):
        assert card.has_attack == (card.id in TTS_ATTACK), card.id
        assert card.has_defense == (card.id in TTS_DEFENSE), card.id
        assert str(card.provenance["attack"]) == "source:TTS"
    for ultra in CATALOG.pile("ultra"):
        assert ultra.has_attack and ultra.has_defense
        assert ultra.defense is not None and ultra.defense.mode == "ultra"


def test_pack__stages_with_their_cost_and_vp():
    assert [(c.id, c.cost, c.vp) for c in CATALOG.stages] == STAGES
    assert str(CATALOG.by_id["usa"].provenance["stage"]) == "rulebook"
    assert str(CATALOG.by_id["japan"].provenance["stage"]) == "estimate"


def test_pack__every_value_is_labelled():
    """DESIGN §3: every value says where it comes from; reconstructed texts are marked."""
    for card in CATALOG.cards:
        for field in ("name", "type", "cost", "vp", "copies", "text", "attack", "defense"):
            assert isinstance(card.provenance.get(field), Provenance), (card.id, field)
        if card.pile in ("main", "ultra", "stage"):
            assert card.provenance["text"].label == "reconstructed", card.id
        if card.pile == "main":
            assert card.provenance["copies"].label == "reconstructed", card.id
    for hero in CATALOG.heroes:
        assert str(hero.provenance["name"]) == "source:ITP"
        assert hero.provenance["counter_attack"].label == "reconstructed"
        assert hero.provenance["ultra"].label == "estimate"
    kick = CATALOG.by_id["kick"]
    assert kick.provenance["text"].label == "estimate" and kick.text == "+2 Power"
    for basic in ("punch", "vulnerability", "weakness"):
        assert CATALOG.by_id[basic].provenance["text"].label == "rulebook"


def test_pack__copies_follow_the_documented_rule_and_total_111():
    for card in CATALOG.pile("main"):
        expected = (
            4
            if card.id == "agents-of-shadaloo"
            else (3 if card.cost <= 3 else 2 if card.cost <= 6 else 1)
        )
        assert card.copies == expected, card.id
    assert sum(c.copies for c in CATALOG.pile("main")) == 111


def test_pack__each_card_and_super_hero_has_a_scenario_test():
    """Every card id and hero id appears as ``test_card__<id>`` / ``test_hero__<id>``."""
    names = set()
    for path in TESTS.glob("test_*.py"):
        names |= set(re.findall(r"def (test_(?:card|hero)__\w+)\(", path.read_text()))
    for card in CATALOG.cards:
        assert f"test_card__{card.id.replace('-', '_')}" in names, card.id
    for hero in CATALOG.heroes:
        assert f"test_hero__{hero.id.replace('-', '_')}" in names, hero.id


OVERLAY = """
[pack]
id = "my-cards"
game = "sfdbg"
base = "sfdbg-base"

[[cards]]
id = "kick"
text = "+3 Power"
play = [{ op = "power", amount = 3 }]

[[heroes]]
id = "ryu"
counter_attack = "Counter-Attack: The attacker gains two Weaknesses."
counter = [{ op = "gain_weakness", amount = 2 }]
"""


def test_pack__an_overlay_corrects_values_with_the_users_provenance():
    catalog = load_catalog(OVERLAY, "my-cards.toml")
    kick = catalog.by_id["kick"]
    assert kick.play[0].amount == 3
    assert str(kick.provenance["text"]) == "source:my-cards"
    assert str(catalog.hero_by_id["ryu"].provenance["counter_attack"]) == "source:my-cards"
    assert catalog.pack.ref()["sha256"] != CATALOG.pack.ref()["sha256"]


@pytest.mark.parametrize(
    ("patch", "words"),
    [
        ('[[cards]]\nid = "gill"\ncost = "five"\n', r"card 'gill': field 'cost'"),
        ('[[cards]]\nid = "gill"\ncopies = 3\n', "the pack has 222 cards"),
        ('[[cards]]\nid = "gill"\nplay = [{ op = "explode" }]\n', r"card 'gill'"),
        ('[[cards]]\nid = "gill"\nplay = [{ op = "power" }]\n', "needs a positive amount"),
        ('[[cards]]\nid = "gill"\nattack = false\n', r"field 'attack'"),
        ('[[cards]]\nid = "rose"\nplay = [{ op = "discard_named" }]\n', "only works on a foe"),
        ('[[heroes]]\nid = "ryu"\nultra = "gill"\n', r"card 'ryu'.*not an Ultra"),
        ('[[cards]]\nid = "kick"\npile = "main"\n', r"card 'kick': field 'pile'.*'kick' pile"),
        ('[[cards]]\nid = "gill"\npile = "kick"\n', r"card 'gill': field 'pile'.*basic cards"),
    ],
)
def test_pack__a_bad_overlay_fails_naming_file_card_and_field(patch, words):
    text = '[pack]\nid = "bad"\ngame = "sfdbg"\nbase = "sfdbg-base"\n' + patch
    with pytest.raises(PackError, match=words) as info:
        load_catalog(text, "bad.toml")
    assert "bad.toml" in str(info.value)
