"""``kumite cards`` and ``kumite rules``."""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape
from rich.table import Table

from kumite.cards.provenance import LEGEND
from kumite.cli.common import console, print_json
from kumite.core.errors import OptionsError
from kumite.games import get_game
from kumite.games.sfrivals.cards import load_catalog, read_overlay
from kumite.tui.sfrivals import cards_table


def run(game_id: str, character: str | None, pack: Path | None, json_out: bool) -> None:
    get_game(game_id)
    if game_id != "sfrivals":
        raise OptionsError(f"no card listing for {game_id!r} yet")
    catalog = load_catalog(read_overlay(pack), pack.name) if pack else load_catalog()
    chars = list(catalog.characters.values())
    if character is not None:
        if character not in catalog.characters:
            raise OptionsError(f"unknown character {character!r}")
        chars = [catalog.characters[character]]
    if json_out:
        print_json(
            {
                "game": game_id,
                "pack": catalog.pack.ref(),
                "sources": catalog.pack.sources,
                "rules": {
                    "life": {
                        "value": catalog.rules.life,
                        **catalog.rule_provenance["life"].to_json(),
                    }
                },
                "characters": [{"id": c.id, "name": c.name} for c in chars],
                "cards": [card.to_json() for c in chars for card in c.cards],
            }
        )
        return
    for char in chars:
        console.print(cards_table(list(char.cards), f"{char.name} ({char.id})"))
    console.print(f"Life: {catalog.rules.life} ({catalog.rule_provenance['life']})")
    for text in LEGEND.values():
        console.print(f"[dim]{text}[/dim]")
    console.print(
        f"[dim]Pack {catalog.pack.id} {catalog.pack.version}; sources: "
        + escape("; ".join(f"[{k}] {v}" for k, v in catalog.pack.sources.items()))
        + "[/dim]"
    )


def rules(game_id: str) -> None:
    game = get_game(game_id)
    table = Table(title=f"{game.info.name}: rule references", expand=True)
    table.add_column("reference", no_wrap=True)
    table.add_column("clause or ruling")
    for ref, text in game.rules.items():
        table.add_row(ref, text)
    console.print(table)
