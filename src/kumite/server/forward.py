"""Requests for a table another process owns are forwarded to it (docs/deploy.md).

Several ``kumite serve`` processes may share one PostgreSQL database behind any HTTP load
balancer, without sticky sessions: a request or WebSocket about table ``T`` that lands on a
process not owning ``T`` (:mod:`kumite.server.ownership`) is passed on to ``T``'s owner as it
came, and its answer passed back. The owner does all the work (checks, commits, views), so
two players of one table on two processes play the same game, and each seat still gets only
its own view. The forwarding process has checked ``Host``, ``Origin`` and the body limit
already; it tells the owner the client's address (for its rate limits) with a header only
servers of this database can make, signed with the database's cluster secret.

If the owner goes away mid-game, the forwarded socket is closed with 1012 ("service
restart"): the client reconnects, to any process, and the first one asked takes the table
over from storage.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import httpx
from starlette.datastructures import Headers
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from kumite.server.security import origin_allowed

log = logging.getLogger("kumite.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
Locate = Callable[[str], Awaitable[str | None]]

TABLE_PATH = re.compile(r"^/(?:ws|api/tables)/([A-Za-z0-9_-]{1,32})(?:/|$)")
"""The paths about one table (its socket and REST calls): those a process forwards."""
VIA = "x-kumite-via"
"""Header of a forwarded request: ``<client address> <signature>``."""
ATTEMPTS = 15
RETRY_AFTER = 0.2
"""A dead owner's lock is freed when PostgreSQL notices its session is gone: usually at
once; a request is tried again for up to 3 s (the next process may take it over)."""
MOVED = "x-kumite-moved"
"""Header of a peer's 503: it does not own that table (any more)."""
MAX_OWNERS_KNOWN = 100_000
RESTART = 1012
"""WebSocket close code when a forwarded table's owner went away: reconnect."""
_HOP = {
    "host",
    "origin",
    "connection",
    "upgrade",
    "keep-alive",
    "transfer-encoding",
    "content-length",
    VIA,
}
_WS_HANDSHAKE = re.compile(r"^sec-websocket-")


def table_of(path: str) -> str | None:
    match = TABLE_PATH.match(path)
    return None if match is None else match.group(1)


class Peers:
    """What forwarding needs: ``locate(table)`` (``None`` if this process serves it, which
    then holds it; else the owner's base address, ``http://host:port``), the cluster secret,
    the frame limit, the WebSocket origins allowed, and one HTTP client for every request."""

    def __init__(
        self, locate: Locate, secret: str, max_frame: int, allowed_origins: frozenset[str]
    ) -> None:
        self.locate = locate
        self.secret = secret.encode()
        self.max_frame = max_frame
        self.allowed_origins = allowed_origins
        self.http: httpx.AsyncClient | None = None
        self.owners: dict[str, str] = {}
        """table -> the address of its owner when last asked: a table's requests go there
        without asking PostgreSQL again, until the owner does not take them."""

    async def aclose(self) -> None:
        if self.http is not None:
            await self.http.aclose()


