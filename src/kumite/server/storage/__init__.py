"""Durable storage of tables with SQLAlchemy (SQLite by default, PostgreSQL by URL).

Games are event-sourced: a table stores its game, seed and options, and every accepted step
(the choices applied together); the engine state is rebuilt by replaying them. A choice made
toward a simultaneous decision that is still waiting for other seats is stored too
(``partial_choices``), so that nothing acknowledged is lost when the server stops; the last
choice of such a step is stored with the step itself, in one transaction.

Seeds are secrets of 128 bits, stored as decimal text (SQLite's and PostgreSQL's integers
are 64 and 32 bits): the game's ``seed`` and its bots' own ``bot_seed``. A database made by
an earlier kumite is migrated when the store opens it (:mod:`kumite.server.migrations`).

The store is split by concern: tables and their moves (:mod:`.tables`), players and ratings
(:mod:`.players`), chat (:mod:`.chat`), over the engine and sessions (:mod:`.base`) and the
group committer of the hot-path writes (:mod:`.commit`). :class:`Store` is all of them.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import sessionmaker

from kumite.server import migrations
from kumite.server.storage.base import (
    Base,
    ClusterRow,
    StoreBase,
    _sqlite_pragmas,
    _switch_to_wal,
    default_database_url,
    dumps,
    now,
    token_hash,
)
from kumite.server.storage.chat import ChatRow, ChatStore, chat_entry
from kumite.server.storage.commit import GroupCommitter, Params, Write
from kumite.server.storage.players import HolderRow, PlayerRow, PlayerStore, RatedRow, RatingRow
from kumite.server.storage.tables import (
    PartialRow,
    Seat,
    StepRow,
    StoredTable,
    TableRow,
    TableStore,
    TokenRow,
    TooManyOpenTablesError,
)

_SCHEMA_LOCK = 0x6B756D697465  # "kumite": the advisory lock key for schema creation


class Store(TableStore, PlayerStore, ChatStore):
    """All database access of the server: its parts by concern (:mod:`.tables`,
    :mod:`.players`, :mod:`.chat`) over one engine (:mod:`.base`, :mod:`.commit`)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_database_url()
        self.engine: Engine = create_engine(self.url, future=True, pool_pre_ping=True)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._create_schema()
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.writer = GroupCommitter(self.engine, inline=self.dialect == "sqlite")
        self._made: StoredTable | None = None
        """The table made last, until it is loaded (at once, by whoever made it): nobody
        else knows of it yet, so its rows cannot have changed meanwhile."""
        self._making = threading.Lock()
        """One table made at a time in this process: a maker's count, then its new table
        (with PostgreSQL, a lock per maker in the database covers the other processes)."""
        self._secret: bytes | None = None

    def _create_schema(self) -> None:
        # Two servers starting at once on a new database would race between "is the table
        # there?" and "create it": take the database's write lock first (SQLite) or an
        # advisory lock (PostgreSQL), so the second one finds the tables made.
        # The same lock covers the migration of a database made by an earlier kumite.
        with self.engine.connect() as conn:
            if self.dialect == "sqlite":
                # Rebuilding a table that others refer to needs the foreign keys off, which
                # SQLite only allows outside a transaction.
                conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            elif self.dialect == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _SCHEMA_LOCK})
            migrations.upgrade(conn)
            Base.metadata.create_all(conn)
            conn.commit()
            if self.dialect == "sqlite":
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")

    def close(self) -> None:
        self.writer.close()
        self.engine.dispose()

    async def aclose(self) -> None:
        """:meth:`close` from the event loop the store has served."""
        await self.writer.aclose()
        self.engine.dispose()


__all__: Sequence[str] = [
    "Base",
    "ChatRow",
    "ClusterRow",
    "GroupCommitter",
    "HolderRow",
    "Params",
    "PartialRow",
    "PlayerRow",
    "RatedRow",
    "RatingRow",
    "Seat",
    "StepRow",
    "Store",
    "StoreBase",
    "StoredTable",
    "TableRow",
    "TokenRow",
    "TooManyOpenTablesError",
    "Write",
    "_switch_to_wal",
    "chat_entry",
    "default_database_url",
    "dumps",
    "now",
    "token_hash",
]
