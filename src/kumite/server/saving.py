"""How the live tables' parts await a storage write: a failure is the server's (logged in
one line), and the client is told that nothing was done."""

from __future__ import annotations

import logging
from collections.abc import Awaitable

from kumite.server.protocol import ProtocolError

log = logging.getLogger("kumite.server")


async def stored(write: Awaitable[None]) -> None:
    """Await a storage write; a failure is the server's (logged), and the client is told
    that nothing was done (so its choice, say, was not acknowledged)."""
    try:
        await write
    except Exception as exc:
        log.error("storage write failed: %s", first_line(exc))
        raise ProtocolError("unavailable", "the server could not save that; try again") from None


def first_line(exc: Exception) -> str:
    """An error in one line (a database driver's message goes on with its SQL)."""
    lines = str(exc).splitlines()
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"
