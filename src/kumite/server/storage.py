"""Durable storage of tables with SQLAlchemy (SQLite by default, PostgreSQL by URL).

Games are event-sourced: a table stores its game, seed and options, and every accepted step
(the choices applied together); the engine state is rebuilt by replaying them. A choice made
toward a simultaneous decision that is still waiting for other seats is stored too
(``partial_choices``), so that nothing acknowledged is lost when the server stops; the last
choice of such a step is stored with the step itself, in one transaction.

Seeds are secrets of 128 bits, stored as decimal text (SQLite's and PostgreSQL's integers
are 64 and 32 bits): the game's ``seed`` and its bots' own ``bot_seed``. A database made by
an earlier kumite is migrated when the store opens it (:mod:`kumite.server.migrations`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import time
import zlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import platformdirs
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.sql import Executable

from kumite.server import migrations
from kumite.server.seeds import new_seed


def default_database_url() -> str:
    """The SQLite file in the user's data directory."""
    folder = Path(platformdirs.user_data_dir("kumite", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'kumite.sqlite3'}"


def now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def chat_entry(seat: int, text: str, created: datetime.datetime) -> dict[str, Any]:
    """A chat message as sent in a ``welcome``'s history."""
    return {"seat": seat, "text": text, "time": created.isoformat()}


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "kumite_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    seed: Mapped[str] = mapped_column(String(80))
    """The game's seed (decimal text): the engine's chance. A secret until the game ends."""
    bot_seed: Mapped[str | None] = mapped_column(String(80), nullable=True)
    """The bots' own secret (decimal text), never shown to anyone; NULL in a finished table
    migrated from an earlier kumite."""
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """Per seat: ``kind`` (human/bot), ``agent``, ``name``, ``claimed``."""
    status: Mapped[str] = mapped_column(String(16), default="playing")
    """``playing``, ``finished`` or ``closed`` (left unfinished too long, or by its bots)."""
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    """Invite-only: never listed in the lobby (reached by its link alone)."""
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    """Whether its result moves the players' ratings (:mod:`.ratings`)."""
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The time control (``per``: move or game, ``seconds``; per game also each seat's
    ``banks`` left), or NULL: no clock."""
    maker: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """Who made it, for the open-table limit: a keyed hash of the client's address
    (:meth:`Store.maker_key`; the address itself is not kept), or NULL."""


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


class PlayerRow(Base):
    """A person known to this server: a display name and the hash of a secret key their
    browser keeps (no password; docs/protocol.md, "Players")."""

    __tablename__ = "kumite_players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    """Public: names the player in ratings; never lets anyone act as them."""
    name: Mapped[str] = mapped_column(String(40))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


class HolderRow(Base):
    """Which player holds which seat (for "My games", and a hello by player key)."""

    __tablename__ = "kumite_seat_holders"

    table_id: Mapped[str] = mapped_column(ForeignKey("kumite_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("kumite_players.id"), index=True)


class RatingRow(Base):
    """A player's or a bot kind's OpenSkill rating in one game (:mod:`.ratings`)."""

    __tablename__ = "kumite_ratings"

    subject: Mapped[str] = mapped_column(String(64), primary_key=True)
    """A player's id, or ``bot:<agent>``."""
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(8))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


class RatedRow(Base):
    """A table whose result has moved the ratings (each table is rated once)."""

    __tablename__ = "kumite_rated"

    table_id: Mapped[str] = mapped_column(ForeignKey("kumite_tables.id"), primary_key=True)
    rated: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


class ClusterRow(Base):
    """Settings shared by the server processes of one database (docs/deploy.md)."""

    __tablename__ = "kumite_cluster"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


