"""Where the bots of every table think: a pool of a fixed number of threads, and a time
budget per move (docs/protocol.md, "Limits").

The pool bounds how much of the machine bots take however many tables play, and takes
moves first come, first served: a table has at most one move waiting or thinking at a time,
so a table of search bots cannot starve the others. Every move is due ``budget`` seconds
(and a grace period) after it was *asked for*, time queued behind other tables' bots
included: a search bot's own time limit is cut to the budget and counted from the ask, so
it stops by itself; a bot still not answered by then — queued too long, or thinking too
long — is given a uniformly random legal move instead, drawn from the operating system's
randomness, and the table goes on. A thread still held by such a move no longer counts:
another takes its place, so a bot that cannot be stopped delays no other table's bot
beyond that bot's own budget. A bot that may need long preparations (a game's solver bots:
``prepare_in_background``) is told it plays at the table: it then plays its declared
fallback at once and prepares in the background (the game's docs say how).

With ``processes`` (``kumite serve --bot-processes N``) the bots whose table gives their
:class:`~kumite.server.botworkers.Recipe` think in N worker processes instead, a table
always in the same one (:mod:`kumite.server.botworkers`), under the same budget and deadline.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import multiprocessing
import os
import secrets
import signal
import threading
import time
import zlib
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from kumite.agents.base import Agent, decide
from kumite.agents.ismcts import ISMCTSAgent
from kumite.core.game import Decision, State
from kumite.server import botworkers
from kumite.server.botworkers import Recipe, at_table, cap

log = logging.getLogger("kumite.server")
MEMORY_VARIABLE = "KUMITE_BOT_MEMORY"
"""The environment variable the bots read their memory cap from (megabytes)."""


class Threads:
    """``size`` threads taking jobs in order. A job given up on while it runs
    (:meth:`give_up`) no longer holds one of the ``size``: a thread is started in its
    place, and the thread that ran it ends when it is done if the others are enough."""

    LOST_AT_MOST = 64
    """Threads held by given-up jobs beyond which none is replaced (each table has at most
    one move thinking, so this many stuck bots at once)."""

    def __init__(self, size: int, name: str = "kumite-bot") -> None:
        self.size = size
        self.name = name
        self._jobs: collections.deque[tuple[Future[Any], Callable[[], Any]]] = collections.deque()
        self._cv = threading.Condition()
        self._threads = 0
        self._idle = 0
        self._running: set[Future[Any]] = set()
        self._lost: set[Future[Any]] = set()
        self._closed = False

    def submit(self, job: Callable[[], Any]) -> Future[Any]:
        future: Future[Any] = Future()
        with self._cv:
            if self._closed:
                raise RuntimeError("the bot pool is shut down")
            self._jobs.append((future, job))
            self._grow()
            self._cv.notify()
        return future

    def give_up(self, future: Future[Any]) -> None:
        """``future``'s move is late: cancel it if queued; if it runs, its thread is lost
        to the others and replaced."""
        if future.cancel():
            return
        with self._cv:
            if future in self._running and future not in self._lost:
                self._lost.add(future)
                self._grow()

    @property
    def threads(self) -> int:
        return self._threads

    def _grow(self) -> None:
        # with the lock held: a thread more if jobs wait and fewer than ``size`` can work
        working = self._threads - len(self._lost)
        if (
            self._jobs
            and self._idle < len(self._jobs)
            and working < self.size
            and len(self._lost) <= self.LOST_AT_MOST
        ):
            self._threads += 1
            threading.Thread(target=self._run, name=self.name, daemon=True).start()

    def _run(self) -> None:
        while True:
            with self._cv:
                while not self._jobs and not self._closed:
                    self._idle += 1
                    self._cv.wait()
                    self._idle -= 1
                if not self._jobs:
                    self._threads -= 1
                    return
                future, job = self._jobs.popleft()
                if not future.set_running_or_notify_cancel():
                    continue
                self._running.add(future)
            try:
                future.set_result(job())
            except BaseException as exc:  # handed to the waiting move
                future.set_exception(exc)
            with self._cv:
                self._running.discard(future)
                if future in self._lost:
                    self._lost.discard(future)
                    if self._threads - len(self._lost) > self.size:
                        self._threads -= 1  # replaced meanwhile: one too many now
                        return

    def shutdown(self) -> None:
        with self._cv:
            self._closed = True
            while self._jobs:
                self._jobs.popleft()[0].cancel()
            self._cv.notify_all()


class BotPool:
    """``threads`` threads (or ``processes`` worker processes) for every table's bots;
    ``budget`` seconds a move."""

    def __init__(
        self, threads: int, budget: float, processes: int = 0, memory: float | None = None
    ) -> None:
        """``memory``: megabytes the bots of each process may keep for data shared between
        tables (``$KUMITE_BOT_MEMORY``, read by the games' bots, workers inherit it)."""
        if threads < 1 or budget <= 0 or processes < 0:
            raise ValueError("the bot pool needs at least one thread and a positive budget")
        if memory is not None:
            os.environ[MEMORY_VARIABLE] = f"{memory:g}"
        self.budget = budget
        self.grace = max(0.5, budget / 4)
        self.executor = Threads(threads)
        self.processes = processes
        self._workers: list[ProcessPoolExecutor | None] = [None] * processes
        """One single-process pool per worker, made when first needed (again if it died)."""
        self._queued: list[list[Future[Any]]] = [[] for _ in range(processes)]
        """Each worker's moves sent and maybe not done yet, in order."""
        self._ready = [False] * processes
        """Each worker has finished a job (its start-up is over)."""
        self._busy: dict[int, Future[Any]] = {}  # id(agent) -> its move being thought about
        self.fallbacks = 0
        """Moves given a random legal move (late, failed or illegal), since the start."""

    async def think(
        self, agent: Agent, state: State, decision: Decision, recipe: Recipe | None = None
    ) -> str:
        """``agent``'s choice for ``decision`` (``state`` is never mutated); with worker
        processes and a ``recipe``, that of the same bot made again in its table's worker.
        Due ``budget`` (and a grace) after now, or a random legal move is played."""
        asked = time.monotonic()
        running = self._busy.get(id(agent))
        if running is not None and not running.done():
            log.warning("bot %s still thinking about an earlier move: a random move", agent.name)
            return self._random(decision)
        cap(agent, self.budget)
        at_table(agent)
        deadline: float | None = None
        if isinstance(agent, ISMCTSAgent) and agent.level.seconds is not None:
            # The move is due a level's time after it was asked for, not after it was picked
            # up: time queued behind other tables' bots counts (issue 19, bots on time).
            deadline = agent.deadline = asked + agent.level.seconds
        future: Future[Any]
        if recipe is not None and self.processes:
            future = self._submit(recipe, list(state.history), deadline)
        else:
            future = self.executor.submit(lambda: decide(agent, state, decision))
        key = id(agent)
        self._busy[key] = future
        future.add_done_callback(lambda done: self._forget(key, done))
        waiting = asyncio.wrap_future(future)
        done, _ = await asyncio.wait({waiting}, timeout=self.budget + self.grace)
        if not done:
            # Queued or thinking past its due time: the table goes on without it.
            if recipe is None or not self.processes:
                self.executor.give_up(future)
            elif not future.cancel():  # thinking in its worker: cut it there
                self._cut(recipe)
            log.warning(
                "bot %s not answered within %.1f s: a random move",
                agent.name,
                self.budget + self.grace,
            )
            return self._random(decision)
        try:
            answer = waiting.result()
        except Exception:  # a dead worker is spawned again by the next move sent to it
            log.exception("bot %s failed: a random move", agent.name)
            return self._random(decision)
        choice = answer[0] if isinstance(answer, tuple) else answer
        if choice not in decision.legal:
            log.error("bot %s chose %r, not a legal choice: a random move", agent.name, choice)
            return self._random(decision)
        return str(choice)

    def _random(self, decision: Decision) -> str:
        self.fallbacks += 1
        return secrets.choice(decision.legal)

    def _submit(
        self, recipe: Recipe, history: list[dict[int, str]], deadline: float | None
    ) -> Future[Any]:
        """Send a move to its table's worker."""
        index = zlib.crc32(recipe.table.encode()) % self.processes
        worker = self._workers[index]
        if worker is None:
            worker = self._workers[index] = self._spawn()
        ahead = [f for f in self._queued[index] if not f.done()]
        try:
            future = worker.submit(botworkers.think, recipe, history, self.budget, deadline)
        except BrokenProcessPool:  # it died since its last move: a new one takes this move
            worker.shutdown(wait=False, cancel_futures=True)
            worker = self._workers[index] = self._spawn()
            ahead = []
            future = worker.submit(botworkers.think, recipe, history, self.budget, deadline)
        self._queued[index] = [*ahead, future]
        future.add_done_callback(functools.partial(self._on_done, index, worker))
        return future

    def _on_done(self, index: int, worker: ProcessPoolExecutor, _: Future[Any]) -> None:
        if self._workers[index] is worker:
            self._ready[index] = True

    def _cut(self, recipe: Recipe) -> None:
        """Stop the worker thinking past a move's due time (a process can be stopped, a
        thread cannot): the moves queued there fail at once (random moves), and the next
        move sent there starts a new worker, which makes the tables' bots again."""
        index = zlib.crc32(recipe.table.encode()) % self.processes
        worker = self._workers[index]
        if worker is None or not self._ready[index]:
            return  # still starting (loading the games): not stuck, and no other to take over
        self._workers[index] = None
        self._ready[index] = False
        self._queued[index] = []
        for pid in list(getattr(worker, "_processes", {}) or {}):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        worker.shutdown(wait=False, cancel_futures=True)

    def start(self) -> None:
        """Start every worker process now, loading the games while the server comes up: a
        worker started by its first move made that move wait for it (about 2 s)."""
        for index in range(self.processes):
            if self._workers[index] is None:
                worker = self._workers[index] = self._spawn()
                # a first move waits for it, as for a move
                ready = worker.submit(botworkers.ready)
                ready.add_done_callback(functools.partial(self._on_done, index, worker))
                self._queued[index] = [ready]

    @staticmethod
    def _spawn() -> ProcessPoolExecutor:
        # Spawned, not forked: the server has threads (and their locks) a fork would copy.
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=botworkers.warm,
        )

    def _forget(self, key: int, done: Future[Any]) -> None:
        # In the worker thread: a dict's get and pop are atomic.
        if self._busy.get(key) is done:
            self._busy.pop(key, None)

    def shutdown(self) -> None:
        """Stop taking moves; moves being thought about finish in the background."""
        self.executor.shutdown()
        for worker in self._workers:
            if worker is not None:
                worker.shutdown(wait=False, cancel_futures=True)
