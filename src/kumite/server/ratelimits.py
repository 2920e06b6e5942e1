"""Rate limits per client address (the `limits` library, in memory): tables made, hellos and
chat messages; and the sockets an address has open that have not said hello yet
(docs/protocol.md, "Limits")."""

from __future__ import annotations

import math
import time
from typing import Literal

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter

from kumite.server.settings import ServerSettings

Kind = Literal["create", "hello", "chat"]

_WHAT: dict[Kind, str] = {
    "create": "new tables",
    "hello": "connections",
    "chat": "chat messages",
}


class RateLimitedError(Exception):
    """A client went over one of its limits; nothing was done."""

    def __init__(self, kind: Kind, item: RateLimitItem, retry_after: int) -> None:
        self.kind = kind
        self.retry_after = retry_after
        per = f"{item.multiples} {item.GRANULARITY.name}" + ("s" if item.multiples > 1 else "")
        super().__init__(
            f"too many {_WHAT[kind]} from your address: at most {item.amount} per {per}; "
            f"try again in {retry_after} s"
        )


class RateLimits:
    """The server's limits; a sliding window per (kind, address): no burst at a window's
    edge, constant work per hit whatever the limit."""

    def __init__(self, settings: ServerSettings) -> None:
        self.rules: dict[Kind, list[RateLimitItem]] = {
            "create": parse_many(settings.create_rate),
            "hello": parse_many(settings.hello_rate),
            "chat": parse_many(settings.chat_rate),
        }
        self.limiter = SlidingWindowCounterRateLimiter(MemoryStorage())
        self.silent = SilentSockets(settings.silent_sockets_per_client)

    def hit(self, kind: Kind, address: str) -> None:
        """Count one ``kind`` from ``address``, or raise :class:`RateLimitedError` (not counted)."""
        rules = self.rules[kind]
        for item in rules:
            if not self.limiter.test(item, kind, address):
                reset = self.limiter.get_window_stats(item, kind, address).reset_time
                raise RateLimitedError(kind, item, max(1, math.ceil(reset - time.time())))
        for item in rules:
            self.limiter.hit(item, kind, address)


class SilentSockets:
    """The sockets each client address has open that have not said hello yet, at most
    ``most`` at once: each holds a connection and a task until its hello or its timeout."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.open: dict[str, int] = {}

    def enter(self, address: str) -> bool:
        """Count one more from ``address``; ``False`` (not counted) if it has ``most``."""
        count = self.open.get(address, 0)
        if count >= self.most:
            return False
        self.open[address] = count + 1
        return True

    def leave(self, address: str) -> None:
        """One of ``address``'s sockets said hello or went away."""
        count = self.open.get(address, 0) - 1
        if count > 0:
            self.open[address] = count
        else:
            self.open.pop(address, None)

    def refusal(self) -> str:
        return (
            f"too many connections from your address waiting for their hello (at most "
            f"{self.most}): say hello as soon as the socket opens"
        )
