"""The batched tally's one pass over many games (Numba): every count
:meth:`~kumite.sim.engine.Tally.add_batch` needs, into dense arrays, in one loop over the
games instead of one NumPy pass per table. Declared here, measured by
``benchmarks/sim_batched.py`` against OpenSpiel's goofspiel(8) in the same run."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

LOSS, WIN, DRAW = 0, 1, 2


@njit(cache=True)
def count_games(
    ents: Any, winner: Any, reason: Any, length: Any, plays: Any,
    entities: int, slots: int, reasons: int, per_entity: bool,
) -> tuple[Any, Any, Any, Any, Any, Any, Any]:  # fmt: skip
    """Two-seat games: ``[seat, result]``, ``[entity, seat, result]``, ``[entity, entity,
    result]`` (row's result against column), ``[scope, card, result]`` (each card once per
    seat and game), ``[scope, card, round, result]``, reasons and lengths."""
    n = len(winner)
    turns = plays.shape[2]
    scopes = entities if per_entity else 1
    cards = entities * slots
    seat = np.zeros((2, 3), np.int64)
    ent = np.zeros((entities, 2, 3), np.int64)
    pair = np.zeros((entities, entities, 3), np.int64)
    card = np.zeros((scopes, cards, 3), np.int64)
    when = np.zeros((scopes, cards, turns, 3), np.int64)
    why = np.zeros(reasons, np.int64)
    lengths = np.zeros(turns + 2, np.int64)
    seen = np.zeros(cards, np.int64)
    for i in range(n):
        w = winner[i]
        why[reason[i]] += 1
        lengths[min(length[i], turns + 1)] += 1
        for s in range(2):
            r = DRAW if w < 0 else (WIN if w == s else LOSS)
            e = ents[i, s]
            seat[s, r] += 1
            ent[e, s, r] += 1
            pair[e, ents[i, 1 - s], r] += 1
            sc = e if per_entity else 0
            for t in range(turns):
                p = plays[i, s, t]
                if p < 0:
                    continue
                c = e * slots + p
                when[sc, c, t, r] += 1
                # each card once per seat and game (seen: the game's mark, not cleared)
                mark = i * 2 + s + 1
                if seen[c] != mark:
                    seen[c] = mark
                    card[sc, c, r] += 1
    return seat, ent, pair, card, when, why, lengths
