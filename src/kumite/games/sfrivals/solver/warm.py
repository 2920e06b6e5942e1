"""Compile (``python -m kumite.games.sfrivals.solver.warm``) or load (:func:`load`) every
compiled kernel the solver bots call, by solving a tiny variant: three rounds of the mini
pack's two characters. The kernels' argument types do not depend on the pack, so what this
compiles is what the full game loads from Numba's cache."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time

from kumite.games.sfrivals.solver import background
from kumite.games.sfrivals.solver.fight import Position, setup_hand

log = logging.getLogger("kumite.solver")


def load() -> float:
    """Call every kernel a solver bot calls once; the seconds it took."""
    from kumite.games.sfrivals.solver.hidden import mini_pack
    from kumite.games.sfrivals.solver.setup import solve_matchup
    from kumite.games.sfrivals.solver.tight import opening_keys

    started = time.perf_counter()
    pack = mini_pack() + "\n[rules]\nhand = 3\n"
    sol = solve_matchup(("ryu-mini", "ken-mini"), {"pack": pack}, cache=False)
    side = sol.side(0)
    assert sol.plans is not None
    a, b = side.chars
    keys = opening_keys(side, sol.plans[0], a.cards[0].id, b.cards[0].id, range(len(a.cards)))
    side.node(keys[0])
    fight = sol.solver
    hands = (
        setup_hand(a, a.cards[0], a.cards[1]),
        setup_hand(b, b.cards[0], b.cards[1]),
    )
    life = fight.life_max
    fight.solve_node(Position(hands, (life, life)))
    return time.perf_counter() - started


def ensure_kernels() -> None:
    """Make sure the kernels are loaded in this process, in the calling thread (the
    background's): compile them in a subprocess first — a no-op when the machine's cache has
    them, minutes when it does not, holding no lock of this process — then load them here
    with :func:`load`, and mark them ready (:data:`.background.KERNELS`)."""
    kernels = background.KERNELS
    if kernels.ready.is_set():
        return
    started = time.monotonic()
    env = dict(os.environ)
    # this process's own import path, absolute: the subprocess compiles what it imports
    env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in sys.path if os.path.isdir(p))
    done = subprocess.run(
        [sys.executable, "-m", "kumite.games.sfrivals.solver.warm"],
        capture_output=True,
        text=True,
        env=env,
    )
    if done.returncode != 0:  # pragma: no cover - a broken install
        kernels.failed = done.stderr[-400:]
        log.error("the solver's kernels could not be compiled: %s", kernels.failed)
        return
    load()
    from kumite.games.sfrivals.solver.known import _shipped_text

    _shipped_text()  # read once, before a first move would
    kernels.ready.set()
    log.info("solver kernels loaded in %.1f s", time.monotonic() - started)


background.LOADER[:] = [ensure_kernels]


def main() -> None:
    print(f"solver kernels ready in {load():.1f} s")


if __name__ == "__main__":
    main()
