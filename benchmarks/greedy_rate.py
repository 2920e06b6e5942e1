"""Benchmark: whole games per second of ``greedy`` in every seat, on one core, beside the
random-play rate of the same run (the reference: how fast the engine alone plays).

Rivales 1vs1 fights and three-player SF DBG games (issue 19's targets: 160 and 60 games a
second), quiet states, driven by ``kumite.agents.run_game`` as the balance lab does. Rates
are per second of this process's CPU time; each line is the best of ``--repeat`` runs of
the same games (on a shared machine the other programs inflate CPU time too, so the best of
a few runs is the fairest figure). ``--json`` prints the figures as JSON.

    python benchmarks/greedy_rate.py [--games N] [--repeat R] [--json]

Instructions, the stable figure on a shared machine (docs/ai.md, "Fast greedy for the lab"):
``--only rivales --agents greedy --repeat 1`` plays just those games after the same warm-up,
so ``(Ir of --games N minus Ir of --games 0) / N`` under ``PYTHONHASHSEED=0 valgrind
--tool=callgrind`` is the instructions of one greedy fight.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from kumite.agents import make_agent, run_game
from kumite.core.registry import get_game
from kumite.core.rng import derive_seed

#: (game, options, seats, target games/s with greedy)
CASES: list[tuple[str, dict[str, Any], int, float]] = [
    ("rivales", {}, 2, 160.0),
    ("sfdbg", {"players": 3}, 3, 60.0),
]


def rate(game_id: str, options: dict[str, Any], seats: int, agent: str, games: int) -> float:
    """Games per CPU second of ``games`` games with ``agent`` in every seat (seeds 0..)."""
    game = get_game(game_id)
    started = time.process_time()
    for seed in range(games):
        state = game.new_state(seed, options)
        state.quiet = True
        agents = [
            make_agent(agent, game, state.options_json, s, derive_seed(seed, "agent", s))
            for s in range(seats)
        ]
        run_game(state, agents)
    return games / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", help="one game (rivales or sfdbg)")
    parser.add_argument("--agents", default="greedy,random", help="comma-separated")
    args = parser.parse_args()
    agents = args.agents.split(",")
    out = []
    for game_id, options, seats, target in CASES:
        if args.only and game_id != args.only:
            continue
        rate(game_id, options, seats, "greedy", 2)  # warm-up: imports, packs, tables
        if not args.games:
            continue  # the warm-up alone: the reference of an instruction count
        row: dict[str, Any] = {"game": game_id, "options": options, "target": target}
        for agent in agents:
            best = max(rate(game_id, options, seats, agent, args.games) for _ in range(args.repeat))
            row[agent] = round(best, 1)
        if "greedy" in row and "random" in row:
            row["greedy_share_of_random"] = round(row["greedy"] / row["random"], 3)
        out.append(row)
        if not args.json:
            rates = ", ".join(f"{agent} {row[agent]} games/s" for agent in agents)
            print(
                f"{game_id} {options or ''}: {rates} in the same run (target {target:g} "
                "with greedy)",
                flush=True,
            )
    if args.json:
        print(json.dumps({"rates": out, "load_average": [round(x, 2) for x in os.getloadavg()]}))
    else:
        print(f"load average {[round(x, 2) for x in os.getloadavg()]}")


if __name__ == "__main__":
    main()
