"""`kumite sim sfrivals --batched` end to end, beside OpenSpiel's goofspiel(8) random play
on one core in the same run (target: at least 20 times goofspiel's games per second per core).

End to end is everything `simulate()` does for the command: the balanced design, the game
seeds, filling and compiling the batched engine (once, before the workers fork), the games,
and the statistics tallies. Each measurement runs in a fresh process (so the engine's rule
tables are filled inside the time), and goofspiel(8) is measured before and after it in
another fresh process; the ratio uses the mean of the two.

    python benchmarks/sim_batched.py [--games 2000000] [--jobs 1] [--json]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import multiprocessing
import os
import time
from typing import Any

from kumite.sim.bench import _goofspiel_player


def goofspiel(seconds: float = 4.0) -> float:
    """Best of three runs of goofspiel(8) random games per second on this core."""
    play = _goofspiel_player(0)
    play(0, 200)  # warm
    best = 0.0
    for _ in range(3):
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds / 3:
            play(0, 200)
            n += 200
        best = max(best, n / (time.perf_counter() - t0))
    return best


def batched(games: int, jobs: int) -> dict[str, Any]:
    from kumite.sim.backends import simulate
    from kumite.sim.engine import SimSpec, runner_for

    spec = SimSpec("sfrivals", (("random", "random"),), games, seed=2026, batched=True)
    t0 = time.perf_counter()
    runner_for(spec).warm()
    warm = time.perf_counter() - t0
    result = simulate(spec, jobs=jobs, rows=False)
    total = time.perf_counter() - t0
    assert result.tally.games == games
    return {"seconds": total, "fixed_seconds": warm, "games": games, "jobs": jobs}


def fresh(fn: Any, *args: Any) -> Any:
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
        return pool.submit(fn, *args).result()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    before = fresh(goofspiel)
    run = fresh(batched, args.games, args.jobs)
    after = fresh(goofspiel)
    reference = (before + after) / 2
    per_core = args.games / run["seconds"] / args.jobs
    steady = args.games / (run["seconds"] - run["fixed_seconds"]) / args.jobs
    out = {
        "benchmark": "sfrivals-sim-batched",
        "games": args.games,
        "jobs": args.jobs,
        "seconds": round(run["seconds"], 2),
        "fixed_seconds": round(run["fixed_seconds"], 2),
        "games_per_second_per_core": round(per_core),
        "games_per_second_per_core_after_fixed": round(steady),
        "goofspiel8_per_second": round(reference),
        "ratio": round(per_core / reference, 1),
        "ratio_after_fixed": round(steady / reference, 1),
        "target_ratio": 20,
        "load_average": list(os.getloadavg()),
    }
    if args.json:
        print(json.dumps(out))
        return
    print(
        f"kumite sim sfrivals --batched, {args.games} games on {args.jobs} job(s): "
        f"{run['seconds']:.1f} s end to end ({run['fixed_seconds']:.1f} s filling and compiling "
        f"the engine), {per_core:,.0f} games/s per core ({steady:,.0f} after the fixed cost)"
    )
    print(
        f"goofspiel(8) random play, same run: {reference:,.0f} games/s on one core "
        f"({before:,.0f} before, {after:,.0f} after)"
    )
    print(
        f"ratio: {out['ratio']}x end to end, {out['ratio_after_fixed']}x after the fixed cost "
        f"(target >= 20x); load average {out['load_average'][0]:.1f}"
    )


if __name__ == "__main__":
    main()
