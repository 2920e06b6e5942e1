"""Durable storage of tables with SQLAlchemy (SQLite by default, PostgreSQL by URL).

Games are event-sourced: a table stores its game, seed and options, and every accepted step
(the choices applied together); the engine state is rebuilt by replaying them. A choice made
toward a simultaneous decision that is still waiting for other seats is stored too
(``partial_choices``), so that nothing acknowledged is lost when the server stops.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import platformdirs
from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker


def default_database_url() -> str:
    """The SQLite file in the user's data directory."""
    folder = Path(platformdirs.user_data_dir("kumite", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'kumite.sqlite3'}"


def now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "kumite_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    seed: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """Per seat: ``kind`` (human/bot), ``agent``, ``name``, ``claimed``."""
    status: Mapped[str] = mapped_column(String(16), default="playing")
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


class TokenRow(Base):
    __tablename__ = "kumite_tokens"

    table_id: Mapped[str] = mapped_column(ForeignKey("kumite_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64))


class StepRow(Base):
    __tablename__ = "kumite_steps"

    table_id: Mapped[str] = mapped_column(ForeignKey("kumite_tables.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    choices: Mapped[dict[str, str]] = mapped_column(JSON)


class PartialRow(Base):
    __tablename__ = "kumite_partial_choices"

    table_id: Mapped[str] = mapped_column(ForeignKey("kumite_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    step: Mapped[int] = mapped_column(Integer)
    choice: Mapped[str] = mapped_column(Text)


class ChatRow(Base):
    __tablename__ = "kumite_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("kumite_tables.id"), index=True)
    channel: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


@dataclasses.dataclass
class StoredTable:
    """A table as loaded from storage."""

    id: str
    game: str
    seed: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    status: str
    outcome: dict[str, Any] | None
    rematch_of: str | None
    created: datetime.datetime
    steps: list[dict[int, str]]
    partial: dict[int, tuple[int, str]]
    """seat -> (step it was made for, choice)."""


class GroupCommitter:
    """Group commit: writes submitted while a commit is under way are committed together, in
    one transaction; each write's future resolves only after its commit, so whoever awaits
    it may acknowledge the choice durably.

    With SQLite the commit runs on the event loop's own thread at its next turn: it takes a
    fraction of a millisecond, and a writer thread would be starved by the GIL while the loop
    serialises messages. A database server (PostgreSQL) waits for its log flush over the
    network, so there the commit runs in a worker thread while the loop goes on serving,
    each commit taking whatever has gathered. (A table's writes stay in order: each is
    awaited before the next.)
    """

    PARALLEL = 1  # commits in flight at once; more measured slower on PostgreSQL (p99)

    def __init__(self, engine: Engine, *, inline: bool) -> None:
        self.engine = engine
        self.inline = inline
        self.pending: list[tuple[Write, asyncio.Future[None]]] = []
        self.tasks: set[asyncio.Task[None]] = set()  # keeps the flush tasks referenced
        self.flushing = 0
        self.scheduled = False

    def submit(self, write: Write) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self.pending.append((write, future))
        if self.inline:
            if not self.scheduled:
                self.scheduled = True
                loop.call_soon(self._flush_inline)
        elif self.flushing < self.PARALLEL:
            self.flushing += 1
            task = loop.create_task(self._flush_threaded())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return future

    def close(self) -> None:
        if self.pending:
            batch, self.pending = self.pending, []
            self._settle(batch, self._commit(batch))

    def _flush_inline(self) -> None:
        self.scheduled = False
        batch, self.pending = self.pending, []
        self._settle(batch, self._commit(batch))

    async def _flush_threaded(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self.pending:
                batch, self.pending = self.pending, []
                errors = await loop.run_in_executor(None, self._commit, batch)
                self._settle(batch, errors)
        finally:
            # In the same step as the last look at `pending` (no await between): a write
            # submitted from now on starts a flush of its own, none is left behind.
            self.flushing -= 1

    def _commit(self, batch: list[tuple[Write, asyncio.Future[None]]]) -> list[Exception | None]:
        """Commit the batch; on failure retry each write alone (one bad write must not sink
        the others). Returns each write's error or None."""
        try:
            with self.engine.begin() as conn:
                for write, _ in batch:
                    write(conn)
        except Exception:
            errors: list[Exception | None] = []
            for write, _ in batch:
                try:
                    with self.engine.begin() as conn:
                        write(conn)
                except Exception as exc:
                    errors.append(exc)
                else:
                    errors.append(None)
            return errors
        return [None] * len(batch)

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


Write = Callable[[Connection], None]

_SCHEMA_LOCK = 0x6B756D697465  # "kumite": the advisory lock key for schema creation


class Store:
    """All database access of the server."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_database_url()
        self.engine: Engine = create_engine(self.url, future=True, pool_pre_ping=True)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._create_schema()
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.writer = GroupCommitter(self.engine, inline=self.engine.dialect.name == "sqlite")

    def _create_schema(self) -> None:
        # Two servers starting at once on a new database would race between "is the table
        # there?" and "create it": take the database's write lock first (SQLite) or an
        # advisory lock (PostgreSQL), so the second one finds the tables made.
        with self.engine.connect() as conn:
            if self.dialect == "sqlite":
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            elif self.dialect == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _SCHEMA_LOCK})
            Base.metadata.create_all(conn)
            conn.commit()

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self.sessions.begin() as session:
            yield session

    def close(self) -> None:
        self.writer.close()
        self.engine.dispose()

    # -- writes (each commits before returning) ----------------------------------------
    def create_table(
        self,
        table_id: str,
        game: str,
        seed: int,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        tokens: dict[int, str],
        rematch_of: str | None = None,
    ) -> None:
        with self.session() as s:
            s.add(
                TableRow(
                    id=table_id,
                    game=game,
                    seed=seed,
                    options=options,
                    seats=seats,
                    status="playing",
                    rematch_of=rematch_of,
                )
            )
            s.flush()
            for seat, token in tokens.items():
                s.add(TokenRow(table_id=table_id, seat=seat, token_hash=token_hash(token)))

    def add_partial(self, table_id: str, seat: int, step: int, choice: str) -> asyncio.Future[None]:
        """Queue a choice made toward a simultaneous decision; the future resolves once it
        is committed."""

        def write(conn: Connection) -> None:
            conn.execute(_DELETE_PARTIAL_SEAT, {"t": table_id, "s": seat})
            conn.execute(
                _INSERT_PARTIAL,
                {"table_id": table_id, "seat": seat, "step": step, "choice": choice},
            )

        return self.writer.submit(write)

    def add_step(
        self,
        table_id: str,
        index: int,
        choices: dict[int, str],
        outcome: dict[str, Any] | None = None,
    ) -> asyncio.Future[None]:
        """Queue an applied step (clearing the partial choices it consumed, in the same
        transaction); the future resolves once it is committed."""
        row = {
            "table_id": table_id,
            "index": index,
            "choices": {str(k): v for k, v in choices.items()},
        }

        def write(conn: Connection) -> None:
            conn.execute(_INSERT_STEP, row)
            conn.execute(_DELETE_PARTIALS, {"t": table_id})
            if outcome is None:
                conn.execute(_TOUCH, {"t": table_id, "updated": now()})
            else:
                conn.execute(_FINISH, {"t": table_id, "updated": now(), "outcome": outcome})

        return self.writer.submit(write)

    def set_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        with self.session() as s:
            row = s.get(TableRow, table_id)
            assert row is not None
            row.seats = [dict(x) for x in seats]

    def set_token(self, table_id: str, seat: int, token: str) -> None:
        with self.session() as s:
            s.merge(TokenRow(table_id=table_id, seat=seat, token_hash=token_hash(token)))

    def add_chat(self, table_id: str, channel: str, seat: int, text: str) -> None:
        with self.session() as s:
            s.add(ChatRow(table_id=table_id, channel=channel, seat=seat, text=text))

    # -- reads ---------------------------------------------------------------------------
    def check_token(self, table_id: str, seat: int, token: str) -> bool:
        with self.session() as s:
            row = s.get(TokenRow, (table_id, seat))
            return row is not None and row.token_hash == token_hash(token)

    def load(self, table_id: str) -> StoredTable | None:
        with self.session() as s:
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            return self._stored(s, row)

    def unfinished(self) -> list[StoredTable]:
        with self.session() as s:
            rows = s.scalars(select(TableRow).where(TableRow.status != "finished")).all()
            return [self._stored(s, row) for row in rows]

    def list_tables(self, limit: int = 100) -> list[dict[str, Any]]:
        with self.session() as s:
            rows = s.scalars(select(TableRow).order_by(TableRow.updated.desc()).limit(limit)).all()
            return [
                {
                    "id": r.id,
                    "game": r.game,
                    "status": r.status,
                    "seats": r.seats,
                    "created": r.created.isoformat(),
                    "options": _public_options(r.options),
                }
                for r in rows
            ]

    def chat(self, table_id: str, channel: str) -> list[dict[str, Any]]:
        with self.session() as s:
            rows = s.scalars(
                select(ChatRow)
                .where(ChatRow.table_id == table_id, ChatRow.channel == channel)
                .order_by(ChatRow.id)
            ).all()
            return [{"seat": r.seat, "text": r.text, "time": r.created.isoformat()} for r in rows]

    def _stored(self, s: Session, row: TableRow) -> StoredTable:
        steps = s.scalars(
            select(StepRow).where(StepRow.table_id == row.id).order_by(StepRow.index)
        ).all()
        partial = s.scalars(select(PartialRow).where(PartialRow.table_id == row.id)).all()
        return StoredTable(
            id=row.id,
            game=row.game,
            seed=row.seed,
            options=dict(row.options),
            seats=[dict(x) for x in row.seats],
            status=row.status,
            outcome=row.outcome,
            rematch_of=row.rematch_of,
            created=row.created,
            steps=[{int(k): v for k, v in st.choices.items()} for st in steps],
            partial={p.seat: (p.step, p.choice) for p in partial},
        )


# The hot-path statements, built once (SQLAlchemy then reuses their compiled form).
_PARTIAL: Table = PartialRow.__table__  # type: ignore[assignment]
_TABLES: Table = TableRow.__table__  # type: ignore[assignment]
_STEPS: Table = StepRow.__table__  # type: ignore[assignment]
_INSERT_STEP = insert(_STEPS)
_INSERT_PARTIAL = insert(_PARTIAL)
_DELETE_PARTIAL_SEAT = delete(_PARTIAL).where(
    _PARTIAL.c.table_id == bindparam("t"), _PARTIAL.c.seat == bindparam("s")
)
_DELETE_PARTIALS = delete(_PARTIAL).where(_PARTIAL.c.table_id == bindparam("t"))
_TOUCH = update(_TABLES).where(_TABLES.c.id == bindparam("t")).values(updated=bindparam("updated"))
_FINISH = (
    update(_TABLES)
    .where(_TABLES.c.id == bindparam("t"))
    .values(updated=bindparam("updated"), status="finished", outcome=bindparam("outcome"))
)


def _public_options(options: dict[str, Any]) -> dict[str, Any]:
    """Options fit for a table list (an overlay pack's text is summarised)."""
    return {k: ("(custom pack)" if k == "pack" else v) for k, v in options.items()}


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL with synchronous=NORMAL: a commit survives the process being killed.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


__all__: Sequence[str] = ["Store", "StoredTable", "default_database_url"]
