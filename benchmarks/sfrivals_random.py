"""Full random SF Rivals games per second on one core.

Each game: both characters picked at random, random set-ups, random legal cards to the end,
every choice validated by the engine (quiet states: no event objects are built). The rate is
measured after a warm-up, over several timed runs; the best and median are printed, with the
target of issue 2 (5,000 games/s).

    python benchmarks/sfrivals_random.py [--seconds 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from kumite.games.sfrivals.game import GAME

TARGET = 5000


def play(n: int, start: int, rng: random.Random) -> None:
    for seed in range(start, start + n):
        state = GAME.new_state(seed)
        state.quiet = True
        while not state.is_terminal:
            state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})


def measure(seconds: float) -> list[float]:
    rng = random.Random(0)
    play(20000, 0, rng)  # warm the memo tables, as a long simulation does
    rates = []
    start = 10**6
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(rates) < 3:
        n = 2000
        t0 = time.perf_counter()
        play(n, start, rng)
        rates.append(n / (time.perf_counter() - t0))
        start += n
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rates = measure(args.seconds)
    result = {
        "benchmark": "sfrivals-random-games",
        "games_per_second_best": round(max(rates)),
        "games_per_second_median": round(statistics.median(rates)),
        "target": TARGET,
        "ratio_to_target": round(statistics.median(rates) / TARGET, 2),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"SF Rivals random games: median {result['games_per_second_median']}/s, "
            f"best {result['games_per_second_best']}/s on one core "
            f"(target {TARGET}/s; ratio {result['ratio_to_target']})"
        )


if __name__ == "__main__":
    main()
