"""Two-player zero-sum matrix games, solved exactly.

:func:`solve_matrix` finds the value and an optimal mixed strategy for each player of
``A`` (row player maximises ``x @ A @ y``). Small games take exact shortcuts first — a pure
saddle point, or the closed form of a 2x2 game — and everything else goes to the linear
program of von Neumann's minimax theorem, solved by SciPy's HiGHS.
"""

from __future__ import annotations

import itertools
import math
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]


class MatrixSolution(NamedTuple):
    value: float
    row: FloatArray
    """The row player's optimal mixed strategy."""
    col: FloatArray
    """The column player's optimal mixed strategy."""


def pure_saddle(a: FloatArray) -> tuple[int, int] | None:
    """A pure saddle point ``(i, j)`` of ``a`` (row maximin equals column minimax), if any."""
    row_min = a.min(axis=1)
    col_max = a.max(axis=0)
    i = int(row_min.argmax())
    j = int(col_max.argmin())
    if row_min[i] == col_max[j]:
        return i, j
    return None


def solve_matrix(matrix: ArrayLike) -> MatrixSolution:
    """Value and optimal strategies of the zero-sum game ``matrix`` (row maximises)."""
    a = np.asarray(matrix, dtype=np.float64)
    if a.ndim != 2 or a.shape[0] == 0 or a.shape[1] == 0:
        raise ValueError(f"a matrix game needs a non-empty 2-D payoff matrix, got {a.shape}")
    m, n = a.shape
    saddle = pure_saddle(a)
    if saddle is not None:
        i, j = saddle
        return MatrixSolution(float(a[i, j]), _unit(m, i), _unit(n, j))
    if m == 2 and n == 2:
        return _solve_2x2(a)
    return solve_lp(a)


def solve_lp(a: FloatArray) -> MatrixSolution:
    """The minimax linear program for both players (HiGHS dual simplex)."""
    x, v = _maximin(a)
    y, _ = _maximin(-a.T)
    return MatrixSolution(v, x, y)


def _maximin(a: FloatArray) -> tuple[FloatArray, float]:
    """max_x min_j (x @ a)[j] over the simplex: variables (x, v), minimise -v."""
    m, n = a.shape
    shift = float(a.min()) - 1.0  # make every payoff positive so v > 0 (better conditioned)
    b = a - shift
    c = np.zeros(m + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-b.T, np.ones((n, 1))])  # v - x @ b[:, j] <= 0
    a_eq = np.zeros((1, m + 1))
    a_eq[0, :m] = 1.0
    bounds = [(0.0, None)] * m + [(None, None)]
    # imported here: scipy.optimize takes ~0.25 s to import, and most users of kumite.solve
    # (the batched simulator, the vector env) never solve a matrix game by LP
    from scipy.optimize import linprog

    res = linprog(
        c,
        A_ub=a_ub,
        b_ub=np.zeros(n),
        A_eq=a_eq,
        b_eq=np.ones(1),
        bounds=bounds,
        method="highs",
    )
    if res.status != 0:  # pragma: no cover - a bounded feasible LP always solves
        raise RuntimeError(f"matrix game LP failed: {res.message}")
    x = np.clip(np.asarray(res.x[:m], dtype=np.float64), 0.0, None)
    x /= x.sum()
    return x, float(res.x[-1]) + shift


def _solve_2x2(a: FloatArray) -> MatrixSolution:
    """Closed form of a 2x2 game without a saddle point (both players mix)."""
    (p, q), (r, s) = a
    den = p - q - r + s
    x0 = (s - r) / den
    y0 = (s - q) / den
    value = (p * s - q * r) / den
    return MatrixSolution(
        float(value),
        np.array([x0, 1.0 - x0]),
        np.array([y0, 1.0 - y0]),
    )


def _unit(n: int, i: int) -> FloatArray:
    out = np.zeros(n)
    out[i] = 1.0
    return out


def exploitability_matrix(matrix: ArrayLike, row: ArrayLike, col: ArrayLike) -> float:
    """NashConv / 2 of the profile ``(row, col)``: the mean gain of a best response."""
    a = np.asarray(matrix, dtype=np.float64)
    x = np.asarray(row, dtype=np.float64)
    y = np.asarray(col, dtype=np.float64)
    best_row = float((a @ y).max())
    best_col = float((x @ a).min())
    return (best_row - best_col) / 2.0


