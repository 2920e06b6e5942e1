"""Rate limits per client address (the `limits` library, in memory): tables made, hellos and
chat messages (docs/protocol.md, "Limits")."""

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

    def hit(self, kind: Kind, address: str) -> None:
        """Count one ``kind`` from ``address``, or raise :class:`RateLimitedError` (not counted)."""
        rules = self.rules[kind]
        for item in rules:
            if not self.limiter.test(item, kind, address):
                reset = self.limiter.get_window_stats(item, kind, address).reset_time
                raise RateLimitedError(kind, item, max(1, math.ceil(reset - time.time())))
        for item in rules:
            self.limiter.hit(item, kind, address)
