"""Typed, validated options of an SF Rivals fight (rule variants are named rulings)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from kumite.cards.game import Pack
from kumite.core.spec import doc


class Options(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    characters: Annotated[
        tuple[str | None, str | None] | None,
        doc(
            "Fix the seats' characters (mirror matches allowed); a seat left None picks its "
            "character at the table."
        ),
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
        doc(
            "A player whose remaining cards may not be played: the fight ends (default), or "
            "the player must play one of them without its power."
        ),
    ] = "end-fight"
    swap: Annotated[
        Literal["current", "printed"],
        doc(
            "A swap exchanges the cards' current initiatives (default), or only the printed "
            "values, each player keeping their own bonuses."
        ),
    ] = "current"
    pack: Pack = None
