"""The games kumite plays: the one registry, filled from the entry-point group
``kumite.games`` (each entry names a :class:`~kumite.core.spec.GameSpec`), so a package
installed beside kumite adds a game without touching it."""

from __future__ import annotations

import sys
from importlib.metadata import entry_points
from typing import Any

from kumite.core.errors import UnknownGameError
from kumite.core.game import Game
from kumite.core.spec import GameSpec

GROUP = "kumite.games"
_FOUND: tuple[tuple[str, ...], dict[str, GameSpec]] | None = None


def specs() -> dict[str, GameSpec]:
    """Every installed game's spec, by id (read again when ``sys.path`` changes)."""
    global _FOUND
    key = tuple(sys.path)
    if _FOUND is None or _FOUND[0] != key:
        found: dict[str, GameSpec] = {}
        for entry in entry_points(group=GROUP):
            if entry.name in found:
                continue  # the same distribution seen twice on sys.path
            spec = entry.load()
            if not isinstance(spec, GameSpec) or spec.id != entry.name:
                raise UnknownGameError(f"entry point {entry.name!r} is not that game's GameSpec")
            found[spec.id] = spec
        ordered = sorted(found.values(), key=lambda s: (s.order, s.id))
        _FOUND = (key, {s.id: s for s in ordered})
    return _FOUND[1]


def game_ids() -> list[str]:
    return list(specs())


def default_game() -> str:
    """The game the commands play when none is named: the first listed."""
    return next(iter(specs()))


def get_spec(game_id: str) -> GameSpec:
    """The spec of the game registered under ``game_id``."""
    found = specs()
    try:
        return found[game_id]
    except KeyError:
        raise UnknownGameError(f"unknown game {game_id!r} (known: {', '.join(found)})") from None


def get_game(game_id: str) -> Game[Any]:
    """The game registered under ``game_id``."""
    return get_spec(game_id).load()
