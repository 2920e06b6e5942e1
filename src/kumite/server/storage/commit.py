"""Group commit: the durable writes of the hot path (steps, choices, seats, chat) committed
together, a batch at a time."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql import Executable

Params = dict[str, Any]
Write = Sequence[tuple[Executable, Params]]
"""One durable write: statements with their parameters, run in this order."""


class GroupCommitter:
    """Group commit: writes submitted while a commit is under way are committed together, in
    one transaction; each write's future resolves only after its commit, so whoever awaits
    it may acknowledge the choice durably.

    A batch costs a few round trips however many writes it holds: the writes' statements
    are grouped, each group sent as one ``executemany`` (one multi-row ``INSERT``, or
    psycopg's pipeline). One round trip per statement made a batch of 40 writes take 150-
    470 ms on PostgreSQL; a slow commit gathers a bigger next batch, so it fed itself.

    With SQLite (``inline``) the commit runs on the event loop's own thread at its next
    turn: it takes a fraction of a millisecond, and a writer thread would be starved by the
    GIL while the loop serialises messages. A database server (PostgreSQL) waits for its
    log flush over the network, so there the commit runs in a worker thread while the loop
    goes on serving. (Measured: a commit on the loop through asyncio psycopg took longer,
    p50 23 against 10 ms, each round trip waiting for a turn of the busy loop.)

    Only one commit is in flight at a time, each taking whatever has gathered. A table's
    writes stay in order, each being awaited before the next; writes gathered in one batch
    must not depend on each other's order, except that writes of the same statement run in
    the order they were submitted.
    """

    def __init__(self, engine: Engine, *, inline: bool) -> None:
        self.engine = engine
        self.inline = inline
        self.pending: list[tuple[Write, asyncio.Future[None]]] = []
        self.task: asyncio.Task[None] | None = None  # the flush in flight (not inline)
        self.scheduled = False

    def submit(self, write: Write) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self.pending.append((write, future))
        if self.inline:
            if not self.scheduled:
                self.scheduled = True
                loop.call_soon(self._flush_inline)
        elif self.task is None:
            self.task = loop.create_task(self._flush())
        return future

    def close(self) -> None:
        """Commit what is left (without an event loop)."""
        if self.pending:
            batch, self.pending = self.pending, []
            self._settle(batch, self._commit([w for w, _ in batch]))

    async def aclose(self) -> None:
        """Wait for the commit under way, then commit what is left."""
        if self.task is not None:
            await self.task
        self.close()

    def _flush_inline(self) -> None:
        self.scheduled = False
        batch, self.pending = self.pending, []
        self._settle(batch, self._commit([w for w, _ in batch]))

    async def _flush(self) -> None:
        try:
            while self.pending:
                batch, self.pending = self.pending, []
                loop = asyncio.get_running_loop()
                errors = await loop.run_in_executor(None, self._commit, [w for w, _ in batch])
                self._settle(batch, errors)
        finally:
            # In the same step as the last look at `pending` (no await between): a write
            # submitted from now on starts a flush of its own, none is left behind.
            self.task = None

    def _commit(self, writes: list[Write]) -> list[Exception | None]:
        """Commit the batch; on failure retry each write alone (one bad write must not sink
        the others). Returns each write's error or None."""
        try:
            with self.engine.begin() as conn:
                _execute(conn, writes)
        except Exception:
            errors: list[Exception | None] = []
            for write in writes:
                try:
                    with self.engine.begin() as conn:
                        _execute(conn, [write])
                except Exception as exc:
                    errors.append(exc)
                else:
                    errors.append(None)
            return errors
        return [None] * len(writes)

    @staticmethod
    def _settle(
        batch: list[tuple[Write, asyncio.Future[None]]], errors: list[Exception | None]
    ) -> None:
        for (_, future), error in zip(batch, errors, strict=True):
            if future.done():
                continue
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(error)


def _execute(conn: Connection, writes: Sequence[Write]) -> None:
    """Run the writes: the n-th statements of all writes, grouped by statement, each group
    as one ``executemany`` in submission order; then the (n+1)-th."""
    for n in range(max(len(w) for w in writes)):
        groups: dict[Executable, list[Params]] = {}
        for write in writes:
            if n < len(write):
                statement, params = write[n]
                groups.setdefault(statement, []).append(params)
        for statement, rows in groups.items():
            conn.execute(statement, rows)