def solve_matrix_batch(
    matrices: FloatArray, row_mask: NDArray[np.bool_], col_mask: NDArray[np.bool_]
) -> FloatArray:
    """Values of many small zero-sum games at once.

    ``matrices[n]`` is game ``n`` padded to a common shape; ``row_mask``/``col_mask`` mark
    its real rows and columns. Exact shortcuts are vectorised — pure saddle points,
    iterated elimination of weakly dominated strategies (which keeps the value), and the
    closed form of games left with two rows or two columns (the maximum of the lower
    envelope of the column lines) — and only what remains goes to the LP one by one.
    """
    m = np.asarray(matrices, dtype=np.float64)
    rows = np.asarray(row_mask, dtype=bool).copy()
    cols = np.asarray(col_mask, dtype=bool).copy()
    n = len(m)
    values = np.full(n, np.nan)
    if n == 0:
        return values
    if not (rows.any(axis=1).all() and cols.any(axis=1).all()):
        raise ValueError("every game needs at least one row and one column")
    lo, hi = _saddle_values(m, rows, cols)
    done = lo == hi
    values[done] = lo[done]
    todo = np.flatnonzero(~done)
    # games with two rows or two columns have a closed form: no need to reduce them
    active = todo[(rows[todo].sum(axis=1) > 2) & (cols[todo].sum(axis=1) > 2)]
    while len(active):
        # drop weakly dominated rows and columns of the games that changed, then look for
        # a saddle point again; repeat until nothing changes
        r2, c2 = _drop_dominated(m[active], rows[active], cols[active])
        changed = (r2 != rows[active]).any(axis=1) | (c2 != cols[active]).any(axis=1)
        rows[active], cols[active] = r2, c2
        active = active[changed]
        if len(active):
            lo, hi = _saddle_values(m[active], rows[active], cols[active])
            done = lo == hi
            values[active[done]] = lo[done]
            active = active[~done]
    todo = todo[np.isnan(values[todo])]
    if len(todo) == 0:
        return values
    nr = rows[todo].sum(axis=1)
    nc = cols[todo].sum(axis=1)
    two_rows = todo[nr == 2]
    if len(two_rows):
        values[two_rows] = _two_row_values(m[two_rows], rows[two_rows], cols[two_rows])
    two_cols = todo[(nc == 2) & (nr != 2)]
    if len(two_cols):
        flipped = -np.swapaxes(m[two_cols], 1, 2)
        values[two_cols] = -_two_row_values(flipped, cols[two_cols], rows[two_cols])
    rest = todo[(nr != 2) & (nc != 2)]
    shapes = np.stack([nr[(nr != 2) & (nc != 2)], nc[(nr != 2) & (nc != 2)]], axis=1)
    for shape in np.unique(shapes, axis=0):
        group = rest[(shapes == shape).all(axis=1)]
        r_idx = np.argsort(~rows[group], axis=1, kind="stable")[:, : shape[0]]
        c_idx = np.argsort(~cols[group], axis=1, kind="stable")[:, : shape[1]]
        sub = m[group[:, None, None], r_idx[:, :, None], c_idx[:, None, :]]
        # kernels cost one vectorised step per candidate submatrix, the LP ~ms per game
        candidates = math.comb(int(shape[0] + shape[1]), int(shape[0])) - 1
        if max(shape) <= _KERNEL_MAX and candidates <= 8 * len(group):
            values[group] = _kernel_values(sub)
        else:
            values[group] = [_maximin(a)[1] for a in sub]
    return values


_KERNEL_MAX = 6
_EPS = 1e-9


def _kernel_values(a: FloatArray) -> FloatArray:
    """Values of same-shape games by the Shapley–Snow theorem: some square nonsingular
    submatrix B (a kernel) gives optimal strategies, solving ``B y = v 1, sum(y) = 1`` and
    ``B' x = v 1, sum(x) = 1``. Candidates are tried smallest first and checked against the
    whole game; a game no candidate certifies (numerically) goes to the LP."""
    n, m_rows, n_cols = a.shape
    values = np.full(n, np.nan)
    todo = np.arange(n)
    for k in range(1, min(m_rows, n_cols) + 1):
        for rs in itertools.combinations(range(m_rows), k):
            for cs in itertools.combinations(range(n_cols), k):
                if len(todo) == 0:
                    return values
                sub = a[todo][:, rs][:, :, cs]
                x, y, v, ok = _kernel(sub)
                full_x = np.zeros((len(todo), m_rows))
                full_x[:, rs] = x
                full_y = np.zeros((len(todo), n_cols))
                full_y[:, cs] = y
                at = a[todo]
                col_pay = np.einsum("ni,nij->nj", full_x, at)
                row_pay = np.einsum("nij,nj->ni", at, full_y)
                ok &= (x >= -_EPS).all(axis=1) & (y >= -_EPS).all(axis=1)
                ok &= (col_pay >= v[:, None] - 1e-7).all(axis=1)
                ok &= (row_pay <= v[:, None] + 1e-7).all(axis=1)
                values[todo[ok]] = v[ok]
                todo = todo[~ok]
    for g in todo:
        values[g] = _maximin(a[g])[1]
    return values


