"""CFR, best response and exploitability on games with known solutions."""

from __future__ import annotations

import numpy as np
import pytest

from kumite.solve import CFRSolver, best_response, compile_game, expected_value, exploitability
from kumite.solve.games import MATCHING_PENNIES, ROCK_PAPER_SCISSORS, KuhnPoker, LeducPoker


def test_kuhn_tree_shape() -> None:
    tree = compile_game(KuhnPoker())
    assert tree.num_infosets == 12  # 3 cards x 4 betting positions
    assert tree.num_nodes == 58


def test_kuhn_uniform_exploitability_is_known() -> None:
    """The uniform profile's exploitability in Kuhn poker is 11/24 (OpenSpiel's value
    NashConv 0.916666)."""
    tree = compile_game(KuhnPoker())
    assert exploitability(tree, tree.uniform()) == pytest.approx(11 / 24)


def test_kuhn_cfr_plus_value_minus_one_eighteenth() -> None:
    tree = compile_game(KuhnPoker())
    solver = CFRSolver(tree)
    solver.iterate(2000)
    avg = solver.average()
    assert expected_value(tree, avg) == pytest.approx(-1 / 18, abs=1e-3)
    assert exploitability(tree, avg) < 1e-4


def test_kuhn_exploitability_decreases_towards_zero() -> None:
    tree = compile_game(KuhnPoker())
    solver = CFRSolver(tree, "cfr")
    seen = []
    for n in (10, 100, 1000):
        solver.iterate(n - solver.iterations)
        seen.append(exploitability(tree, solver.average()))
    assert seen[0] > seen[1] > seen[2]
    assert seen[2] < 5e-3


def test_kuhn_equilibrium_shape() -> None:
    """Known equilibrium family: player 0 never bets a Q first, always calls a bet with K,
    bets K three times as often as J (alpha family)."""
    tree = compile_game(KuhnPoker())
    solver = CFRSolver(tree)
    solver.iterate(3000)
    s = tree.strategy_dict(solver.average())
    assert s["Q:"]["bet"] == pytest.approx(0.0, abs=0.01)
    assert s["K:pass,bet"]["bet"] == pytest.approx(1.0, abs=0.01)
    assert s["K:"]["bet"] == pytest.approx(3 * s["J:"]["bet"], abs=0.03)
    assert s["J:bet"]["bet"] == pytest.approx(0.0, abs=0.01)  # player 1 never calls with J


@pytest.mark.parametrize("game", [ROCK_PAPER_SCISSORS, MATCHING_PENNIES])
def test_matrix_games_through_cfr(game: object) -> None:
    tree = compile_game(game)  # type: ignore[arg-type]
    solver = CFRSolver(tree)
    solver.iterate(500)
    avg = solver.average()
    assert expected_value(tree, avg) == pytest.approx(0.0, abs=1e-3)
    assert exploitability(tree, avg) < 1e-3
    n = len(game.rows)  # type: ignore[attr-defined]
    assert avg[:n] == pytest.approx([1 / n] * n, abs=0.01)


def test_best_response_to_rock_is_paper() -> None:
    tree = compile_game(ROCK_PAPER_SCISSORS)
    sigma = tree.uniform()
    sigma[:3] = [1.0, 0.0, 0.0]  # player 0 always rock
    value, choice = best_response(tree, sigma, 1)
    assert value == 1.0
    assert list(choice[3:]) == [0.0, 1.0, 0.0]


def test_leduc_tree_matches_openspiel_size() -> None:
    """OpenSpiel's leduc_poker has 9457 histories; suits are merged here (288 information
    sets instead of OpenSpiel's 936 suit-distinct ones, a lossless isomorphism)."""
    tree = compile_game(LeducPoker())
    assert tree.num_nodes == 9457
    assert tree.num_infosets == 288


def test_leduc_vanilla_cfr_matches_openspiel_trajectory() -> None:
    """OpenSpiel's Python CFRSolver reaches exploitability 0.0957 after 100 iterations on
    leduc_poker (measured: 0.09571635); the same algorithm here must follow the same path."""
    tree = compile_game(LeducPoker())
    solver = CFRSolver(tree, "cfr")
    solver.iterate(100)
    assert exploitability(tree, solver.average()) == pytest.approx(0.0957163530, abs=1e-8)


def test_leduc_vanilla_cfr_1000_iterations_below_0_012() -> None:
    tree = compile_game(LeducPoker())
    solver = CFRSolver(tree, "cfr")
    solver.iterate(1000)
    assert exploitability(tree, solver.average()) < 0.012


def test_leduc_cfr_plus_300_iterations_below_0_012() -> None:
    tree = compile_game(LeducPoker())
    solver = CFRSolver(tree)
    solver.iterate(300)
    avg = solver.average()
    assert exploitability(tree, avg) < 0.012
    assert expected_value(tree, avg) == pytest.approx(-0.0856, abs=0.005)


def test_strategies_are_distributions() -> None:
    tree = compile_game(LeducPoker())
    solver = CFRSolver(tree)
    solver.iterate(5)
    for sigma in (solver.current(), solver.average()):
        sums = np.bincount(tree.ia_infoset, weights=sigma)
        assert sums == pytest.approx(np.ones(tree.num_infosets))
