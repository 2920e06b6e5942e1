"""The hub of a server's live tables: which it serves, loading them from storage when
first asked for, letting go of the unused, closing the idle, and rating finished games."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import re
import time
from typing import Any

import anyio

from kumite.server import ratings
from kumite.server.bots import BotPool
from kumite.server.ownership import Solo
from kumite.server.protocol import ProtocolError
from kumite.server.runtime import CLOSED_CODE, RESTART_CODE, Client, TableRuntime
from kumite.server.saving import first_line as _first_line
from kumite.server.saving import stored as _stored
from kumite.server.settings import ServerSettings
from kumite.server.storage import Store, now

log = logging.getLogger("kumite.server")

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a table id may look like (anything else is no table, without asking the database)."""


IDLE_EVICT = ServerSettings.evict_after
"""Seconds a table nobody uses stays in memory by default (:meth:`Hub.sweep`)."""
SWEEP_EVERY = 30.0
"""The longest time between two sweeps (shorter when tables are let go of sooner)."""
CLAIM_GRACE = 60.0
"""Seconds a table claimed but never loaded (a request for a table that does not exist,
say) stays claimed before the sweep lets go of it."""


class Hub:
    """All live tables of a server."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.0,
        settings: ServerSettings | None = None,
        ownership: Solo | None = None,
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.settings = settings or ServerSettings()
        self.ownership = ownership or Solo()
        """Which tables this process serves (all of them, but with several processes on one
        PostgreSQL database: :mod:`kumite.server.ownership`)."""
        self.bots = BotPool(
            self.settings.bot_threads,
            self.settings.bot_budget,
            self.settings.bot_processes,
            memory=self.settings.bot_memory,
        )
        self.tables: dict[str, TableRuntime] = {}
        self.evict_after = self.settings.evict_after
        self.sweep_every = min(SWEEP_EVERY, max(0.5, self.evict_after / 2))
        self._claimed: dict[str, float] = {}
        """Tables claimed (their lock taken) and when, until loaded or let go of."""
        self._swept = float("-inf")
        self._rating: set[asyncio.Future[None]] = set()

    async def locate(self, table_id: str) -> str | None:
        """``None`` if this process serves the table (claiming it if nobody does), else the
        address of the process that owns it."""
        if table_id in self.tables or not self.ownership.shared:
            return None
        owner = await anyio.to_thread.run_sync(self.ownership.claim, table_id)
        if owner is None:
            self._claimed.setdefault(table_id, time.monotonic())
        return owner

    def get(self, table_id: str) -> TableRuntime | None:
        """The table, loaded from storage if it is not in memory; ``None`` if there is none."""
        runtime = self.tables.get(table_id)
        if runtime is not None and not self.ownership.holds(table_id):
            self.drop(table_id)  # its lock was lost: maybe another process serves it now
            runtime = None
        if runtime is None:
            if not TABLE_ID.fullmatch(table_id):
                return None
            try:
                if self.ownership.claim(table_id) is not None:
                    raise ProtocolError("unavailable", "another server has this table; try again")
                stored = self.store.load(table_id)
                if stored is None:
                    self.ownership.release(table_id)
                    self._claimed.pop(table_id, None)
                    return None
                runtime = TableRuntime(self, stored)
                runtime.recover()
                if runtime.finished and runtime.rated:
                    runtime.rating_changes = ratings.changes(self.store, table_id)
            except ProtocolError:
                raise
            except Exception as exc:  # the database is down, say: the server's fault
                log.error("table %s could not be loaded: %s", table_id, _first_line(exc))
                raise ProtocolError(
                    "unavailable", "the table could not be loaded; try again"
                ) from None
            self.tables[table_id] = runtime
            self._claimed.pop(table_id, None)
        runtime.last_used = time.monotonic()
        return runtime

    def drop(self, table_id: str) -> None:
        """Forget a table this process no longer owns: its bots stop, its sockets are told
        to reconnect (they reach whoever owns it now)."""
        runtime = self.tables.pop(table_id, None)
        if runtime is None:
            return
        runtime.stop()
        gone = ProtocolError("unavailable", "this table moved to another server; reconnect")
        for client in list(runtime.clients):
            runtime.clients.discard(client)
            with contextlib.suppress(RuntimeError):  # no event loop: nobody to tell
                asyncio.get_running_loop().create_task(_tell_and_close(client, gone))

    # -- ratings ------------------------------------------------------------------------
    def rate(self, runtime: TableRuntime) -> None:
        """Move the ratings by a rated table's result, in the background (docs/protocol.md,
        "Ratings"): a game with nobody to rate, or no player at all, moves nothing."""
        outcome = runtime.outcome
        seated = ratings.entrants([s.to_json() for s in runtime.seats], runtime.holders)
        if not runtime.rated or outcome is None or seated is None:
            return
        if all(e.kind == "bot" for e in seated):
            return  # bots among themselves: the lobby's bot tables would flood the ratings
        sides: list[list[int]] = []
        for seat in range(len(runtime.seats)):
            if not any(seat in side for side in sides):
                sides.append(sorted(runtime.side(seat)))
        args = (self.store, runtime.id, runtime.game.info.id, seated, sides, outcome)
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a table completed as it is loaded, in a test)
            self._rate_now(runtime, *args)
            return
        task = asyncio.ensure_future(anyio.to_thread.run_sync(self._rate_now, runtime, *args))
        self._rating.add(task)
        task.add_done_callback(self._rating.discard)
        # Every seat is shown the rating changes on its result screen as soon as they exist.
        task.add_done_callback(lambda _: asyncio.ensure_future(runtime.broadcast()))

    def _rate_now(self, runtime: TableRuntime, *args: Any) -> None:
        try:
            ratings.rate(*args)
            runtime.rating_changes = ratings.changes(self.store, runtime.id)
        except Exception as exc:  # the game stands; its rating is lost, and said so
            log.error("rating table %s failed: %s", args[1], _first_line(exc))

    async def rated(self) -> None:
        """Wait until the ratings under way are stored (tests)."""
        while self._rating:
            await asyncio.gather(*list(self._rating))

    # -- housekeeping -------------------------------------------------------------------
    def sweep(self, now: float | None = None) -> list[str]:
        """Let go of tables nobody has used for :data:`IDLE_EVICT` seconds: no socket open,
        no bot thinking, nothing under way.

        Without this a long-running server keeps every table it ever served, and its garbage
        collector's full passes grow with them. A table let go of is loaded again from
        storage when next asked for (partial choices and all). Runs its scan at most every
        :data:`SWEEP_EVERY` s.
        """
        now = time.monotonic() if now is None else now
        if now - self._swept < self.sweep_every:
            return []
        self._swept = now
        idle = [
            table_id
            for table_id, rt in self.tables.items()
            if rt.holds == 0
            and not rt.clients
            and not rt.busy
            and now - rt.last_used >= self.evict_after
        ]
        for table_id in idle:
            del self.tables[table_id]
            self.ownership.release(table_id)
        for table_id, claimed in list(self._claimed.items()):
            if table_id not in self.tables and now - claimed >= CLAIM_GRACE:
                del self._claimed[table_id]
                self.ownership.release(table_id)
        if self.ownership.shared:
            for table_id in [t for t in self.tables if not self.ownership.holds(t)]:
                self.drop(table_id)
        return idle

    async def close_idle(self, wall: datetime.datetime | None = None) -> list[str]:
        """Close the unfinished tables that have had no step for ``settings.idle_close``
        seconds (those in memory and those only in storage). Returns their ids."""
        if self.settings.idle_close <= 0:
            return []
        cutoff = (wall or now()) - datetime.timedelta(seconds=self.settings.idle_close)
        closed = []
        for table_id in await anyio.to_thread.run_sync(self.store.idle, cutoff):
            runtime = self.tables.get(table_id)
            if runtime is None:
                await _stored(self.store.close_table(table_id, cutoff))
                runtime = self.tables.get(table_id)  # loaded meanwhile: close it there too
                if runtime is not None and not runtime.over and runtime.updated < cutoff:
                    runtime.closed = True
                    await runtime.disconnect(
                        None, CLOSED_CODE, ProtocolError("closed", "this table was closed")
                    )
            elif not await runtime.close_idle(cutoff):
                continue
            closed.append(table_id)
        if closed:
            log.info("closed %d tables idle since %s", len(closed), cutoff.isoformat())
        return closed

    async def maintain(self) -> None:
        """Forever: close idle tables and let go of unused ones, every :attr:`sweep_every`."""
        while True:
            await asyncio.sleep(self.sweep_every)
            # Any failure is logged and tried again next time: were this loop to end, no
            # table would be let go of again and memory would grow with every table served.
            try:
                await self.close_idle()
            except ProtocolError:
                pass  # storage unavailable: logged already
            except Exception as exc:
                log.error("closing idle tables failed: %s", _first_line(exc))
            try:
                # Its tables' locks lost with their connection: let go of them (in sweep).
                await anyio.to_thread.run_sync(self.ownership.check)
                self.sweep()
            except Exception as exc:
                log.error("letting go of unused tables failed: %s", _first_line(exc))

    def shutdown(self) -> None:
        for runtime in self.tables.values():
            runtime.stop()
        self.bots.shutdown()
        self.ownership.close()


async def _tell_and_close(client: Client, error: ProtocolError) -> None:
    with contextlib.suppress(Exception):  # a socket already gone
        await client.send(error.to_json())
        await client.close(RESTART_CODE)
