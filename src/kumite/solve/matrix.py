"""Two-player zero-sum matrix games, solved exactly.

:func:`solve_matrix` finds the value and an optimal mixed strategy for each player of
``A`` (row player maximises ``x @ A @ y``). Small games take exact shortcuts first — a pure
saddle point, or the closed form of a 2x2 game — and everything else goes to the linear
program of von Neumann's minimax theorem, solved by SciPy's HiGHS.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import linprog

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
