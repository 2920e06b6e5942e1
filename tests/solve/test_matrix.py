"""Zero-sum matrix games: exact values and strategies of games with known solutions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kumite.solve.matrix import (
    exploitability_matrix,
    pure_saddle,
    solve_lp,
    solve_matrix,
    solve_matrix_batch,
)

RPS = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]


def test_rock_paper_scissors_value_zero_uniform() -> None:
    sol = solve_matrix(RPS)
    assert sol.value == pytest.approx(0.0, abs=1e-12)
    assert sol.row == pytest.approx([1 / 3] * 3, abs=1e-9)
    assert sol.col == pytest.approx([1 / 3] * 3, abs=1e-9)


def test_matching_pennies_value_zero_half_half() -> None:
    sol = solve_matrix([[1, -1], [-1, 1]])
    assert sol.value == 0.0
    assert list(sol.row) == [0.5, 0.5]
    assert list(sol.col) == [0.5, 0.5]


def test_biased_matching_pennies_closed_form() -> None:
    """[[2,-1],[-1,1]]: row plays heads 2/5, column 2/5, value 1/5."""
    sol = solve_matrix([[2, -1], [-1, 1]])
    assert sol.value == pytest.approx(1 / 5)
    assert sol.row == pytest.approx([0.4, 0.6])
    assert sol.col == pytest.approx([0.4, 0.6])


def test_weighted_rps_by_lp() -> None:
    """RPS where rock beats scissors for 2: value 0, strategy (1/4, 1/2, 1/4)... by symmetry
    the game is skew-symmetric, so the value is 0 and the LP must find the unique optimum."""
    a = [[0, -1, 2], [1, 0, -1], [-2, 1, 0]]
    sol = solve_matrix(a)
    assert sol.value == pytest.approx(0.0, abs=1e-9)
    assert sol.row == pytest.approx([0.25, 0.5, 0.25], abs=1e-7)
    assert exploitability_matrix(a, sol.row, sol.col) == pytest.approx(0.0, abs=1e-9)


def test_saddle_point_is_pure() -> None:
    a = [[3, 1, 4], [2, 0, 1], [5, 2, 6]]
    assert pure_saddle(np.array(a, dtype=float)) == (2, 1)
    sol = solve_matrix(a)
    assert sol.value == 2.0
    assert list(sol.row) == [0, 0, 1]


def test_rejects_empty_matrix() -> None:
    with pytest.raises(ValueError):
        solve_matrix(np.zeros((0, 3)))


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 5).flatmap(
        lambda m: st.integers(1, 5).flatmap(
            lambda n: st.lists(
                st.lists(st.integers(-3, 3), min_size=n, max_size=n), min_size=m, max_size=m
            )
        )
    )
)
def test_solution_is_an_equilibrium(a: list[list[int]]) -> None:
    """Property: the shortcuts and the LP agree, and neither player can gain by deviating."""
    sol = solve_matrix(a)
    lp = solve_lp(np.array(a, dtype=float))
    assert sol.value == pytest.approx(lp.value, abs=1e-7)
    assert exploitability_matrix(a, sol.row, sol.col) == pytest.approx(0.0, abs=1e-7)
    assert sol.row.sum() == pytest.approx(1.0)
    assert sol.col.sum() == pytest.approx(1.0)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 40),
    st.integers(1, 7),
    st.sampled_from([(-1, 0, 1), (-2, -1, 0, 1, 2)]),
)
def test_batch_solver_matches_lp(seed: int, n: int, width: int, vals: tuple[int, ...]) -> None:
    """Property: the batched solver (saddle, dominance, 2xn, kernels) gives the LP value of
    every game, whatever its live rows and columns."""
    rng = np.random.default_rng(seed)
    m = rng.choice(np.array(vals, dtype=float), size=(n, width, width)) / 2
    rows = rng.random((n, width)) < 0.7
    cols = rng.random((n, width)) < 0.7
    rows[:, 0] = True
    cols[:, 0] = True
    got = solve_matrix_batch(m, rows, cols)
    for k in range(n):
        want = solve_lp(m[k][np.ix_(rows[k], cols[k])]).value
        assert got[k] == pytest.approx(want, abs=1e-9)


def test_batch_solver_refuses_empty_games() -> None:
    with pytest.raises(ValueError):
        solve_matrix_batch(np.zeros((1, 2, 2)), np.zeros((1, 2), bool), np.ones((1, 2), bool))
