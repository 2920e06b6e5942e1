"""A tighter certificate for the bound strategies: best responses by a *committed*, fully
informed opponent.

:mod:`.setup` certifies the strategy pair (set-up mix, then bound strategy, per seat) with
the bounds ``lower``/``upper``, which hold against an *adaptive* opponent — one that keeps
every unseen card in reserve and names its cover last. A real opponent has committed to a
cover at set-up. This module computes, exactly, what each bound strategy gets against the
best committed opponent that moreover **knows everything** (the bound strategy's cover and
hand, and the strategy itself):

* ``lower_committed`` = min over seat 1's set-ups of the expected value, over seat 0's
  set-up mix, of the fight where seat 0 plays its bound strategy and seat 1 — committed to
  its set-up, seeing seat 0's cards — best-responds. Every real seat-1 strategy (it picks
  a set-up without seeing seat 0's, then knows less) does at least as badly, so seat 0's
  strategy guarantees ``lower_committed`` in the real game (``>= lower``).
* ``upper_committed``: the same for seat 1's strategy (``<= upper``).

So NashConv / 2 of the strategy pair is at most ``(upper_committed - lower_committed) / 2``
— still a sound certificate, as exact as the fight values, and never looser. When a seat's
set-up mix is pure, a real best response knows that seat's cover from the strategy itself:
the informed opponent *is* the best response, and the bound is the exact value.

The bound strategy at a committed position is the one at its *twin*: the same position
with the opponent adaptive over its hand plus cover (which is what the strategy's owner
sees). It is the strategy the compiled solver computes and the ``equilibrium`` agent plays
(:func:`kumite.solve.matrix_jit.game_solution`; the first maximin card when revealing
first; the first best answer to a revealed card). Where that game's solution fails its
check (then the agent would use the LP), the twin's value — guaranteed by any optimal
strategy — is used instead, which keeps the bound sound.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence

import numba
import numpy as np

from kumite.games.sfrivals.cards import Character
from kumite.games.sfrivals.solver import certify_kernels, kernels
from kumite.games.sfrivals.solver.fight import (
    _COVER,
    _R,
    I64,
    FightSolver,
    Position,
    setup_hand,
)
from kumite.games.sfrivals.solver.setup import MatchupSolution, setup_cards
from kumite.solve.matrix import FloatArray

Progress = Callable[[str], None]


@dataclasses.dataclass(frozen=True, slots=True)
class Certificate:
    lower: float
    """Seat 0's strategy guarantees at least this in the real game (>= the adaptive bound)."""
    upper: float
    """Seat 1's strategy concedes at most this in the real game (<= the adaptive bound)."""
    seconds: float
    states: int
    uncertified: int
    """Positions where the strategy's value stood in for its best response (see module)."""
    exact: tuple[bool, bool]
    """Per bound: exact (not only a bound) — the seat's set-up mix is pure, so a real best
    response knows its cover from the strategy itself and is the informed one, and no
    position was uncertified."""

    @property
    def exploitability(self) -> float:
        """Certified upper bound on NashConv / 2 of the strategy pair (its exact value when
        both bounds are :attr:`exact`)."""
        return (self.upper - self.lower) / 2.0


def certify(sol: MatchupSolution, progress: Progress | None = None) -> Certificate:
    """The committed best responses to both bound strategies of ``sol`` (method
    ``adaptive``; a ``tight`` solution's bounds are already guarantees of its strategies)."""
    if sol.method != "adaptive":
        raise ValueError("certify() covers method adaptive's strategies")
    t0 = time.perf_counter()
    solver = sol.solver
    states = 0
    uncertified = 0
    values: list[float] = []
    exact: list[bool] = []
    for me in (0, 1):
        if progress:
            progress(f"seat {1 - me} committed and fully informed, against seat {me}'s strategy")
        mix = {c: p for c, p in sol.setup[me].items() if p > 0.0}
        mine = list(mix)
        theirs = list(solver.chars[1 - me].setup_choices)
        pairs = [(m, t) if me == 0 else (t, m) for m in mine for t in theirs]
        vals, n_states, n_unc = committed_values(solver, me, pairs)
        states += n_states
        uncertified += n_unc
        weights = np.array([mix[c] for c in mine])
        expected = weights @ vals.reshape(len(mine), len(theirs)) / weights.sum()
        values.append(float(expected.min() if me == 0 else expected.max()))
        exact.append(len(mine) == 1 and n_unc == 0)
    seconds = time.perf_counter() - t0
    return Certificate(values[0], values[1], seconds, states, uncertified, (exact[0], exact[1]))


