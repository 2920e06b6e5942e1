"""Wall-clock time of `kumite sim` on SF Rivals random play: 100,000 games (target: under a
minute on this machine), and the scaling from 1 to 2 jobs.

Everything a real run does is timed: worker start-up, the games, the statistics tallies,
and the analysis (intervals, ratings, matchups, card impact) of the result document.

    python benchmarks/sim_100k.py [--games 100000] [--scaling-games 30000] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import time

from kumite.sim.backends import simulate
from kumite.sim.engine import SimSpec
from kumite.sim.results import document

TARGET_SECONDS = 60.0


def timed(games: int, jobs: int) -> tuple[float, float]:
    """Seconds for the games alone, and for games plus the result document."""
    spec = SimSpec("sfrivals", (("random", "random"),), games, seed=2024)
    t0 = time.perf_counter()
    result = simulate(spec, jobs=jobs, rows=False)
    played = time.perf_counter() - t0
    document([result])
    return played, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--scaling-games", type=int, default=30_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    jobs = os.cpu_count() or 1
    one, _ = timed(args.scaling_games, 1)
    two, _ = timed(args.scaling_games, 2)
    played, total = timed(args.games, jobs)
    out = {
        "benchmark": "sfrivals-sim",
        "scaling_games": args.scaling_games,
        "games_per_second_1_job": round(args.scaling_games / one),
        "games_per_second_2_jobs": round(args.scaling_games / two),
        "scaling_1_to_2_jobs": round(one / two, 2),
        "games": args.games,
        "jobs": jobs,
        "seconds_games": round(played, 2),
        "seconds_with_analysis": round(total, 2),
        "target_seconds": TARGET_SECONDS,
        "load_average": list(os.getloadavg()),
    }
    if args.json:
        print(json.dumps(out))
        return
    print(
        f"SF Rivals random, {args.scaling_games} games: {out['games_per_second_1_job']}/s on 1 "
        f"job, {out['games_per_second_2_jobs']}/s on 2 jobs (scaling {out['scaling_1_to_2_jobs']}x)"
    )
    print(
        f"{args.games} games on {jobs} jobs: {played:.1f} s ({args.games / played:.0f}/s), "
        f"{total:.1f} s with the analysis (target < {TARGET_SECONDS:.0f} s); "
        f"load average {out['load_average'][0]:.2f}"
    )


if __name__ == "__main__":
    main()
