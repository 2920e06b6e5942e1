"""``kumite replay``: re-run a record and show it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.panel import Panel

from kumite.cli.play import outcome_json
from kumite.core.events import Event
from kumite.core.game import State
from kumite.core.record import GameRecord, replay
from kumite.core.registry import get_game
from kumite.tui.console import console, event_line, print_json
from kumite.tui.registry import front_end


def run(file: Path, json_out: bool) -> None:
    record = GameRecord.load(file)
    game = get_game(record.game)
    steps: list[tuple[int, dict[int, str], list[Event]]] = []

    def collect(index: int, choices: dict[int, str], events: list[Event], state: State) -> None:
        steps.append((index, choices, events))

    state = replay(record, game, source=str(file), on_step=collect)
    outcome = state.outcome
    if json_out:
        final = state.view(None)
        data: dict[str, Any] = {
            "game": record.game,
            "seed": record.seed,
            "options": record.options,
            "players": record.players,
            "outcome": None if outcome is None else outcome_json(outcome),
            "seats": final.get("players", []),
            "events": [
                {"step": index, **event.to_json()} for index, _, events in steps for event in events
            ],
        }
        print_json(data)
        return
    console.rule(f"[bold]{game.info.name}[/bold] — replay of {file.name} (seed {record.seed})")
    if record.players:
        console.print("Seats: " + ", ".join(f"{i + 1}: {n}" for i, n in enumerate(record.players)))
    for index, choices, events in steps:
        console.print(
            f"[dim]step {index}: "
            + ", ".join(f"P{s + 1} {c}" for s, c in sorted(choices.items()))
            + "[/dim]"
        )
        for event in events:
            console.print(event_line(event))
    if outcome is not None:
        head = (
            "Draw"
            if outcome.draw
            else (" & ".join(f"Player {w + 1}" for w in outcome.winners) + " wins")
        )
        console.print(Panel(f"[bold]{head}[/bold] — {outcome.reason}", title="Result"))
    fe = front_end(game.info.id)
    console.print(fe.render(game, record.options, state.view(None)))
