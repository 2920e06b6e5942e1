"""SF Rivals solve times.

    .venv/bin/python benchmarks/solve_sfrivals.py [--seed 0] [--matchups zangief,juri ...]
        [--repeat 5] [--full zangief,juri]

0. The compiled kernels: time to have them ready (compiled on the first run ever, then
   loaded from Numba's on-disk cache) — paid once per process, reported apart.
1. The exact perfect-information fight for one pair of set-ups (both hands known), for each
   matchup of ``--matchups`` with set-ups drawn from ``--seed``: seconds, states, states/s
   (fresh solver each time, kernels already loaded; with ``--repeat N`` the median of N
   solves, and the fastest). The CPU time of the process (all threads) is printed too: on
   a loaded machine it is the better guide to the time on an idle one.
2. With ``--full X,Y``: the whole matchup (set-up stage, certified bounds) — value, bounds,
   certified exploitability, time (no cache); with ``--certify`` also the certificate against
   a committed, fully informed opponent (:mod:`kumite.games.sfrivals.solver.certify`).

Same seed, same positions, same values: only the times vary with the machine's load.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver.certify import certify
from kumite.games.sfrivals.solver.fight import FightSolver, Position, setup_hand
from kumite.games.sfrivals.solver.setup import setup_cards, solve_matchup
from kumite.solve.matrix_jit import game_value

MATCHUPS = ("zangief,juri", "ryu,ken", "poison,dudley")


def warm_up() -> None:
    """Compile (or load from the cache) every kernel, on a one-state toy problem."""
    opts = GAME.parse_options({})
    cat = GAME.catalog(opts)
    chars = (cat.characters["ryu"], cat.characters["ken"])
    hands = tuple(tuple(int(c.index == 0) for c in ch.cards) for ch in chars)
    FightSolver(cat, opts, chars).value(Position((hands[0], hands[1]), round=cat.rules.hand))
    game_value(np.array([[1.0, -1.0, 0.0], [-1.0, 1.0, 0.0], [0.0, 0.0, -1.0]]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--matchups", nargs="*", default=list(MATCHUPS))
    parser.add_argument("--repeat", type=int, default=1, help="solves per pair (median)")
    parser.add_argument("--full", default=None, help="a matchup X,Y to solve whole")
    parser.add_argument("--certify", action="store_true", help="certify --full's strategies")
    args = parser.parse_args()
    t0 = time.perf_counter()
    warm_up()
    print(f"kernels ready in {time.perf_counter() - t0:.2f} s (compiled or loaded from cache)")
    opts = GAME.parse_options({})
    cat = GAME.catalog(opts)
    for matchup in args.matchups:
        x, y = matchup.split(",")
        rng = random.Random(f"{args.seed}:{matchup}")
        a, b = cat.characters[x], cat.characters[y]
        s0, s1 = rng.choice(a.setup_choices), rng.choice(b.setup_choices)
        hands = []
        for char, choice in ((a, s0), (b, s1)):
            cover, shown = setup_cards(char, choice)
            hands.append(setup_hand(char, char.card(cover), char.card(shown)))
        walls, cpus = [], []
        for _ in range(args.repeat):
            solver = FightSolver(cat, opts, (a, b))
            t0, c0 = time.perf_counter(), time.process_time()
            value = solver.value(Position((hands[0], hands[1])))
            walls.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
        dt, cpu = statistics.median(walls), statistics.median(cpus)
        spread = f" (min {min(walls):.2f} s, {min(cpus):.2f} s CPU)" if args.repeat > 1 else ""
        print(
            f"one set-up pair {s0[6:]} vs {s1[6:]}: value {value:+.6f}, "
            f"{dt:.2f} s ({cpu:.2f} s CPU){spread}, {solver.states_solved:,} states "
            f"({solver.states_solved / dt:,.0f}/s)"
        )
    if args.full:
        x, y = args.full.split(",")
        sol = solve_matchup((x, y), cache=False, progress=lambda m: print("  ..", m))
        print(
            f"full matchup {x} vs {y}: value {sol.value:+.4f} in [{sol.lower:+.4f}, "
            f"{sol.upper:+.4f}], certified exploitability <= {sol.exploitability:.4f}, "
            f"{sol.seconds:.0f} s, {sol.states:,} states"
        )
        if args.certify:
            cert = certify(sol, progress=lambda m: print("  ..", m))
            kind = "exactly" if all(cert.exact) else "<="
            print(
                f"committed-opponent certificate: [{cert.lower:+.4f}, {cert.upper:+.4f}], "
                f"exploitability {kind} {cert.exploitability:.4f}, {cert.seconds:.0f} s, "
                f"{cert.states:,} states"
            )


if __name__ == "__main__":
    main()
