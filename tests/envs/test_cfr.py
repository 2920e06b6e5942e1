"""Issue 17 acceptance: OpenSpiel's own CFR+ and ``exploitability`` on a reduced SF Rivals
variant (examples/packs/short_duel.toml) reach exploitability <= 1e-3, and the value of the
policy found agrees with ``kumite solve``'s exact value of the same variant to 1e-6.

CFR+ runs on :func:`kumite.envs.openspiel.tree_copy` (OpenSpiel's Gambit export of the
kumite pyspiel game, loaded as its native ``efg_game``); the policy found is brought back
to the kumite game, where ``exploitability`` and the value are measured."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyspiel
import pytest
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import cfr, exploitability
from open_spiel.python.algorithms.expected_game_score import policy_value
from typer.testing import CliRunner

from kumite.cli.main import app
from kumite.envs import openspiel as kos

PACK = Path(__file__).resolve().parents[2] / "examples" / "packs" / "short_duel.toml"
PAIR = ["duelist-a", "duelist-b"]
ITERATIONS = 3000


@pytest.fixture(scope="module")
def game() -> pyspiel.Game:
    options = {"pack": PACK.read_text("utf-8"), "characters": PAIR}
    return pyspiel.convert_to_turn_based(kos.load("sfrivals", options))


@pytest.fixture(scope="module")
def copy(game: pyspiel.Game) -> pyspiel.Game:
    return kos.tree_copy(game)


@pytest.fixture(scope="module")
def exact_value() -> float:
    """``kumite solve``'s value of the variant, whose bounds meet (exact)."""
    args = ["solve", "--pack", str(PACK), "--pick", ",".join(PAIR), "--no-cache", "--json"]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    solution = json.loads(done.output)
    assert solution["lower"] == pytest.approx(solution["upper"], abs=1e-12)  # they meet
    value: float = solution["value"]
    return value


def check(game: pyspiel.Game, copy: pyspiel.Game, average: Any, exact_value: float) -> None:
    policy = kos.policy_from_copy(game, copy, average)
    gap = exploitability.exploitability(game, policy)
    assert gap <= 1e-3
    # The copy is the same game: the same policy is as exploitable there.
    assert exploitability.exploitability(copy, average) == pytest.approx(gap, abs=1e-12)
    value = policy_value(game.new_initial_state(), [policy, policy])
    assert value[0] == pytest.approx(exact_value, abs=1e-6)
    assert value[1] == pytest.approx(-exact_value, abs=1e-6)


def test_the_tree_copy_is_the_kumite_game(game: pyspiel.Game, copy: pyspiel.Game) -> None:
    """Same information sets per seat and the same returns of the uniform policy."""
    tables = os_policy.TabularPolicy(game), os_policy.TabularPolicy(copy)
    for seat in range(2):
        assert len(tables[0].states_per_player[seat]) == len(tables[1].states_per_player[seat])
    pairs = zip((game, copy), tables, strict=True)
    uniform = [policy_value(g.new_initial_state(), [t, t]) for g, t in pairs]
    assert uniform[0] == pytest.approx(uniform[1], abs=1e-12)


def test_python_and_cpp_cfr_plus_take_the_same_steps(copy: pyspiel.Game) -> None:
    """The C++ solver below is OpenSpiel's Python ``cfr.CFRPlusSolver`` at native speed."""
    python, cpp = cfr.CFRPlusSolver(copy), pyspiel.CFRPlusSolver(copy)
    for _ in range(20):
        python.evaluate_and_update_policy()
        cpp.evaluate_and_update_policy()
    a, b = python.average_policy(), cpp.average_policy()
    gaps = exploitability.exploitability(copy, a), pyspiel.exploitability(copy, b)
    assert gaps[0] == pytest.approx(gaps[1], abs=1e-12)
    assert gaps[0] > 1e-3  # far from done: the two are compared mid-way


def test_cfr_plus_reaches_the_exact_value(
    game: pyspiel.Game, copy: pyspiel.Game, exact_value: float
) -> None:
    solver = pyspiel.CFRPlusSolver(copy)
    for _ in range(ITERATIONS):
        solver.evaluate_and_update_policy()
    check(game, copy, solver.average_policy(), exact_value)


@pytest.mark.slow
def test_python_cfr_plus_reaches_the_exact_value(
    game: pyspiel.Game, copy: pyspiel.Game, exact_value: float
) -> None:
    solver = cfr.CFRPlusSolver(copy)
    for _ in range(ITERATIONS):
        solver.evaluate_and_update_policy()
    check(game, copy, solver.average_policy(), exact_value)
