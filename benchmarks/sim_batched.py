"""`kumite sim sfrivals --batched` end to end, beside OpenSpiel's goofspiel(8) random play
on one core in the same run (target: at least 20 times goofspiel's games per second per core).

End to end is everything `simulate()` does for the command: the balanced design, the game
seeds, the batched engine's rule tables (filled, or read from the disk cache) and kernels
(loaded from Numba's cache), the games, and the statistics tallies; the imports are timed
apart. Each measurement runs in a fresh process with a cache folder of its own: first with
the folder empty (the tables filled from the engine, then saved), then again (read back),
then a 100,000-game run (read back). goofspiel(8) is measured before and after in another
fresh process; the ratio uses the mean of the two.

    python benchmarks/sim_batched.py [--games 2000000] [--jobs 1] [--json]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import multiprocessing
import os
import tempfile
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


def batched(games: int, jobs: int, cache: str) -> dict[str, Any]:
    os.environ["KUMITE_CACHE_DIR"] = cache
    t0 = time.perf_counter()
    from kumite.sim.backends import simulate
    from kumite.sim.engine import SimSpec, runner_for

    imports = time.perf_counter() - t0
    spec = SimSpec("sfrivals", (("random", "random"),), games, seed=2026, batched=True)
    t0 = time.perf_counter()
    runner_for(spec).warm()
    warm = time.perf_counter() - t0
    result = simulate(spec, jobs=jobs, rows=False)
    total = time.perf_counter() - t0
    assert result.tally.games == games
    return {
        "seconds": total,
        "fixed_seconds": warm,
        "import_seconds": imports,
        "games": games,
        "jobs": jobs,
    }


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
    with tempfile.TemporaryDirectory(prefix="kumite-bench-") as cache:
        before = fresh(goofspiel)
        cold = fresh(batched, args.games, args.jobs, cache)
        run = fresh(batched, args.games, args.jobs, cache)
        small = fresh(batched, 100_000, args.jobs, cache)
        after = fresh(goofspiel)
    reference = (before + after) / 2

    def rates(r: dict[str, Any]) -> dict[str, Any]:
        per_core = r["games"] / r["seconds"] / r["jobs"]
        steady = r["games"] / (r["seconds"] - r["fixed_seconds"]) / r["jobs"]
        return {
            "games": r["games"],
            "seconds": round(r["seconds"], 2),
            "fixed_seconds": round(r["fixed_seconds"], 2),
            "import_seconds": round(r["import_seconds"], 2),
            "games_per_second_per_core": round(per_core),
            "games_per_second_per_core_after_fixed": round(steady),
            "ratio": round(per_core / reference, 1),
            "ratio_after_fixed": round(steady / reference, 1),
        }

    out = {
        "benchmark": "sfrivals-sim-batched",
        "jobs": args.jobs,
        "cached": rates(run),
        "first": rates(cold),
        "hundred_thousand": rates(small),
        "goofspiel8_per_second": round(reference),
        "target_ratio": 20,
        "load_average": list(os.getloadavg()),
    }
    if args.json:
        print(json.dumps(out))
        return
    for key, what in (
        ("cached", "tables read from the disk cache"),
        ("first", "tables filled from the engine (an empty cache)"),
        ("hundred_thousand", "tables read from the disk cache"),
    ):
        r = out[key]
        print(
            f"kumite sim sfrivals --batched, {r['games']} games on {args.jobs} job(s), {what}: "
            f"{r['seconds']:.1f} s end to end, of which {r['fixed_seconds']:.2f} s fixed "
            f"(tables, kernels; imports {r['import_seconds']:.1f} s more): "
            f"{r['games_per_second_per_core']:,} games/s per core = {r['ratio']}x goofspiel(8) "
            f"({r['games_per_second_per_core_after_fixed']:,} after the fixed cost = "
            f"{r['ratio_after_fixed']}x)"
        )
    print(
        f"goofspiel(8) random play, same run: {reference:,.0f} games/s on one core "
        f"({before:,.0f} before, {after:,.0f} after); target >= 20x end to end; "
        f"load average {out['load_average'][0]:.1f}"
    )


if __name__ == "__main__":
    main()
