"""A table's chat (docs/protocol.md, "Chat"): its channels (a team's private one, or the
table's), their stored talk, and who is sent each message."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from kumite.server.protocol import ProtocolError
from kumite.server.saving import stored
from kumite.server.storage import chat_entry, now

if TYPE_CHECKING:
    from kumite.server.runtime import TableRuntime


class TableChat:
    """The chat of one table; each seat talks in the channel its game's web adapter names."""

    def __init__(self, table: TableRuntime, log: dict[str, list[dict[str, Any]]]) -> None:
        self.table = table
        self.log = log
        """channel -> its messages (``seat``, ``text``, ``time``), oldest first."""

    def channel(self, seat: int) -> str | None:
        """The chat channel of ``seat`` (a team's private channel, or the table's)."""
        return self.table.web.chat_channel(self.table.options, seat)

    def rules(self, seat: int | None) -> str | None:
        """The rules of ``seat``'s chat channel, if the game has any."""
        return None if seat is None else self.table.web.chat_rules(self.table.options, seat)

    def length(self, seat: int) -> int:
        """How many messages ``seat``'s channel holds now (where a newcomer's reading starts)."""
        channel = self.channel(seat)
        return 0 if channel is None else len(self.log.get(channel, ()))

    async def send(self, seat: int, text: str) -> None:
        """Store ``seat``'s message and send it to the table's sockets of its channel."""
        table = self.table
        channel = self.channel(seat)
        if channel is None:
            raise ProtocolError("no-chat", "there is no chat at this table")
        # Judged from the sender's own view: the reason tells them nothing new.
        reason = table.web.chat_refusal(table.game, table.options, table.state.view(seat), text)
        if reason is not None:
            raise ProtocolError("chat-refused", f"not sent: {reason}")
        created: datetime.datetime = now()
        await stored(table.hub.store.add_chat(table.id, channel, seat, text, created))
        self.log.setdefault(channel, []).append(chat_entry(seat, text, created))
        message = {"type": "chat", "channel": channel, "seat": seat, "text": text}
        for client in list(table.clients):
            if client.seat is not None and self.channel(client.seat) == channel:
                try:
                    await client.send(message)
                except Exception:
                    table.clients.discard(client)

    def history(self, seat: int | None) -> list[dict[str, Any]]:
        """What ``seat`` may read of its channel's talk: since its person took it."""
        channel = None if seat is None else self.channel(seat)
        if seat is None or channel is None:
            return []
        return list(self.log.get(channel, ())[self.table.seats[seat].chat_from :])