def _kernel(b: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, NDArray[np.bool_]]:
    n, k, _ = b.shape
    aug = np.zeros((n, k + 1, k + 1))
    aug[:, :k, :k] = b
    aug[:, :k, k] = -1.0
    aug[:, k, :k] = 1.0
    aug_t = aug.copy()
    aug_t[:, :k, :k] = np.swapaxes(b, 1, 2)
    rhs = np.zeros((n, k + 1, 1))
    rhs[:, k, 0] = 1.0
    ok = (np.abs(np.linalg.det(aug)) > 1e-10) & (np.abs(np.linalg.det(aug_t)) > 1e-10)
    eye = np.eye(k + 1)
    aug[~ok] = eye
    aug_t[~ok] = eye
    y = np.linalg.solve(aug, rhs)[:, :, 0]
    x = np.linalg.solve(aug_t, rhs)[:, :, 0]
    return x[:, :k], y[:, :k], y[:, k], ok


def _saddle_values(
    m: FloatArray, rows: NDArray[np.bool_], cols: NDArray[np.bool_]
) -> tuple[FloatArray, FloatArray]:
    """(maximin, minimax) of each game in pure strategies."""
    row_min = np.where(cols[:, None, :], m, np.inf).min(axis=2)
    maximin = np.where(rows, row_min, -np.inf).max(axis=1)
    col_max = np.where(rows[:, :, None], m, -np.inf).max(axis=1)
    minimax = np.where(cols, col_max, np.inf).min(axis=1)
    return maximin, minimax


def _drop_dominated(
    m: FloatArray, rows: NDArray[np.bool_], cols: NDArray[np.bool_]
) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """One round of removing weakly dominated rows, then columns (ties: keep the first)."""
    rows = _dominated_rows(m, rows, cols)
    cols = _dominated_rows(-np.swapaxes(m, 1, 2), cols, rows)
    return rows, cols


def _dominated_rows(
    m: FloatArray, rows: NDArray[np.bool_], cols: NDArray[np.bool_]
) -> NDArray[np.bool_]:
    """Rows left after removing every row weakly dominated by another live row (of two
    equal rows, the later one goes)."""
    dead = np.zeros_like(rows)
    live_cols = cols[:, None, :]
    idx = np.arange(m.shape[1])
    for k in range(m.shape[1]):
        mk = m[:, k : k + 1, :]
        ge = ((mk >= m) | ~live_cols).all(axis=2)
        gt = ((mk > m) & live_cols).any(axis=2)
        beats = ge & (gt | (k < idx)[None, :]) & rows[:, k : k + 1]
        beats[:, k] = False
        dead |= beats
    return rows & ~dead


def _two_row_values(m: FloatArray, rows: NDArray[np.bool_], cols: NDArray[np.bool_]) -> FloatArray:
    """max over p of min over live columns j of p*a_j + (1-p)*b_j, for the two live rows."""
    n, _, width = m.shape
    order = np.argsort(~rows, axis=1, kind="stable")[:, :2]
    idx = np.arange(n)
    a = m[idx, order[:, 0]]
    b = m[idx, order[:, 1]]
    slope = a - b
    # candidate p: 0, 1, and every crossing of two column lines
    j, k = np.triu_indices(width, 1)
    den = slope[:, j] - slope[:, k]
    with np.errstate(divide="ignore", invalid="ignore"):
        cross = (b[:, k] - b[:, j]) / den
    ok = cols[:, j] & cols[:, k] & (den != 0) & (cross >= 0) & (cross <= 1)
    cand = np.concatenate([np.zeros((n, 1)), np.ones((n, 1)), np.where(ok, cross, 0.0)], axis=1)
    lines = cand[:, :, None] * slope[:, None, :] + b[:, None, :]
    env = np.where(cols[:, None, :], lines, np.inf).min(axis=2)
    out: FloatArray = env.max(axis=1)
    return out
