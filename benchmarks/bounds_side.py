"""Method tight's bound solver: one side of a matchup on a pack with fewer cards in hand.

    NUMBA_NUM_THREADS=1 .venv/bin/python benchmarks/bounds_side.py [--pair ryu,zangief]
        [--hand 5] [--dump FILE] [--compare FILE]

Solves seat 0's bound (:func:`kumite.games.sfrivals.solver.bounds.side_bound`: every set-up's
guarantee, secret set-ups included, against every class of the opponent's cover) of ``--pair``
with ``--hand`` cards in hand (the full pack's characters and rules otherwise), after warming
the kernels up on a toy problem, and prints wall and CPU seconds and the states solved. A
speed-up is measured by running this on both versions in one session, one after the other;
``--dump`` writes the side's set-ups, matrix, mix and every state's value, and ``--compare``
checks the run's against such a file, so that a faster solver is also shown to give the same
floats. CPU time is the better guide on a loaded machine; one thread keeps it comparable.
"""

from __future__ import annotations

import argparse
import os
import pickle
import time
from pathlib import Path
from typing import Any

import numpy as np

from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver.bounds import side_bound
from kumite.games.sfrivals.solver.fight import FightSolver


def _fight(pair: list[str], rules: str) -> FightSolver:
    pack = f'[pack]\nid = "bench"\ngame = "sfrivals"\n[rules]\n{rules}'
    opts = GAME.parse_options({"pack": pack, "characters": pair})
    cat = GAME.catalog(opts)
    return FightSolver(cat, opts, (cat.characters[pair[0]], cat.characters[pair[1]]))


def solve(pair: list[str], hand: int) -> tuple[dict[str, Any], float, float]:
    side_bound(_fight(pair, "hand = 2\nlife = 3\n"))  # compile or load the kernels
    fight = _fight(pair, f"hand = {hand}\n")
    t, c = time.perf_counter(), time.process_time()
    side = side_bound(fight)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    solver = side.solver
    found = {
        "setups": [s.name for s in side.setups],
        "matrix": side.matrix,
        "mix": side.mix,
        "value": side.value,
        "states": solver.states_solved,
        "levels": {r: (k.copy(), v.copy()) for r, (k, v) in solver.levels.items()},
    }
    return found, wall, cpu


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """What differs between two runs' results (empty: the same floats, state by state)."""
    out = [k for k in ("setups", "value", "states") if a[k] != b[k]]
    out += [k for k in ("matrix", "mix") if not np.array_equal(a[k], b[k], equal_nan=True)]
    if a["levels"].keys() != b["levels"].keys():
        return [*out, "rounds"]
    for r, (keys, vals) in a["levels"].items():
        other_keys, other_vals = b["levels"][r]
        if not np.array_equal(keys, other_keys):
            out.append(f"round {r}: states")
        elif not np.array_equal(vals, other_vals, equal_nan=True):
            out.append(f"round {r}: values")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", default="ryu,zangief")
    parser.add_argument("--hand", type=int, default=5)
    parser.add_argument("--dump", type=Path)
    parser.add_argument("--compare", type=Path)
    args = parser.parse_args()
    before = os.getloadavg()[0]
    found, wall, cpu = solve(args.pair.split(","), args.hand)
    print(
        f"{args.pair}, hand {args.hand}: {found['states']:,} states, wall {wall:.1f} s, "
        f"CPU {cpu:.1f} s, seat 0's bound {found['value']:+.6f} "
        f"(load {before:.1f} -> {os.getloadavg()[0]:.1f})"
    )
    if args.dump:
        args.dump.write_bytes(pickle.dumps(found))
    if args.compare:
        diff = differences(pickle.loads(args.compare.read_bytes()), found)
        states = sum(len(k) for k, _ in found["levels"].values())
        print(f"same floats, {states:,} states compared" if not diff else f"differs: {diff}")


if __name__ == "__main__":
    main()
