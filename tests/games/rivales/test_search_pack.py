"""The lab's Rivales pack so far, `examples/packs/rivales_search.toml` (docs/packs.md, "The
search bot as the judge" and after): it loads, and it moves only the four values the searches
chose, each still `reconstructed` and noting what it was."""

from __future__ import annotations

import tomllib
from pathlib import Path

from kumite.games.rivales.game import GAME

PACK = Path(__file__).resolve().parents[3] / "examples" / "packs" / "rivales_search.toml"
MOVED = {
    ("curie.fisica", "damage"): (3, 2),
    ("sombrerero.fiesta", "speed"): (6, 7),
    ("sombrerero", "ultra_at"): (4, 3),
    ("sombrerero.te", "guard"): (1, 2),
}


def test_search_pack__moves_only_the_four_values_the_searches_chose():
    base = GAME.catalog()
    moved = GAME.catalog({"pack": GAME.read_overlay(PACK)})
    for (ident, field), (was, now) in MOVED.items():
        table = base.fighters if ident in base.fighters else base.cards
        after = moved.fighters if ident in moved.fighters else moved.cards
        assert getattr(table[ident], field) == was
        assert getattr(after[ident], field) == now
    for ident, card in base.cards.items():
        for field in ("speed", "damage", "guard"):
            if (ident, field) not in MOVED:
                assert getattr(moved.cards[ident], field) == getattr(card, field), (ident, field)
    for ident, fighter in base.fighters.items():
        for field in ("life", "ultra_at"):
            if (ident, field) not in MOVED:
                assert getattr(moved.fighters[ident], field) == getattr(fighter, field)


def test_search_pack__every_moved_value_stays_reconstructed_and_says_what_it_was():
    data = tomllib.loads(PACK.read_text(encoding="utf-8"))
    entries = {e["id"]: e for e in [*data.get("cards", []), *data.get("fighters", [])]}
    assert {ident for ident, _ in MOVED} == set(entries)
    for (ident, field), (was, now) in MOVED.items():
        value = entries[ident][field]
        assert value["value"] == now and value["from"] == "reconstructed"
        assert value["note"] == f"kumite balance: was {was}"
