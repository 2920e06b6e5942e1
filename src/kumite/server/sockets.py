"""Live play: a table's WebSocket, from the hello to the last message (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from fastapi import APIRouter, HTTPException, WebSocket

from kumite.server.context import Server, address
from kumite.server.protocol import Chat, Choose, Hello, Ping, ProtocolError, parse
from kumite.server.ratelimits import RateLimitedError, SilentSockets
from kumite.server.runtime import (
    LEFT_CODE,
    ONE_SEAT_CODE,
    SPECTATORS,
    Client,
    TableRuntime,
    one_seat_only,
)
from kumite.server.security import origin_allowed

_ENCODER = msgspec.json.Encoder()
HELLO_TIMEOUT = 15.0


class Waiting:
    """A socket counted among its address's silent ones until :meth:`heard` (once)."""

    def __init__(self, silent: SilentSockets, address: str) -> None:
        self.silent = silent
        self.address = address
        self.entered = silent.enter(address)

    def heard(self) -> None:
        if self.entered:
            self.entered = False
            self.silent.leave(self.address)


class RefusedError(Exception):
    """A WebSocket refused before its hello is served: tell it why, close it with ``code``."""

    def __init__(self, error: ProtocolError, code: int) -> None:
        super().__init__(error.message)
        self.error = error
        self.code = code


