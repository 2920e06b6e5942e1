"""The WebSocket protocol: messages from clients, validated; errors with a code and a clear
message. See ``docs/protocol.md``.

Client -> server::

    {"type": "hello", "seat": 0, "token": "..."}   first message; omit seat/token to watch
    {"type": "hello", "seat": 0, "key": "..."}     ... or a player key, for a seat it holds
    {"type": "hello", "seat": 1, "token": "...", "key": "..."}   an invite's token and key
    {"type": "choose", "step": 12, "choice": "play:ryu.jab"}
    {"type": "chat", "text": "..."}                   team/table chat
    {"type": "ping"}

Server -> client::

    {"type": "welcome", ...}   (with "token": an invited seat just taken: its fresh token)
    {"type": "update", "events": [...], "state": {...}}
    {"type": "ack", "step": 12, "choice": "..."}   {"type": "chat", ...}
    {"type": "error", "code": "...", "message": "..."}   {"type": "rematch", ...}
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

import msgspec

MAX_ERROR = 300
"""The longest error message sent (a message may quote what the client sent)."""


class ProtocolError(Exception):
    """A client message that is refused; nothing changed. The message is one line of at
    most :data:`MAX_ERROR` characters whatever the client sent (it may be quoted in it)."""

    def __init__(self, code: str, message: str) -> None:
        message = one_line(message)
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message}


class Hello(msgspec.Struct, forbid_unknown_fields=True, tag="hello", tag_field="type"):
    seat: int | None = None
    token: str | None = None
    key: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    """A player key instead of the token: for a seat that player holds."""


class Choose(msgspec.Struct, forbid_unknown_fields=True, tag="choose", tag_field="type"):
    step: Annotated[int, msgspec.Meta(ge=0, lt=2**31)]
    choice: str


class Chat(msgspec.Struct, forbid_unknown_fields=True, tag="chat", tag_field="type"):
    text: str


class Ping(msgspec.Struct, forbid_unknown_fields=True, tag="ping", tag_field="type"):
    pass


def one_line(text: str, limit: int = MAX_ERROR) -> str:
    """``text`` with every character that is not printable escaped, cut to ``limit``."""
    if not text.isprintable():
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


Message = Hello | Choose | Chat | Ping
MAX_MESSAGE = 16_384
MAX_CHAT = 500
_DECODER = msgspec.json.Decoder(Message)
# Characters refused in chat: control characters (NUL cannot even be stored by PostgreSQL),
# and unpaired surrogates, which cannot be encoded at all.
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def parse(raw: str | bytes) -> Message:
    """Decode one client message or raise :class:`ProtocolError` (``malformed``).

    The decoder is strict JSON (no ``NaN`` or ``Infinity``) into flat, typed messages, so
    that any nesting, a number out of range or an unknown field is refused at once.
    """
    if isinstance(raw, bytes):
        raise ProtocolError("malformed", "binary frames are not accepted: send JSON text")
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError(
            "malformed", f"message too long ({len(raw)} > {MAX_MESSAGE} characters)"
        )
    try:
        message: Message = _DECODER.decode(raw)
    except msgspec.ValidationError as exc:
        # The typed decoder stops at the first thing out of place: say "not JSON" if the
        # text is not JSON at all (read untyped only now, on the way out).
        try:
            msgspec.json.decode(raw)
        except (msgspec.DecodeError, RecursionError):
            raise ProtocolError("malformed", "not valid JSON") from None
        raise ProtocolError("malformed", f"bad message: {exc}") from None
    except (msgspec.DecodeError, RecursionError):
        raise ProtocolError("malformed", "not valid JSON") from None
    if isinstance(message, Chat):
        if not 0 < len(message.text.strip()) <= MAX_CHAT:
            raise ProtocolError("malformed", f"chat text must be 1..{MAX_CHAT} characters")
        if _UNPRINTABLE.search(message.text):
            raise ProtocolError("malformed", "chat text may not hold control characters")
    return message


Kind = Literal["human", "open", "bot"]
