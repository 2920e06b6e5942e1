"""Where the bots of every table think: a pool of a fixed number of threads, and a time
budget per move (docs/protocol.md, "Limits").

The pool bounds how much of the machine bots take however many tables play, and takes
moves first come, first served: a table has at most one move waiting or thinking at a time,
so a table of search bots cannot starve the others. A search bot's own time limit is cut to
the budget, so it stops by itself; a bot still thinking a grace period after the budget (or
whose last move is still being thought about) is given a uniformly random legal move
instead, drawn from the operating system's randomness, and the table goes on.

With ``processes`` (``kumite serve --bot-processes N``) the bots whose table gives their
:class:`~kumite.server.botworkers.Recipe` think in N worker processes instead, a table
always in the same one (:mod:`kumite.server.botworkers`), under the same budget and deadline.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import secrets
import time
import zlib
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from kumite.agents.base import Agent, decide
from kumite.agents.ismcts import ISMCTSAgent
from kumite.core.game import Decision, State
from kumite.server import botworkers
from kumite.server.botworkers import Recipe, cap

log = logging.getLogger("kumite.server")


class BotPool:
    """``threads`` threads (or ``processes`` worker processes) for every table's bots;
    ``budget`` seconds a move."""

    def __init__(self, threads: int, budget: float, processes: int = 0) -> None:
        if threads < 1 or budget <= 0 or processes < 0:
            raise ValueError("the bot pool needs at least one thread and a positive budget")
        self.budget = budget
        self.grace = max(0.5, budget / 4)
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="kumite-bot")
        self.processes = processes
        self._workers: list[ProcessPoolExecutor | None] = [None] * processes
        """One single-process pool per worker, made when first needed (again if it died)."""
        self._queued: list[list[Future[Any]]] = [[] for _ in range(processes)]
        """Each worker's moves sent and maybe not done yet, in order."""
        self._busy: dict[int, Future[Any]] = {}  # id(agent) -> its move being thought about

    async def think(
        self, agent: Agent, state: State, decision: Decision, recipe: Recipe | None = None
    ) -> str:
        """``agent``'s choice for ``decision`` (``state`` is never mutated); with worker
        processes and a ``recipe``, that of the same bot made again in its table's worker."""
        running = self._busy.get(id(agent))
        if running is not None and not running.done():
            log.warning("bot %s still thinking about an earlier move: a random move", agent.name)
            return secrets.choice(decision.legal)
        cap(agent, self.budget)
        deadline: float | None = None
        if isinstance(agent, ISMCTSAgent) and agent.level.seconds is not None:
            # The move is due a level's time after it was asked for, not after it was picked
            # up: time queued behind other tables' bots counts (issue 19, bots on time).
            deadline = agent.deadline = time.monotonic() + agent.level.seconds
        future: Future[Any]
        if recipe is not None and self.processes:
            index = zlib.crc32(recipe.table.encode()) % self.processes
            future, started = self._submit(index, recipe, list(state.history), deadline)
        else:
            begun: list[float] = []

            def job() -> str:
                begun.append(time.monotonic())
                return decide(agent, state, decision)

            future = self.executor.submit(job)

            def started() -> float | None:
                return begun[0] if begun else None

        key = id(agent)
        self._busy[key] = future
        future.add_done_callback(lambda done: self._forget(key, done))
        waiting = asyncio.wrap_future(future)
        limit = self.budget + self.grace
        while True:
            # Time spent queued behind other tables' moves is not this move's.
            done, _ = await asyncio.wait({waiting}, timeout=limit)
            if done:
                break
            began = started()
            if began is not None and time.monotonic() - began >= limit:
                log.warning("bot %s over its %.1f s budget: a random move", agent.name, limit)
                return secrets.choice(decision.legal)
        try:
            answer = waiting.result()
        except Exception:  # a dead worker is spawned again by the next move sent to it
            log.exception("bot %s failed: a random move", agent.name)
            return secrets.choice(decision.legal)
        choice = answer[0] if isinstance(answer, tuple) else answer
        if choice not in decision.legal:
            log.error("bot %s chose %r, not a legal choice: a random move", agent.name, choice)
            return secrets.choice(decision.legal)
        return str(choice)

    def _submit(
        self,
        index: int,
        recipe: Recipe,
        history: list[dict[int, str]],
        deadline: float | None,
    ) -> tuple[Future[Any], Callable[[], float | None]]:
        """Send a move to worker ``index``; also a function telling when the worker began
        on it, as far as is known (``None``: a move ahead of it is still being thought)."""
        worker = self._workers[index]
        if worker is None:
            worker = self._workers[index] = self._spawn()
        ahead = [f for f in self._queued[index] if not f.done()]
        asked = time.monotonic()
        try:
            future = worker.submit(botworkers.think, recipe, history, self.budget, deadline)
        except BrokenProcessPool:  # it died since its last move: a new one takes this move
            worker.shutdown(wait=False, cancel_futures=True)
            worker = self._workers[index] = self._spawn()
            ahead = []
            future = worker.submit(botworkers.think, recipe, history, self.budget, deadline)
        self._queued[index] = [*ahead, future]
        future.add_done_callback(_ended)

        def started() -> float | None:
            if not all(f.done() for f in ahead):
                return None
            # The worker began on it when the last move ahead of it ended.
            return max((getattr(f, "ended", asked) for f in ahead), default=asked)

        return future, started

    def start(self) -> None:
        """Start every worker process now, loading the games while the server comes up: a
        worker started by its first move made that move wait for it (about 2 s)."""
        for index in range(self.processes):
            if self._workers[index] is None:
                worker = self._workers[index] = self._spawn()
                ready = worker.submit(botworkers.ready)
                ready.add_done_callback(_ended)
                self._queued[index] = [ready]  # a first move waits for it, as for a move

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
        self.executor.shutdown(wait=False, cancel_futures=True)
        for worker in self._workers:
            if worker is not None:
                worker.shutdown(wait=False, cancel_futures=True)


def _ended(future: Future[Any]) -> None:
    """Note when a worker's move ended: the next one in that worker began then."""
    future.ended = time.monotonic()  # type: ignore[attr-defined]
