"""The database under every store: its engine and sessions (SQLite tuned for a commit that
survives a kill), the declarative base of every row, and the secret the server processes of
one database share."""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs
from sqlalchemy import String, Text, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

if TYPE_CHECKING:
    from kumite.server.storage.commit import GroupCommitter
    from kumite.server.storage.tables import StoredTable


def default_database_url() -> str:
    """The SQLite file in the user's data directory."""
    folder = Path(platformdirs.user_data_dir("kumite", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'kumite.sqlite3'}"


def now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _aware(moment: datetime.datetime) -> datetime.datetime:
    """SQLite gives back naive times (stored in UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.UTC)


class Base(DeclarativeBase):
    pass


class ClusterRow(Base):
    """Settings shared by the server processes of one database (docs/deploy.md)."""

    __tablename__ = "kumite_cluster"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class StoreBase:
    """What every part of the store shares: the engine, its sessions, the group committer
    of the hot-path writes, and the cluster's secret. :class:`~kumite.server.storage.Store`
    makes them."""

    url: str
    engine: Engine
    sessions: sessionmaker[Session]
    writer: GroupCommitter
    _made: StoredTable | None
    _making: threading.Lock
    _secret: bytes | None

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self.sessions.begin() as session:
            yield session

    def cluster_secret(self) -> str:
        """The secret the server processes of this database sign forwarded requests with
        (made by the first one to ask)."""
        with self.engine.begin() as conn:
            found = conn.execute(
                select(ClusterRow.value).where(ClusterRow.name == "secret")
            ).scalar()
            if found is not None:
                return str(found)
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(ClusterRow).values(name="secret", value=secrets.token_hex(32)))
        except IntegrityError:
            pass  # another process made it first
        with self.engine.begin() as conn:
            return str(
                conn.execute(
                    select(ClusterRow.value).where(ClusterRow.name == "secret")
                ).scalar_one()
            )

    def maker_key(self, address: str) -> str:
        """A client address as its tables' maker is stored: keyed with the database's own
        secret, so the same on every process of one database and no address in it."""
        if self._secret is None:
            self._secret = self.cluster_secret().encode()
        return hmac.new(self._secret, address.encode(), "sha256").hexdigest()[:32]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL with synchronous=NORMAL: a commit survives the process being killed.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=5000")
    _switch_to_wal(cursor)
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _switch_to_wal(cursor: Any, *, seconds: float = 5.0) -> None:
    """``PRAGMA journal_mode=WAL``, retried while another connection holds the file: two
    connections switching a new file at once would each wait for the other's lock, so SQLite
    fails one with "database is locked" without waiting the busy timeout, and servers
    started together on a new database failed at random (once the file is in WAL mode, which
    it keeps, this is a read)."""
    deadline = time.monotonic() + seconds
    pause = 0.005
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(2 * pause, 0.1)


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)
