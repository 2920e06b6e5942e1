"""Head-to-head strength table of the shipped agents in every game (seats alternated, 95%
Wilson intervals on each agent's share of the decisive games).

    python benchmarks/strength_table.py [--games 20] [--search-games 2] [--seed 1]
        [--game rivales --agents greedy,ismcts] [--jobs 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import Any

from kumite.sim.strength import default_agents, format_row, strength_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per pair")
    parser.add_argument(
        "--search-games", type=int, default=2, help="games per pair with an ismcts agent"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", help="game id (repeat; default: all)")
    parser.add_argument("--agents", help="comma-separated agents (default: the shipped ones)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    defaults = default_agents()
    ids = args.game or list(defaults)
    table = {g: tuple(args.agents.split(",")) if args.agents else defaults[g] for g in ids}

    def progress(game: str, a: str, b: str, row: Mapping[str, Any]) -> None:
        if not args.json:
            print(f"{game:>8}: {format_row(row)}", flush=True)

    result = strength_table(
        table,
        args.games,
        args.seed,
        search_games=args.search_games,
        jobs=args.jobs,
        progress=progress,
    )
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()


if __name__ == "__main__":
    main()
