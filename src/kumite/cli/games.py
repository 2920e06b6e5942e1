"""``kumite games``: the installed games, read from their specs."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from kumite.agents.registry import agent_names
from kumite.core.registry import specs
from kumite.core.spec import GameSpec
from kumite.tui.console import console, print_json


def describe(spec: GameSpec) -> dict[str, Any]:
    """What a spec declares, as JSON (imports the game's rules, none of its faces)."""
    info = spec.load().info
    role = spec.role
    return {
        "id": spec.id,
        "name": spec.name,
        "players": [info.min_players, info.max_players],
        "role": None
        if role is None
        else {"option": role.option, "label": role.label, "flag": f"--{role.option}"},
        "options": [f.to_json() for f in spec.option_fields()],
        "flags": {f"--{k}": v for k, v in spec.flags.items()},
        "agents": agent_names(spec.id),
        "faces": spec.faces(),
    }


def run(json_out: bool) -> None:
    found = [describe(s) for s in specs().values()]
    if json_out:
        print_json(found)
        return
    table = Table(title="Installed games")
    for col in ("id", "name", "players", "plays as", "options", "faces"):
        table.add_column(col)
    for g in found:
        lo, hi = g["players"]
        role = g["role"]
        table.add_row(
            g["id"],
            g["name"],
            str(lo) if lo == hi else f"{lo}-{hi}",
            "—" if role is None else f"{role['label']} ({role['flag']})",
            ", ".join(o["name"] for o in g["options"]) or "—",
            ", ".join(g["faces"]) or "generic",
        )
    console.print(table)
