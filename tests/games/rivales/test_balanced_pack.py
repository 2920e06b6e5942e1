"""The shipped Rivales pack ``balanced`` (`games/rivales/packs/balanced.toml`; docs/packs.md,
"How the reconstructed values were tuned, and how balanced they are"): it loads by name,
moves only its own values and one number inside a card's effects, keeps each of them
`reconstructed` and noting what it was, says the moved number anew in the card's text, and
leaves every fighter's passive, its character, alone."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from kumite.games.rivales.game import GAME
from tests.games.rivales.test_search_pack import SCREENED_TWICE

ROOT = Path(__file__).resolve().parents[3]
PACK = ROOT / "src" / "kumite" / "games" / "rivales" / "packs"
EXAMPLES = ROOT / "examples" / "packs"
TEXT = GAME.read_overlay("balanced")  # shipped: by name
BASE = GAME.catalog()
BALANCED = GAME.catalog({"pack": TEXT})
DATA = tomllib.loads(TEXT)

#: (card or fighter, field): (shipped value, balanced value): screened 2's twelve and three of
#: the sixth round (its fourth, Isótopos Cargados' cap, is a number inside the card's effects:
#: below)
MOVED = {
    **SCREENED_TWICE,
    ("zorro.presion", "speed"): (2, 3),
    ("mulan.montana", "speed"): (1, 2),
    ("sombrerero.reloj", "damage"): (2, 1),
}


def test_balanced_pack__is_the_shipped_file_and_names_itself():
    assert (PACK / "balanced.toml").read_text(encoding="utf-8") == TEXT
    assert DATA["pack"]["id"] == "rivales-balanced" and DATA["pack"]["base"] == "rivales-base"


def test_balanced_pack__moves_only_its_values():
    for (ident, field), (was, now) in MOVED.items():
        before = BASE.fighters[ident] if ident in BASE.fighters else BASE.cards[ident]
        after = BALANCED.fighters[ident] if ident in BALANCED.fighters else BALANCED.cards[ident]
        assert (getattr(before, field), getattr(after, field)) == (was, now), (ident, field)
    for ident, card in BASE.cards.items():
        for field in ("speed", "damage", "guard"):
            if (ident, field) not in MOVED:
                assert getattr(BALANCED.cards[ident], field) == getattr(card, field), ident
        if ident != "curie.isotopos":
            assert BALANCED.cards[ident].effects == card.effects, ident
            assert BALANCED.cards[ident].text == card.text, ident
    for ident, fighter in BASE.fighters.items():
        assert BALANCED.fighters[ident].life == fighter.life, ident
        if (ident, "ultra_at") not in MOVED:
            assert BALANCED.fighters[ident].ultra_at == fighter.ultra_at, ident


def test_balanced_pack__a_fighters_passive_is_its_character_and_never_moves():
    for ident, fighter in BASE.fighters.items():
        after = BALANCED.fighters[ident]
        assert (after.passive, after.passives) == (fighter.passive, fighter.passives), ident


@pytest.mark.parametrize(
    "text",
    [TEXT, GAME.read_overlay(EXAMPLES / "rivales_round6.toml")],
    ids=["balanced", "round6"],
)
def test_sixth_round_packs__isotopos_cap_is_one_and_its_text_says_so(text):
    """Isótopos Cargados: "+1 Damage for each face-up card of your rival in play (at most
    +2)" becomes "(at most +1)": that number alone moves, and the text says it."""
    before = BASE.cards["curie.isotopos"]
    after = GAME.catalog({"pack": text}).cards["curie.isotopos"]
    assert [e.max for e in before.effects] == [2]
    assert after.effects == tuple(replace(e, max=1) for e in before.effects)
    assert after.text == before.text.replace("(at most +2)", "(at most +1)") != before.text
    entry = next(c for c in tomllib.loads(text)["cards"] if c["id"] == "curie.isotopos")
    assert entry["text"]["from"] == "reconstructed"
    assert entry["text"]["note"] == "sixth round: was effects.0.max 2"


def test_balanced_pack__every_moved_value_stays_reconstructed_and_says_what_it_was():
    entries = {e["id"]: e for e in [*DATA.get("cards", []), *DATA.get("fighters", [])]}
    assert {ident for ident, _ in MOVED} == set(entries)
    for (ident, field), (was, now) in MOVED.items():
        value = entries[ident][field]
        assert value["value"] == now and value["from"] == "reconstructed"
        assert value["note"].endswith(f": was {was}"), (ident, field)
