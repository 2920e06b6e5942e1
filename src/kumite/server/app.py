"""The FastAPI application: lobby and table REST API, WebSockets, static front end.

See ``docs/protocol.md``; its "Seeds", "Limits" and "Security" sections describe what the
server keeps from clients and refuses them.
"""

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
from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.middleware.trustedhost import TrustedHostMiddleware

from kumite.agents.registry import agent_names, describe, make_agent
from kumite.core.errors import KumiteError
from kumite.core.registry import get_game, get_spec, specs
from kumite.core.spec import GameSpec
from kumite.server.protocol import Chat, Choose, Hello, Ping, ProtocolError, one_line, parse
from kumite.server.ratelimits import RateLimitedError, RateLimits
from kumite.server.runtime import LEFT_CODE, Client, Hub, TableRuntime
from kumite.server.security import BodyGuard, SecurityHeaders, origin_allowed
from kumite.server.seeds import MAX_SEED, new_seed
from kumite.server.settings import ServerSettings
from kumite.server.storage import Store
from kumite.web.table import adapter

STATIC = resources.files("kumite.web") / "static"
_ENCODER = msgspec.json.Encoder()
HELLO_TIMEOUT = 15.0
# Names are shown to every seat: printable text only (PostgreSQL cannot even store a NUL).
PRINTABLE = r"^[^\x00-\x1f\x7f-\x9f]*$"
MAX_SEATS = 16


class SeatSpec(BaseModel):
    kind: str = Field(pattern="^(you|human|open|bot)$")
    agent: str | None = Field(default=None, max_length=40)
    name: str | None = Field(default=None, max_length=40, pattern=PRINTABLE)


class TableSpec(BaseModel):
    game: str = Field(max_length=32)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(max_length=MAX_SEATS)
    seed: int | None = Field(default=None, ge=0, lt=MAX_SEED)
    """RefusedError unless the server runs with ``--dev-seeds`` (docs/protocol.md, "Seeds")."""


class SeatToken(BaseModel):
    seat: int = Field(ge=0, lt=MAX_SEATS)
    token: str = Field(default="", max_length=64)


class RefusedError(Exception):
    """A WebSocket refused before its hello is served: tell it why, close it with ``code``."""

    def __init__(self, error: ProtocolError, code: int) -> None:
        super().__init__(error.message)
        self.error = error
        self.code = code


