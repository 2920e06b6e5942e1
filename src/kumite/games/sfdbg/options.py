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
        doc(
            "Super Hero per seat (``None``: dealt at random from the shuffled Super Heroes). "
            "Not allowed with the Secret Heroes variant, where every Super Hero is dealt "
            "face down."
        ),
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
        doc(
            "``sfdbg.ruling.round-limit``: the game also ends after this many full rounds (the "
            "rulebook has no limit; players who stop buying could play forever)."
        ),
    ] = 60
    pack: Pack = None