class Forwarder:
    """ASGI middleware: serve a table's requests here if this process owns it, else pass
    them on to the owner."""

    def __init__(self, app: ASGIApp, peers: Peers) -> None:
        self.app = app
        self.peers = peers
        self.locate = peers.locate
        self.secret = peers.secret
        self.max_frame = peers.max_frame

    def sign(self, address: str) -> str:
        return hmac.new(self.secret, address.encode(), "sha256").hexdigest()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        forwarded = self._forwarded_by_peer(scope)
        table = table_of(scope["path"])
        if table is None:
            await self.app(scope, receive, send)
            return
        opening: Message | None = None  # a socket's first message, or a request's body
        owners = self.peers.owners
        for _ in range(ATTEMPTS):
            owner = None if forwarded else owners.get(table)
            if owner is None:
                try:
                    owner = await self.locate(table)
                except Exception as exc:  # the database is down, say
                    log.error("table %s: no owner found: %s", table, _first_line(exc))
                    if scope["type"] == "websocket" and opening is None:
                        await receive()
                    await _unavailable(scope, send, NOT_LOADED, code=1011)
                    return
                if owner is not None and not forwarded:
                    if len(owners) >= MAX_OWNERS_KNOWN:
                        owners.clear()
                    owners[table] = owner
            if owner is None:
                if opening is not None:
                    receive = _replay(opening, receive)
                await self.app(scope, receive, send)
                return
            if forwarded:
                break  # sent here as the owner, but another process has it now: no 2nd hop
            if opening is None:
                opening = await self._opening(scope, receive, send)
                if opening is None:
                    return
            if scope["type"] == "http":
                if await self._http_to(owner, scope, opening, send):
                    return
            elif await self._socket_to(owner, scope, receive, send):
                return
            # The owner did not take it: it may have just died (its lock about to be free),
            # or let go of the table. Ask PostgreSQL again.
            if owners.pop(table, None) is None:
                await asyncio.sleep(RETRY_AFTER)
        if scope["type"] == "websocket" and opening is None:
            await receive()  # its connect message, before refusing it
        await _unavailable(scope, send, OWNER_GONE, moved=forwarded)

    async def _opening(self, scope: Scope, receive: Receive, send: Send) -> Message | None:
        """A socket's connect message (its ``Origin`` checked), or a request's whole body."""
        if scope["type"] == "websocket":
            message = await receive()
            if message["type"] != "websocket.connect":
                return None
            request = Headers(scope=scope)
            if not origin_allowed(
                request.get("origin"), request.get("host"), self.peers.allowed_origins
            ):
                await send({"type": "websocket.close", "code": 4403})  # HTTP 403, as here
                return None
            return message
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return None  # the client went away
            body.extend(message.get("body", b""))
            if not message.get("more_body"):
                return {"type": "http.request", "body": bytes(body), "more_body": False}

    def _forwarded_by_peer(self, scope: Scope) -> bool:
        """A request a peer forwarded: take the client's address from its header."""
        headers = scope.get("headers") or []
        value = next((v for k, v in headers if k == VIA.encode()), None)
        if value is None:
            return False
        scope["headers"] = [(k, v) for k, v in headers if k != VIA.encode()]
        address, _, signature = value.decode("latin-1").rpartition(" ")
        if not hmac.compare_digest(signature, self.sign(address)):
            return False  # forged: the client's own address stays
        scope["client"] = (address, 0)
        return True

    def _headers(self, scope: Scope) -> dict[str, str]:
        headers = {
            k.decode("latin-1"): v.decode("latin-1")
            for k, v in scope.get("headers") or []
            if k.decode("latin-1") not in _HOP
        }
        client = scope.get("client")
        address = client[0] if client else "unknown"
        headers[VIA] = f"{address} {self.sign(address)}"
        return headers

    async def _http_to(self, owner: str, scope: Scope, request: Message, send: Send) -> bool:
        if self.peers.http is None:
            self.peers.http = httpx.AsyncClient(timeout=30.0)
        url = owner + scope.get("raw_path", scope["path"].encode()).decode("latin-1")
        if scope.get("query_string"):
            url += "?" + scope["query_string"].decode("latin-1")
        try:
            answer = await self.peers.http.request(
                scope["method"], url, content=request["body"], headers=self._headers(scope)
            )
        except httpx.HTTPError as exc:
            log.warning("forwarding to %s failed: %s", owner, exc)
            return False
        if answer.headers.get(MOVED):
            return False  # it no longer owns the table
        headers = [
            (k.encode("latin-1"), v.encode("latin-1"))
            for k, v in answer.headers.multi_items()
            if k.lower()
            not in ("content-length", "transfer-encoding", "connection", "content-encoding")
        ]
        await send(
            {"type": "http.response.start", "status": answer.status_code, "headers": headers}
        )
        await send({"type": "http.response.body", "body": answer.content})
        return True

    async def _socket_to(self, owner: str, scope: Scope, receive: Receive, send: Send) -> bool:
        url = owner.replace("http", "ws", 1) + scope["path"]
        headers = {k: v for k, v in self._headers(scope).items() if not _WS_HANDSHAKE.match(k)}
        try:
            upstream = await connect(
                url,
                additional_headers=headers,
                compression=None,
                max_size=self.max_frame,
                proxy=None,
                user_agent_header=None,
                ping_interval=None,
            )
        except (OSError, InvalidStatus, TimeoutError) as exc:
            log.warning("forwarding a socket to %s failed: %s", owner, exc)
            return False
        await send({"type": "websocket.accept"})

        async def up() -> None:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    await upstream.close()
                    return
                data = message.get("text")
                await upstream.send(data if data is not None else message.get("bytes") or b"")

        async def down() -> int:
            try:
                async for data in upstream:
                    key = "text" if isinstance(data, str) else "bytes"
                    await send({"type": "websocket.send", key: data})
            except ConnectionClosed:
                pass
            received = upstream.protocol.close_rcvd
            if received is None:  # the owner went away without closing: reconnect
                with contextlib.suppress(Exception):
                    await send({"type": "websocket.send", "text": _GONE})
                return RESTART
            return received.code

        sending = asyncio.ensure_future(up())
        try:
            code = await down()
        finally:
            sending.cancel()
            with contextlib.suppress(BaseException):
                await sending
        with contextlib.suppress(Exception):
            await send({"type": "websocket.close", "code": code})
        return True


_GONE = json.dumps(
    {"type": "error", "code": "unavailable", "message": "the table's server went away; reconnect"}
)


def _replay(first: Message, receive: Receive) -> Receive:
    """``receive``, giving ``first`` (already read) first."""
    given = False

    async def again() -> Message:
        nonlocal given
        if not given:
            given = True
            return first
        return await receive()

    return again


def _first_line(exc: Exception) -> str:
    lines = str(exc).splitlines()
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"


NOT_LOADED = "the table could not be loaded; try again"
OWNER_GONE = "the table's server is unavailable; try again"


async def _unavailable(
    scope: Scope, send: Send, detail: str, *, moved: bool = False, code: int = RESTART
) -> None:
    """Nothing done, try again: HTTP 503, or an ``unavailable`` error on a socket closed
    with ``code``. ``moved``: this process no longer owns the table a peer sent it."""
    if scope["type"] == "websocket":
        if moved:  # refused before it opens: the peer asks PostgreSQL again
            await send({"type": "websocket.close", "code": RESTART})
            return
        await send({"type": "websocket.accept"})
        error = {"type": "error", "code": "unavailable", "message": detail}
        await send({"type": "websocket.send", "text": json.dumps(error)})
        await send({"type": "websocket.close", "code": code})
        return
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"retry-after", b"1")]
    if moved:
        headers.append((MOVED.encode(), b"1"))
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})