def renderer(spec: GameSpec) -> str:
    """The browser front end of a game: its own, else the generic one."""
    return "/static/js/generic.js" if spec.web is None else f"/static/games/{spec.id}/table.js"


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float = 0.25,
    freeze_gc: bool = False,
    settings: ServerSettings | None = None,
    bound_host: str | None = None,
) -> FastAPI:
    """The web table's app. ``freeze_gc`` (for a server process of its own): once started,
    move every object made so far out of the cycle collector's reach (``gc.freeze``).
    ``bound_host``: the address the server listens on, an allowed ``Host`` besides the
    loopback names and ``settings.allowed_hosts``."""
    settings = settings or ServerSettings()
    store = Store(database_url)
    hub = Hub(store, bot_delay=bot_delay, settings=settings)
    limits = RateLimits(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # No table is loaded here: each is loaded when first asked for, and its bots go on
        # when a player says hello (docs/protocol.md, "Durability").
        if freeze_gc:
            # Modules, card data: they live as long as the server. A full collection
            # walked them all, ~270k objects, stopping the event loop for 250-300 ms under
            # load and so every choice in flight (docs/protocol.md, Load).
            gc.collect()
            gc.freeze()
        maintenance = asyncio.create_task(hub.maintain())
        yield
        maintenance.cancel()
        hub.shutdown()
        await store.aclose()

    # No /docs pages: they load scripts from elsewhere, which the pages' policy forbids.
    app = FastAPI(title="kumite", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.state.store = store
    app.state.settings = settings

    @app.exception_handler(KumiteError)
    async def kumite_error(_request: Any, exc: KumiteError) -> JSONResponse:
        return JSONResponse({"detail": one_line(str(exc))}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Any, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own answer echoes the input back, and fails (a 500) on a body that is
        # not text; what was wrong, and where, is enough.
        detail = [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
        return JSONResponse({"detail": detail}, status_code=422)

    @app.exception_handler(RateLimitedError)
    async def rate_limited(_request: Any, exc: RateLimitedError) -> JSONResponse:
        return JSONResponse(
            {"detail": str(exc)},
            status_code=429,
            headers={"Retry-After": str(exc.retry_after)},
        )

    @app.exception_handler(ProtocolError)
    async def protocol_error(_request: Any, exc: ProtocolError) -> JSONResponse:
        # A REST request that met a storage failure (``unavailable``): nothing was done.
        return JSONResponse({"detail": exc.message}, status_code=503)

    def runtime_or_404(table_id: str) -> TableRuntime:
        runtime = hub.get(table_id)
        if runtime is None:
            raise HTTPException(404, f"no table {table_id[:40]!r}")
        return runtime

    def address(request: Request | WebSocket) -> str:
        return request.client.host if request.client is not None else "unknown"

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

    @app.get("/api/server")
    async def server_info() -> dict[str, Any]:
        """What the lobby needs to know of this server's policy."""
        return {
            "dev_seeds": settings.dev_seeds,
            "limits": {
                "create": settings.create_rate,
                "hello": settings.hello_rate,
                "chat": settings.chat_rate,
                "open_tables_per_client": settings.open_tables_per_client,
                "spectators_per_table": settings.spectators_per_table,
            },
        }

    # -- tables -------------------------------------------------------------------------
    @app.post("/api/tables")
    async def create_table(spec: TableSpec, request: Request) -> dict[str, Any]:
        if spec.seed is not None and not settings.dev_seeds:
            raise HTTPException(
                400,
                "this server chooses every seed itself, in secret (a seed of your own is "
                "accepted only by a server run with --dev-seeds)",
            )
        client = address(request)
        if hub.open_tables(client) >= settings.open_tables_per_client:
            raise HTTPException(
                429,
                f"your address has {settings.open_tables_per_client} unfinished tables "
                "already: finish or leave one first",
            )
        limits.hit("create", client)
        made = await anyio.to_thread.run_sync(new_table, spec, None)
        hub.made(made["id"], client)
        runtime = hub.tables.get(made["id"])
        if runtime is not None and not runtime.has_humans:
            runtime.kick_bots()  # bots alone: they play now (a spectator's hello never starts them)
        return made

    def new_table(spec: TableSpec, rematch_of: str | None) -> dict[str, Any]:
        try:
            return make_table(spec, rematch_of)
        except (TypeError, ValueError, AttributeError) as exc:
            # Options of the wrong shape (a number for a list, say) that a game's checks
            # did not expect: the request's fault, said in one line.
            if isinstance(exc, KumiteError):
                raise
            raise HTTPException(400, one_line(f"bad table options: {exc}")) from None

    def make_table(spec: TableSpec, rematch_of: str | None) -> dict[str, Any]:
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
        seed = spec.seed if spec.seed is not None else new_seed()
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
        # No seed here: it stays a secret until the game is over (then in the record).
        return {
            "id": table_id,
            "game": game.info.id,
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
            "closed": runtime.closed,
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
            if runtime.over:
                raise HTTPException(409, "the game is over")
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
        # The seat's other sockets (another tab, another device) stop at once.
        await runtime.disconnect(
            body.seat,
            LEFT_CODE,
            ProtocolError("seat-left", "this seat was left: its link no longer works"),
        )
        await runtime.broadcast()
        return {"seat": body.seat, "open": True}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, body: SeatToken, request: Request) -> dict[str, Any]:
        runtime = runtime_or_404(table_id)
        authorise(runtime, body.seat, body.token)
        # Under the table's lock: two players asking at once must not make two rematches.
        async with runtime.lock:
            if not runtime.finished:
                raise HTTPException(409, "the game is not over yet")
            if runtime.next_table is not None:
                raise HTTPException(409, f"a rematch exists: table {runtime.next_table}")
            limits.hit("create", address(request))
            seats = [
                SeatSpec(kind="bot", agent=s["agent"], name=s.get("name"))
                if s["kind"] == "bot"
                else SeatSpec(kind="you" if i == body.seat else "human", name=s.get("name"))
                for i, s in enumerate(runtime.seats)
            ]
            spec = TableSpec(game=runtime.game.info.id, options=runtime.options, seats=seats)
            made = await anyio.to_thread.run_sync(new_table, spec, table_id)
            runtime.next_table = made["id"]
        hub.made(made["id"], address(request))
        # Each seat's new token goes to that seat's own sockets only; the answer holds the
        # requester's alone.
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
        return {**made, "links": [by_seat[body.seat]] if body.seat in by_seat else []}

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
    allowed_origins = frozenset(settings.allowed_origins)

    @app.websocket("/ws/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        if not origin_allowed(
            websocket.headers.get("origin"), websocket.headers.get("host"), allowed_origins
        ):
            # A page of another site (cross-site WebSocket hijacking): an HTTP 403, no socket.
            await websocket.close(4403)
            return
        await websocket.accept()
        try:
            runtime = hub.get(table_id)
        except ProtocolError as exc:
            await refuse(websocket, exc, 1011)
            return
        if runtime is None:
            await refuse(websocket, ProtocolError("not-found", f"no table {table_id[:40]!r}"), 4404)
            return
        runtime.holds += 1
        try:
            await connect(websocket, runtime)
        finally:
            runtime.holds -= 1
            runtime.last_used = time.monotonic()
            hub.sweep()

    async def greet(websocket: WebSocket, runtime: TableRuntime) -> int | None:
        """Read and check the hello; the seat it is for (``None``: a spectator)."""
        try:
            raw = await asyncio.wait_for(receive(websocket), HELLO_TIMEOUT)
        except TimeoutError:
            raise RefusedError(ProtocolError("timeout", "no hello"), 4408) from None
        if raw is None:
            raise RefusedError(ProtocolError("gone", "closed"), 1000)
        try:
            # Every first message counts, a refused one too: no guessing tokens at speed.
            limits.hit("hello", address(websocket))
            hello = parse(raw)
            if not isinstance(hello, Hello):
                raise ProtocolError("hello-first", "the first message must be a hello")
            seat = hello.seat
            if seat is not None and not (
                hello.token is not None and runtime.check_token(seat, hello.token)
            ):
                raise ProtocolError("bad-token", "wrong seat or token for this table")
        except RateLimitedError as exc:
            raise RefusedError(ProtocolError("rate-limited", str(exc)), 4429) from None
        except ProtocolError as exc:
            raise RefusedError(exc, 4401) from None
        if seat is None and runtime.spectators() >= settings.spectators_per_table:
            limit = settings.spectators_per_table
            raise RefusedError(
                ProtocolError("full", f"this table has {limit} spectators already"), 4429
            )
        return seat

    async def connect(websocket: WebSocket, runtime: TableRuntime) -> None:
        """A connection's life: hello, welcome, then its messages until it closes."""
        try:
            seat = await greet(websocket, runtime)
        except RefusedError as refused:
            await refuse(websocket, refused.error, refused.code)
            return

        async def close(code: int) -> None:
            await websocket.close(code)

        client = Client(seat, sender(websocket), close=close, address=address(websocket))
        if seat is not None:
            try:
                await runtime.claim(seat)
            except ProtocolError as exc:
                await refuse(websocket, exc, 1011)
                return
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
        if seat is not None or runtime.has_humans:
            # A table of bots alone plays from its creation on; a spectator never starts it
            # (again, after a restart).
            runtime.kick_bots()
        try:
            while client in runtime.clients:
                raw = await receive(websocket)
                if raw is None:
                    break
                try:
                    await handle(runtime, client, parse(raw))
                except ProtocolError as exc:
                    await client.send(exc.to_json())
        except Exception:  # the socket went away while we answered (a send failed)
            pass
        finally:
            if client in runtime.clients:
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
            try:
                limits.hit("chat", client.address)
            except RateLimitedError as exc:
                raise ProtocolError("rate-limited", str(exc)) from None
            await runtime.chat(client.seat, message.text.strip())
        elif isinstance(message, Ping):
            await client.send({"type": "pong", "step": runtime.step})
        else:
            raise ProtocolError("hello-again", "already greeted")

    async def receive(websocket: WebSocket) -> str | bytes | None:
        """The next frame's text (or bytes: a binary frame); ``None`` once it is closed."""
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text: str | None = message.get("text")
        if text is not None:
            return text
        data: bytes = message.get("bytes") or b""
        return data

    def sender(websocket: WebSocket) -> Callable[[dict[str, Any]], Awaitable[None]]:
        async def send(message: dict[str, Any]) -> None:
            await websocket.send_text(_ENCODER.encode(message).decode())

        return send

    async def refuse(websocket: WebSocket, exc: ProtocolError, code: int) -> None:
        with contextlib.suppress(Exception):
            await websocket.send_json(exc.to_json())
            await websocket.close(code)

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    # Each added middleware wraps the ones before: the headers go on every answer, the
    # Host check's refusals too; then the Host check; then the body's.
    app.add_middleware(BodyGuard, max_body=settings.max_body)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=settings.hosts(bound_host))
    app.add_middleware(SecurityHeaders)
    return app
