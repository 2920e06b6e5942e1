"""Balance of the SF DBG Super Heroes: each hero's win rate by player count, greedy bots.

Method: at each player count (``--players``, default 2, 3 and 4) ``--games`` games of
``--agent`` bots (default ``greedy``) on the lab's balanced design, which deals every hero
equally often at every seat (``kumite.sim.design``); game ``i`` is seeded
``derive_seed(derive_seed(--seed, "heroes", players), "game", i)`` (``kumite sim``'s
derivation), so a run is reproducible whatever ``--jobs`` is. A hero's **share x n** is its
win rate times the number of players (1.0: it wins its even share; a shared win counts for
each winner), with a 95% Wilson interval. The target, the [0.40, 0.60] of two players for
any number of players: every hero's share x n within [0.8, 1.2].

    python scripts/sfdbg_heroes.py [--games 1400] [--players 2,3,4] [--seed 2026]
                                   [--jobs 2] [--pack FILE] [--agent greedy] [--json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from kumite.core.rng import derive_seed
from kumite.games.sfdbg.game import GAME
from kumite.sim.backends import simulate
from kumite.sim.engine import SimSpec
from kumite.sim.stats import proportion

TARGET = (0.8, 1.2)
"""Every hero's win rate x players within these bounds."""


def measure(
    agent: str, games: int, players: list[int], seed: int, jobs: int, pack: str | None
) -> dict[int, dict[str, list[int]]]:
    """Per player count: hero -> [games, wins]."""
    out: dict[int, dict[str, list[int]]] = {}
    for n in players:
        options: dict[str, Any] = {"players": n}
        if pack:
            options["pack"] = pack
        spec = SimSpec(
            "sfdbg", ((agent,) * n,), games, seed=derive_seed(seed, "heroes", n), options=options
        )
        tally = simulate(spec, jobs=jobs, rows=False).tally
        out[n] = {h: [c[0], c[1]] for (h, p), c in tally.counts("entity_players").items()}
    return out


def report(results: dict[int, dict[str, list[int]]]) -> dict[str, Any]:
    heroes = sorted({h for by in results.values() for h in by})
    table: dict[str, dict[str, Any]] = {}
    worst: tuple[float, str, int] = (0.0, "", 0)
    within = True
    for h in heroes:
        table[h] = {}
        for n, by in results.items():
            games, wins = by.get(h, [0, 0])
            p = proportion(wins, games)
            share = p.rate * n if games else float("nan")
            table[h][str(n)] = {
                "games": games,
                "share_x_n": round(share, 3),
                "ci95": [round(p.low * n, 3), round(p.high * n, 3)],
            }
            within = within and TARGET[0] <= share <= TARGET[1]
            if abs(share - 1) > abs(worst[0] - 1) or not worst[1]:
                worst = (share, h, n)
    return {
        "heroes": table,
        "within": within,
        "furthest": {"hero": worst[1], "players": worst[2], "share_x_n": round(worst[0], 3)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--games", type=int, default=1400, help="games per player count")
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", "-j", type=int, default=2)
    parser.add_argument("--pack", type=Path, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pack = GAME.read_overlay(args.pack) if args.pack else None
    players = [int(p) for p in args.players.split(",")]
    out = report(measure(args.agent, args.games, players, args.seed, args.jobs, pack))
    out.update({"agent": args.agent, "games": args.games, "seed": args.seed})
    if args.json:
        print(json.dumps(out))
        return
    print(
        f"{args.agent} bots, {args.games} games per player count (balanced design), seed "
        f"{args.seed}{', pack ' + args.pack.name if args.pack else ''}; "
        "each hero's win rate x players [95% CI]"
    )
    print(f"{'hero':>10}  " + "  ".join(f"{f'{n} players':>22}" for n in players))
    for h, by in out["heroes"].items():
        cells = []
        for n in players:
            c = by[str(n)]
            lo, hi = c["ci95"]
            cells.append(f"{c['share_x_n']:5.2f} [{lo:.2f}, {hi:.2f}] {c['games']:4d}")
        print(f"{h:>10}  " + "  ".join(f"{c:>22}" for c in cells))
    f = out["furthest"]
    lo, hi = TARGET
    print(
        f"every hero's share x n within [{lo}, {hi}]: {'yes' if out['within'] else 'NO'} "
        f"(furthest: {f['hero']} at {f['players']} players, {f['share_x_n']:.2f})"
    )


if __name__ == "__main__":
    main()
