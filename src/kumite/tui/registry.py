"""Terminal front ends: a game's own (its spec's ``tui``), or the generic one.

A front end makes the human agent, draws a view and lists the cards. The generic front end
does it for any game from the contract alone: the view as structured data, and each legal
choice with the label the game's spec gives it (else the choice itself), so a new game is
playable in the terminal before it has a face of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.pretty import Pretty
from rich.text import Text

from kumite.agents.base import Agent
from kumite.core.errors import OptionsError
from kumite.core.game import Decision, Game
from kumite.core.registry import get_spec
from kumite.core.spec import Labeler
from kumite.tui.console import pick
from kumite.tui.screen import board


class GenericHuman:
    """A person at the terminal, shown their seat's view as data and the labelled choices."""

    name = "human"

    def __init__(self, console: Console, labeler: Labeler | None, label: str) -> None:
        self.console = console
        self.labeler = labeler
        self.label = label

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        board(self.console, Panel(render_view(view), title=self.label))
        labels = labels_for(self.labeler, view, decision.legal)
        index = pick(
            self.console,
            f"{self.label}: {decision.prompt or decision.kind}",
            range(len(decision.legal)),
            lambda i: labels[i],
        )
        return decision.legal[index]


def labels_for(labeler: Labeler | None, view: Mapping[str, Any], legal: Sequence[str]) -> list[str]:
    """A label per legal choice: the game's, else the choice string itself."""
    return list(legal) if labeler is None else labeler(view, legal)


def render_view(view: Mapping[str, Any]) -> RenderableType:
    return Pretty(dict(view), expand_all=False)


class TerminalFrontEnd:
    """What the CLI needs to put a game on the terminal. These defaults are the generic
    front end, from the contract and the spec alone; a game's own (its spec's ``tui``)
    subclasses it."""

    def human(
        self, console: Console, game: Game[Any], options: Mapping[str, Any], seat: int, label: str
    ) -> Agent:
        """An agent that asks the person at the terminal, showing only ``seat``'s view."""
        labels = get_spec(game.info.id).labels
        return GenericHuman(
            console, None if labels is None else labels.load()(game, options), label
        )

    def render(
        self, game: Game[Any], options: Mapping[str, Any], view: Mapping[str, Any]
    ) -> RenderableType:
        """The table as the view's seat (or a spectator) sees it."""
        return Group(Text(game.info.name, style="bold cyan"), render_view(view))

    def cards(
        self, game: Game[Any], pack: Path | None, only: str | None, as_json: bool
    ) -> RenderableType | dict[str, Any]:
        """All cards with the provenance of each value (JSON dict, or a renderable)."""
        raise OptionsError(f"{game.info.name} has no card list")

    def seat_names(self, view: Mapping[str, Any]) -> Sequence[str | None]:
        """The name each seat plays under, from the spectator's ``view`` (a character, a
        hero: the result names the winner by it); empty or ``None``: none."""
        return ()


GENERIC = TerminalFrontEnd()


def front_end(game_id: str) -> TerminalFrontEnd:
    """The game's own terminal front end, else the generic one."""
    spec = get_spec(game_id)
    if spec.tui is None:
        return GENERIC
    found: TerminalFrontEnd = spec.tui.load()
    return found
