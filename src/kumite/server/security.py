"""What every request goes through before the app: the security headers of every answer,
and REST requests refused for a control character in their address or query, or a body over
a size limit, not strict JSON of a small depth, or holding a control character in any of
its text (docs/protocol.md, "Security"; :mod:`.inputs`). The ``Host`` allow-list is Starlette's
``TrustedHostMiddleware``; a WebSocket's ``Origin`` is checked by :func:`origin_allowed`.

Both middlewares are plain ASGI (no per-request task or copy of the response), so the web
table's latency does not pay for them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

import msgspec
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kumite.server.inputs import body_problem, query_problem

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
"""The pages load their scripts and styles from ``/static`` only (no inline script, style
or handler), talk to this server only, and are never framed (clickjacking)."""

SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers without CSP 2
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
]

MAX_DEPTH = 8
"""The deepest nesting of arrays and objects accepted in a REST body (the deepest the API
uses is 3: a table's options holding a list)."""


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP answer (pages, files, API, errors)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {name.lower() for name, _ in message.get("headers", ())}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in have]
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class InputGuard:
    """Refuses (400) a request whose address or query string holds a control character;
    reads a request's body (at most ``max_body`` bytes, else 413) and, if it is sent as
    JSON, refuses it (400) unless it is strict JSON — no ``NaN`` or ``Infinity``, which
    PostgreSQL's JSON cannot hold though SQLite's can — nested at most :data:`MAX_DEPTH`
    deep, with no control character in its text. Every refusal is a one-line ``detail``,
    as FastAPI's own errors are."""

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        raw_path = scope.get("raw_path") or scope["path"].encode()
        problem = query_problem(raw_path, scope.get("query_string", b""))
        if problem is not None:
            await _refuse(send, 400, problem)
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_body:
            await _refuse(send, 413, f"request body too large (at most {self.max_body} bytes)")
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await _refuse(send, 413, f"request body too large (at most {self.max_body} bytes)")
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if body and "json" in headers.get("content-type", "json"):
            problem = json_problem(body)
            if problem is not None:
                await _refuse(send, 400, problem)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def json_problem(body: bytes) -> str | None:
    """Why ``body`` is not acceptable JSON, or ``None``."""
    try:
        value = msgspec.json.decode(body)
    except (msgspec.DecodeError, RecursionError):
        return "malformed JSON (strict JSON only: no NaN or Infinity)"
    if _depth(value) > MAX_DEPTH:
        return f"JSON nested too deep (at most {MAX_DEPTH} levels)"
    return body_problem(value)


def _depth(value: Any) -> int:
    """How deep arrays and objects nest in ``value`` (0 for a scalar), without recursion."""
    deepest = 0
    todo: list[tuple[Any, int]] = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        depth += 1
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            return deepest
        todo.extend((child, depth) for child in item)
    return deepest


async def _refuse(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str]) -> bool:
    """Whether a WebSocket from a page at ``origin`` may connect: no ``Origin`` (not a
    browser: it could send any header it liked), the server's own (the page's host is the
    ``Host`` asked for, which the allow-list has vetted), or one of ``allowed``."""
    if origin is None:
        return True
    if origin in allowed:
        return True
    if host is None or origin == "null":
        return False
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return netloc.lower() == host.lower()
