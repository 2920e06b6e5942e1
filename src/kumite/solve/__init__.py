"""Equilibrium solvers: matrix games by LP, CFR over information sets, best response and
exploitability (a game's own solver, its spec's ``solver`` face, builds on them)."""

from kumite.solve.best_response import best_response, exploitability, nash_conv
from kumite.solve.cfr import CFRSolver, expected_value
from kumite.solve.efg import CHANCE, TERMINAL, ExtensiveGame, Tree, compile_game
from kumite.solve.matrix import MatrixSolution, exploitability_matrix, solve_matrix

__all__ = [
    "CHANCE",
    "TERMINAL",
    "CFRSolver",
    "ExtensiveGame",
    "MatrixSolution",
    "Tree",
    "best_response",
    "compile_game",
    "expected_value",
    "exploitability",
    "exploitability_matrix",
    "nash_conv",
    "solve_matrix",
]
