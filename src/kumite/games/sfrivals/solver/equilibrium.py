"""``equilibrium``: plays the solved SF Rivals strategy (:mod:`kumite.games.sfrivals.solver`).

Set-up and every round are sampled from the solution's mixed strategies, seen from the
agent's own view only. The matchup is solved on first use and cached on disk
(``kumite solve sfrivals --characters X,Y`` does it ahead of time). A character pick, which
the solver does not cover, is a seeded random choice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kumite.core.game import Decision, Game
from kumite.games.sfrivals.solver.setup import MatchupSolution
from kumite.games.sfrivals.solver.strategy import advice, matchup_for_view


class EquilibriumAgent:
    name = "equilibrium"

    def __init__(self, options: Mapping[str, Any], seat: int, seed: int) -> None:
        self.options = {k: v for k, v in options.items() if k != "characters"}
        self.seat = seat
        self.rng = random.Random(seed)
        self._solution: MatchupSolution | None = None

    def solution(self, view: Mapping[str, Any]) -> MatchupSolution:
        chars = tuple(p["character"] for p in view["players"])
        if self._solution is None or self._solution.characters != chars:
            self._solution = matchup_for_view(view, self.options)
        return self._solution

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        if decision.kind == "character":
            return self.rng.choice(decision.legal)
        options = advice(view, self.solution(view))
        weights = [max(a.probability, 0.0) for a in options]
        if sum(weights) <= 0:
            return self.rng.choice(decision.legal)
        return self.rng.choices([a.choice for a in options], weights=weights)[0]


def make(game: Game[Any], options: Mapping[str, Any], seat: int, seed: int) -> EquilibriumAgent:
    return EquilibriumAgent(options, seat, seed)
