"""Typed, validated options of a Rivales fight (rule variants are named rulings)."""

from __future__ import annotations

from typing import Literal

import msgspec


class Options(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    mode: Literal["1v1", "2v2"] = "1v1"
    """``1v1``: two seats. ``2v2``: four seats, seats 0-1 against seats 2-3."""
    fighters: tuple[str | None, ...] | None = None
    """Fix the seats' fighters (one per seat); a seat left None picks at the table."""
    clash_winner: Literal["damage", "attacker"] = "damage"
    """Who has 'won a clash' for the boost order: the attacker who dealt Damage (default),
    or the attacker whatever the Damage (``rv.ruling.clash-winner``)."""
    max_combo_card: Literal["energy", "exhausted"] = "energy"
    """The last card of a maximum combo is turned face down as 1 energy (default), or
    moved down as an exhausted card (``rv.ruling.max-combo-end``)."""
    pinzas: Literal["zone", "facing"] = "zone"
    """2vs2 Pinzas de Mantis binds the rival in its zone next clash (default) or the rival
    facing Mulan next clash (``rv.ruling.pinzas-2v2``)."""
    pinzas_dodge: Literal["stands", "back"] = "stands"
    """A basic card left face up by a dodge when Pinzas de Mantis forbids basic cards: it is
    played all the same (default), or goes back to the hand (``rv.ruling.pinzas-dodge``)."""
    exchanged_card: Literal["values", "effects"] = "values"
    """A card swapped in by an exchange (Amague) brings its values but not its immediate
    effect (default), or its immediate effects act too (``rv.ruling.exchanged-card``)."""
    zone_order: Literal["winner", "alternate"] = "winner"
    """2vs2: who chooses which zone is boosted and resolved first: the team that won a clash
    most recently (default; while nobody has, the teams take turns), or the teams in turn,
    Team A on odd clashes (``rv.ruling.zone-order``)."""
    final_round_limit: int = 3
    """Final (sudden-death) rounds played before the fight is declared a draw."""
    pack: str | None = None
    """A user's overlay pack (TOML text) loaded over the shipped one."""
