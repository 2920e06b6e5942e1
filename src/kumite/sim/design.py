"""The balanced design: which entities (characters, fighters, heroes) sit at game ``k``.

Every table of entities the game allows is dealt once per cycle, and in an order that deals
every entity equally often at every seat over each **block** of ``m`` consecutive tables
(``m`` entities): table ``t`` is ``(e[a], e[a + d1], …, e[a + d(n-1)])`` (indices mod
``m``) with ``a = t mod m`` and the offsets ``(d1, …)`` of block ``t // m``. Each table is
exactly one (first entity, offsets) pair, so a cycle holds every table once; within a block
``a`` runs over every entity, so each seat sees each entity once. A listing in lexicographic
order would instead deal the first entity at seat 1 for whole stretches (the SF DBG report
that dealt Akuma at all 100 three-seat tables).

Blocks come in a fixed pseudo-random order of their offsets (more than two seats: many
offset tuples, and neighbouring ones would meet the same opponents), the same in every run.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import Any, overload


class Design(Sequence[tuple[str, ...]]):
    """The balanced design's tables for ``players`` seats over entities ``ids``, in order."""

    def __init__(
        self,
        ids: Sequence[str],
        players: int,
        distinct: bool,
        admissible: Callable[[tuple[str, ...]], bool] | None = None,
    ) -> None:
        self.ids = tuple(ids)
        m = len(self.ids)
        self.players = players
        offsets: list[tuple[int, ...]]
        if m == 0 or (distinct and players > m):
            offsets = []
        elif distinct:
            offsets = list(itertools.permutations(range(1, m), players - 1))
        else:
            offsets = list(itertools.product(range(m), repeat=players - 1))
        if players > 2:
            random.Random(f"design:{m}:{players}:{distinct}").shuffle(offsets)
        if admissible is not None:
            # A block is kept whole (every first entity), so that it stays balanced; the
            # games' rules (teammates differ) do not depend on which entity is first.
            offsets = [o for o in offsets if all(admissible(self._table(a, o)) for a in range(m))]
        self.offsets = offsets

    def indices(self, tables: Any) -> Any:
        """Tables ``tables`` (an int array; taken modulo the cycle) as an array
        ``[table, seat]`` of indices into :attr:`ids` (the batched path: no Python step per
        table)."""
        import numpy as np

        t = np.asarray(tables, dtype=np.int64) % len(self)
        m = len(self.ids)
        offsets = np.array([(0, *o) for o in self.offsets], dtype=np.int64)
        return ((t % m)[:, None] + offsets[t // m]) % m

    def _table(self, a: int, offsets: tuple[int, ...]) -> tuple[str, ...]:
        ids, m = self.ids, len(self.ids)
        return (ids[a], *(ids[(a + d) % m] for d in offsets))

    def __len__(self) -> int:
        return len(self.ids) * len(self.offsets)

    @overload
    def __getitem__(self, t: int) -> tuple[str, ...]: ...

    @overload
    def __getitem__(self, t: slice) -> Sequence[tuple[str, ...]]: ...

    def __getitem__(self, t: int | slice) -> tuple[str, ...] | Sequence[tuple[str, ...]]:
        if isinstance(t, slice):
            return [self[i] for i in range(*t.indices(len(self)))]
        if not -len(self) <= t < len(self):
            raise IndexError(t)
        t %= len(self)
        m = len(self.ids)
        return self._table(t % m, self.offsets[t // m])
