"""Players: a display name and a secret key kept by the browser (docs/protocol.md, "Players").

There is no password. The browser makes a player once (``POST /api/players``), keeps the key
it is given, and sends it with every request in the ``X-Kumite-Player`` header (and in a
WebSocket hello); the server stores only the key's hash, so its database cannot act as
anyone. A random 128-bit key needs no slow key derivation: nobody can guess it.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

import anyio
from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from kumite.server.context import Server, address

MAX_NAME = 24
_BAD_NAME = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")
"""Control characters, and invisible ones that would let two names look alike or reorder
the text around them (zero-width, bidirectional overrides)."""


def check_name(raw: str) -> str:
    """A display name, tidied (spaces collapsed), or a 400 saying in one line what is wrong."""
    if _BAD_NAME.search(raw) or any(0xD800 <= ord(c) <= 0xDFFF for c in raw):
        raise HTTPException(400, "a name may not hold control or invisible characters")
    name = " ".join(raw.split())
    if not name:
        raise HTTPException(400, "a name needs at least one visible character")
    if len(name) > MAX_NAME:
        raise HTTPException(400, f"a name is at most {MAX_NAME} characters (got {len(name)})")
    return name


class NewPlayer(BaseModel):
    name: str = Field(max_length=200)


def router(server: Server) -> APIRouter:
    router = APIRouter()

    @router.post("/api/players")
    async def new_player(body: NewPlayer, request: Request) -> dict[str, Any]:
        name = check_name(body.name)
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
    async def rename(body: NewPlayer, request: Request) -> dict[str, Any]:
        player_id, _ = await server.me(request)
        name = check_name(body.name)
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