@dataclasses.dataclass(slots=True)
class Seat:
    """One seat of a table: who sits there (``bot``, ``human``, or ``open`` once left), the
    name shown, a bot's agent, and whether a person holds it."""

    kind: str
    name: str = ""
    agent: str | None = None
    claimed: bool = False
    chat_from: int = 0
    """How many messages of its chat channel there were when its person took it (a seat
    joined mid-game reads its team's talk from then on): stored, never shown."""

    def to_json(self) -> dict[str, Any]:
        """The seat as everyone is shown it."""
        # Not dataclasses.asdict: this is on every update sent (its deep copy was ~5% of
        # the server's time at 1,000 tables).
        return {"kind": self.kind, "name": self.name, "agent": self.agent, "claimed": self.claimed}

    def stored(self) -> dict[str, Any]:
        """The seat as it is stored."""
        out = self.to_json()
        if self.chat_from:
            out["chat_from"] = self.chat_from
        return out

    @classmethod
    def of(cls, raw: Seat | Mapping[str, Any]) -> Seat:
        """A seat, or one from its JSON form (older rows may lack a name or an agent)."""
        if isinstance(raw, Seat):
            return raw
        return cls(
            raw["kind"],
            raw.get("name") or "",
            raw.get("agent"),
            bool(raw.get("claimed")),
            int(raw.get("chat_from") or 0),
        )


@dataclasses.dataclass
class StoredTable:
    """A table as loaded from storage."""

    id: str
    game: str
    seed: int
    bot_seed: int
    """The seed of the table's bots' own streams (a fresh secret if none was stored)."""
    options: dict[str, Any]
    seats: list[Seat]
    status: str
    outcome: dict[str, Any] | None
    rematch_of: str | None
    next_table: str | None
    """The rematch made from this table, if any."""
    created: datetime.datetime
    updated: datetime.datetime
    """When the last step was applied (or the table made)."""
    steps: list[dict[int, str]]
    partial: dict[int, tuple[int, str]]
    """seat -> (step it was made for, choice)."""
    token_hashes: dict[int, str]
    """seat -> the hash of its token."""
    chat: dict[str, list[dict[str, Any]]]
    """channel -> its messages (``seat``, ``text``, ``time``), oldest first."""
    holders: dict[int, str] = dataclasses.field(default_factory=dict)
    """seat -> the id of the player holding it (seats taken with a player key)."""
    private: bool = False
    rated: bool = True
    clock: dict[str, Any] | None = None


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


_SCHEMA_LOCK = 0x6B756D697465  # "kumite": the advisory lock key for schema creation
_MAKER_LOCK = 0x6D616B65  # "make": the first key of a maker's lock (the second: its hash)


class TooManyOpenTablesError(Exception):
    """A client that has made its most unfinished tables asked for one more: nothing made."""

    def __init__(self, most: int) -> None:
        super().__init__(
            f"your address has {most} unfinished tables already: finish or leave one first"
        )
        self.most = most


