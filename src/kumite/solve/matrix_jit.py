"""Compiled (Numba) zero-sum matrix games, for solvers that meet millions of small ones.

:func:`game_value` (and :func:`game_solution`, with strategies): a pure saddle point, else
iterated elimination of weakly dominated rows and columns (which keeps the value), then a
small dense simplex (Bland's rule, so no cycling) on what is left. The simplex's strategies
are checked against every row and column of the *whole* game (to 1e-7); a game that fails
the check gets NaN (None), for the caller to hand to the LP of :mod:`kumite.solve.matrix`.
The ``_``-prefixed functions are the compiled building blocks other kernels call (with
scratch arrays from :func:`_workspace`, allocated once per batch). Compiled once and cached
on disk (``cache=True``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

F = TypeVar("F", bound=Callable[..., Any])
Array = Any

_TOL = 1e-7
_MAX_PIVOTS = 200
"""Simplex pivots per game before leaving it to the LP (Bland's rule never cycles)."""
_PIVOT_EPS = 1e-12


def jit(func: F) -> F:
    """``numba.njit(cache=True)``, keeping the Python signature for the type checker."""
    return cast(F, njit(cache=True)(func))


def jit_parallel(func: F) -> F:
    """:func:`jit` with ``parallel=True``: ``numba.prange`` loops run on Numba's threads."""
    return cast(F, njit(cache=True, parallel=True)(func))


@jit
def _maximin_pure(a: Array) -> float:
    best = -np.inf
    for i in range(a.shape[0]):
        worst = np.inf
        for j in range(a.shape[1]):
            worst = min(worst, a[i, j])
        best = max(best, worst)
    return best


@jit
def _minimax_pure(a: Array) -> float:
    best = np.inf
    for j in range(a.shape[1]):
        top = -np.inf
        for i in range(a.shape[0]):
            top = max(top, a[i, j])
        best = min(best, top)
    return best


@jit
def _first_maximin_row(a: Array) -> int:
    best = -np.inf
    arg = 0
    for i in range(a.shape[0]):
        worst = np.inf
        for j in range(a.shape[1]):
            worst = min(worst, a[i, j])
        if worst > best:
            best = worst
            arg = i
    return arg


@jit
def _first_minimax_col(a: Array) -> int:
    best = np.inf
    arg = 0
    for j in range(a.shape[1]):
        top = -np.inf
        for i in range(a.shape[0]):
            top = max(top, a[i, j])
        if top < best:
            best = top
            arg = j
    return arg


def game_value(a: Array) -> float:
    """Value of the zero-sum game ``a`` (row maximises): pure saddle point, iterated weak
    dominance, then the simplex (:func:`_simplex_value`); NaN if its check fails."""
    nr, nc = a.shape
    buf = np.zeros((nr + 1, nc + 1))
    buf[:nr, :nc] = a
    view = buf[:nr, :nc]  # the strided layout the solver passes: one compiled version
    return float(_game_value(view, *_workspace(nr, nc)))


@jit
def _workspace(nr: int, nc: int) -> tuple[Array, Array, Array, Array, Array, Array, Array, Array]:
    """Scratch arrays for :func:`_game_value` (allocated once per batch of games)."""
    return (
        np.empty(nr, dtype=np.bool_),
        np.empty(nc, dtype=np.bool_),
        np.empty(nr, dtype=np.int64),
        np.empty(nc, dtype=np.int64),
        np.empty((nr + 1, nc + nr + 1)),
        np.empty(nr, dtype=np.int64),
        np.empty(nr),
        np.empty(nc),
    )


@jit
def _game_value(
    a: Array,
    row_ok: Array,
    col_ok: Array,
    rs: Array,
    cs: Array,
    tab: Array,
    basis: Array,
    x: Array,
    y: Array,
) -> float:
    nr, nc = a.shape
    lo = _maximin_pure(a)
    if lo == _minimax_pure(a):
        return lo
    row_ok[:nr] = True
    col_ok[:nc] = True
    changed = True
    while changed:
        changed = _drop_dominated(a, row_ok, col_ok, True)
        changed = _drop_dominated(a, col_ok, row_ok, False) or changed
    nr2 = 0
    for i in range(nr):
        if row_ok[i]:
            rs[nr2] = i
            nr2 += 1
    nc2 = 0
    for j in range(nc):
        if col_ok[j]:
            cs[nc2] = j
            nc2 += 1
    lo = -np.inf
    for p in range(nr2):
        worst = np.inf
        for q in range(nc2):
            worst = min(worst, a[rs[p], cs[q]])
        lo = max(lo, worst)
    hi = np.inf
    for q in range(nc2):
        top = -np.inf
        for p in range(nr2):
            top = max(top, a[rs[p], cs[q]])
        hi = min(hi, top)
    if lo == hi:
        return lo
    return _simplex_value(a, rs, nr2, cs, nc2, tab, basis, x, y)


@jit
def _drop_dominated(a: Array, live: Array, other: Array, rows: bool) -> bool:
    """Remove the rows (``rows``) or columns weakly dominated by another live one (of two
    equal ones, the later goes); removal keeps the value. Rows maximise, columns minimise."""
    changed = False
    n = a.shape[0] if rows else a.shape[1]
    m = a.shape[1] if rows else a.shape[0]
    for k in range(n):
        if not live[k]:
            continue
        for d in range(n):
            if d == k or not live[d]:
                continue
            ge = True
            gt = False
            for j in range(m):
                if other[j]:
                    # how much better d is than k for its owner
                    diff = a[d, j] - a[k, j] if rows else a[j, k] - a[j, d]
                    if diff < 0:
                        ge = False
                        break
                    if diff > 0:
                        gt = True
            if ge and (gt or d < k):
                live[k] = False
                changed = True
                break
    return changed


@jit
def _simplex_value(
    a: Array, rs: Array, nr: int, cs: Array, nc: int, tab: Array, basis: Array, x: Array, y: Array
) -> float:
    """The minimax LP of the reduced game ``B`` (rows ``rs[:nr]``, columns ``cs[:nc]`` of
    ``a``), by a dense tableau simplex with Bland's rule (no cycling): with ``B' = B - s > 0``,
    maximise ``1'w`` subject to ``B'w <= 1, w >= 0`` (the slack basis is feasible, so there
    is no phase one); then ``v = 1 / 1'w + s``, ``y = w / 1'w`` and ``x`` from the duals.
    The strategies are then checked against every row and column of the whole game ``a``
    (to 1e-7); NaN if the check fails."""
    shift = np.inf
    for p in range(nr):
        for q in range(nc):
            shift = min(shift, a[rs[p], cs[q]])
    shift -= 1.0
    width = nc + nr + 1
    rhs = nc + nr
    for p in range(nr + 1):
        for q in range(width):
            tab[p, q] = 0.0
    for p in range(nr):
        for q in range(nc):
            tab[p, q] = a[rs[p], cs[q]] - shift
        tab[p, nc + p] = 1.0
        tab[p, rhs] = 1.0
        basis[p] = nc + p
    for q in range(nc):
        tab[nr, q] = -1.0
    for _ in range(_MAX_PIVOTS):
        enter = -1
        for q in range(rhs):
            if tab[nr, q] < -_PIVOT_EPS:
                enter = q
                break
        if enter < 0:
            break
        leave = -1
        best = np.inf
        for p in range(nr):
            if tab[p, enter] > _PIVOT_EPS:
                ratio = tab[p, rhs] / tab[p, enter]
                if ratio < best - 1e-12 or (
                    abs(ratio - best) <= 1e-12 and leave >= 0 and basis[p] < basis[leave]
                ):
                    best = ratio
                    leave = p
        if leave < 0:  # pragma: no cover - bounded: B' > 0 and w >= 0
            return np.nan
        piv = tab[leave, enter]
        for q in range(width):
            tab[leave, q] /= piv
        for p in range(nr + 1):
            if p != leave:
                f = tab[p, enter]
                if f != 0.0:
                    for q in range(width):
                        tab[p, q] -= f * tab[leave, q]
        basis[leave] = enter
    else:
        return np.nan
    total = tab[nr, rhs]
    if total <= 0.0:  # pragma: no cover - some w > 0 always improves on w = 0
        return np.nan
    v = 1.0 / total + shift
    for q in range(nc):
        y[q] = 0.0
    for p in range(nr):
        if basis[p] < nc:
            y[basis[p]] = tab[p, rhs] / total
    dual = 0.0
    for p in range(nr):
        x[p] = max(tab[nr, nc + p], 0.0)
        dual += x[p]
    if dual <= 0.0:  # pragma: no cover
        return np.nan
    for p in range(nr):
        x[p] /= dual
    # certify against the whole game
    for j in range(a.shape[1]):
        pay = 0.0
        for p in range(nr):
            pay += x[p] * a[rs[p], j]
        if pay < v - _TOL:
            return np.nan
    for i in range(a.shape[0]):
        pay = 0.0
        for q in range(nc):
            pay += a[i, cs[q]] * y[q]
        if pay > v + _TOL:
            return np.nan
    return float(v)


@jit
def _game_strategy(
    a: Array,
    row_ok: Array,
    col_ok: Array,
    rs: Array,
    cs: Array,
    tab: Array,
    basis: Array,
    x: Array,
    y: Array,
    row: Array,
    col: Array,
) -> float:
    """:func:`_game_value` with optimal strategies written to ``row`` and ``col`` (over the
    rows and columns of ``a``): at a pure saddle point the first maximin row and the first
    minimax column, else those of the reduced game's saddle point or simplex. NaN (and
    strategies undefined) if the simplex's check fails."""
    nr, nc = a.shape
    row[:nr] = 0.0
    col[:nc] = 0.0
    v = _game_value(a, row_ok, col_ok, rs, cs, tab, basis, x, y)
    if np.isnan(v):
        return v
    # which path gave v: a saddle of the whole game, of the reduced game, or the simplex
    lo = _maximin_pure(a)
    if lo == _minimax_pure(a):
        row[_first_maximin_row(a)] = 1.0
        col[_first_minimax_col(a)] = 1.0
        return v
    nr2 = 0
    for i in range(nr):
        if row_ok[i]:
            nr2 += 1
    nc2 = 0
    for j in range(nc):
        if col_ok[j]:
            nc2 += 1
    sub = np.empty((nr2, nc2))
    for p in range(nr2):
        for q in range(nc2):
            sub[p, q] = a[rs[p], cs[q]]
    if _maximin_pure(sub) == _minimax_pure(sub):
        row[rs[_first_maximin_row(sub)]] = 1.0
        col[cs[_first_minimax_col(sub)]] = 1.0
        return v
    for p in range(nr2):
        row[rs[p]] = x[p]
    for q in range(nc2):
        col[cs[q]] = y[q]
    return v


def game_solution(a: Array) -> tuple[float, Array, Array] | None:
    """Value and optimal strategies of the zero-sum game ``a`` as the solver's compiled
    code computes them (what the ``equilibrium`` agent plays and :mod:`.certify`
    assumes), or None if the simplex's check fails."""
    nr, nc = a.shape
    buf = np.zeros((nr + 1, nc + 1))
    buf[:nr, :nc] = a
    row = np.zeros(nr)
    col = np.zeros(nc)
    v = float(_game_strategy(buf[:nr, :nc], *_workspace(nr, nc), row, col))
    if np.isnan(v):
        return None
    return v, row, col
