"""Bounded memo tables for the engines' derived data (decisions, compiled effects, plans).

A simulation meets an open-ended stream of keys, so each table empties itself when it is
full: memory stays flat, and what is still in use is rebuilt at the next miss.
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """A dict with :meth:`put`, which empties the dict first when it holds ``limit`` entries.

    >>> m: Memo[str, int] = Memo(2)
    >>> m.put("a", 1), m.put("b", 2), m.put("c", 3)
    (1, 2, 3)
    >>> m
    {'c': 3}
    """

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def put(self, key: K, value: V) -> V:
        """Store ``value`` under ``key`` and return it."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value
