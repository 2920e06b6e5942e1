"""The FastAPI application: the pages and games (:mod:`.pages`), the tables' REST API
(:mod:`.tables`) and live play (:mod:`.sockets`) on one :class:`~.context.Server`.

See ``docs/protocol.md``; its "Seeds", "Limits" and "Security" sections describe what the
server keeps from clients and refuses them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from kumite.core.errors import KumiteError
from kumite.server import (
    collector,
    guide_pages,
    pages,
    players,
    ratings,
    rules_pages,
    sockets,
    tables,
)
from kumite.server.context import STATIC, Server
from kumite.server.forward import Forwarder, Peers
from kumite.server.hub import Hub
from kumite.server.inputs import InputError
from kumite.server.ownership import Leases, Solo
from kumite.server.protocol import ProtocolError, one_line
from kumite.server.ratelimits import RateLimitedError, RateLimits
from kumite.server.security import SECURITY_HEADERS, InputGuard, SecurityHeaders
from kumite.server.settings import ServerSettings
from kumite.server.storage import Store

__all__ = ["STATIC", "create_app"]


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float = 0.25,
    freeze_gc: bool = False,
    settings: ServerSettings | None = None,
    bound_host: str | None = None,
) -> FastAPI:
    """The web table's app. ``freeze_gc`` (for a server process of its own): keep the cycle
    collector's passes short (:mod:`kumite.server.collector`).
    ``bound_host``: the address the server listens on, an allowed ``Host`` besides the
    loopback names and ``settings.allowed_hosts``."""
    settings = settings or ServerSettings()
    store = Store(database_url)
    # On PostgreSQL several processes may serve one database: each table is owned by one of
    # them at a time, and the others forward its requests there (docs/deploy.md).
    ownership = (
        Leases(store.engine, settings.advertise) if store.dialect == "postgresql" else Solo()
    )
    hub = Hub(store, bot_delay=bot_delay, settings=settings, ownership=ownership)
    limits = RateLimits(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # No table is loaded here: each is loaded when first asked for, and its bots go on
        # when a player says hello (docs/protocol.md, "Durability").
        # Modules, card data, then tables and sockets: a full collection walked them all,
        # stopping the event loop for 0.1-0.4 s under load and so every choice in flight
        # (docs/protocol.md, Load).
        collecting = (
            asyncio.create_task(collector.run(settings.full_collection_every))
            if freeze_gc
            else None
        )
        maintenance = asyncio.create_task(hub.maintain())
        hub.bots.start()
        yield
        maintenance.cancel()
        if collecting is not None:
            collecting.cancel()
        hub.shutdown()
        if peers is not None:
            await peers.aclose()
        await store.aclose()

    # No /docs pages: they load scripts from elsewhere, which the pages' policy forbids.
    app = FastAPI(title="kumite", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.state.store = store
    app.state.settings = settings

    @app.exception_handler(KumiteError)
    async def kumite_error(_request: Any, exc: KumiteError) -> JSONResponse:
        return JSONResponse({"detail": one_line(str(exc))}, status_code=400)

    @app.exception_handler(InputError)
    async def bad_input(_request: Any, exc: InputError) -> JSONResponse:
        return JSONResponse({"detail": one_line(str(exc))}, status_code=400)

    @app.exception_handler(Exception)
    async def server_error(_request: Any, _exc: Exception) -> JSONResponse:
        # A fault of the server's (its traceback is logged after this answer): nothing of it
        # is told. This answer is sent from outside every middleware, so it carries the
        # security headers itself.
        headers = {k.decode(): v.decode() for k, v in SECURITY_HEADERS}
        return JSONResponse({"detail": "internal error"}, status_code=500, headers=headers)

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

    server = Server(store, hub, settings, limits)
    for part in (pages, players, tables, sockets, rules_pages, guide_pages):
        app.include_router(part.router(server))
    app.include_router(ratings.router(store))
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    peers: Peers | None = None
    hosts = settings.hosts(bound_host)
    if ownership.shared:
        peers = Peers(
            hub.locate,
            store.cluster_secret(),
            settings.max_frame,
            frozenset(settings.allowed_origins),
        )
        app.add_middleware(Forwarder, peers=peers)
        if settings.advertise:  # peers forward to it by that name
            hosts.append(urlsplit(settings.advertise).netloc.rsplit(":", 1)[0].lower())
    # Each added middleware wraps the ones before: the client's address from the proxies
    # the operator trusts, if any (nobody else's X-Forwarded-For is believed); the headers
    # go on every answer, the Host check's refusals too; then the Host check; then the
    # input's; then, with several processes, forwarding a table's requests to its owner.
    app.add_middleware(InputGuard, max_body=settings.max_body)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=hosts)
    app.add_middleware(SecurityHeaders)
    if settings.trusted_proxies:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.trusted_proxies))
    return app
