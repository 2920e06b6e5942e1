"""Solver bots at the web table: no move waits on a solve.

Outside the server a solver bot solves what a move needs when it meets it (seconds for a
new matchup or pair of set-ups), and plays the same whatever the machine. At the web table
(the bot pool sets :attr:`prepare_in_background` on the agent) a move may only look up
what is solved already, and solve the small positions of the last rounds
(:data:`SMALL_FROM` on: a few thousand positions, tens of milliseconds); anything more raises
:class:`NotPrepared` from inside the solver, the bot plays its declared fallback at once,
and the same decision is worked out in the background by one thread of the process
(:data:`PREPARER`, on one of Numba's threads), so that a later move finds it solved.

The compiled kernels are loaded in that thread too: the first time a process needs them it
first compiles them, if the machine's cache lacks them, in a subprocess (a cold compile
takes minutes and holds the interpreter's lock for long stretches), then loads them
(:func:`ensure_kernels`). Until then every solve counts as not prepared.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable, Hashable, Iterator

from kumite.games.sfrivals.solver.resident import MEMORY, give_back

log = logging.getLogger("kumite.solver")
if os.environ.get("KUMITE_SOLVER_LOG"):  # the preparations, on stderr (benchmarks)
    log.setLevel(logging.INFO)
    log.addHandler(logging.StreamHandler())

SMALL_FROM = 4
"""At the table a move may solve the positions of this round and later: below a position of
round 4 lie at most a few thousand positions (five cards left each), solved in tens of
milliseconds. Earlier rounds come from the shipped books (:mod:`.book`: rounds 1 to 3) or
the background."""


class NotPrepared(Exception):  # noqa: N818 - a signal, not an error
    """What this move needs is not solved yet (and too big to solve on a move)."""


_local = threading.local()


def _from() -> int | None:
    """The earliest round this thread may solve now (None: any)."""
    return getattr(_local, "solve_from", None)


@contextlib.contextmanager
def table_move(small_from: int = SMALL_FROM) -> Iterator[None]:
    """Inside: this thread may solve only positions of round ``small_from`` or later, and
    only once the kernels are loaded; anything else raises :class:`NotPrepared`."""
    before = _from()
    _local.solve_from = small_from
    try:
        yield
    finally:
        _local.solve_from = before
        _trim_now_and_then()


_TRIM_EVERY = 1.0
_trimmed = [0.0]


def _trim_now_and_then() -> None:
    """Keep the process's solver memory under its cap (:mod:`.resident`): after a table's
    move (its small solves grow what is kept) at most once a second, after every
    background job."""
    now = time.monotonic()
    if now - _trimmed[0] >= _TRIM_EVERY:
        _trimmed[0] = now
        MEMORY.trim()


LOCK_WAIT = 0.05
"""Seconds a table move waits for a matchup another thread is using (a move of another
table: milliseconds; the background preparation: seconds, so the move gives up)."""


@contextlib.contextmanager
def holding(lock: threading.RLock) -> Iterator[None]:
    """Hold ``lock`` inside; a table move that cannot get it soon raises
    :class:`NotPrepared` (the matchup is being prepared)."""
    if _from() is None:
        with lock:
            yield
        return
    if not lock.acquire(timeout=LOCK_WAIT):
        raise NotPrepared("in use")
    try:
        yield
    finally:
        lock.release()


def may_solve(round: int) -> None:
    """Raise :class:`NotPrepared` if this thread may not solve states of ``round`` now."""
    start = _from()
    if start is None:
        return
    if round < start or not KERNELS.ready.is_set():
        raise NotPrepared(f"round {round}")


def may_compute() -> None:
    """Raise :class:`NotPrepared` if a table move would call a kernel not loaded yet."""
    if _from() is not None and not KERNELS.ready.is_set():
        raise NotPrepared("kernels")


class _Kernels:
    def __init__(self) -> None:
        self.ready = threading.Event()
        self.failed: str | None = None


KERNELS = _Kernels()
LOADER: list[Callable[[], None]] = []
"""The kernels' loader (:func:`.warm.ensure_kernels`, registered when it is imported)."""


def ensure_kernels() -> None:
    """Load the compiled kernels in this thread (the background's: it holds no table's
    move), with the loader :mod:`.warm` registers when the solver bots are imported."""
    if not KERNELS.ready.is_set() and LOADER:
        LOADER[0]()


class Preparer:
    """One thread that works out, one after the other, what table moves lacked. Jobs come
    under a key (a bot): a job queued for a key is replaced by a newer one for it (the
    bot's table has moved on: its latest position is what to prepare), and one running
    is left to finish."""

    def __init__(self) -> None:
        self._queued: collections.OrderedDict[Hashable, Callable[[], object]] = (
            collections.OrderedDict()
        )
        self._running: Hashable | None = None
        self._cv = threading.Condition()
        self._thread: threading.Thread | None = None
        self._idle = threading.Event()
        self._idle.set()
        self.done = 0
        self.failed = 0

    def submit(self, key: Hashable, job: Callable[[], object]) -> bool:
        """Queue ``job`` under ``key`` (in place of one queued under it); False if it
        replaced one."""
        with self._cv:
            fresh = key not in self._queued
            self._queued[key] = job
            self._idle.clear()
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="kumite-solver-prepare", daemon=True
                )
                self._thread.start()
            self._cv.notify()
        return fresh

    def pending(self) -> int:
        with self._cv:
            return len(self._queued) + (self._running is not None)

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no job is queued or running (for tests and benchmarks)."""
        return self._idle.wait(timeout)

    def _run(self) -> None:
        import numba

        numba.set_num_threads(1)  # one core for the background; the server keeps the other
        while True:
            with self._cv:
                while not self._queued:
                    self._idle.set()
                    self._cv.wait()
                key, job = self._queued.popitem(last=False)
                self._running = key
            try:
                started = time.monotonic()
                if not KERNELS.ready.is_set():
                    ensure_kernels()
                job()
                self.done += 1
                MEMORY.trim()
                give_back()  # the solve's transient arrays
                log.info(
                    "prepared %s in %.1f s; fallback moves so far: %s",
                    key[0] if isinstance(key, tuple) else key,
                    time.monotonic() - started,
                    dict(sorted(FALLBACKS.items())),
                )
            except Exception:
                self.failed += 1
                log.exception("preparing %r failed", key)
            finally:
                with self._cv:
                    self._running = None
                    if not self._queued:
                        self._idle.set()


PREPARER = Preparer()
"""The process's preparer."""
FALLBACKS: dict[str, int] = {}
"""Moves each solver bot left to its declared fallback (not prepared yet), since the start."""


def fell_back(name: str) -> None:
    FALLBACKS[name] = FALLBACKS.get(name, 0) + 1


def prepare_kernels() -> None:
    """Load the kernels in the background (the first solver bot of a table asks)."""
    if not KERNELS.ready.is_set():
        PREPARER.submit("kernels", lambda: None)
