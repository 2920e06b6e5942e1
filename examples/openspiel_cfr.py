"""OpenSpiel's own CFR+ on a reduced SF Rivals variant (examples/packs/short_duel.toml: two
three-card characters, one round, life 3), through the pyspiel game of kumite.envs.openspiel
and OpenSpiel's turn-based transform; prints the exploitability and the game value, which
``kumite solve`` computes exactly on the same variant (its bounds meet on fights this short).

    python examples/openspiel_cfr.py [--iterations 300]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pyspiel
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

from kumite.envs import openspiel as kos

PACK = Path(__file__).with_name("packs") / "short_duel.toml"
OPTIONS = {"pack": PACK.read_text("utf-8"), "characters": ["duelist-a", "duelist-b"]}


def solve(iterations: int) -> tuple[float, float]:
    """(exploitability, seat 0's value) of CFR+'s average policy after ``iterations``."""
    game = pyspiel.convert_to_turn_based(kos.load("sfrivals", OPTIONS))
    solver = cfr.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    gap = exploitability.exploitability(game, policy)
    value = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])[0]
    return gap, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=300)
    args = parser.parse_args()
    gap, value = solve(args.iterations)
    print(f"CFR+ after {args.iterations} iterations: exploitability {gap:.2e}, value {value:+.6f}")


if __name__ == "__main__":
    main()
