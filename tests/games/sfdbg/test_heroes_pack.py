"""The lab's change of the SF DBG Super Heroes' own numbers, the shipped pack ``heroes``
(`games/sfdbg/packs/heroes.toml`; docs/packs.md, How balanced the Super Heroes are): what it
may and may not touch, and that it loads by name."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from kumite.games.sfdbg.cards import load_catalog
from kumite.games.sfdbg.game import GAME

BASE = load_catalog()
PACK = Path(__file__).resolve().parents[3] / "src" / "kumite" / "games" / "sfdbg" / "packs"
TEXT = GAME.read_overlay("heroes")  # shipped: by name
BALANCED = load_catalog(TEXT, "heroes.toml")
CHANGED = tomllib.loads(TEXT)


def test_heroes_pack__loads_and_changes_only_the_super_heroes_own_values():
    ultras = {h.ultra for h in BASE.heroes}
    cards = {c["id"] for c in CHANGED.get("cards", [])}
    heroes = {h["id"] for h in CHANGED.get("heroes", [])}
    assert cards or heroes, "the overlay changes something"
    assert cards <= ultras
    assert heroes <= set(BASE.hero_by_id)
    assert BALANCED.pack.ref()["sha256"] != BASE.pack.ref()["sha256"]


def test_heroes_pack__published_values_never_move():
    for card_id in (c["id"] for c in CHANGED["cards"]):
        before, after = BASE.by_id[card_id], BALANCED.by_id[card_id]
        assert (after.cost, after.vp, after.type) == (before.cost, before.vp, before.type)
        assert str(after.provenance["cost"]) == "source:TTS"


def test_heroes_pack__each_changed_text_stays_reconstructed_and_says_its_power():
    for card_id in (c["id"] for c in CHANGED["cards"]):
        card = BALANCED.by_id[card_id]
        assert str(card.provenance["text"]) == "reconstructed"
        said = re.match(r"\+(\d+) Power\.", card.text)
        assert said is not None and int(said.group(1)) == card.play[0].amount
        assert card.text != BASE.by_id[card_id].text


def test_heroes_pack__each_changed_counter_attack_stays_reconstructed_and_is_said_anew():
    for hero_id in (h["id"] for h in CHANGED.get("heroes", [])):
        hero, before = BALANCED.hero_by_id[hero_id], BASE.hero_by_id[hero_id]
        assert str(hero.provenance["counter_attack"]) == "reconstructed"
        assert hero.counter != before.counter
        assert hero.counter_text != before.counter_text


def test_heroes_pack__is_the_shipped_file_and_names_itself():
    assert (PACK / "heroes.toml").read_text(encoding="utf-8") == TEXT
    assert CHANGED["pack"]["id"] == "sfdbg-heroes" and CHANGED["pack"]["base"] == "sfdbg-base"
