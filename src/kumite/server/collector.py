"""When the cycle collector runs in a server process (docs/protocol.md, "Load").

CPython's full collections walk every tracked object. A server with 1,000 tables open holds
some 350,000 of them that live for minutes (each socket's ASGI stack of coroutines, each
table's state and bots), and a full pass over those stopped the event loop for 0.1-0.4 s
every ~15 s: every choice in flight waited, and that was the p99 at a person's think time.
Almost nothing there is cyclic garbage (reference counting frees it), so walking it again
and again finds nothing.

So every :data:`FREEZE_EVERY` seconds whatever is alive is moved out of the collector's reach
(``gc.freeze``, a constant-time list splice): the automatic passes then walk only objects
made since, a few milliseconds' worth. What reference counting cannot free among the frozen
(a cycle that became garbage after its freeze) waits for the full pass over everything that
runs every ``full_every`` seconds (``gc.unfreeze``, ``gc.collect``): one stop of the loop
(its length logged) instead of one every few seconds.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger("kumite.server")

FREEZE_EVERY = 1.0
"""Seconds between two freezes: objects older than this are out of the automatic passes."""


def full_pass() -> tuple[int, float]:
    """Collect everything, the frozen objects too, then freeze what is left. Returns the
    number of objects collected and the pause in seconds."""
    started = time.perf_counter()
    gc.unfreeze()
    found = gc.collect()
    gc.freeze()
    return found, time.perf_counter() - started


async def run(full_every: float) -> None:
    """Forever: freeze every :data:`FREEZE_EVERY` s, and a full pass every ``full_every`` s
    (0: never; cyclic garbage made by frozen objects is then never freed)."""
    full_pass()
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(FREEZE_EVERY)
        if full_every > 0 and time.monotonic() - last_full >= full_every:
            found, pause = full_pass()
            last_full = time.monotonic()
            log.info("full collection: %d objects collected, %.0f ms", found, pause * 1000)
        else:
            gc.freeze()
