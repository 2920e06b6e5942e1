"""CFR iterations per second on Leduc poker, beside OpenSpiel's Python CFR when available.

    .venv/bin/python benchmarks/solve_leduc.py [--iterations 1000] [--openspiel-iterations 50]

Prints the rate of kumite's vectorised vanilla CFR (the algorithm of OpenSpiel's
``CFRSolver``) and of CFR+, the exploitability each reaches, and — if ``open_spiel`` is
importable — OpenSpiel's own Python CFR measured in the same run. Deterministic (no chance
sampling), so every run reproduces the same exploitability figures.
"""

from __future__ import annotations

import argparse
import time

from kumite.solve import CFRSolver, compile_game, exploitability
from kumite.solve.games import LeducPoker


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--openspiel-iterations", type=int, default=50)
    args = parser.parse_args()
    t0 = time.perf_counter()
    tree = compile_game(LeducPoker())
    print(f"kumite: compiled Leduc ({tree.num_nodes} nodes) in {time.perf_counter() - t0:.3f} s")
    for variant in ("cfr", "cfr+"):
        solver = CFRSolver(tree, variant)  # type: ignore[arg-type]
        t0 = time.perf_counter()
        solver.iterate(args.iterations)
        dt = time.perf_counter() - t0
        expl = exploitability(tree, solver.average())
        print(
            f"kumite {variant:4s}: {args.iterations / dt:8.1f} it/s "
            f"({args.iterations} iterations in {dt:.2f} s), exploitability {expl:.6f}"
        )
    try:
        import pyspiel
        from open_spiel.python.algorithms import cfr as os_cfr
        from open_spiel.python.algorithms import exploitability as os_expl
    except ImportError:
        print("open_spiel is not installed: `pip install open-spiel` to compare")
        return
    game = pyspiel.load_game("leduc_poker")
    solver_os = os_cfr.CFRSolver(game)
    n = args.openspiel_iterations
    t0 = time.perf_counter()
    for _ in range(n):
        solver_os.evaluate_and_update_policy()
    dt = time.perf_counter() - t0
    expl = os_expl.exploitability(game, solver_os.average_policy())
    print(
        f"OpenSpiel cfr (Python): {n / dt:8.1f} it/s ({n} iterations in {dt:.2f} s), "
        f"exploitability {expl:.6f}"
    )


if __name__ == "__main__":
    main()
