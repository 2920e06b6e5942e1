"""Who serves a table: one process at a time (docs/deploy.md).

With SQLite there is one server process, which owns every table (:class:`Solo`). Several
``kumite serve`` processes may share one PostgreSQL database (:class:`Leases`): a table is
owned by the process holding its PostgreSQL advisory lock, taken on a connection of its own
that the process keeps open. When that process dies, PostgreSQL ends its session and the
lock is free at once, for the next process asked about the table. A process asked about a
table another one owns forwards the request to it (:mod:`kumite.server.forward`): the owner
is found from PostgreSQL itself — the lock's holder (``pg_locks``) and the address its
session announces as its ``application_name`` (``pg_stat_activity``) — so there is no
broker and no registry to keep in step.

Fencing: a process that lost its lock without knowing it (its connection to PostgreSQL cut)
could still try to store a step; a step's primary key (table, index) refuses the second
writer, so no table ever holds two different steps at one index.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import zlib
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

log = logging.getLogger("kumite.server")

LOCK_SPACE = 0x6B756D69
"""The first key of every table lock ("kumi"); the second is a hash of the table id."""
APP_PREFIX = "kumite-owner "
"""The owner connection's ``application_name``: this, then the address peers reach it at."""


def lock_key(table_id: str) -> int:
    """The table's second lock key: 31 bits of its CRC (two tables may share one; then one
    process owns both, which is harmless)."""
    return zlib.crc32(table_id.encode()) & 0x7FFFFFFF


class Solo:
    """A single server process: it owns every table."""

    shared = False
    """Whether other processes may serve tables of the same database."""
    url = ""

    def claim(self, table_id: str) -> str | None:
        """``None``: this process serves the table; else the address of its owner."""
        return None

    def release(self, table_id: str) -> None:
        return None

    def held(self) -> set[str]:
        return set()

    def holds(self, table_id: str) -> bool:
        """Whether this process still holds the table (it may have lost its lock)."""
        return True

    def check(self) -> None:
        """Find out whether the locks are still held (they are lost with the connection)."""
        return

    def close(self) -> None:
        return None


class Leases(Solo):
    """Tables owned through PostgreSQL advisory locks held on one connection."""

    shared = True

    def __init__(self, engine: Engine, url: str) -> None:
        if len(APP_PREFIX + url) > 63:  # PostgreSQL cuts application_name at 63 bytes
            raise ValueError(f"the advertised address {url!r} is too long (at most 50 chars)")
        self.engine = engine
        self.url = url
        self._mutex = threading.Lock()  # one statement at a time on the connection
        self._keys: dict[int, set[str]] = {}  # key held -> tables claimed under it
        self._conn: Connection | None = None

    def _connection(self) -> Connection:
        if self._conn is None:
            conn = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            conn.execute(
                text("SELECT set_config('application_name', :n, false)"),
                {"n": APP_PREFIX + self.url},
            )
            self._conn = conn
        return self._conn

    def claim(self, table_id: str) -> str | None:
        key = lock_key(table_id)
        with self._mutex:
            tables = self._keys.get(key)
            if tables is not None:
                tables.add(table_id)
                return None
            for _ in range(3):
                if self._scalar("SELECT pg_try_advisory_lock(:a, :b)", key):
                    self._keys[key] = {table_id}
                    return None
                owner = self._scalar(
                    "SELECT a.application_name FROM pg_locks l"
                    " JOIN pg_stat_activity a ON a.pid = l.pid"
                    " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2"
                    " AND l.classid::bigint = :a AND l.objid::bigint = :b LIMIT 1",
                    key,
                )
                if isinstance(owner, str) and owner.startswith(APP_PREFIX):
                    return owner[len(APP_PREFIX) :]
                # Released between the two statements (its owner let go or died): again.
            raise RuntimeError(f"table {table_id}: could not find or take its owner's lock")

    def release(self, table_id: str) -> None:
        key = lock_key(table_id)
        with self._mutex:
            tables = self._keys.get(key)
            if tables is None:
                return
            tables.discard(table_id)
            if not tables:
                del self._keys[key]
                try:
                    self._scalar("SELECT pg_advisory_unlock(:a, :b)", key)
                except Exception as exc:  # the session is gone, and its locks with it
                    log.warning("could not release table %s: %s", table_id, exc)

    def held(self) -> set[str]:
        with self._mutex:
            return {t for tables in self._keys.values() for t in tables}

    def holds(self, table_id: str) -> bool:
        return table_id in self._keys.get(lock_key(table_id), ())

    def _scalar(self, sql: str, key: int) -> Any:
        try:
            return self._connection().execute(text(sql), {"a": LOCK_SPACE, "b": key}).scalar()
        except Exception:
            # The connection broke: its session's locks are gone. Whatever this process
            # still holds in memory is fenced by the steps' primary key; the caller fails.
            self._drop_connection()
            raise

    def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        self._keys.clear()
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.invalidate()

    def check(self) -> None:
        with self._mutex:
            if self._conn is None:
                return
            try:
                self._conn.execute(text("SELECT 1"))
            except Exception as exc:
                log.error("lost the connection holding this server's tables: %s", exc)
                self._drop_connection()

    def close(self) -> None:
        with self._mutex:
            self._drop_connection()
