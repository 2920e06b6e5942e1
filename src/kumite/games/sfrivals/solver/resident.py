"""What the solver bots keep in memory: shared by every game of the process, bounded in bytes.

A solver bot's matchup (its solution and the positions solved since) and a side's book
(:mod:`.book`) are kept here under a key, one object per key, whatever number of tables
play it. Each knows its size (:meth:`Kept.resident_bytes`, an upper bound: arrays by their
``nbytes``, memos by entry) and how to let it go (:meth:`Kept.release`). When the total is
over the cap — by their own count, or by how much the process has grown since the solver
was first imported (its code included: Numba and the kernels, ~150 MB) — the least
recently used go first: released (their solved positions dropped, the memory handed back
to the system) and forgotten, so a bot that asks again gets a fresh object; the one used
last is always
kept (one matchup bigger than the cap would otherwise be solved again at every move).
Something in use — its ``lock`` held by a move or by the preparation in the background
(:mod:`.background`) — is passed over until the next trim.

The cap: ``$KUMITE_BOT_MEMORY`` (megabytes), read at each trim, else :data:`DEFAULT_MB`;
``kumite serve --bot-memory`` sets it for the server and its bot workers (:func:`set_cap`
sets one for this process only).
"""

from __future__ import annotations

import collections
import functools
import os
import threading
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

DEFAULT_MB = 1024
"""The default cap, in megabytes (a matchup a ``belief`` bot plays keeps 80-450 MB)."""
KEPT_SHARE = 0.6
"""The share of the cap what is kept may fill; the rest is room for the solve in progress
(its passes hold 4 bytes per position and pair of cards until it is done) and what the
process keeps of memory it freed."""


def _rss() -> int:
    """The process's resident memory, in bytes (0 where ``/proc`` does not say)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


class Kept(Protocol):
    lock: threading.RLock

    def resident_bytes(self) -> int: ...

    def release(self) -> None: ...


K = TypeVar("K", bound=Kept)


def _cap_from_env() -> int:
    raw = os.environ.get("KUMITE_BOT_MEMORY")
    try:
        mb = float(raw) if raw else DEFAULT_MB
    except ValueError:
        mb = DEFAULT_MB
    return int(max(mb, 1.0) * 2**20)


class Memory:
    """Objects by key, least recently used first, trimmed to ``cap`` bytes."""

    def __init__(self, cap: int | None = None, *, process: bool = True) -> None:
        self._cap = cap
        self.process = process
        """Count the process's growth too (else only the objects' own counts)."""
        self.baseline = _rss()
        """The process's resident memory when this memory was made (before the solver's
        code: :mod:`.background` imports this first): what the process grows by beyond it
        counts against the cap too, whatever the counts of the objects say."""
        self._items: collections.OrderedDict[Any, Kept] = collections.OrderedDict()
        self._guard = threading.Lock()
        self.evicted = 0
        """How many objects were let go of to keep under the cap (for tests, benchmarks)."""

    @property
    def cap(self) -> int:
        """Bytes kept at most (set, else the environment's, else the default)."""
        return _cap_from_env() if self._cap is None else self._cap

    @cap.setter
    def cap(self, value: int | None) -> None:
        self._cap = value

    def get(self, key: Any, make: Callable[[], K]) -> K:
        """The object kept under ``key``, made (by ``make``, outside any lock) if absent."""
        with self._guard:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                return found  # type: ignore[return-value]
        made = make()
        with self._guard:
            found = self._items.get(key)
            if found is not None:  # another thread made it meanwhile: one object per key
                self._items.move_to_end(key)
                return found  # type: ignore[return-value]
            self._items[key] = made
        self.trim()
        return made

    def peek(self, key: Any) -> Kept | None:
        with self._guard:
            return self._items.get(key)

    def total(self) -> int:
        with self._guard:
            items = list(self._items.values())
        return sum(_size(item) for item in items)

    def trim(self) -> int:
        """Let go of the least recently used objects not in use until what is kept — by its
        own count, and by how much the process has grown since this memory was made —
        fills at most :data:`KEPT_SHARE` of the cap; the bytes kept then (own count)."""
        with self._guard:
            items = list(self._items.items())
        sizes = {key: _size(item) for key, item in items}
        total = sum(sizes.values())
        room = self.cap * KEPT_SHARE
        grown = self._grown()
        for key, item in items[:-1]:  # oldest first; the one used last is kept
            if total <= room and grown <= room:
                break
            owned = getattr(item.lock, "_is_owned", None)
            if owned is not None and owned():
                continue  # in use by this very thread (trimmed from inside its own work)
            if not item.lock.acquire(blocking=False):
                continue  # in use: next time
            try:
                with self._guard:
                    if self._items.get(key) is not item:
                        continue
                    del self._items[key]
                item.release()
                self.evicted += 1
                total -= sizes[key]
            finally:
                item.lock.release()
            give_back()  # what it held, back to the system: the process shrinks now
            grown = self._grown()
        return total

    def _grown(self) -> int:
        return _rss() - self.baseline if self.process else 0

    def clear(self) -> None:
        with self._guard:
            items = list(self._items.values())
            self._items.clear()
        for item in items:
            with item.lock:
                item.release()

    def __len__(self) -> int:
        return len(self._items)

    def kept_keys(self) -> list[Any]:
        with self._guard:
            return list(self._items)


def _size(item: Kept) -> int:
    try:
        return int(item.resident_bytes())
    except Exception:  # pragma: no cover - a size is an estimate; never fail a move on it
        return 0


MEMORY = Memory()
"""The process's solver memory."""


def set_cap(megabytes: float | None) -> None:
    """Cap what the solver bots of this process keep at ``megabytes`` (None: the
    environment's, ``kumite serve --bot-memory``)."""
    MEMORY.cap = None if megabytes is None else int(max(megabytes, 1.0) * 2**20)
    MEMORY.trim()


def give_back() -> None:
    """Hand the memory the process freed back to the system where the C library allows it
    (glibc's ``malloc_trim``): a solve's arrays, freed, otherwise stay in the process's heap
    (measured: of 103 MB a matchup had grown by, 70 MB came back only so)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.lru_cache(maxsize=1)
def _malloc_trim() -> Any:
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc: the memory stays with the process
        return None


def array_bytes(*arrays: Any) -> int:
    """The bytes of numpy arrays (None and other objects count nothing)."""
    return sum(int(getattr(a, "nbytes", 0)) for a in arrays)
