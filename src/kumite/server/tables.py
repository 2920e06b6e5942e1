"""The tables' REST API: make, list, join, leave, resign, rematch, record and replay a table.

Each route checks who asks and hands the work to the table (its runtime) or, to make one,
to :class:`.making.TableMaker`. A request may name its player (the ``X-Kumite-Player`` key,
:mod:`.players`): the seat it makes or joins is then held by that player, who may act for it
by key as well as by token.
"""

from __future__ import annotations

import contextlib
import functools
from typing import Annotated, Any

import anyio
import msgspec
from fastapi import APIRouter, HTTPException, Query, Request

from kumite.server import naming
from kumite.server.context import Server, address, renderer
from kumite.server.inputs import body
from kumite.server.making import MAX_SEATS, Made, TableMaker, TableSpec
from kumite.server.protocol import ProtocolError
from kumite.server.runtime import LEFT_CODE, TableRuntime, one_seat_only
from kumite.web.table import adapter

SeatNumber = Annotated[int, msgspec.Meta(ge=0, lt=MAX_SEATS)]
Token = Annotated[str, msgspec.Meta(max_length=64)]


class SeatToken(msgspec.Struct):
    seat: SeatNumber
    token: Token = ""


class StandIn(msgspec.Struct):
    seat: SeatNumber
    target: SeatNumber
    """The silent seat a bot is to play."""
    token: Token = ""


