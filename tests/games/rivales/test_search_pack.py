"""The lab's Rivales packs so far (docs/packs.md, "The search bot as the judge" and after):
`examples/packs/rivales_search.toml` (four values the searches chose),
`examples/packs/rivales_screened.toml` (those and six from single-move screens) and
`examples/packs/rivales_screened2.toml` (those and two from a second screen) and
`examples/packs/rivales_round6.toml` (those and five of a sixth round, one a number inside a
card's effects). Each loads, moves only its values, each still `reconstructed` and noting what
it was, and leaves every other card's effects, text and every fighter's passive alone."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from kumite.games.rivales.game import GAME

PACKS = Path(__file__).resolve().parents[3] / "examples" / "packs"
SEARCH = {
    ("curie.fisica", "damage"): (3, 2),
    ("sombrerero.fiesta", "speed"): (6, 7),
    ("sombrerero", "ultra_at"): (4, 3),
    ("sombrerero.te", "guard"): (1, 2),
}
SCREENED = {
    **SEARCH,
    ("darwin.caparazon", "guard"): (3, 2),
    ("darwin.pinzon", "speed"): (5, 6),
    ("darwin.evolucion", "speed"): (6, 5),
    ("zorro.amague", "damage"): (1, 2),
    ("hansel-gretel.guardia", "speed"): (2, 1),
    ("hansel-gretel", "ultra_at"): (4, 3),
}
SCREENED_TWICE = {
    **SCREENED,
    ("curie.isotopos", "damage"): (2, 1),
    ("hansel-gretel.guardia", "guard"): (2, 1),
}
ROUND6 = {
    **SCREENED_TWICE,
    ("zorro.presion", "speed"): (2, 3),
    ("mulan.montana", "speed"): (1, 2),
    ("sombrerero.reloj", "damage"): (2, 1),
    ("hansel-gretel.migas", "damage"): (1, 0),
}
CASES = pytest.mark.parametrize(
    ("name", "moved"),
    [
        ("rivales_search.toml", SEARCH),
        ("rivales_screened.toml", SCREENED),
        ("rivales_screened2.toml", SCREENED_TWICE),
        ("rivales_round6.toml", ROUND6),
    ],
)


@CASES
def test_lab_pack__moves_only_its_values(name, moved):
    base = GAME.catalog()
    after_pack = GAME.catalog({"pack": GAME.read_overlay(PACKS / name)})
    for (ident, field), (was, now) in moved.items():
        table = base.fighters if ident in base.fighters else base.cards
        after = after_pack.fighters if ident in after_pack.fighters else after_pack.cards
        assert getattr(table[ident], field) == was
        assert getattr(after[ident], field) == now
    for ident, card in base.cards.items():
        for field in ("speed", "damage", "guard"):
            if (ident, field) not in moved:
                assert getattr(after_pack.cards[ident], field) == getattr(card, field), (
                    ident,
                    field,
                )
    for ident, fighter in base.fighters.items():
        for field in ("life", "ultra_at"):
            if (ident, field) not in moved:
                assert getattr(after_pack.fighters[ident], field) == getattr(fighter, field)


@CASES
def test_lab_pack__every_moved_value_stays_reconstructed_and_says_what_it_was(name, moved):
    data = tomllib.loads((PACKS / name).read_text(encoding="utf-8"))
    entries = {e["id"]: e for e in [*data.get("cards", []), *data.get("fighters", [])]}
    assert {ident for ident, _ in moved} == set(entries)
    for (ident, field), (was, now) in moved.items():
        value = entries[ident][field]
        assert value["value"] == now and value["from"] == "reconstructed"
        assert value["note"].endswith(f": was {was}")
        assert value["note"].split(":")[0] in ("kumite balance", "rivales_screen.py", "sixth round")


@CASES
def test_lab_pack__leaves_passives_and_other_effects_alone(name, moved):
    """A fighter's passive is its character; of the cards' effects only the sixth round's
    Isótopos Cargados cap moves (test_balanced_pack.py reads it)."""
    base = GAME.catalog()
    after = GAME.catalog({"pack": GAME.read_overlay(PACKS / name)})
    for ident, fighter in base.fighters.items():
        mine = after.fighters[ident]
        assert (mine.passive, mine.passives) == (fighter.passive, fighter.passives), ident
    for ident, card in base.cards.items():
        mine = after.cards[ident]
        if (name, ident) != ("rivales_round6.toml", "curie.isotopos"):
            assert (mine.effects, mine.text) == (card.effects, card.text), ident
