"""Typed, validated options of an SF Rivals fight (rule variants are named rulings)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from kumite.cards.game import Pack
from kumite.core.spec import doc


class Options(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    characters: Annotated[
        tuple[str | None, str | None] | None,
        doc("Each seat's character, mirrors allowed (None: picked at the table)."),
    ] = None
    ultra_rule: Annotated[
        Literal["card", "power"],
        doc(
            "``card``: an Ultra Combo may only be played at life 5 or under (default). "
            "``power``: it may always be played; its power only works at life 5 or under."
        ),
    ] = "card"
    no_legal_card: Annotated[
        Literal["end-fight", "play-powerless"],
        doc("No card left may be played: the fight ends, or one is played without its power."),
    ] = "end-fight"
    swap: Annotated[
        Literal["current", "printed"],
        doc("A swap exchanges the cards' current initiatives, or only the printed values."),
    ] = "current"
    pack: Pack = None