def router(server: Server) -> APIRouter:
    router = APIRouter()
    maker = TableMaker(server)

    @router.post("/api/tables")
    async def create_table(
        request: Request, spec: Annotated[TableSpec, body(TableSpec)]
    ) -> dict[str, Any]:
        player = await server.player(request)
        return await maker.create(spec, Made(player, maker=address(request)))

    @router.get("/api/tables")
    async def list_tables(
        waiting: bool = False,
        game: str | None = Query(default=None, max_length=32),
        offset: int = Query(default=0, ge=0, le=100_000),
        limit: int = Query(default=50, ge=1, le=100),
    ) -> list[dict[str, Any]]:
        """Listed tables, the latest first (``waiting``: with an open seat), a page at a
        time."""
        tables = await anyio.to_thread.run_sync(
            functools.partial(server.store.list_tables, limit, offset, waiting=waiting, game=game)
        )
        return [naming.listed(t) for t in tables]

    @router.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        runtime = server.runtime(table_id)
        return {
            "id": runtime.id,
            "game": runtime.game.info.id,
            "name": runtime.game.info.name,
            "renderer": renderer(runtime.spec),
            "step": runtime.step,
            "finished": runtime.finished,
            "seats": runtime.public_seats(),
            "next_table": runtime.next_table,
            "outcome": runtime.outcome,
            "closed": runtime.closed,
            "private": runtime.private,
            "rated": runtime.rated,
            "clock": runtime.clock_view(),
        }

    @router.get("/api/tables/{table_id}/cards")
    async def table_cards(table_id: str) -> dict[str, Any]:
        runtime = server.runtime(table_id)
        return adapter(runtime.spec).cards(runtime.game, runtime.options)

    @router.post("/api/tables/{table_id}/join")
    async def join(
        table_id: str, request: Request, asked: Annotated[SeatToken, body(SeatToken)]
    ) -> dict[str, Any]:
        player = await server.player(request)
        runtime = server.runtime(table_id)
        async with runtime.lock:
            if not 0 <= asked.seat < len(runtime.seats):
                raise HTTPException(400, "no such seat")
            if runtime.over:
                raise HTTPException(409, "the game is over")
            seat = runtime.seats[asked.seat]
            if seat.kind != "open" or seat.claimed:
                raise HTTPException(409, "that seat is not open")
            held = None if player is None else runtime.seat_held_by(player[0])
            if held is not None:
                raise HTTPException(409, one_seat_only(held))
            token = await runtime.seat_person(asked.seat, player, joined=True)
        await runtime.broadcast()
        joined = {
            "seat": asked.seat,
            "token": token,
            "url": f"/table/{table_id}#seat={asked.seat}&token={token}",
        }
        if player is not None:
            joined["play"] = f"/table/{table_id}#seat={asked.seat}"
        return joined

    async def seated(
        table_id: str, asked: SeatToken | StandIn, request: Request
    ) -> tuple[TableRuntime, tuple[str, str] | None]:
        """The table and the requesting player (if any), once the request has shown it acts
        for ``asked.seat`` (by the seat's token, or as the player holding it)."""
        player = await server.player(request)
        runtime = server.runtime(table_id)
        server.authorise(runtime, asked.seat, asked.token, player)
        return runtime, player

    @router.post("/api/tables/{table_id}/leave")
    async def leave(
        table_id: str, request: Request, asked: Annotated[SeatToken, body(SeatToken)]
    ) -> dict[str, Any]:
        runtime, _ = await seated(table_id, asked, request)
        async with runtime.lock:
            if runtime.finished:
                raise HTTPException(409, "the game is over: nothing to leave")
            await runtime.release(asked.seat)
            if asked.seat in runtime.holders:
                await runtime.hold(asked.seat, None)
        # The seat's other sockets (another tab, another device) stop at once.
        await runtime.disconnect(
            asked.seat,
            LEFT_CODE,
            ProtocolError("seat-left", "this seat was left: its link no longer works"),
        )
        await runtime.broadcast()
        return {"seat": asked.seat, "open": True}

    @router.post("/api/tables/{table_id}/resign")
    async def resign(
        table_id: str, request: Request, asked: Annotated[SeatToken, body(SeatToken)]
    ) -> dict[str, Any]:
        runtime, _ = await seated(table_id, asked, request)
        try:
            outcome = await runtime.resign(asked.seat)
        except ProtocolError as exc:
            raise HTTPException(409, exc.message) from None
        return {"seat": asked.seat, "outcome": outcome}

    @router.post("/api/tables/{table_id}/stand-in")
    async def stand_in(
        table_id: str, request: Request, asked: Annotated[StandIn, body(StandIn)]
    ) -> dict[str, Any]:
        """A seat hands another, silent seat to a bot until its player comes back."""
        runtime, _ = await seated(table_id, asked, request)
        async with runtime.lock:
            if runtime.over:
                raise HTTPException(409, "the game is over")
            if not 0 <= asked.target < len(runtime.seats) or asked.target == asked.seat:
                raise HTTPException(400, "name another seat of this table")
            if runtime.seats[asked.target].kind == "bot" or asked.target in runtime.bots:
                raise HTTPException(409, "a bot plays that seat already")
            if runtime.seats[asked.target].kind == "open":
                raise HTTPException(409, "that seat is open: nobody to stand in for")
            silent = runtime.silent_for(asked.target)
            wait = server.settings.absent_after
            if silent < wait:
                raise HTTPException(
                    409,
                    f"that seat's player was here {silent:.0f} s ago: a bot may stand in "
                    f"after {wait:.0f} s of silence",
                )
        bot = await runtime.stand_in(asked.target)
        return {"seat": asked.target, "bot": bot}

    @router.post("/api/tables/{table_id}/rematch")
    async def rematch(
        table_id: str, request: Request, asked: Annotated[SeatToken, body(SeatToken)]
    ) -> dict[str, Any]:
        runtime, player = await seated(table_id, asked, request)
        # Under the table's lock: two players asking at once must not make two rematches.
        async with runtime.lock:
            if not runtime.finished:
                raise HTTPException(409, "the game is not over yet")
            if runtime.next_table is not None:
                raise HTTPException(409, f"a rematch exists: table {runtime.next_table}")
            made = await maker.rematch(runtime, asked.seat, player, address(request))
            runtime.next_table = made["id"]
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
                        "seat": None if link is None else link["seat"],
                        "url": link["url"] if link else made["spectate"],
                    }
                )
        return {**made, "links": [by_seat[asked.seat]] if asked.seat in by_seat else []}

    @router.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        runtime = server.runtime(table_id)
        if not runtime.finished:
            raise HTTPException(403, "the record is available when the game is over")
        players = [s.agent or "human" for s in runtime.seats]
        rec = runtime.state.to_record(players=players, table=table_id)
        data: dict[str, Any] = msgspec.to_builtins(rec)
        return data

    @router.get("/api/tables/{table_id}/replay")
    async def replay_frames(table_id: str) -> dict[str, Any]:
        runtime = server.runtime(table_id)
        if not runtime.finished:
            raise HTTPException(403, "replays are available when the game is over")
        return await anyio.to_thread.run_sync(frames, runtime)

    def frames(runtime: TableRuntime) -> dict[str, Any]:
        state = runtime.game.new_state(runtime.seed, runtime.options)
        out = [{"step": 0, "choices": {}, "labels": {}, "events": [], "view": state.view(None)}]
        for index, choices in enumerate(runtime.state.history, start=1):
            # each choice labelled as its seat saw it (the game is over: nothing is secret)
            labels = {str(k): runtime.labels(state.view(k), [v])[0] for k, v in choices.items()}
            events = state.apply(choices)
            out.append(
                {
                    "step": index,
                    "choices": {str(k): v for k, v in choices.items()},
                    "labels": labels,
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
            "marks": naming.marks(runtime.names(), None),
        }

    return router