def committed_values(
    solver: FightSolver, me: int, setups: Sequence[tuple[str, str]]
) -> tuple[FloatArray, int, int]:
    """Seat 0's value of the fight after each pair of set-ups when seat ``me`` plays its
    bound strategy and the other seat, committed to its set-up and knowing everything,
    best-responds; with the number of positions solved and of uncertified ones."""
    a, b = solver.chars
    life = solver.life_max
    opp = solver.chars[1 - me]
    keys = []
    twins = []
    for s0, s1 in setups:
        hands = (_hand(a, s0), _hand(b, s1))
        cover = opp.card(setup_cards(opp, (s0, s1)[1 - me])[0])
        keys.append(solver.key(Position(hands, (life, life))) | ((cover.index + 1) << _COVER))
        unseen = list(hands[1 - me])
        unseen[cover.index] += 1
        twin_hands = (hands[0], tuple(unseen)) if me == 0 else (tuple(unseen), hands[1])
        twins.append(Position(twin_hands, (life, life), adaptive=(me == 1, me == 0)))
    solver.values(twins)  # the bound strategy's positions (already solved by a matchup)
    return _best_response(solver, np.array(keys, dtype=np.int64), me)


def _hand(char: Character, choice: str) -> tuple[int, ...]:
    cover, shown = setup_cards(char, choice)
    return setup_hand(char, char.card(cover), char.card(shown))


def _best_response(solver: FightSolver, roots: I64, me: int) -> tuple[FloatArray, int, int]:
    """Values of the committed ``roots`` (all of one round) and the states solved."""
    r0 = int(roots[0] >> _R) & 15
    levels: dict[int, I64] = {}
    states = np.unique(roots)
    r = r0
    while len(states) and r <= solver.rounds:
        levels[r] = states
        # the kernel reads the rule tables of both the states and their twins: a solution
        # loaded from the cache has filled none of them
        solver._prepare(r, states)
        solver._prepare(r, certify_kernels.twin_keys(states, solver.tables, me))
        while True:
            kids, _, _, wanted = kernels.expand(states, solver.tables, numba.get_num_threads())
            if not wanted:
                break
            solver._fill_stuck(r + 1)
        states = np.sort(kids)
        r += 1
    empty = (np.zeros(0, dtype=np.int64), np.zeros(0))
    solved: dict[int, tuple[I64, np.ndarray]] = {}
    total = 0
    uncertified = 0
    for r in sorted(levels, reverse=True):
        keys = levels[r]
        nxt_keys, nxt_vals = solved.get(r + 1, empty)
        twin_next = solver.levels.get(r + 1, empty)
        twin = solver.levels[r]
        args = [
            keys,
            solver.tables,
            me,
            nxt_keys,
            nxt_vals,
            kernels.build_index(nxt_keys),
            twin_next[0],
            twin_next[1],
            kernels.build_index(twin_next[0]),
            twin[0],
            twin[1],
            kernels.build_index(twin[0]),
        ]
        vals, unc = certify_kernels.best_response(*args)
        solved[r] = (keys, vals)
        solved.pop(r + 2, None)
        total += len(keys)
        uncertified += int(unc)
    keys, vals = solved[r0]
    out: FloatArray = vals[np.searchsorted(keys, roots)]
    return out, total, uncertified
