"""Where the bots of every table think: a pool of a fixed number of threads, and a time
budget per move (docs/protocol.md, "Limits").

The pool bounds how much of the machine bots take however many tables play, and takes
moves first come, first served: a table has at most one move waiting or thinking at a time,
so a table of search bots cannot starve the others. A search bot's own time limit is cut to
the budget, so it stops by itself; a bot still thinking a grace period after the budget (or
whose last move is still being thought about) is given a uniformly random legal move
instead, drawn from the operating system's randomness, and the table goes on.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from kumite.agents.base import Agent, decide
from kumite.agents.ismcts import ISMCTSAgent
from kumite.agents.search import Level
from kumite.core.game import Decision, State

log = logging.getLogger("kumite.server")


class BotPool:
    """``threads`` threads for every table's bots; ``budget`` seconds a move."""

    def __init__(self, threads: int, budget: float) -> None:
        if threads < 1 or budget <= 0:
            raise ValueError("the bot pool needs at least one thread and a positive budget")
        self.budget = budget
        self.grace = max(0.5, budget / 4)
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="kumite-bot")
        self._busy: dict[int, Future[str]] = {}  # id(agent) -> its move being thought about

    async def think(self, agent: Agent, state: State, decision: Decision) -> str:
        """``agent``'s choice for ``decision`` (``state`` is never mutated)."""
        running = self._busy.get(id(agent))
        if running is not None and not running.done():
            log.warning("bot %s still thinking about an earlier move: a random move", agent.name)
            return secrets.choice(decision.legal)
        _cap(agent, self.budget)
        if isinstance(agent, ISMCTSAgent) and agent.level.seconds is not None:
            # The move is due a level's time after it was asked for, not after it was picked
            # up: time queued behind other tables' bots counts (issue 19, bots on time).
            agent.deadline = time.monotonic() + agent.level.seconds
        started: list[float] = []

        def job() -> str:
            started.append(time.monotonic())
            return decide(agent, state, decision)

        future = self.executor.submit(job)
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
            if started and time.monotonic() - started[0] >= limit:
                log.warning("bot %s over its %.1f s budget: a random move", agent.name, limit)
                return secrets.choice(decision.legal)
        try:
            choice = waiting.result()
        except Exception:
            log.exception("bot %s failed: a random move", agent.name)
            return secrets.choice(decision.legal)
        if choice not in decision.legal:
            log.error("bot %s chose %r, not a legal choice: a random move", agent.name, choice)
            return secrets.choice(decision.legal)
        return choice

    def _forget(self, key: int, done: Future[str]) -> None:
        # In the worker thread: a dict's get and pop are atomic.
        if self._busy.get(key) is done:
            self._busy.pop(key, None)

    def shutdown(self) -> None:
        """Stop taking moves; moves being thought about finish in the background."""
        self.executor.shutdown(wait=False, cancel_futures=True)


def _cap(agent: Any, seconds: float) -> None:
    """Cut a search agent's time limit a move (its :class:`Level`) to ``seconds``."""
    level = getattr(agent, "level", None)
    if isinstance(level, Level) and (level.seconds is None or level.seconds > seconds):
        agent.level = dataclasses.replace(level, seconds=seconds)
