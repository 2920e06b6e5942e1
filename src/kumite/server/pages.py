"""The pages, the games' API and each game's own browser files (docs/protocol.md)."""

from __future__ import annotations

import functools
import html
from importlib import resources
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, HTMLResponse

from kumite.agents.registry import agent_names, describe, level, not_offered
from kumite.core.registry import get_game, specs
from kumite.server.context import STATIC, Server
from kumite.web.table import adapter

GAME_PICKER = "<!-- the games: server/pages.py -->"
LEARN_LINK = '<a id="learn" href="/learn">'


@functools.cache
def _lobby_source() -> str:
    return (STATIC / "index.html").read_text(encoding="utf-8")


def lobby_html(wanted: str | None = None) -> str:
    """The lobby with its game list already in the page (no empty picker while the script
    fetches the games): ``wanted`` (``/?game=``) chosen if it is a game, else the first; the
    "Learn to play" link beside the picker leads to the chosen game's guide."""
    games = {gid: spec.name for gid, spec in specs().items()}
    chosen = wanted if wanted in games else next(iter(games), "")
    options = "".join(
        f'<option value="{html.escape(gid)}"{" selected" if gid == chosen else ""}>'
        f"{html.escape(name)}</option>"
        for gid, name in games.items()
    )
    guide = chosen and specs()[chosen].guide is not None
    learn = f'<a id="learn" href="/learn/{html.escape(chosen)}">' if guide else LEARN_LINK
    return _lobby_source().replace(GAME_PICKER, options, 1).replace(LEARN_LINK, learn, 1)


def router(server: Server) -> APIRouter:
    router = APIRouter()

    # -- pages --------------------------------------------------------------------------
    @router.get("/", include_in_schema=False)
    async def lobby_page(game: str | None = None) -> HTMLResponse:
        return HTMLResponse(lobby_html(game))

    @router.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        # An SVG under the name browsers ask for first: every current browser draws it.
        return FileResponse(str(STATIC / "favicon.svg"), media_type="image/svg+xml")

    @router.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(str(STATIC / "table.html"))

    @router.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> FileResponse:
        return FileResponse(str(STATIC / "leaderboard.html"))

    @router.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return FileResponse(str(STATIC / "replay.html"))

    @router.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        out = []
        for game_id, gspec in specs().items():
            game = gspec.load()
            info = game.info
            web = adapter(gspec)
            lobby = web.lobby(gspec, game)
            out.append(
                {
                    "id": info.id,
                    "name": info.name,
                    "min_players": info.min_players,
                    "max_players": info.max_players,
                    "guide": f"/learn/{game_id}" if gspec.guide is not None else None,
                    "agents": [  # the bots whose data is at hand (no table waits on a solve)
                        {"name": n, "about": describe(gspec, n), "level": level(gspec, n)}
                        for n in agent_names(game_id)
                        if not_offered(n, game_id, {}) is None
                    ],
                    # every option a form can hold: int, bool, str, choice (an "other" one,
                    # such as a pack, is set by its own flag or face)
                    "options": [
                        f.to_json()
                        for f in gspec.option_fields(web.table_set(gspec))
                        if f.kind != "other"
                    ],
                    **lobby,
                }
            )
        return out

    @router.get("/static/games/{game_id}/{name}", include_in_schema=False)
    async def game_static(game_id: str, name: str) -> FileResponse:
        """A game's own browser front end (its spec's ``web`` package: JS and CSS)."""
        spec = specs().get(game_id)
        folder = None if spec is None or spec.web is None else resources.files(spec.web)
        if folder is None or name.startswith(".") or not name.endswith((".js", ".css")):
            raise HTTPException(404, "no such file")
        path = folder / name
        if not path.is_file():
            raise HTTPException(404, "no such file")
        return FileResponse(str(path))

    @router.get("/api/games/{game_id}/rules")
    async def rules(game_id: str) -> dict[str, str]:
        return dict(get_game(game_id).rules)

    @router.get("/api/server")
    async def server_info() -> dict[str, Any]:
        """What the lobby needs to know of this server's policy."""
        return {
            "dev_seeds": server.settings.dev_seeds,
            "limits": {
                "create": server.settings.create_rate,
                "hello": server.settings.hello_rate,
                "chat": server.settings.chat_rate,
                "open_tables_per_client": server.settings.open_tables_per_client,
                "spectators_per_table": server.settings.spectators_per_table,
                "silent_sockets_per_client": server.settings.silent_sockets_per_client,
            },
        }

    return router
