"""Tiny extensive-form games with known solutions, for testing and benchmarking the
solvers: matrix games (rock-paper-scissors, matching pennies), Kuhn poker, Leduc poker."""

from kumite.solve.games.kuhn import KuhnPoker
from kumite.solve.games.leduc import LeducPoker
from kumite.solve.games.matrix import MATCHING_PENNIES, ROCK_PAPER_SCISSORS, MatrixGame

__all__ = ["MATCHING_PENNIES", "ROCK_PAPER_SCISSORS", "KuhnPoker", "LeducPoker", "MatrixGame"]
