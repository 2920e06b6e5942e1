"""Typed, validated options of an SF DBG game (variants and named rulings)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from kumite.cards.game import Pack
from kumite.core.spec import doc


class Options(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    players: Annotated[int, doc("Number of seats, 2 to 5.")] = 2
    heroes: Annotated[
        tuple[str | None, ...] | None,
        doc("Each seat's Super Hero (None: dealt at random); not with Secret Heroes."),
    ] = None
    variant: Annotated[
        Literal["standard", "high-powered", "secret-heroes"],
        doc("The rulebook's Variant Games: High-Powered Heroes or Secret Heroes."),
    ] = "standard"
    first_player: Annotated[
        int | None,
        doc("The seat that goes first (``None``: chosen at random, as the rulebook says)."),
    ] = None
    round_limit: Annotated[
        int,
        doc("Full rounds after which the game ends too (``sfdbg.ruling.round-limit``)."),
    ] = 60
    pack: Pack = None
