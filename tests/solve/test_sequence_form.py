"""The sequence-form LP: exact values and equilibria of games with known solutions."""

from __future__ import annotations

import numpy as np
import pytest

from kumite.solve import CFRSolver, compile_game, exploitability
from kumite.solve.games import MATCHING_PENNIES, ROCK_PAPER_SCISSORS, KuhnPoker, LeducPoker
from kumite.solve.sequence_form import behaviour, realization_plan, sequence_form, solve_lp


def test_kuhn_value_is_exactly_minus_one_eighteenth() -> None:
    tree = compile_game(KuhnPoker())
    sol = solve_lp(tree)
    assert sol.value == pytest.approx(-1 / 18, abs=1e-9)
    assert exploitability(tree, sol.sigma) == pytest.approx(0.0, abs=1e-9)


def test_leduc_value_is_openspiels() -> None:
    """OpenSpiel's Leduc poker: the game value for player 0 is -0.085606."""
    tree = compile_game(LeducPoker())
    sol = solve_lp(tree)
    assert sol.value == pytest.approx(-0.0856064, abs=1e-6)
    assert exploitability(tree, sol.sigma) < 1e-8


@pytest.mark.parametrize(("game", "value"), [(ROCK_PAPER_SCISSORS, 0.0), (MATCHING_PENNIES, 0.0)])
def test_matrix_games(game: object, value: float) -> None:
    tree = compile_game(game)  # type: ignore[arg-type]
    sol = solve_lp(tree)
    assert sol.value == pytest.approx(value, abs=1e-9)
    assert exploitability(tree, sol.sigma) < 1e-9


def test_realization_plan_and_behaviour_round_trip() -> None:
    """A behaviour profile's realization plan satisfies the flow constraints, and turns back
    into the same profile (where the plan reaches)."""
    tree = compile_game(KuhnPoker())
    form = sequence_form(tree)
    solver = CFRSolver(tree)
    solver.iterate(50)
    sigma = solver.average()
    for p in (0, 1):
        plan = realization_plan(tree, form, sigma, p)
        flows = form.constraints(tree, p) @ plan
        assert flows[0] == pytest.approx(1.0)
        np.testing.assert_allclose(flows[1:], 0.0, atol=1e-12)
        mine = form.ia_of_seq[p]
        np.testing.assert_allclose(behaviour(tree, form, plan, p)[mine], sigma[mine], atol=1e-12)


def test_payoff_matrix_gives_the_expected_value() -> None:
    """x @ A @ y is the expected utility of the profile."""
    from kumite.solve import expected_value

    tree = compile_game(LeducPoker())
    form = sequence_form(tree)
    sigma = tree.uniform()
    x, y = (realization_plan(tree, form, sigma, p) for p in (0, 1))
    assert x @ (form.payoff @ y) == pytest.approx(expected_value(tree, sigma), abs=1e-12)
