"""What every part of the web table's app shares: the store, the hub of live tables, the
settings and the rate limits."""

from __future__ import annotations

import dataclasses
import re
from importlib import resources

import anyio
from fastapi import HTTPException, Request, WebSocket

from kumite.core.spec import GameSpec
from kumite.server.hub import Hub
from kumite.server.ratelimits import RateLimits
from kumite.server.runtime import TableRuntime
from kumite.server.settings import ServerSettings
from kumite.server.storage import Store, token_hash

STATIC = resources.files("kumite.web") / "static"


PLAYER_HEADER = "X-Kumite-Player"
"""The request header that carries a player's secret key (docs/protocol.md, "Players")."""
_KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")


class PlayerCache:
    """Player keys already looked up: key hash -> (id, name). A key never changes and a
    player is never deleted, so an entry only goes stale by a rename (made here too)."""

    def __init__(self, size: int = 10_000) -> None:
        self.size = size
        self.known: dict[str, tuple[str, str]] = {}

    def get(self, key: str) -> tuple[str, str] | None:
        return self.known.get(token_hash(key))

    def put(self, key: str, player: tuple[str, str]) -> None:
        if len(self.known) >= self.size:
            self.known.pop(next(iter(self.known)))
        self.known[token_hash(key)] = player

    def renamed(self, player_id: str, name: str) -> None:
        for hashed, (pid, _) in list(self.known.items()):
            if pid == player_id:
                self.known[hashed] = (pid, name)


@dataclasses.dataclass(frozen=True, slots=True)
class Server:
    store: Store
    hub: Hub
    settings: ServerSettings
    limits: RateLimits
    players: PlayerCache = dataclasses.field(default_factory=PlayerCache)

    async def player_of_key(self, key: str | None) -> tuple[str, str] | None:
        """The (id, name) of the player whose key this is; ``None`` for no key; a 403 for
        a key nobody has."""
        if not key:
            return None
        found = self.players.get(key) if _KEY.fullmatch(key) else None
        if found is None and _KEY.fullmatch(key):
            found = await anyio.to_thread.run_sync(self.store.player_by_key, key)
            if found is not None:
                self.players.put(key, found)
        if found is None:
            raise HTTPException(403, "unknown player key: make a new player")
        return found

    async def player(self, request: Request) -> tuple[str, str] | None:
        """The player making the request (its :data:`PLAYER_HEADER`), if any."""
        return await self.player_of_key(request.headers.get(PLAYER_HEADER))

    async def me(self, request: Request) -> tuple[str, str]:
        """The player making the request, or a 401."""
        found = await self.player(request)
        if found is None:
            raise HTTPException(401, f"no player: send your player key in {PLAYER_HEADER}")
        return found

    def runtime(self, table_id: str) -> TableRuntime:
        """The live table, or a 404."""
        runtime = self.hub.get(table_id)
        if runtime is None:
            raise HTTPException(404, f"no table {table_id[:40]!r}")
        return runtime

    def authorise(
        self,
        runtime: TableRuntime,
        seat: int,
        token: str,
        player: tuple[str, str] | None = None,
    ) -> None:
        """The seat's token, or the player key of the player who holds it; else a 403."""
        if runtime.check_token(seat, token):
            return
        if player is not None and runtime.holders.get(seat) == player[0]:
            return
        raise HTTPException(403, "wrong seat or token")


def address(request: Request | WebSocket) -> str:
    return request.client.host if request.client is not None else "unknown"


def renderer(spec: GameSpec) -> str:
    """The browser front end of a game: its own, else the generic one."""
    return "/static/js/generic.js" if spec.web is None else f"/static/games/{spec.id}/table.js"
