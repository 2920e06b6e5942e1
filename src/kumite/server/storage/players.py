"""Players and their ratings, stored: who a player is (a name and the hash of their key),
which seats they hold, and the OpenSkill ratings of players and bot kinds (:mod:`..ratings`)."""

from __future__ import annotations

import asyncio
import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    bindparam,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.sql import Executable

from kumite.server.storage.base import Base, StoreBase, now, token_hash
from kumite.server.storage.commit import Params


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
    changes: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """Seat -> its rating on the display scale before and after (the result screen)."""


class PlayerStore(StoreBase):
    """The players' part of the store."""

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

    def set_holder(self, table_id: str, seat: int, player: str | None) -> asyncio.Future[None]:
        """Queue who holds a seat (``None``: nobody, the seat was left)."""
        write: list[tuple[Executable, Params]] = [(_DELETE_HOLDER, {"t": table_id, "s": seat})]
        if player is not None:
            write.append(
                (_INSERT_HOLDER, {"table_id": table_id, "seat": seat, "player_id": player})
            )
        return self.writer.submit(write)


_HOLDERS: Table = HolderRow.__table__  # type: ignore[assignment]
_INSERT_HOLDER = insert(_HOLDERS)
_DELETE_HOLDER = delete(_HOLDERS).where(
    _HOLDERS.c.table_id == bindparam("t"), _HOLDERS.c.seat == bindparam("s")
)
