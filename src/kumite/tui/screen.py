"""``kumite play``'s screen: the table stays in one place in a terminal.

In a terminal, each time the person at it is shown their board (their front end calls
:func:`board`), the screen is cleared and drawn again from the top: the board, the last
actions, then the choices below. While the bots play, their actions appear in a live display
(Rich's ``Live``) that is redrawn in place, with who is thinking. The board is never printed
again below the previous one. Elsewhere (a pipe, a file, a test's capture) everything is
printed in order, as a log.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.text import Text

from kumite.core.events import Event
from kumite.tui.console import event_line

#: The screen each console is drawn on (kumite play registers it for the game's length).
_SCREENS: dict[int, TableScreen] = {}


def board(console: Console, renderable: RenderableType) -> None:
    """Show the person at ``console`` their board: in place if a :class:`TableScreen` draws
    on it, else printed."""
    screen = _SCREENS.get(id(console))
    if screen is None:
        console.print(renderable)
    else:
        screen.board(renderable)


class TableScreen:
    """The terminal during one game: the last ``keep`` actions ``seat`` may see (``None``:
    the public ones), and the board drawn in place. A context manager: it is registered for
    its console while the game runs, and the live display is stopped however the game ends
    (Ctrl-C included)."""

    def __init__(self, console: Console, seat: int | None, keep: int = 10) -> None:
        self.console = console
        self.seat = seat
        self.in_place = console.is_terminal and not console.is_dumb_terminal
        self.recent: deque[Text] = deque(maxlen=keep)
        self.live: Live | None = None
        self.status: str | None = None

    def __enter__(self) -> TableScreen:
        _SCREENS[id(self.console)] = self
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        _SCREENS.pop(id(self.console), None)

    def events(self, events: Iterable[Event]) -> None:
        """What just happened: printed as it comes, or (in a terminal) into the live display."""
        lines = [event_line(e) for e in events if e.visible_to(self.seat)]
        if not self.in_place:
            for line in lines:
                self.console.print(line)
            return
        self.recent.extend(lines)
        self.status = None
        self._live()

    def thinking(self, who: str) -> None:
        """``who`` (a bot) is choosing: said in the live display, in a terminal."""
        if self.in_place:
            self.status = f"{who} is thinking…"
            self._live()

    def board(self, renderable: RenderableType) -> None:
        """The board of the person about to choose: in a terminal the screen is cleared and
        drawn again from the top, with the last actions below it."""
        if not self.in_place:
            self.console.print(renderable)
            return
        self.stop()
        self.console.clear()
        self.console.print(renderable)
        if self.recent:
            self.console.print(self._recent())

    def stop(self) -> None:
        """Leave the live display as it is on the screen, and the cursor below it."""
        if self.live is not None:
            self.live.stop()
            self.live = None

    def _recent(self) -> RenderableType:
        parts: list[RenderableType] = list(self.recent)
        if self.status is not None:
            parts.append(Text(self.status, style="dim italic"))
        return Panel(Group(*parts), title="Last actions", title_align="left")

    def _live(self) -> None:
        if self.live is None:
            self.live = Live(
                self._recent(),
                console=self.console,
                auto_refresh=False,
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self.live.start(refresh=True)
        else:
            self.live.update(self._recent(), refresh=True)