def router(server: Server) -> APIRouter:
    router = APIRouter()
    allowed_origins = frozenset(server.settings.allowed_origins)

    @router.websocket("/ws/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        if not origin_allowed(
            websocket.headers.get("origin"), websocket.headers.get("host"), allowed_origins
        ):
            # A page of another site (cross-site WebSocket hijacking): an HTTP 403, no socket.
            await websocket.close(4403)
            return
        await websocket.accept()
        # Until its first message a socket holds a connection and a task for nothing: an
        # address may keep only so many waiting at once.
        waiting = Waiting(server.limits.silent, address(websocket))
        if not waiting.entered:
            error = ProtocolError("rate-limited", server.limits.silent.refusal())
            await refuse(websocket, error, 4429)
            return
        try:
            try:
                runtime = server.hub.get(table_id)
            except ProtocolError as exc:
                await refuse(websocket, exc, 1011)
                return
            if runtime is None:
                error = ProtocolError("not-found", f"no table {table_id[:40]!r}")
                await refuse(websocket, error, 4404)
                return
            runtime.holds += 1
            try:
                await connect(websocket, runtime, waiting)
            finally:
                runtime.holds -= 1
                runtime.last_used = time.monotonic()
                server.hub.sweep()
        finally:
            waiting.heard()

    async def greet(
        websocket: WebSocket, runtime: TableRuntime, waiting: Waiting
    ) -> tuple[int | None, str | None, str | None]:
        """Read and check the hello: the seat it is for (``None``: a spectator), the
        seat's fresh token if this hello took an invited seat (:func:`take`), and the
        player key it sent (a spectator's names them)."""
        try:
            raw = await asyncio.wait_for(receive(websocket), HELLO_TIMEOUT)
        except TimeoutError:
            raise RefusedError(ProtocolError("timeout", "no hello"), 4408) from None
        finally:
            waiting.heard()
        if raw is None:
            raise RefusedError(ProtocolError("gone", "closed"), 1000)
        try:
            # Every first message counts, a refused one too: no guessing tokens at speed.
            server.limits.hit("hello", address(websocket))
            hello = parse(raw)
            if not isinstance(hello, Hello):
                raise ProtocolError("hello-first", "the first message must be a hello")
            seat = hello.seat
            if seat is not None and not (
                (hello.token is not None and runtime.check_token(seat, hello.token))
                or await holds(runtime, seat, hello.key)
            ):
                raise ProtocolError("bad-token", "wrong seat or token for this table")
        except RateLimitedError as exc:
            raise RefusedError(ProtocolError("rate-limited", str(exc)), 4429) from None
        except ProtocolError as exc:
            raise RefusedError(exc, 4401) from None
        if seat is None and runtime.spectators() >= server.settings.spectators_per_table:
            limit = server.settings.spectators_per_table
            raise RefusedError(
                ProtocolError("full", f"this table has {limit} spectators already"), 4429
            )
        if seat is not None and hello.token is not None:
            info = runtime.seats[seat]
            if info.kind == "human" and not info.claimed:  # an invited seat nobody took yet
                return seat, await take(runtime, seat, hello.token, hello.key), hello.key
        return seat, None, hello.key

    async def take(runtime: TableRuntime, seat: int, token: str, key: str | None) -> str:
        """The first hello with an invited seat's token takes the seat (docs/protocol.md,
        "Players"): its person gets a fresh token, bound to their player key if they sent
        one, and every other copy of the invite (the creator's) stops working. Returns
        the fresh token."""
        try:
            player = await server.player_of_key(key)
        except HTTPException:
            player = None  # a key this server does not know: taken without a player
        async with runtime.lock:
            info = runtime.seats[seat]
            if info.claimed or info.kind != "human" or not runtime.check_token(seat, token):
                # taken meanwhile, by another hello with the same invite
                error = ProtocolError("bad-token", "wrong seat or token for this table")
                raise RefusedError(error, 4401)
            held = None if player is None else runtime.seat_held_by(player[0])
            if held is not None:
                raise RefusedError(ProtocolError("one-seat", one_seat_only(held)), ONE_SEAT_CODE)
            try:
                fresh = await runtime.seat_person(seat, player, joined=False)
            except ProtocolError as exc:
                raise RefusedError(exc, 1011) from None
        taken = ProtocolError(
            "seat-taken", "this seat was taken by its invitee: this link no longer works"
        )
        await runtime.disconnect(seat, LEFT_CODE, taken)
        return fresh

    async def spectator_name(key: str | None) -> str | None:
        """A spectator's name: that of the player whose key its hello sent, if known."""
        if not key:
            return None
        try:
            player = await server.player_of_key(key)
        except HTTPException:
            return None
        return None if player is None else player[1]

    async def holds(runtime: TableRuntime, seat: int, key: str | None) -> bool:
        """Whether ``key`` is the key of the player holding ``seat``."""
        holder = runtime.holders.get(seat)
        if holder is None or not key:
            return False
        try:
            player = await server.player_of_key(key)
        except HTTPException:
            return False
        return player is not None and player[0] == holder

    async def connect(websocket: WebSocket, runtime: TableRuntime, waiting: Waiting) -> None:
        """A connection's life: hello, welcome, then its messages until it closes."""
        try:
            seat, fresh, key = await greet(websocket, runtime, waiting)
        except RefusedError as refused:
            await refuse(websocket, refused.error, refused.code)
            return

        async def close(code: int) -> None:
            await websocket.close(code)

        client = Client(seat, sender(websocket), close=close, address=address(websocket))
        if seat is None:
            client.name = await spectator_name(key)
        if seat is not None:
            runtime.take_back(seat)  # a bot stood in while its player was away
        runtime.clients.add(client)
        history = runtime.chat_history(seat)
        welcome: dict[str, Any] = {
            "type": "welcome",
            "table": runtime.id,
            "seat": seat,
            "game": runtime.game.info.id,
            "chat": {
                "channel": SPECTATORS if seat is None else runtime.channel(seat),
                "rules": runtime.chat_rules(seat),
                "history": history,
            },
        }
        if fresh is not None:
            welcome["token"] = fresh  # the seat's new token: to this socket alone
        await websocket.send_json(welcome)
        await runtime.broadcast()
        if seat is not None or runtime.has_humans:
            # A table of bots alone plays from its creation on; a spectator never starts it
            # (again, after a restart).
            runtime.kick_bots()
            runtime.kick_clock()
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
            if seat is not None:
                runtime.last_seen[seat] = time.monotonic()
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
            try:
                server.limits.hit("chat", client.address)
            except RateLimitedError as exc:
                raise ProtocolError("rate-limited", str(exc)) from None
            if client.seat is None:
                await runtime.spectator_chat(client.name, message.text.strip())
            else:
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

    return router
