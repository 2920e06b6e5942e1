"""A matrix game as an extensive-form game: player 1 moves without seeing player 0's move."""

from __future__ import annotations

from collections.abc import Sequence

from kumite.solve.efg import TERMINAL

History = tuple[str, ...]


class MatrixGame:
    """Row player 0 maximises ``payoff[row][col]``; both choose simultaneously."""

    def __init__(
        self,
        name: str,
        rows: Sequence[str],
        cols: Sequence[str],
        payoff: Sequence[Sequence[float]],
    ) -> None:
        self.name = name
        self.rows = tuple(rows)
        self.cols = tuple(cols)
        self.payoff = tuple(tuple(float(x) for x in r) for r in payoff)

    def root(self) -> History:
        return ()

    def player(self, h: History) -> int:
        return len(h) if len(h) < 2 else TERMINAL

    def actions(self, h: History) -> Sequence[str]:
        return self.rows if not h else self.cols

    def chance(self, h: History) -> Sequence[tuple[str, float]]:
        return ()

    def child(self, h: History, action: str) -> History:
        return (*h, action)

    def returns(self, h: History) -> float:
        return self.payoff[self.rows.index(h[0])][self.cols.index(h[1])]

    def infoset(self, h: History) -> str:
        return f"p{len(h)}"  # player 1 does not see player 0's move


ROCK_PAPER_SCISSORS = MatrixGame(
    "rock-paper-scissors",
    ("rock", "paper", "scissors"),
    ("rock", "paper", "scissors"),
    ((0, -1, 1), (1, 0, -1), (-1, 1, 0)),
)
MATCHING_PENNIES = MatrixGame(
    "matching-pennies", ("heads", "tails"), ("heads", "tails"), ((1, -1), (-1, 1))
)
