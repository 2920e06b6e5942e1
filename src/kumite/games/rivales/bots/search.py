"""Search hooks of Rivales for :mod:`kumite.agents.ismcts`.

Rollouts are uniformly random, but stop at the end of the round being played: the fight is
then valued from the rounds won (each round still to play taken as even), so an iteration
costs one round of play instead of up to three.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any

from kumite.agents.search import SearchHooks
from kumite.core.game import Game, State


@functools.cache
def match_value(mine: int, theirs: int, need: int) -> float:
    """Expected result (win 1, loss -1) of a best-of fight where each side needs ``need``
    rounds, with ``mine``/``theirs`` won so far and every later round even (a tied round
    counting for both, as the rules say, is left out)."""
    if mine >= need and theirs >= need:
        return 0.0
    if mine >= need:
        return 1.0
    if theirs >= need:
        return -1.0
    return 0.5 * (match_value(mine + 1, theirs, need) + match_value(mine, theirs + 1, need))


class RivalesHooks(SearchHooks):
    def __init__(self, whole_fight: bool = False) -> None:
        self.whole_fight = whole_fight

    def rollout(self, state: State, rng: random.Random) -> tuple[float, ...]:
        if self.whole_fight:
            return super().rollout(state, rng)
        start = state.round  # type: ignore[attr-defined]
        while True:
            pending = state.pending()
            if not pending:
                outcome = state.outcome
                assert outcome is not None
                return outcome.returns
            state.apply_trusted({d.seat: rng.choice(d.legal) for d in pending})
            if state.round != start:  # type: ignore[attr-defined]
                return self.evaluate(state)

    def evaluate(self, state: Any) -> tuple[float, ...]:
        """Each seat's value of a fight between rounds: from the rounds its team won."""
        if state.final:
            return tuple(0.0 for _ in state.seats)
        need = state.catalog.rules.rounds_to_win
        won = state.rounds_won
        value = match_value(won[0], won[1], need)
        return tuple(value if state.team_of[s] == 0 else -value for s in state.seats)


def make(game: Game[Any], options: Mapping[str, Any]) -> RivalesHooks:
    return RivalesHooks()
