"""The games kumite plays, and the registry that finds them by id."""

from __future__ import annotations

import importlib
from typing import Any

from kumite.core.errors import UnknownGameError
from kumite.core.game import Game

#: Game id -> "module:attribute" of its :class:`~kumite.core.game.Game` instance.
REGISTRY: dict[str, str] = {
    "sfrivals": "kumite.games.sfrivals.game:GAME",
    "rivales": "kumite.games.rivales.game:GAME",
    "sfdbg": "kumite.games.sfdbg.game:GAME",
}


def game_ids() -> list[str]:
    return list(REGISTRY)


def get_game(game_id: str) -> Game[Any]:
    """The game registered under ``game_id``."""
    try:
        target = REGISTRY[game_id]
    except KeyError:
        raise UnknownGameError(f"unknown game {game_id!r} (known: {', '.join(REGISTRY)})") from None
    module, _, attr = target.partition(":")
    game: Game[Any] = getattr(importlib.import_module(module), attr)
    return game
