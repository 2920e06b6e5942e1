"""The sizes of kumite's games as research environments (docs/envs.md, "Game sizes"):
actions, decisions per game, and information sets — counted exactly where the game is
small enough to walk, estimated from below otherwise.

* **Decisions per game**: steps of ``--games`` random games (every seat's choice drawn
  uniformly, kumite's seeds 0, 1, …), and each seat's decisions among them: median, 99th
  percentile and maximum seen.
* **Information sets, exactly**, for the small SF Rivals variants (``--exact``): the whole
  tree of OpenSpiel's turn-based form of the game walked, counting the distinct
  information-state strings of each player (kumite's perfect-recall strings).
* **Information sets, from below**, for the full games: seat 0's information states at its
  ``k``-th decision (its view at every step so far and its own choices: perfect recall) in
  ``--games`` random games, and the Chao1 estimate of how many there are — ``S + f1² /
  (2 f2)`` (``f1 (f1 − 1) / 2`` when no state was seen twice), ``S`` the states seen,
  ``f1``/``f2`` those seen once/twice. Random play reaches only part of the game and
  Chao1 estimates from below, so the figure is a lower estimate, not a count.

    python benchmarks/env_sizes.py [--games 2000] [--depth 3] [--exact] [--json]
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

from kumite.envs.base import EnvGame

MODES: list[tuple[str, dict[str, Any]]] = [
    ("sfrivals", {}),
    ("rivales", {}),
    ("rivales", {"mode": "2v2"}),
    ("sfdbg", {}),
    ("sfdbg", {"players": 4}),
]
SMALL = [
    (
        "sfrivals",
        {
            "pack": str(Path(__file__).parents[1] / "examples/packs/short_duel.toml"),
            "characters": ["duelist-a", "duelist-b"],
        },
    ),
]
"""Walked whole: the reduced variant of docs/envs.md, "CFR on a reduced variant"."""


def decisions(env: EnvGame, games: int) -> dict[str, Any]:
    steps, per_seat = [], []
    for seed in range(games):
        state = env.new_state(seed)
        rng = random.Random(seed)
        n = 0
        mine = collections.Counter[int]()
        while not state.is_terminal:
            pending = state.pending()
            for d in pending:
                mine[d.seat] += 1
            state.apply_trusted({d.seat: rng.choice(d.legal) for d in pending})
            n += 1
        steps.append(n)
        per_seat.extend(mine[s] for s in range(env.seats))
    steps.sort()
    per_seat.sort()

    def summary(values: list[int]) -> dict[str, float]:
        return {
            "median": statistics.median(values),
            "p99": values[min(len(values) - 1, int(0.99 * len(values)))],
            "max": values[-1],
        }

    return {"steps": summary(steps), "per_seat": summary(per_seat)}


def chao1(counts: collections.Counter[str]) -> float:
    f1 = sum(1 for c in counts.values() if c == 1)
    f2 = sum(1 for c in counts.values() if c == 2)
    if f2:
        return len(counts) + f1 * f1 / (2 * f2)
    return len(counts) + f1 * (f1 - 1) / 2


def infosets_from_below(env: EnvGame, games: int, depth: int) -> list[dict[str, Any]]:
    """Seat 0's information states at its first ``depth`` decisions in random games."""
    seen = [collections.Counter[str]() for _ in range(depth)]
    for seed in range(games):
        state = env.new_state(seed)
        rng = random.Random(seed)
        trail: list[str] = []
        k = 0
        while not state.is_terminal and k < depth:
            trail.append(json.dumps(state.view(0), sort_keys=True))
            pending = state.pending()
            choices = {d.seat: rng.choice(d.legal) for d in pending}
            if 0 in choices:
                seen[k]["\n".join(trail)] += 1
                trail.append(f"you: {choices[0]}")
                k += 1
            state.apply_trusted(choices)
    return [{"decision": k + 1, "seen": len(c), "chao1": chao1(c)} for k, c in enumerate(seen)]


def infosets_exact(game_id: str, options: dict[str, Any]) -> dict[str, Any]:
    import pyspiel

    from kumite.envs import openspiel as kos

    game = pyspiel.convert_to_turn_based(kos.load(game_id, options))
    keys: list[set[str]] = [set() for _ in range(game.num_players())]
    nodes = 0
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        nodes += 1
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        player = state.current_player()
        keys[player].add(state.information_state_string(player))
        stack.extend(state.child(a) for a in state.legal_actions())
    return {"nodes": nodes, "infosets": [len(k) for k in keys]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--exact", action="store_true", help="walk the small variants too")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    started = time.perf_counter()
    for game_id, options in MODES:
        env = EnvGame.make(game_id, options)
        rows.append(
            {
                "game": game_id,
                "options": options,
                "actions": env.num_actions,
                "max_game_length": env.max_decisions,
                "decisions": decisions(env, args.games),
                "infosets_from_below": infosets_from_below(env, args.games, args.depth),
            }
        )
    small = []
    if args.exact:
        for game_id, options in SMALL:
            small.append(
                {
                    "game": game_id,
                    "pack": Path(options["pack"]).name,
                    **infosets_exact(game_id, options),
                }
            )
    elapsed = time.perf_counter() - started
    if args.json:
        print(
            json.dumps(
                {"games": args.games, "rows": rows, "small": small, "seconds": elapsed}, indent=1
            )
        )
        return
    print(f"{args.games} random games per mode, {elapsed:.0f} s")
    print(
        "| game | actions | steps per game: median / p99 / max | decisions per seat: median / max "
        "| seat 0's information states at its k-th decision, Chao1 (seen) |"
    )
    print("|---|---|---|---|---|")
    for row in rows:
        name = row["game"] + "".join(f" {k}={v}" for k, v in row["options"].items())
        st, ps = row["decisions"]["steps"], row["decisions"]["per_seat"]
        below = ", ".join(
            f"k={b['decision']}: {b['chao1']:.2g} ({b['seen']})" for b in row["infosets_from_below"]
        )
        print(
            f"| {name} | {row['actions']:,} | {st['median']:g} / {st['p99']:g} / {st['max']:g} "
            f"| {ps['median']:g} / {ps['max']:g} | {below} |"
        )
    for row in small:
        print(
            f"{row['game']} {row['pack']}: {row['nodes']:,} nodes (turn-based), "
            f"information sets per player {row['infosets']}"
        )


if __name__ == "__main__":
    main()
