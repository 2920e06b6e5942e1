"""Balance of the Rivales fighters: greedy-vs-greedy win rates for every pair of fighters.

Method (the one the pack's reconstructed values were tuned with, see docs/packs.md): every
unordered pair of different fighters plays ``--fights`` 1vs1 fights between two ``greedy``
bots, each fighter taking seat 1 in half of them; fight ``n`` of a pair uses a seed derived
from the pair and ``n``, so runs are reproducible. A win counts 1, a draw 1/2. A fighter's
score is its mean win rate against the five others; the table gives each matchup (row
fighter's win rate against the column fighter) and each score with a 95% Wilson interval.

    python scripts/rivales_balance.py [--fights 60] [--jobs 2] [--pack FILE] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
from pathlib import Path
from typing import Any

from kumite.agents import make_agent, run_game
from kumite.core.rng import derive_seed
from kumite.games.rivales.cards import read_overlay
from kumite.games.rivales.game import GAME


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - margin) / (1 + z * z / n), (centre + margin) / (1 + z * z / n)


def pair(job: tuple[str, str, int, str | None]) -> tuple[str, str, float, int]:
    """``a``'s score against ``b`` over ``fights`` fights, seats alternating."""
    a, b, fights, pack = job
    score = 0.0
    for n in range(fights):
        seed = derive_seed(2026, a, b, n)
        first = n % 2 == 0
        fighters = [a, b] if first else [b, a]
        options: dict[str, Any] = {"fighters": fighters}
        if pack:
            options["pack"] = pack
        state = GAME.new_state(seed, options)
        state.quiet = True
        agents = [
            make_agent("greedy", GAME, state.options_json, s, derive_seed(seed, s)) for s in (0, 1)
        ]
        outcome = run_game(state, agents)
        seat_a = 0 if first else 1
        score += (outcome.returns[seat_a] + 1) / 2
    return a, b, score, fights


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--fights", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--pack", type=Path, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pack = read_overlay(args.pack) if args.pack else None
    fighters = list(GAME.catalog(GAME.parse_options({"pack": pack} if pack else {})).fighters)
    jobs = [(a, b, args.fights, pack) for a, b in itertools.combinations(fighters, 2)]
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(pair, jobs)
    rate: dict[tuple[str, str], float] = {}
    totals = {f: [0.0, 0] for f in fighters}
    for a, b, score, n in results:
        rate[(a, b)] = score / n
        rate[(b, a)] = 1 - score / n
        totals[a][0] += score
        totals[a][1] += n
        totals[b][0] += n - score
        totals[b][1] += n
    summary = {
        f: {
            "score": round(s / n, 3),
            "ci95": [round(x, 3) for x in wilson(s, n)],
            "fights": n,
        }
        for f, (s, n) in totals.items()
    }
    if args.json:
        print(
            json.dumps(
                {
                    "fights_per_pair": args.fights,
                    "fighters": summary,
                    "matchups": {f"{a}|{b}": round(r, 3) for (a, b), r in sorted(rate.items())},
                }
            )
        )
        return
    width = max(len(f) for f in fighters)
    print(f"greedy vs greedy, {args.fights} fights per pair; row fighter's win rate")
    print(" " * width + "  " + "  ".join(f"{f[:6]:>6}" for f in fighters) + "   score  95% CI")
    for a in fighters:
        cells = "  ".join("     -" if a == b else f"{rate[(a, b)]:6.2f}" for b in fighters)
        lo, hi = summary[a]["ci95"]
        print(f"{a:>{width}}  {cells}   {summary[a]['score']:.3f}  [{lo:.2f}, {hi:.2f}]")


if __name__ == "__main__":
    main()
