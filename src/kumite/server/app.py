"""The FastAPI application: lobby and table REST API, WebSockets, static front end."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any

import anyio
import msgspec
from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from kumite.agents.registry import agent_names, describe, make_agent
from kumite.core.errors import KumiteError
from kumite.core.registry import get_game, get_spec, specs
from kumite.core.spec import GameSpec
from kumite.server.protocol import Chat, Choose, Hello, Ping, ProtocolError, parse
from kumite.server.runtime import Client, Hub, TableRuntime
from kumite.server.storage import Store
from kumite.web.table import adapter

STATIC = resources.files("kumite.web") / "static"
_ENCODER = msgspec.json.Encoder()
HELLO_TIMEOUT = 15.0


class SeatSpec(BaseModel):
    kind: str = Field(pattern="^(you|human|open|bot)$")
    agent: str | None = None
    name: str | None = Field(default=None, max_length=40)


class TableSpec(BaseModel):
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec]
    seed: int | None = None


class SeatToken(BaseModel):
    seat: int
    token: str = ""


def renderer(spec: GameSpec) -> str:
    """The browser front end of a game: its own, else the generic one."""
    return "/static/js/generic.js" if spec.web is None else f"/static/games/{spec.id}/table.js"


def create_app(
    database_url: str | None = None, *, bot_delay: float = 0.25, freeze_gc: bool = False
) -> FastAPI:
    """The web table's app. ``freeze_gc`` (for a server process of its own): once started,
    move every object made so far out of the cycle collector's reach (``gc.freeze``)."""
    store = Store(database_url)
    hub = Hub(store, bot_delay=bot_delay)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.resume()
        if freeze_gc:
            # Modules, card data, the resumed tables: they live as long as the server. A
            # full collection walked them all, ~270k objects, stopping the event loop for
            # 250-300 ms under load and so every choice in flight (docs/protocol.md, Load).
            gc.collect()
            gc.freeze()
        hub.start_bots()
        yield
        for runtime in hub.tables.values():
            if runtime._bot_task is not None:
                runtime._bot_task.cancel()
        await store.aclose()

    app = FastAPI(title="kumite", lifespan=lifespan)
    app.state.hub = hub
    app.state.store = store

    @app.exception_handler(KumiteError)
    async def kumite_error(_request: Any, exc: KumiteError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    def runtime_or_404(table_id: str) -> TableRuntime:
        runtime = hub.get(table_id)
        if runtime is None:
            raise HTTPException(404, f"no table {table_id!r}")
        return runtime

    def authorise(runtime: TableRuntime, seat: int, token: str) -> None:
        if not runtime.check_token(seat, token):
            raise HTTPException(403, "wrong seat or token")

    # -- pages --------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"))

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(str(STATIC / "table.html"))

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return FileResponse(str(STATIC / "replay.html"))

    # -- games --------------------------------------------------------------------------
    @app.get("/api/games")
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
                    "agents": [
                        {"name": n, "about": describe(gspec, n)} for n in agent_names(game_id)
                    ],
                    "options": [
                        f.to_json()
                        for f in gspec.option_fields(web.set_by_table)
                        if f.kind in ("choice", "int")
                    ],
                    **lobby,
                }
            )
        return out

    @app.get("/static/games/{game_id}/{name}", include_in_schema=False)
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

    @app.get("/api/games/{game_id}/rules")
    async def rules(game_id: str) -> dict[str, str]:
        return dict(get_game(game_id).rules)

    # -- tables -------------------------------------------------------------------------
    @app.post("/api/tables")
    async def create_table(spec: TableSpec) -> dict[str, Any]:
        return await anyio.to_thread.run_sync(new_table, spec, None)

    def new_table(spec: TableSpec, rematch_of: str | None) -> dict[str, Any]:
        gspec = get_spec(spec.game)
        game = gspec.load()
        if not game.info.min_players <= len(spec.seats) <= game.info.max_players:
            raise HTTPException(
                400,
                f"{game.info.name} needs {game.info.min_players}-"
                f"{game.info.max_players} seats, got {len(spec.seats)}",
            )
        if sum(s.kind == "you" for s in spec.seats) > 1:
            raise HTTPException(400, "only one seat can be yours")
        seed = spec.seed if spec.seed is not None else secrets.randbelow(2**31)
        options = adapter(gspec).table_options(gspec, spec.options, len(spec.seats))
        state = game.new_state(seed, options)  # validates the options
        options = state.options_json
        seats: list[dict[str, Any]] = []
        tokens: dict[int, str] = {}
        for index, s in enumerate(spec.seats):
            if s.kind == "bot":
                make_agent(s.agent or "random", game, options, index, 0)  # validates the name
                seats.append(
                    {
                        "kind": "bot",
                        "agent": s.agent or "random",
                        "name": s.name or f"{s.agent or 'random'} bot",
                        "claimed": True,
                    }
                )
            else:
                seats.append(
                    {
                        "kind": "human" if s.kind == "you" else s.kind,
                        "agent": None,
                        "name": s.name or f"Player {index + 1}",
                        "claimed": s.kind == "you",
                    }
                )
                tokens[index] = secrets.token_urlsafe(18)
        table_id = secrets.token_hex(6)
        store.create_table(table_id, game.info.id, seed, options, seats, tokens, rematch_of)
        runtime = hub.get(table_id)
        assert runtime is not None
        links = [
            {
                "seat": i,
                "you": spec.seats[i].kind == "you",
                "url": f"/table/{table_id}#seat={i}&token={tokens[i]}",
                "token": tokens[i],
            }
            for i in tokens
            if spec.seats[i].kind in ("you", "human")
        ]
        mine = next((i for i, s in enumerate(spec.seats) if s.kind == "you"), None)
        return {
            "id": table_id,
            "game": game.info.id,
            "seed": seed,
            "seat": mine,
            "links": links,
            "spectate": f"/table/{table_id}",
        }

    @app.get("/api/tables")
    async def list_tables() -> list[dict[str, Any]]:
        return await anyio.to_thread.run_sync(store.list_tables)

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        runtime = runtime_or_404(table_id)
        return {
            "id": runtime.id,
            "game": runtime.game.info.id,
            "name": runtime.game.info.name,
            "renderer": renderer(runtime.spec),
            "step": runtime.step,
            "finished": runtime.finished,
            "seats": runtime.public_seats(),
            "next_table": runtime.next_table,
            "outcome": None if runtime.state.outcome is None else runtime.state.outcome.to_json(),
        }

    @app.get("/api/tables/{table_id}/cards")
    async def table_cards(table_id: str) -> dict[str, Any]:
        runtime = runtime_or_404(table_id)
        return adapter(runtime.spec).cards(runtime.game, runtime.options)

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: SeatToken) -> dict[str, Any]:
        runtime = runtime_or_404(table_id)
        async with runtime.lock:
            if not 0 <= body.seat < len(runtime.seats):
                raise HTTPException(400, "no such seat")
            seat = runtime.seats[body.seat]
            if seat["kind"] != "open" or seat.get("claimed"):
                raise HTTPException(409, "that seat is not open")
            token = secrets.token_urlsafe(18)
            await runtime.set_token(body.seat, token)
            seat["claimed"] = True
            seat["kind"] = "human"
            await store.set_seats(table_id, runtime.seats)
        await runtime.broadcast()
        return {
            "seat": body.seat,
            "token": token,
            "url": f"/table/{table_id}#seat={body.seat}&token={token}",
        }

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, body: SeatToken) -> dict[str, Any]:
        runtime = runtime_or_404(table_id)
        authorise(runtime, body.seat, body.token)
        async with runtime.lock:
            await runtime.release(body.seat)
        for client in list(runtime.clients):
            if client.seat == body.seat:
                runtime.clients.discard(client)
        await runtime.broadcast()
        return {"seat": body.seat, "open": True}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, body: SeatToken) -> dict[str, Any]:
        runtime = runtime_or_404(table_id)
        authorise(runtime, body.seat, body.token)
        # Under the table's lock: two players asking at once must not make two rematches.
        async with runtime.lock:
            if not runtime.finished:
                raise HTTPException(409, "the game is not over yet")
            if runtime.next_table is not None:
                raise HTTPException(409, f"a rematch exists: table {runtime.next_table}")
            seats = [
                SeatSpec(kind="bot", agent=s["agent"], name=s.get("name"))
                if s["kind"] == "bot"
                else SeatSpec(kind="you" if i == body.seat else "human", name=s.get("name"))
                for i, s in enumerate(runtime.seats)
            ]
            spec = TableSpec(game=runtime.game.info.id, options=runtime.options, seats=seats)
            made = await anyio.to_thread.run_sync(new_table, spec, table_id)
            runtime.next_table = made["id"]
        by_seat = {link["seat"]: link for link in made["links"]}
        for client in list(runtime.clients):
            link = by_seat.get(client.seat) if client.seat is not None else None
            with contextlib.suppress(Exception):
                await client.send(
                    {
                        "type": "rematch",
                        "table": made["id"],
                        "url": link["url"] if link else made["spectate"],
                    }
                )
        return made

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        runtime = runtime_or_404(table_id)
        if not runtime.finished:
            raise HTTPException(403, "the record is available when the game is over")
        players = [s.get("agent") or "human" for s in runtime.seats]
        rec = runtime.state.to_record(players=players, table=table_id)
        data: dict[str, Any] = msgspec.to_builtins(rec)
        return data

    @app.get("/api/tables/{table_id}/replay")
    async def replay_frames(table_id: str) -> dict[str, Any]:
        runtime = runtime_or_404(table_id)
        if not runtime.finished:
            raise HTTPException(403, "replays are available when the game is over")
        return await anyio.to_thread.run_sync(frames, runtime)

    def frames(runtime: TableRuntime) -> dict[str, Any]:
        state = runtime.game.new_state(runtime.seed, runtime.options)
        out = [{"step": 0, "choices": {}, "events": [], "view": state.view(None)}]
        for index, choices in enumerate(runtime.state.history, start=1):
            events = state.apply(choices)
            out.append(
                {
                    "step": index,
                    "choices": {str(k): v for k, v in choices.items()},
                    "events": [e.to_json() for e in events],
                    "view": state.view(None),
                }
            )
        return {
            "table": runtime.id,
            "game": runtime.game.info.id,
            "renderer": renderer(runtime.spec),
            "frames": out,
            "seats": runtime.public_seats(),
        }

    # -- live play ----------------------------------------------------------------------
    @app.websocket("/ws/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        runtime = hub.get(table_id)
        if runtime is None:
            await refuse(websocket, ProtocolError("not-found", f"no table {table_id!r}"), 4404)
            return
        runtime.holds += 1
        try:
            await connect(websocket, runtime)
        finally:
            runtime.holds -= 1
            runtime.last_used = time.monotonic()
            hub.sweep()

    async def connect(websocket: WebSocket, runtime: TableRuntime) -> None:
        """A connection's life: hello, welcome, then its messages until it closes."""
        try:
            raw = await asyncio.wait_for(websocket.receive_text(), HELLO_TIMEOUT)
            hello = parse(raw)
            if not isinstance(hello, Hello):
                raise ProtocolError("hello-first", "the first message must be a hello")
            seat = hello.seat
            if seat is not None and not (
                hello.token is not None and runtime.check_token(seat, hello.token)
            ):
                raise ProtocolError("bad-token", "wrong seat or token for this table")
        except ProtocolError as exc:
            await refuse(websocket, exc, 4401)
            return
        except (TimeoutError, WebSocketDisconnect):
            with contextlib.suppress(Exception):
                await websocket.close(4408)
            return
        client = Client(seat, sender(websocket))
        if seat is not None:
            await runtime.claim(seat)
        runtime.clients.add(client)
        history = runtime.chat_history(seat)
        await websocket.send_json(
            {
                "type": "welcome",
                "table": runtime.id,
                "seat": seat,
                "game": runtime.game.info.id,
                "chat": {
                    "channel": None if seat is None else runtime.channel(seat),
                    "rules": runtime.chat_rules(seat),
                    "history": history,
                },
            }
        )
        await runtime.broadcast()
        runtime.kick_bots()
        try:
            while True:
                raw = await websocket.receive_text()
                try:
                    await handle(runtime, client, parse(raw))
                except ProtocolError as exc:
                    await websocket.send_json(exc.to_json())
        except WebSocketDisconnect:
            pass
        finally:
            runtime.clients.discard(client)
            await runtime.broadcast()

    async def handle(runtime: TableRuntime, client: Client, message: Any) -> None:
        if isinstance(message, Choose):
            if client.seat is None:
                raise ProtocolError("spectator", "spectators cannot choose")
            await runtime.choose(client.seat, message.step, message.choice)
            await client.send({"type": "ack", "step": message.step, "choice": message.choice})
        elif isinstance(message, Chat):
            if client.seat is None:
                raise ProtocolError("spectator", "spectators cannot chat")
            await runtime.chat(client.seat, message.text.strip())
        elif isinstance(message, Ping):
            await client.send({"type": "pong", "step": runtime.step})
        else:
            raise ProtocolError("hello-again", "already greeted")

    def sender(websocket: WebSocket) -> Callable[[dict[str, Any]], Awaitable[None]]:
        async def send(message: dict[str, Any]) -> None:
            await websocket.send_text(_ENCODER.encode(message).decode())

        return send

    async def refuse(websocket: WebSocket, exc: ProtocolError, code: int) -> None:
        with contextlib.suppress(Exception):
            await websocket.send_json(exc.to_json())
            await websocket.close(code)

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app