class Store:
    """All database access of the server."""

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

    async def aclose(self) -> None:
        """:meth:`close` from the event loop the store has served."""
        await self.writer.aclose()
        self.engine.dispose()

    # -- writes (each commits before returning) ----------------------------------------
    def create_table(
        self,
        table_id: str,
        game: str,
        seed: int,
        options: dict[str, Any],
        seats: Sequence[Seat | Mapping[str, Any]],
        tokens: dict[int, str],
        rematch_of: str | None = None,
        *,
        bot_seed: int | None = None,
        holders: Mapping[int, str] | None = None,
        private: bool = False,
        rated: bool = True,
        clock: dict[str, Any] | None = None,
        maker: str | None = None,
        most_open: int | None = None,
    ) -> None:
        """Store a new table (``bot_seed``: a fresh secret unless given; ``holders``: seat ->
        the player who holds it). ``maker``: the client address that asked for it, which
        may have ``most_open`` unfinished tables at most (else
        :class:`TooManyOpenTablesError`, and nothing is made); counted and made in one
        transaction, so that no two requests both take the last place."""
        holders = dict(holders or {})
        bot_seed = new_seed() if bot_seed is None else bot_seed
        made = [Seat.of(seat) for seat in seats]
        key = None if maker is None else self.maker_key(maker)
        with self._making, self.session() as s:
            if key is not None and most_open is not None:
                self._reserve(s, key, most_open)
            row = TableRow(
                id=table_id,
                game=game,
                seed=str(seed),
                bot_seed=str(bot_seed),
                options=options,
                seats=[seat.stored() for seat in made],
                status="playing",
                rematch_of=rematch_of,
                private=private,
                rated=rated,
                clock=clock,
                maker=key,
            )
            s.add(row)
            s.flush()
            for seat, token in tokens.items():
                s.add(TokenRow(table_id=table_id, seat=seat, token_hash=token_hash(token)))
            for seat, player in holders.items():
                s.add(HolderRow(table_id=table_id, seat=seat, player_id=player))
        # The server loads it at once: from here, not from the rows just written.
        self._made = StoredTable(
            id=table_id,
            game=game,
            seed=seed,
            bot_seed=bot_seed,
            options=dict(options),
            seats=[dataclasses.replace(seat) for seat in made],
            status="playing",
            outcome=None,
            rematch_of=rematch_of,
            next_table=None,
            created=_aware(row.created),
            updated=_aware(row.updated),
            steps=[],
            partial={},
            token_hashes={seat: token_hash(token) for seat, token in tokens.items()},
            chat={},
            holders=holders,
            private=private,
            rated=rated,
            clock=None if clock is None else dict(clock),
        )

    def _reserve(self, s: Session, maker: str, most: int) -> None:
        """Raise :class:`TooManyOpenTablesError` if ``maker`` has ``most`` unfinished tables;
        else its new table may be added in this transaction, ``s``. With PostgreSQL the
        maker's lock is held until the transaction ends, so another process adding one for
        the same maker counts after this one is committed."""
        if self.dialect == "postgresql":
            s.execute(
                text("SELECT pg_advisory_xact_lock(:a, :b)"),
                {"a": _MAKER_LOCK, "b": zlib.crc32(maker.encode()) & 0x7FFFFFFF},
            )
        count = s.scalar(
            select(func.count())
            .select_from(TableRow)
            .where(TableRow.maker == maker, TableRow.status == "playing")
        )
        if (count or 0) >= most:
            raise TooManyOpenTablesError(most)

    def maker_key(self, address: str) -> str:
        """A client address as its tables' maker is stored: keyed with the database's own
        secret, so the same on every process of one database and no address in it."""
        if self._secret is None:
            self._secret = self.cluster_secret().encode()
        return hmac.new(self._secret, address.encode(), "sha256").hexdigest()[:32]

    def add_partial(self, table_id: str, seat: int, step: int, choice: str) -> asyncio.Future[None]:
        """Queue a choice made toward a simultaneous decision; the future resolves once it
        is committed."""

        return self.writer.submit(
            [
                (_DELETE_PARTIAL_SEAT, {"t": table_id, "s": seat}),
                (
                    _INSERT_PARTIAL,
                    {"table_id": table_id, "seat": seat, "step": step, "choice": choice},
                ),
            ]
        )

    def add_step(
        self,
        table_id: str,
        index: int,
        choices: dict[int, str],
        outcome: dict[str, Any] | None = None,
    ) -> asyncio.Future[None]:
        """Queue an applied step (clearing the partial choices it consumed, in the same
        transaction); the future resolves once it is committed."""
        return self.writer.submit(_step_write(table_id, index, choices, outcome))

    def add_step_now(
        self,
        table_id: str,
        index: int,
        choices: dict[int, str],
        outcome: dict[str, Any] | None = None,
    ) -> None:
        """:meth:`add_step`, committed before returning (no event loop needed): for a step
        completed while a table is loaded (:meth:`TableRuntime.recover`)."""
        with self.engine.begin() as conn:
            _execute(conn, [_step_write(table_id, index, choices, outcome)])

    def close_table(self, table_id: str, idle_since: datetime.datetime) -> asyncio.Future[None]:
        """Queue closing an unfinished table if it has had no step since ``idle_since``."""
        return self.writer.submit([(_CLOSE, {"t": table_id, "cutoff": idle_since})])

    def set_seats(self, table_id: str, seats: Sequence[Seat]) -> asyncio.Future[None]:
        """Queue the table's seats; the future resolves once they are committed."""
        return self.writer.submit(
            [(_SET_SEATS, {"t": table_id, "seats": [x.stored() for x in seats]})]
        )

    def set_token(self, table_id: str, seat: int, token: str) -> asyncio.Future[None]:
        """Queue a seat's new token (a seat that is not a bot's has one from the start)."""
        return self.writer.submit(
            [(_SET_TOKEN, {"t": table_id, "s": seat, "token_hash": token_hash(token)})]
        )

    def seat_person(
        self, table_id: str, seat: int, token: str, player: str | None, seats: Sequence[Seat]
    ) -> asyncio.Future[None]:
        """Queue a seat taken by a person: its new token, who holds it (``None``: nobody
        known) and the table's seats, in one transaction."""
        write: list[tuple[Executable, Params]] = [
            (_SET_TOKEN, {"t": table_id, "s": seat, "token_hash": token_hash(token)}),
            (_DELETE_HOLDER, {"t": table_id, "s": seat}),
        ]
        if player is not None:
            write.append(
                (_INSERT_HOLDER, {"table_id": table_id, "seat": seat, "player_id": player})
            )
        write.append((_SET_SEATS, {"t": table_id, "seats": [x.stored() for x in seats]}))
        return self.writer.submit(write)

    def set_holder(self, table_id: str, seat: int, player: str | None) -> asyncio.Future[None]:
        """Queue who holds a seat (``None``: nobody, the seat was left)."""
        write: list[tuple[Executable, Params]] = [(_DELETE_HOLDER, {"t": table_id, "s": seat})]
        if player is not None:
            write.append(
                (_INSERT_HOLDER, {"table_id": table_id, "seat": seat, "player_id": player})
            )
        return self.writer.submit(write)

    def set_clock(self, table_id: str, clock: dict[str, Any]) -> asyncio.Future[None]:
        """Queue the table's clock (a game clock's banks after a step)."""
        return self.writer.submit([(_SET_CLOCK, {"t": table_id, "clock": clock})])

    def finish(self, table_id: str, outcome: dict[str, Any]) -> asyncio.Future[None]:
        """Queue the end of a game decided outside its rules (a resignation)."""
        return self.writer.submit(
            [(_FINISH_PLAYING, {"t": table_id, "updated": now(), "outcome": outcome})]
        )

    # -- players -------------------------------------------------------------------------
    def add_player(self, player_id: str, name: str, key: str) -> None:
        with self.session() as s:
            s.add(PlayerRow(id=player_id, name=name, key_hash=token_hash(key)))

    def player_by_key(self, key: str) -> tuple[str, str] | None:
        """The (id, name) of the player whose key this is."""
        with self.session() as s:
            row = s.execute(
                select(PlayerRow.id, PlayerRow.name).where(PlayerRow.key_hash == token_hash(key))
            ).first()
            return None if row is None else (row[0], row[1])

    def rename_player(self, player_id: str, name: str) -> None:
        with self.session() as s:
            s.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(name=name))

    def player_games(self, player_id: str, limit: int = 200) -> list[dict[str, Any]]:
        """Every table where the player holds a seat, the latest first."""
        with self.session() as s:
            rows = s.execute(
                select(TableRow, HolderRow.seat)
                .join(HolderRow, HolderRow.table_id == TableRow.id)
                .where(HolderRow.player_id == player_id)
                .order_by(TableRow.updated.desc())
                .limit(limit)
            ).all()
            return [{**_listed(row), "seat": seat} for row, seat in rows]

    def add_chat(
        self, table_id: str, channel: str, seat: int, text: str, created: datetime.datetime
    ) -> asyncio.Future[None]:
        """Queue a chat message; the future resolves once it is committed."""
        return self.writer.submit(
            [
                (
                    _INSERT_CHAT,
                    {
                        "table_id": table_id,
                        "channel": channel,
                        "seat": seat,
                        "text": text,
                        "created": created,
                    },
                )
            ]
        )

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

    # -- reads ---------------------------------------------------------------------------

    def load(self, table_id: str) -> StoredTable | None:
        made = self._made
        if made is not None and made.id == table_id:
            self._made = None
            return made
        with self.session() as s:
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            return self._stored(s, row)

    def idle(self, since: datetime.datetime, limit: int = 500) -> list[str]:
        """Unfinished tables with no step since ``since`` (at most ``limit``, oldest first)."""
        with self.session() as s:
            return list(
                s.scalars(
                    select(TableRow.id)
                    .where(TableRow.status == "playing", TableRow.updated < since)
                    .order_by(TableRow.updated)
                    .limit(limit)
                )
            )

    def list_tables(
        self, limit: int = 100, offset: int = 0, *, waiting: bool = False, game: str | None = None
    ) -> list[dict[str, Any]]:
        """Listed (not private) tables, the latest first; ``waiting``: unfinished ones with
        an open seat."""
        query = select(TableRow).where(TableRow.private.is_not(True))
        if game is not None:
            query = query.where(TableRow.game == game)
        if waiting:
            query = query.where(TableRow.status == "playing")
        with self.session() as s:
            if not waiting:
                rows = s.scalars(
                    query.order_by(TableRow.updated.desc()).offset(offset).limit(limit)
                ).all()
                return [_listed(r) for r in rows]
            # An open seat lives in the seats' JSON: filtered here, paged after.
            found: list[dict[str, Any]] = []
            skipped = 0
            for r in s.scalars(query.order_by(TableRow.updated.desc()).limit(5000)):
                if not any(x.get("kind") == "open" and not x.get("claimed") for x in r.seats):
                    continue
                if skipped < offset:
                    skipped += 1
                    continue
                found.append(_listed(r))
                if len(found) >= limit:
                    break
            return found

    def _stored(self, s: Session, row: TableRow) -> StoredTable:
        steps = s.scalars(
            select(StepRow).where(StepRow.table_id == row.id).order_by(StepRow.index)
        ).all()
        partial = s.scalars(select(PartialRow).where(PartialRow.table_id == row.id)).all()
        tokens = s.scalars(select(TokenRow).where(TokenRow.table_id == row.id)).all()
        chat: dict[str, list[dict[str, Any]]] = {}
        for message in s.scalars(
            select(ChatRow).where(ChatRow.table_id == row.id).order_by(ChatRow.id)
        ):
            chat.setdefault(message.channel, []).append(
                chat_entry(message.seat, message.text, message.created)
            )
        return StoredTable(
            id=row.id,
            game=row.game,
            seed=int(row.seed),
            bot_seed=new_seed() if row.bot_seed is None else int(row.bot_seed),
            options=dict(row.options),
            seats=[Seat.of(x) for x in row.seats],
            status=row.status,
            outcome=row.outcome,
            rematch_of=row.rematch_of,
            next_table=s.scalars(
                select(TableRow.id).where(TableRow.rematch_of == row.id).limit(1)
            ).first(),
            created=row.created,
            updated=_aware(row.updated),
            steps=[{int(k): v for k, v in st.choices.items()} for st in steps],
            partial={p.seat: (p.step, p.choice) for p in partial},
            token_hashes={t.seat: t.token_hash for t in tokens},
            chat=chat,
            holders={
                h.seat: h.player_id
                for h in s.scalars(select(HolderRow).where(HolderRow.table_id == row.id))
            },
            private=bool(row.private),
            rated=bool(row.rated),
            clock=row.clock,
        )


