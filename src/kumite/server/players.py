"""Players: a display name and a secret key kept by the browser (docs/protocol.md, "Players").

There is no password. The browser makes a player once (``POST /api/players``), keeps the key
it is given, and sends it with every request in the ``X-Kumite-Player`` header (and in a
WebSocket hello); the server stores only the key's hash, so its database cannot act as
anyone. A random 128-bit key needs no slow key derivation: nobody can guess it.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

import anyio
import msgspec
from fastapi import APIRouter, Request

from kumite.server.context import Server, address
from kumite.server.inputs import body
from kumite.server.names import check_name


class NewPlayer(msgspec.Struct):
    name: Annotated[str, msgspec.Meta(max_length=200)]
    """Checked and tidied by :func:`.names.check_name` as it is read."""

    def __post_init__(self) -> None:
        self.name = check_name(self.name)


def router(server: Server) -> APIRouter:
    router = APIRouter()

    @router.post("/api/players")
    async def new_player(
        request: Request, asked: Annotated[NewPlayer, body(NewPlayer)]
    ) -> dict[str, Any]:
        name = asked.name
        server.limits.hit("create", address(request))
        player_id = secrets.token_hex(8)
        key = secrets.token_urlsafe(16)  # 128 bits
        await anyio.to_thread.run_sync(server.store.add_player, player_id, name, key)
        # The only time the key is sent: the browser keeps it (localStorage).
        return {"id": player_id, "name": name, "key": key}

    @router.get("/api/players/me")
    async def me(request: Request) -> dict[str, Any]:
        player_id, name = await server.me(request)
        return {"id": player_id, "name": name}

    @router.put("/api/players/me")
    async def rename(
        request: Request, asked: Annotated[NewPlayer, body(NewPlayer)]
    ) -> dict[str, Any]:
        player_id, _ = await server.me(request)
        name = asked.name
        await anyio.to_thread.run_sync(server.store.rename_player, player_id, name)
        server.players.renamed(player_id, name)
        return {"id": player_id, "name": name}

    @router.get("/api/players/me/games")
    async def my_games(request: Request) -> list[dict[str, Any]]:
        player_id, _ = await server.me(request)
        games = await anyio.to_thread.run_sync(server.store.player_games, player_id)
        for game in games:
            runtime = server.hub.tables.get(game["id"])
            if runtime is not None:  # live: whether it waits for this seat now
                game["your_move"] = not runtime.over and any(
                    d.seat == game["seat"] and d.seat not in runtime.partial
                    for d in runtime.state.pending()
                )
                game["status"] = runtime.status
        return games

    return router
