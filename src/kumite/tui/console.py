"""Shared terminal helpers: the console, event lines, choice prompts."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from rich.console import Console
from rich.prompt import IntPrompt, Prompt
from rich.text import Text

from kumite.core.events import Event

T = TypeVar("T")

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def event_line(event: Event, *, show_rule: bool = True) -> Text:
    """One explained step: the event's sentence and, dimmed, the rule it applies (not for a
    heading)."""
    line = Text("  • ")
    line.append(event.describe())
    if show_rule and not event.heading:
        line.append(f"  [{event.rule}]", style="dim")
    return line


def print_events(console: Console, events: Iterable[Event], seat: int | None) -> None:
    """Print the events ``seat`` may see (``None``: only public ones)."""
    for event in events:
        if event.visible_to(seat):
            console.print(event_line(event))


def pick(
    console: Console,
    title: str,
    options: Sequence[T],
    label: Callable[[T], str | Text],
    unavailable: Callable[[T], str | None] | None = None,
) -> T:
    """Numbered menu; returns the chosen option. ``unavailable(option)`` gives the reason an
    option is shown but may not be chosen (greyed, and a pick of it is refused with the
    reason), or None."""
    console.print(Text(title, style="bold"))
    reasons = [unavailable(o) if unavailable is not None else None for o in options]
    for number, (option, reason) in enumerate(zip(options, reasons, strict=True), start=1):
        line = Text(f"  {number:>2}. ")
        line.append(label(option))
        if reason is not None:
            line.append(f"  (not now: {reason})")
            line.stylize("dim")
        console.print(line)
    while True:
        answer = IntPrompt.ask("Your choice", console=console)
        if 1 <= answer <= len(options):
            reason = reasons[answer - 1]
            if reason is None:
                return options[answer - 1]
            console.print(Text(f"{answer} cannot be chosen now: {reason}.", style="red"))
            continue
        console.print(f"[red]Choose a number from 1 to {len(options)}.[/red]")


def pause(console: Console, message: str) -> None:
    Prompt.ask(message, console=console, default="", show_default=False)