# The hot-path statements, built once (SQLAlchemy then reuses their compiled form).
_PARTIAL: Table = PartialRow.__table__  # type: ignore[assignment]
_TABLES: Table = TableRow.__table__  # type: ignore[assignment]
_STEPS: Table = StepRow.__table__  # type: ignore[assignment]
_TOKENS: Table = TokenRow.__table__  # type: ignore[assignment]
_CHAT: Table = ChatRow.__table__  # type: ignore[assignment]
_INSERT_STEP = insert(_STEPS)
_INSERT_PARTIAL = insert(_PARTIAL)
_DELETE_PARTIAL_SEAT = delete(_PARTIAL).where(
    _PARTIAL.c.table_id == bindparam("t"), _PARTIAL.c.seat == bindparam("s")
)
_DELETE_PARTIALS = delete(_PARTIAL).where(_PARTIAL.c.table_id == bindparam("t"))
_SET_SEATS = update(_TABLES).where(_TABLES.c.id == bindparam("t")).values(seats=bindparam("seats"))
_SET_TOKEN = (
    update(_TOKENS)
    .where(_TOKENS.c.table_id == bindparam("t"), _TOKENS.c.seat == bindparam("s"))
    .values(token_hash=bindparam("token_hash"))
)
_INSERT_CHAT = insert(_CHAT)
_SET_CLOCK = update(_TABLES).where(_TABLES.c.id == bindparam("t")).values(clock=bindparam("clock"))
_HOLDERS: Table = HolderRow.__table__  # type: ignore[assignment]
_INSERT_HOLDER = insert(_HOLDERS)
_DELETE_HOLDER = delete(_HOLDERS).where(
    _HOLDERS.c.table_id == bindparam("t"), _HOLDERS.c.seat == bindparam("s")
)
_TOUCH = update(_TABLES).where(_TABLES.c.id == bindparam("t")).values(updated=bindparam("updated"))
_FINISH = (
    update(_TABLES)
    .where(_TABLES.c.id == bindparam("t"))
    .values(updated=bindparam("updated"), status="finished", outcome=bindparam("outcome"))
)


