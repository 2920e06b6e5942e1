"""``kumite cards`` and ``kumite rules``."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table

from kumite.core.registry import get_game
from kumite.tui.console import console, print_json
from kumite.tui.registry import front_end


def run(game_id: str, only: str | None, pack: Path | None, json_out: bool) -> None:
    game = get_game(game_id)
    listing = front_end(game_id).cards(game, pack, only, json_out)
    if isinstance(listing, dict):
        print_json(listing)
    else:
        console.print(listing)


def rules(game_id: str) -> None:
    game = get_game(game_id)
    table = Table(title=f"{game.info.name}: rule references", expand=True)
    table.add_column("reference", no_wrap=True)
    table.add_column("clause or ruling")
    for ref, text in game.rules.items():
        table.add_row(ref, text)
    console.print(table)
