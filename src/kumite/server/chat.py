"""A table's chat (docs/protocol.md, "Chat"): its channels (a team's private one, or the
table's, and the spectators' own), their stored talk, and who is sent each message."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from kumite.server.protocol import ProtocolError
from kumite.server.saving import stored
from kumite.server.storage import chat_entry, now

if TYPE_CHECKING:
    from kumite.server.runtime import TableRuntime

SPECTATORS = "spectators"
"""The spectators' chat channel (docs/protocol.md, "Chat")."""
SPECTATOR_TALK = 200
"""How many of the spectators' lines a table keeps (the newest)."""


class TableChat:
    """The chat of one table; each seat talks in the channel its game's web adapter names."""

    def __init__(self, table: TableRuntime, log: dict[str, list[dict[str, Any]]]) -> None:
        self.table = table
        self.log = log
        """channel -> its messages (``seat``, ``text``, ``time``), oldest first."""
        self.spectator_talk: list[dict[str, Any]] = []
        """The spectators' own channel: kept while the table is loaded, never stored (a
        gallery's chatter, not the table's record), the newest :data:`SPECTATOR_TALK`."""

    def channel(self, seat: int) -> str | None:
        """The chat channel of ``seat`` (a team's private channel, or the table's)."""
        return self.table.web.chat_channel(self.table.options, seat)

    def rules(self, seat: int | None) -> str | None:
        """The rules of ``seat``'s chat channel, if the game has any (a spectator's: what
        the spectators' channel is)."""
        if seat is None:
            seen = (
                "you read the players' table talk too"
                if self.public_channel()
                else "the players' talk is private to their teams"
            )
            return f"Spectators' talk. The players do not read it; {seen}."
        return self.table.web.chat_rules(self.table.options, seat)

    def public_channel(self) -> str | None:
        """The channel every seat shares (table talk), which spectators read too; ``None``
        where the seats talk apart (2vs2 teams): then spectators read none of it."""
        channels = {self.channel(s) for s in range(len(self.table.seats))}
        return next(iter(channels)) if len(channels) == 1 else None

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
        public = channel == self.public_channel()
        for client in list(table.clients):
            # Spectators hear the table talk (not a team's): BGA's gallery reads the table.
            hears = public if client.seat is None else self.channel(client.seat) == channel
            if hears:
                try:
                    await client.send(message)
                except Exception:
                    table.clients.discard(client)

    async def send_as_spectator(self, name: str | None, text: str) -> None:
        """A spectator says ``text`` on the spectators' channel: spectators alone hear it."""
        table = self.table
        line = {"seat": None, "name": name or "A guest", "text": text, "time": now().isoformat()}
        self.spectator_talk = [*self.spectator_talk, line][-SPECTATOR_TALK:]
        message = {"type": "chat", "channel": SPECTATORS, **line}
        for client in list(table.clients):
            if client.seat is None:
                try:
                    await client.send(message)
                except Exception:
                    table.clients.discard(client)

    def history(self, seat: int | None) -> list[dict[str, Any]]:
        """What ``seat`` may read of its channel's talk: since its person took it (a
        spectator: the table talk, if public, with the spectators' own)."""
        if seat is None:
            public = self.public_channel()
            talk = [*(self.log.get(public, ()) if public else ()), *self.spectator_talk]
            return sorted(talk, key=lambda line: str(line.get("time", "")))
        channel = self.channel(seat)
        if channel is None:
            return []
        return list(self.log.get(channel, ())[self.table.seats[seat].chat_from :])
