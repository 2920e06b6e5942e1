"""What the server takes from a request, checked in one place before anything reads it
(docs/protocol.md, "Security"): no control character in any text — a query, a path, any
string or key of a JSON body — and request bodies decoded strictly into typed structs with
their ranges (``"yes"`` is no boolean, ``"60"`` no number).

A control character is refused on both databases alike: PostgreSQL cannot store a NUL
(a query naming one failed there with a 500), SQLite can. Tab, line feed and carriage return
are text in a body (an overlay pack is TOML); nowhere else.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar
from urllib.parse import unquote_to_bytes

import msgspec
from fastapi import Depends, Request
from fastapi.exceptions import RequestValidationError

from kumite.server.protocol import one_line

T = TypeVar("T")

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
"""C0 and C1 control characters, and unpaired surrogates (which cannot be encoded)."""
_CONTROL_IN_BODY = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
"""The same, but for tab, line feed and carriage return."""


class InputError(Exception):
    """A request refused for what it holds: a 400 with this one-line message."""


def control_in(text: str, *, body: bool = False) -> str | None:
    """The first control character in ``text`` as ``U+XXXX``, or ``None``."""
    found = (_CONTROL_IN_BODY if body else _CONTROL).search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


def query_problem(raw_path: bytes, query: bytes) -> str | None:
    """Why a request's path or query string (both as sent, percent-escaped) is refused, or
    ``None``. Escapes are decoded first: ``%00`` is a NUL."""
    where = {"the address": unquote_to_bytes(raw_path)}
    for pair in query.split(b"&") if query else ():
        name, _, value = pair.partition(b"=")
        shown = unquote_to_bytes(name).decode("utf-8", "replace")
        where[f"query parameter {shown[:32]!r}"] = unquote_to_bytes(name + b"=" + value)
    for what, raw in where.items():
        found = control_in(raw.decode("utf-8", "replace"))
        if found is not None:
            return f"{what} holds a control character ({found}): not accepted"
    return None


def body_problem(value: Any) -> str | None:
    """Why a decoded JSON body is refused for a control character in a string or a key
    (none but tab, line feed and carriage return), or ``None``. Walked without recursion."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            found = control_in(item, body=True)
            if found is not None:
                return f"text holds a control character ({found}): not accepted"
        elif isinstance(item, dict):
            todo.extend(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return None


def decode(raw: bytes, kind: type[T]) -> T:
    """A request body as a ``kind`` struct: strict JSON, strict types (no string for a
    number or a boolean, no float for an integer), every field's range and length; else
    a 422 in FastAPI's form (``detail``: ``[{loc, msg, type}]``, the input not echoed)."""
    try:
        return msgspec.json.decode(raw or b"null", type=kind, strict=True)
    except msgspec.ValidationError as exc:
        message, _, where = str(exc).partition(" - at `$")
        loc: list[str | int] = ["body"]
        for part in re.findall(r"\.([^.\[]+)|\[(\d+)\]", where.rstrip("`")):
            loc.append(part[0] if part[0] else int(part[1]))
        error = {"loc": loc, "msg": one_line(message), "type": "value_error"}
        raise RequestValidationError([error]) from None
    except msgspec.DecodeError:
        error = {"loc": ["body"], "msg": "not a JSON body", "type": "json_invalid"}
        raise RequestValidationError([error]) from None


def body(kind: type[T]) -> Any:
    """A FastAPI dependency: the request's body, :func:`decode`\\ d as ``kind``."""

    async def read(request: Request) -> T:
        # Only a body sent as JSON went through the guard's checks (security.InputGuard).
        if "json" not in request.headers.get("content-type", "json"):
            error = {"loc": ["body"], "msg": "send JSON (application/json)", "type": "json_type"}
            raise RequestValidationError([error])
        return decode(await request.body(), kind)

    reader: Callable[[Request], Coroutine[Any, Any, T]] = read
    return Depends(reader)
