"""Per-game terminal front ends.

A game reaches the terminal through one :class:`TerminalFrontEnd`: it turns the command
line's settings into game options, makes the human agent, draws a view and lists the cards.
Register it in :data:`FRONT_ENDS` under the game id.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from rich.console import Console, RenderableType

from kumite.agents.base import Agent
from kumite.core.errors import OptionsError
from kumite.core.game import Game


@dataclasses.dataclass(frozen=True)
class PlaySettings:
    """Game-related flags of ``kumite play`` (each game reads the ones it knows)."""

    characters: list[str] = dataclasses.field(default_factory=list)
    """SF Rivals: character per seat (``-``/``any``: chosen at the table)."""
    fighters: list[str] = dataclasses.field(default_factory=list)
    """Rivales: fighter per seat."""
    heroes: list[str] = dataclasses.field(default_factory=list)
    """SF DBG: Super Hero per seat."""
    mode: str | None = None
    """Rivales: ``1v1`` or ``2v2``."""
    variant: str | None = None
    """SF DBG: ``high-powered`` or ``secret-heroes``."""
    pack: Path | None = None
    """A user's overlay pack file."""
    rules: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """``--rule KEY=VALUE`` options (named rulings)."""
    players: int = 2
    """Number of seats."""


class TerminalFrontEnd(Protocol):
    """What the CLI needs to put a game on the terminal."""

    def options(self, game: Game[Any], settings: PlaySettings) -> dict[str, Any]:
        """Game options (JSON-able, as stored in records) from the command line."""
        ...

    def human(
        self, console: Console, game: Game[Any], options: Mapping[str, Any], seat: int, label: str
    ) -> Agent:
        """An agent that asks the person at the terminal, showing only ``seat``'s view."""
        ...

    def render(
        self, game: Game[Any], options: Mapping[str, Any], view: Mapping[str, Any]
    ) -> RenderableType:
        """The table as the view's seat (or a spectator) sees it."""
        ...

    def cards(
        self, game: Game[Any], pack: Path | None, only: str | None, as_json: bool
    ) -> RenderableType | dict[str, Any]:
        """All cards with the provenance of each value (JSON dict, or a renderable)."""
        ...


#: Game id -> "module:attribute" of its front end.
FRONT_ENDS: dict[str, str] = {
    "sfrivals": "kumite.tui.sfrivals:FRONT_END",
    "rivales": "kumite.tui.rivales:FRONT_END",
    "sfdbg": "kumite.tui.sfdbg:FRONT_END",
}


def front_end(game_id: str) -> TerminalFrontEnd:
    try:
        target = FRONT_ENDS[game_id]
    except KeyError:
        raise OptionsError(f"no terminal front end for {game_id!r}") from None
    module, _, attr = target.partition(":")
    fe: TerminalFrontEnd = getattr(importlib.import_module(module), attr)
    return fe
