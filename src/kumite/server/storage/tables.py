"""Tables and their moves, stored (event-sourced): a table's game, seed, options and seats,
every accepted step, the partial choices toward a simultaneous one, each seat's token hash;
made, listed, loaded again (after a restart too)."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    bindparam,
    delete,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.orm import Mapped, Session, mapped_column
from sqlalchemy.sql import Executable

from kumite.server.seeds import new_seed
from kumite.server.storage.base import Base, StoreBase, _aware, now, token_hash
from kumite.server.storage.chat import chat_of
from kumite.server.storage.commit import Params, Write, _execute
from kumite.server.storage.players import _DELETE_HOLDER, _INSERT_HOLDER, HolderRow

_MAKER_LOCK = 0x6D616B65  # "make": the first key of a maker's lock (the second: its hash)


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


class TooManyOpenTablesError(Exception):
    """A client that has made its most unfinished tables asked for one more: nothing made."""

    def __init__(self, most: int) -> None:
        super().__init__(
            f"your address has {most} unfinished tables already: finish or leave one first"
        )
        self.most = most


class TableStore(StoreBase):
    """The tables' part of the store: writes (each committed before it returns, or queued
    on the group committer with a future) and reads."""

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

    def set_clock(self, table_id: str, clock: dict[str, Any]) -> asyncio.Future[None]:
        """Queue the table's clock (a game clock's banks after a step)."""
        return self.writer.submit([(_SET_CLOCK, {"t": table_id, "clock": clock})])

    def finish(self, table_id: str, outcome: dict[str, Any]) -> asyncio.Future[None]:
        """Queue the end of a game decided outside its rules (a resignation)."""
        return self.writer.submit(
            [(_FINISH_PLAYING, {"t": table_id, "updated": now(), "outcome": outcome})]
        )

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

    def _stored(self, s: Session, row: TableRow) -> StoredTable:
        steps = s.scalars(
            select(StepRow).where(StepRow.table_id == row.id).order_by(StepRow.index)
        ).all()
        partial = s.scalars(select(PartialRow).where(PartialRow.table_id == row.id)).all()
        tokens = s.scalars(select(TokenRow).where(TokenRow.table_id == row.id)).all()
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
            chat=chat_of(s, row.id),
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
_SET_CLOCK = update(_TABLES).where(_TABLES.c.id == bindparam("t")).values(clock=bindparam("clock"))
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
