"""The batched SF Rivals engine: full random fights per second on one core, beside OpenSpiel's
goofspiel(8) random play measured in the same run (issue 17: target >= 30x), and the memory
of 10^5 fights stepped at once.

Each fight: both characters drawn at random (every pairing of the pack), random set-ups,
random legal cards to the end (kumite.games.sfrivals.batch). The engine's rule tables fill on
demand, so it is first warmed up as a long simulation is (``--warmup`` fights, 4 million
by default: the tables of rarely reached positions keep filling for a while); then batches
of fights and goofspiel(8) games take turns for the timed runs, and the best and median
of each are printed. goofspiel(8) is driven from Python the way ``kumite bench`` drives it
(legal actions asked each step, one random choice per player); it is OpenSpiel's C++
engine underneath.

    python benchmarks/env_batch.py [--seconds 20] [--batch 100000] [--warmup 4000000] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import time
from typing import Any

import numpy as np

from kumite.games.sfrivals.batch import BatchEngine
from kumite.games.sfrivals.game import GAME

TARGET = 30.0


def goofspiel_rate(seconds: float, rng: random.Random) -> float:
    import pyspiel

    game = pyspiel.load_game("goofspiel(num_cards=8)")
    players = range(game.num_players())
    games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in players])
            elif state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        games += 1
    return games / (time.perf_counter() - t0)


def batch_rate(engine: BatchEngine, n: int, start: int) -> float:
    t0 = time.perf_counter()
    engine.random_fights(np.arange(start, start + n))
    return n / (time.perf_counter() - t0)


def memory(engine: BatchEngine, n: int) -> dict[str, float]:
    """Bytes per fight of the arrays a batch of ``n`` fights holds, and of the rule tables."""
    fights = engine.random_fights(np.arange(n))
    per_fight = sum(
        a.nbytes
        for a in (fights.characters, fights.setup, fights.played, fights.legal, fights.winner)
    ) + sum(a.nbytes for a in (fights.lives, fights.rounds, fights.reason))
    # and what the kernel holds while it runs: key, random stream, status, end index
    per_fight += n * (8 + 8 + 1 + 8)
    tables = 0
    for solver in engine._solvers.values():
        tables += sum(getattr(t, "nbytes", 0) for t in solver.tables)
        tables += solver._pair_done.nbytes
    return {
        "fights": n,
        "arrays_mb": per_fight / 2**20,
        "bytes_per_fight": per_fight / n,
        "rule_tables_mb": tables / 2**20,
        "pairings": len(engine._solvers),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--batch", type=int, default=100_000)
    parser.add_argument("--warmup", type=int, default=4_000_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    engine = BatchEngine(GAME, {})
    n = args.batch
    t0 = time.perf_counter()
    warm, start = [], 10**9
    while start - 10**9 < args.warmup:  # the rule tables fill on demand
        warm.append(batch_rate(engine, n, start))
        start += n
    warmed = start - 10**9
    warmup_s = time.perf_counter() - t0
    rng = random.Random(0)
    ours: list[float] = []
    theirs: list[float] = []
    deadline = time.perf_counter() + args.seconds
    while time.perf_counter() < deadline or len(ours) < 3:
        theirs.append(goofspiel_rate(1.0, rng))
        ours.append(batch_rate(engine, n, start))
        start += n
    result: dict[str, Any] = {
        "batched_fights_per_s": {"best": max(ours), "median": statistics.median(ours)},
        "goofspiel8_games_per_s": {"best": max(theirs), "median": statistics.median(theirs)},
        "ratio_median": statistics.median(ours) / statistics.median(theirs),
        "ratio_best": max(ours) / max(theirs),
        "target_ratio": TARGET,
        "warmup": {"seconds": warmup_s, "rates": warm},
        "memory": memory(engine, 100_000),
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return
    shown = ", ".join(f"{r:,.0f}" for r in warm[:: max(1, len(warm) // 8)])
    print(f"warm-up {warmup_s:.1f} s ({warmed:,} fights): batch rates {shown} ...")
    print(
        f"batched SF Rivals: {result['batched_fights_per_s']['median']:,.0f} random fights/s "
        f"(median; best {max(ours):,.0f}), one core"
    )
    print(
        f"goofspiel(8):      {result['goofspiel8_games_per_s']['median']:,.0f} random games/s "
        f"(median; best {max(theirs):,.0f}), same run"
    )
    print(
        f"ratio: {result['ratio_median']:.1f}x (median), {result['ratio_best']:.1f}x (best); "
        f"target {TARGET:.0f}x"
    )
    m = result["memory"]
    print(
        f"memory: {m['fights']:,} fights at once hold {m['arrays_mb']:.1f} MB of arrays "
        f"({m['bytes_per_fight']:.0f} B a fight); rule tables {m['rule_tables_mb']:.0f} MB for "
        f"{m['pairings']} pairings; peak RSS {m['peak_rss_mb']:.0f} MB"
    )


if __name__ == "__main__":
    main()
