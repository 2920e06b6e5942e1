"""OpenSpiel's own CFR+ on a reduced SF Rivals variant (examples/packs/short_duel.toml: two
three-card characters, one round, life 3), through the pyspiel game of kumite.envs.openspiel
and OpenSpiel's turn-based transform; prints the exploitability and the game value, which
``kumite solve`` computes exactly on the same variant (its bounds meet on fights this short).

CFR+ runs on the game's tree copied into OpenSpiel's native extensive-form game
(``kumite.envs.openspiel.tree_copy``: the same tree, without calling the kumite engine at
every node); the policy found is measured on the kumite game itself.

    python examples/openspiel_cfr.py [--iterations 3000] [--python]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pyspiel
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

from kumite.envs import openspiel as kos

PACK = Path(__file__).with_name("packs") / "short_duel.toml"
OPTIONS = {"pack": PACK.read_text("utf-8"), "characters": ["duelist-a", "duelist-b"]}


def solve(iterations: int, python: bool = False) -> tuple[float, float]:
    """(exploitability, seat 0's value) of CFR+'s average policy after ``iterations``
    (OpenSpiel's C++ CFR+, or its Python one, which takes the same steps, more slowly)."""
    game = pyspiel.convert_to_turn_based(kos.load("sfrivals", OPTIONS))
    copy = kos.tree_copy(game)
    solver = cfr.CFRPlusSolver(copy) if python else pyspiel.CFRPlusSolver(copy)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    policy = kos.policy_from_copy(game, copy, solver.average_policy())
    gap = exploitability.exploitability(game, policy)
    value = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])[0]
    return gap, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=3000)
    parser.add_argument("--python", action="store_true", help="OpenSpiel's Python CFR+")
    args = parser.parse_args()
    gap, value = solve(args.iterations, args.python)
    print(f"CFR+ after {args.iterations} iterations: exploitability {gap:.2e}, value {value:+.8f}")


if __name__ == "__main__":
    main()
