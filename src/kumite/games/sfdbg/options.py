"""Typed, validated options of an SF DBG game (variants and named rulings)."""

from __future__ import annotations

from typing import Literal

import msgspec


class Options(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    players: int = 2
    """Number of seats, 2 to 5."""
    heroes: tuple[str | None, ...] | None = None
    """Super Hero per seat (``None``: dealt at random from the shuffled Super Heroes).
    Not allowed with the Secret Heroes variant, where every Super Hero is dealt face down."""
    variant: Literal["standard", "high-powered", "secret-heroes"] = "standard"
    """The rulebook's Variant Games: High-Powered Heroes or Secret Heroes."""
    first_player: int | None = None
    """The seat that goes first (``None``: chosen at random, as the rulebook says)."""
    round_limit: int = 60
    """``sfdbg.ruling.round-limit``: the game also ends after this many full rounds (the
    rulebook has no limit; players who stop buying could play forever)."""
    pack: str | None = None
    """A user's overlay pack (TOML text) loaded over the shipped one."""
