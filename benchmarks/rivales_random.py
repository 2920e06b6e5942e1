"""Full random Rivales 1vs1 fights per second on one core.

Each fight: both fighters picked at random at the table, random life markers, random legal
choices to the end (three rounds or more), every choice validated by the engine (quiet
states: no event objects are built). The rate is measured in CPU time of this process (so
other work on a shared machine does not distort it) after a warm-up, over several timed
runs; printed: fights/s and decisions/s per CPU second over all timed runs, the median and
best run, the wall time (which a loaded machine stretches), and the target of issue 4
(1,000 fights/s).

    python benchmarks/rivales_random.py [--seconds 5] [--mode 1v1|2v2] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from kumite.games.rivales.game import GAME

TARGET = 1000


def play(n: int, start: int, rng: random.Random, mode: str) -> int:
    steps = 0
    options = {"mode": mode}
    for seed in range(start, start + n):
        state = GAME.new_state(seed, options)
        state.quiet = True
        while not state.is_terminal:
            state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
            steps += 1
    return steps


def measure(seconds: float, mode: str) -> tuple[list[float], int, int, float, float]:
    """Rates of the timed runs, fights, decisions, CPU seconds, wall seconds."""
    rng = random.Random(0)
    play(200, 0, rng, mode)  # warm-up
    rates: list[float] = []
    steps = fights = 0
    cpu = 0.0
    start = 10**6
    wall0 = time.perf_counter()
    deadline = time.process_time() + seconds
    while time.process_time() < deadline or len(rates) < 3:
        n = 500
        t0 = time.process_time()
        steps += play(n, start, rng, mode)
        dt = time.process_time() - t0
        cpu += dt
        rates.append(n / dt)
        fights += n
        start += n
    wall = time.perf_counter() - wall0
    return rates, fights, steps, cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--mode", choices=("1v1", "2v2"), default="1v1")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rates, fights, steps, cpu, wall = measure(args.seconds, args.mode)
    median = statistics.median(rates)
    result = {
        "benchmark": f"rivales-random-fights-{args.mode}",
        "fights_per_second_best": round(max(rates)),
        "fights_per_second_median": round(median),
        "fights_per_cpu_second": round(fights / cpu),
        "decisions_per_cpu_second": round(steps / cpu),
        "decisions_per_fight": round(steps / fights, 1),
        "fights": fights,
        "cpu_seconds": round(cpu, 2),
        "wall_seconds": round(wall, 2),
        "fights_per_wall_second": round(fights / wall),
        "target": TARGET,
        "ratio_to_target": round(median / TARGET, 2),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"Rivales random {args.mode} fights: {result['fights_per_cpu_second']} fights/s and "
            f"{result['decisions_per_cpu_second']} decisions/s per CPU second "
            f"(runs of 500: median {result['fights_per_second_median']}/s, "
            f"best {result['fights_per_second_best']}/s); {result['fights']} fights, "
            f"{result['decisions_per_fight']} decisions a fight, in {result['cpu_seconds']} s "
            f"CPU / {result['wall_seconds']} s wall ({result['fights_per_wall_second']}/s wall); "
            f"target {TARGET}/s for 1v1, ratio {result['ratio_to_target']}"
        )


if __name__ == "__main__":
    main()
