"""Typed, validated options of an SF Rivals fight (rule variants are named rulings)."""

from __future__ import annotations

from typing import Literal

import msgspec


class Options(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    characters: tuple[str | None, str | None] | None = None
    """Fix the seats' characters (mirror matches allowed); a seat left None picks its
    character at the table."""
    ultra_rule: Literal["card", "power"] = "card"
    """``card``: an Ultra Combo may only be played at life 5 or under (default).
    ``power``: it may always be played; its power only works at life 5 or under."""
    no_legal_card: Literal["end-fight", "play-powerless"] = "end-fight"
    """A player whose remaining cards may not be played: the fight ends (default), or the
    player must play one of them without its power."""
    swap: Literal["current", "printed"] = "current"
    """A swap exchanges the cards' current initiatives (default), or only the printed
    values, each player keeping their own bonuses."""
    pack: str | None = None
    """A user's overlay pack (TOML text) loaded over the shipped one."""
