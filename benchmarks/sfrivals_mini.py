"""Ground truth at small scale: the mini pack's whole hidden-cover game, exactly, beside the
bounds of both methods.

    .venv/bin/python benchmarks/sfrivals_mini.py [--matchups ryu-mini,ken-mini ...]
        [--target 1e-3] [--no-verify]

For each matchup of the shipped mini pack (``--pack mini``): the size of the game (terminal
histories, nodes, information sets); its exact value by the sequence-form LP (HiGHS), with
the exploitability of the LP's equilibrium by exact best responses; CFR+ over the real
information sets until the average's exploitability is at most ``--target`` (iterations,
seconds, value); the certified intervals of methods adaptive and tight; and (unless
``--no-verify``) each method's bound strategies played from the seats' views, their exact
best responses in the game tree: what each seat's strategy really guarantees, beside its
certified bound. Deterministic but for the times.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Mapping
from typing import Any

from kumite.games.sfrivals.solver.hidden import mini_pack, solve_cfr, solve_exact, strategy_profile
from kumite.games.sfrivals.solver.setup import METHODS, MatchupSolution, solve_matchup
from kumite.games.sfrivals.solver.strategy import advice
from kumite.solve.best_response import best_response


def policy(sol: MatchupSolution) -> Any:
    def play(view: Mapping[str, Any]) -> dict[str, float]:
        seat = int(view["seat"])
        if view["phase"] == "setup":
            return sol.setup[seat]
        return {a.choice: a.probability for a in advice(view, sol)}

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--matchups",
        nargs="+",
        default=["ryu-mini,ken-mini", "ryu-mini,ryu-mini", "ken-mini,ken-mini"],
    )
    parser.add_argument("--target", type=float, default=1e-3)
    parser.add_argument("--no-verify", action="store_true")
    args = parser.parse_args()
    opts = {"pack": mini_pack()}
    for matchup in args.matchups:
        a, b = matchup.split(",")
        pair = (a, b)
        ex = solve_exact(pair, opts)
        s = ex.summary()
        print(
            f"{a} vs {b}: {s['histories']:,} histories, {s['nodes']:,} nodes, "
            f"{s['infosets']:,} information sets; exact value {ex.value:+.9f} (LP, "
            f"{ex.seconds:.0f} s with the tree; its equilibrium's exploitability "
            f"{ex.exploitability:.1e})",
            flush=True,
        )
        run = solve_cfr(ex.tree, target=args.target)
        print(
            f"  CFR+: exploitability {run.exploitability:.2e} after {run.iterations} "
            f"iterations, {run.seconds:.0f} s; value {run.value:+.6f}",
            flush=True,
        )
        for method in METHODS:
            t0 = time.perf_counter()
            sol = solve_matchup(pair, opts, cache=False, method=method)
            line = (
                f"  {method}: certified [{sol.lower:+.4f}, {sol.upper:+.4f}], exploitability "
                f"<= {sol.exploitability:.4f} ({time.perf_counter() - t0:.1f} s); the truth is "
                f"{ex.value - sol.lower:.4f} above the lower bound, "
                f"{sol.upper - ex.value:.4f} below the upper"
            )
            if not args.no_verify:
                sigma = strategy_profile(ex.tree, policy(sol))
                g0 = -best_response(ex.tree, sigma, 1)[0]
                c1 = best_response(ex.tree, sigma, 0)[0]
                line += (
                    f"; best responses in the game tree: seat 0's strategy guarantees "
                    f"{g0:+.4f}, seat 1's concedes {c1:+.4f} (exploitability {(c1 - g0) / 2:.4f})"
                )
            print(line, flush=True)
    print(f"load average {[round(x, 2) for x in os.getloadavg()]}")


if __name__ == "__main__":
    main()