_FINISH_PLAYING = (
    update(_TABLES)
    .where(_TABLES.c.id == bindparam("t"), _TABLES.c.status == "playing")
    .values(updated=bindparam("updated"), status="finished", outcome=bindparam("outcome"))
)


_CLOSE = (
    update(_TABLES)
    .where(
        _TABLES.c.id == bindparam("t"),
        _TABLES.c.status == "playing",
        _TABLES.c.updated < bindparam("cutoff"),
    )
    .values(status="closed")
)


def _step_write(
    table_id: str, index: int, choices: dict[int, str], outcome: dict[str, Any] | None
) -> Write:
    """A step's statements: the step, the partial choices it consumed cleared, the table
    touched (or finished)."""
    row = {
        "table_id": table_id,
        "index": index,
        "choices": {str(k): v for k, v in choices.items()},
    }
    last: tuple[Executable, Params] = (
        (_TOUCH, {"t": table_id, "updated": now()})
        if outcome is None
        else (_FINISH, {"t": table_id, "updated": now(), "outcome": outcome})
    )
    return [(_INSERT_STEP, row), (_DELETE_PARTIALS, {"t": table_id}), last]


def _aware(moment: datetime.datetime) -> datetime.datetime:
    """SQLite gives back naive times (stored in UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.UTC)


def _listed(r: TableRow) -> dict[str, Any]:
    """A table as the lobby and "My games" list it (public facts only)."""
    return {
        "id": r.id,
        "game": r.game,
        "status": r.status,
        "seats": [Seat.of(x).to_json() for x in r.seats],
        "created": _aware(r.created).isoformat(),
        "updated": _aware(r.updated).isoformat(),
        "options": _public_options(r.options),
        "private": bool(r.private),
        "rated": bool(r.rated),
        "clock": None if r.clock is None else {k: v for k, v in r.clock.items() if k != "banks"},
    }


def _public_options(options: dict[str, Any]) -> dict[str, Any]:
    """Options fit for a table list (an overlay pack's text is summarised)."""
    return {k: ("(custom pack)" if k == "pack" else v) for k, v in options.items()}


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


__all__: Sequence[str] = ["Store", "StoredTable", "default_database_url"]
