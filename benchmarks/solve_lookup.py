"""What a solver-backed SF Rivals agent pays per game and per move.

    .venv/bin/python benchmarks/solve_lookup.py [--matchup ryu,ken] [--games 20] [--seed 0]

1. Loading a solved matchup: the summary file's size and the seconds to read it (the fight
   tables are not stored; what an agent meets is solved on demand).
2. ``bounded`` against itself (method tight) for ``--games`` games: every decision's
   wall-clock and CPU time (the thread's; hints cost the same: an agent samples from the
   advice). The first pass solves the positions it meets; a second pass over the same games
   (same seeds) only looks them up — its figures are the "looked-up decision" ones.
3. The reference, measured in the same run on the same decisions: the look-ups without
   what makes them cheap (each solved node kept by ``BoundSolver.node``, the set-up values
   kept by ``MatchupSolution.setup_values``) — every node worked out again and the set-up
   LP solved on every call, as the code did before.
4. Method adaptive (the previous strategy): the same on a pair of set-ups, and beside it
   what its look-ups used to cost — sorting the largest stored level once (the code
   re-sorted a level on every call).

Nothing here asserts a time. The machine is shared: wall time includes the moments the OS
gives the core to another process (a few ms each, at the tail), CPU time does not; the load
average is printed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import numpy as np
from solve_sfrivals import warm_up  # the same warm-up, beside this script

from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver.setup import (
    MatchupSolution,
    cache_path,
    shared_solution,
    solve_matchup,
)
from kumite.games.sfrivals.solver.strategy import advice

Times = list[tuple[float, float]]
"""(wall, CPU) seconds of each decision."""


def games(
    sol: MatchupSolution, pair: tuple[str, str], n: int, seed: int, forget: bool = False
) -> Times:
    """``forget``: before each decision, drop what the look-ups keep (the reference)."""
    times = []
    for g in range(n):
        rng = random.Random(seed + g)
        state = GAME.new_state(seed + g, {"characters": list(pair)})
        state.quiet = True
        while pending := state.pending():
            choices = {}
            for d in pending:
                view = state.view(d.seat)
                if forget:
                    forget_lookups(sol)
                t, c = time.perf_counter(), time.thread_time()
                adv = advice(view, sol)
                times.append((time.perf_counter() - t, time.thread_time() - c))
                choices[d.seat] = rng.choices(
                    [a.choice for a in adv], weights=[a.probability for a in adv]
                )[0]
            state.apply(choices)
    return times


def forget_lookups(sol: MatchupSolution) -> None:
    """Drop the solved nodes ``BoundSolver.node`` keeps and the kept set-up values."""
    if sol.method == "tight":
        for seat in (0, 1):
            sol.side(seat)._nodes.cache_clear()
    sol._setup_values[:] = [None, None]


def describe(label: str, times: Times) -> None:
    parts = []
    for name, col in (("wall", 0), ("CPU", 1)):
        ms = sorted(t[col] * 1000 for t in times)
        p95 = ms[int(0.95 * (len(ms) - 1))]
        parts.append(
            f"{name} median {statistics.median(ms):.2f} ms, 95% {p95:.2f} ms, max {ms[-1]:.1f} ms"
        )
    print(f"{label}: {len(times)} decisions; " + "; ".join(parts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matchup", default="ryu,ken")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    a, b = args.matchup.split(",")
    pair = (a, b)
    t0 = time.perf_counter()
    warm_up()
    print(f"kernels ready in {time.perf_counter() - t0:.2f} s")
    t0 = time.perf_counter()
    sol = shared_solution(pair)
    loaded = time.perf_counter() - t0
    path = cache_path(pair, sol.options).with_suffix(".json")
    size = f"{path.stat().st_size:,} bytes" if path.exists() else "shipped"
    print(
        f"{a} vs {b} (tight): [{sol.lower:+.4f}, {sol.upper:+.4f}], summary {size}, "
        f"{'loaded' if sol.from_cache else 'solved'} in {loaded:.3f} s"
    )
    describe("first pass (solves what it meets)", games(sol, pair, args.games, args.seed))
    describe("second pass (looked up)", games(sol, pair, args.games, args.seed))
    describe(
        "reference: the same, nothing kept", games(sol, pair, args.games, args.seed, forget=True)
    )
    adaptive = solve_matchup(pair, method="adaptive", cache=False)  # every level in memory
    describe("adaptive, first pass", games(adaptive, pair, args.games, args.seed))
    describe("adaptive, looked up", games(adaptive, pair, args.games, args.seed))
    keys = max((k for k, _ in adaptive.solver.levels.values()), key=len)
    t0 = time.perf_counter()
    np.argsort(keys, kind="stable")
    print(
        f"reference, the old cost of every look-up: sorting the largest level "
        f"({len(keys):,} states) takes {(time.perf_counter() - t0) * 1000:.1f} ms"
    )
    print(f"load average {[round(x, 2) for x in os.getloadavg()]}")


if __name__ == "__main__":
    main()
