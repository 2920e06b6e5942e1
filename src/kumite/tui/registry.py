"""Per-game terminal front ends."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from rich.console import Console, RenderableType

from kumite.agents.base import Agent
from kumite.core.errors import OptionsError
from kumite.core.game import Game


class TerminalFrontEnd(Protocol):
    """What the CLI needs to put a game on the terminal."""

    def options(
        self,
        game: Game[Any],
        *,
        characters: list[str],
        pack: Path | None,
        rules: Mapping[str, str],
    ) -> dict[str, Any]:
        """Game options from the command line's flags."""
        ...

    def human(
        self, console: Console, game: Game[Any], options: Mapping[str, Any], seat: int, label: str
    ) -> Agent: ...

    def render(
        self, game: Game[Any], options: Mapping[str, Any], view: Mapping[str, Any]
    ) -> RenderableType: ...


class SFRivalsFrontEnd:
    def options(
        self,
        game: Game[Any],
        *,
        characters: list[str],
        pack: Path | None,
        rules: Mapping[str, str],
    ) -> dict[str, Any]:
        from kumite.games.sfrivals.cards import read_overlay

        out: dict[str, Any] = dict(rules)
        if characters:
            if len(characters) != 2:
                raise OptionsError("--characters needs one character per seat, e.g. ryu,ken")
            out["characters"] = [None if c in ("", "-", "any") else c for c in characters]
        if pack is not None:
            out["pack"] = read_overlay(pack)
        return out

    def human(
        self, console: Console, game: Game[Any], options: Mapping[str, Any], seat: int, label: str
    ) -> Agent:
        from kumite.games.sfrivals.game import SFRivals
        from kumite.tui.sfrivals import HumanSFRivals

        assert isinstance(game, SFRivals)
        return HumanSFRivals(console, game.catalog(game.parse_options(options)), label)

    def render(
        self, game: Game[Any], options: Mapping[str, Any], view: Mapping[str, Any]
    ) -> RenderableType:
        from kumite.games.sfrivals.game import SFRivals
        from kumite.tui.sfrivals import render

        assert isinstance(game, SFRivals)
        return render(view, game.catalog(game.parse_options(options)))


FRONT_ENDS: dict[str, TerminalFrontEnd] = {"sfrivals": SFRivalsFrontEnd()}


def front_end(game_id: str) -> TerminalFrontEnd:
    try:
        return FRONT_ENDS[game_id]
    except KeyError:
        raise OptionsError(f"no terminal front end for {game_id!r}") from None
