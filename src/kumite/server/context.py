"""What every part of the web table's app shares: the store, the hub of live tables, the
settings and the rate limits."""

from __future__ import annotations

import dataclasses
from importlib import resources

from fastapi import HTTPException, Request, WebSocket

from kumite.core.spec import GameSpec
from kumite.server.ratelimits import RateLimits
from kumite.server.runtime import Hub, TableRuntime
from kumite.server.settings import ServerSettings
from kumite.server.storage import Store

STATIC = resources.files("kumite.web") / "static"


@dataclasses.dataclass(frozen=True, slots=True)
class Server:
    store: Store
    hub: Hub
    settings: ServerSettings
    limits: RateLimits

    def runtime(self, table_id: str) -> TableRuntime:
        """The live table, or a 404."""
        runtime = self.hub.get(table_id)
        if runtime is None:
            raise HTTPException(404, f"no table {table_id[:40]!r}")
        return runtime

    def authorise(self, runtime: TableRuntime, seat: int, token: str) -> None:
        if not runtime.check_token(seat, token):
            raise HTTPException(403, "wrong seat or token")


def address(request: Request | WebSocket) -> str:
    return request.client.host if request.client is not None else "unknown"


def renderer(spec: GameSpec) -> str:
    """The browser front end of a game: its own, else the generic one."""
    return "/static/js/generic.js" if spec.web is None else f"/static/games/{spec.id}/table.js"
