"""Compile (``python -m kumite.games.sfrivals.solver.warm``) or load (:func:`load`) every
compiled kernel the solver bots call, by solving a tiny variant: three rounds of the mini
pack's two characters. The kernels' argument types do not depend on the pack, so what this
compiles is what the full game loads from Numba's cache."""

from __future__ import annotations

import time

from kumite.games.sfrivals.solver.fight import Position, setup_hand


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


def main() -> None:
    print(f"solver kernels ready in {load():.1f} s")


if __name__ == "__main__":
    main()
