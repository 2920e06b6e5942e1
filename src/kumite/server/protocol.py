"""The WebSocket protocol: messages from clients, validated; errors with a code and a clear
message. See ``docs/protocol.md``.

Client -> server::

    {"type": "hello", "seat": 0, "token": "..."}   first message; omit seat/token to watch
    {"type": "choose", "step": 12, "choice": "play:ryu.jab"}
    {"type": "chat", "text": "..."}                   team/table chat
    {"type": "ping"}

Server -> client::

    {"type": "welcome", ...}   {"type": "update", "events": [...], "state": {...}}
    {"type": "ack", "step": 12, "choice": "..."}   {"type": "chat", ...}
    {"type": "error", "code": "...", "message": "..."}   {"type": "rematch", ...}
"""

from __future__ import annotations

import json
from typing import Any, Literal

import msgspec


class ProtocolError(Exception):
    """A client message that is refused; nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message}


class Hello(msgspec.Struct, forbid_unknown_fields=True, tag="hello", tag_field="type"):
    seat: int | None = None
    token: str | None = None


class Choose(msgspec.Struct, forbid_unknown_fields=True, tag="choose", tag_field="type"):
    step: int
    choice: str


class Chat(msgspec.Struct, forbid_unknown_fields=True, tag="chat", tag_field="type"):
    text: str


class Ping(msgspec.Struct, forbid_unknown_fields=True, tag="ping", tag_field="type"):
    pass


Message = Hello | Choose | Chat | Ping
MAX_MESSAGE = 16_384
MAX_CHAT = 500


def parse(raw: str | bytes) -> Message:
    """Decode one client message or raise :class:`ProtocolError` (``malformed``)."""
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError("malformed", f"message too long ({len(raw)} bytes)")
    try:
        json.loads(raw)
    except (ValueError, TypeError):
        raise ProtocolError("malformed", "not valid JSON") from None
    try:
        message: Message = msgspec.json.decode(raw, type=Message)
    except msgspec.ValidationError as exc:
        raise ProtocolError("malformed", f"bad message: {exc}") from None
    if isinstance(message, Chat) and not 0 < len(message.text.strip()) <= MAX_CHAT:
        raise ProtocolError("malformed", f"chat text must be 1..{MAX_CHAT} characters")
    return message


Kind = Literal["human", "open", "bot"]
