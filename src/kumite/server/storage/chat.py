"""The tables' chat, stored: each message with its channel, seat and time."""

from __future__ import annotations

import asyncio
import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Integer, String, Table, Text, insert, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from kumite.server.storage.base import Base, StoreBase, now


def chat_entry(seat: int, text: str, created: datetime.datetime) -> dict[str, Any]:
    """A chat message as sent in a ``welcome``'s history."""
    return {"seat": seat, "text": text, "time": created.isoformat()}


class ChatRow(Base):
    __tablename__ = "kumite_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("kumite_tables.id"), index=True)
    channel: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


class ChatStore(StoreBase):
    """The chat part of the store."""

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


def chat_of(s: Session, table_id: str) -> dict[str, list[dict[str, Any]]]:
    """A table's chat as loaded: channel -> its messages, oldest first."""
    chat: dict[str, list[dict[str, Any]]] = {}
    for message in s.scalars(
        select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id)
    ):
        chat.setdefault(message.channel, []).append(
            chat_entry(message.seat, message.text, message.created)
        )
    return chat


_CHAT: Table = ChatRow.__table__  # type: ignore[assignment]
_INSERT_CHAT = insert(_CHAT)
