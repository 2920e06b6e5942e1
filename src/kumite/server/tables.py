"""The tables' REST API: make, list, join, leave, resign, rematch, record and replay a table.

A request may name its player (the ``X-Kumite-Player`` key, :mod:`.players`): the seat it
makes or joins is then held by that player, who may act for it by key as well as by token.
"""

from __future__ import annotations

import contextlib
import functools
import re
import secrets
from typing import Annotated, Any, Literal

import anyio
import msgspec
from fastapi import APIRouter, HTTPException, Query, Request

from kumite.agents.registry import make_agent, offered_at_table
from kumite.core.errors import KumiteError
from kumite.core.registry import get_spec
from kumite.server import naming
from kumite.server.context import Server, address, renderer
from kumite.server.inputs import body
from kumite.server.names import check_name, valid_name
from kumite.server.protocol import ProtocolError, one_line
from kumite.server.runtime import LEFT_CODE, TableRuntime, one_seat_only
from kumite.server.seeds import MAX_SEED, new_seed
from kumite.server.storage import Seat, TooManyOpenTablesError
from kumite.web.table import adapter

MAX_SEATS = 16
SeatNumber = Annotated[int, msgspec.Meta(ge=0, lt=MAX_SEATS)]
Token = Annotated[str, msgspec.Meta(max_length=64)]
_DECIMAL = re.compile(r"[0-9]{1,40}")


class SeatSpec(msgspec.Struct):
    kind: Literal["you", "human", "open", "bot"]
    agent: Annotated[str, msgspec.Meta(max_length=40)] | None = None
    name: Annotated[str, msgspec.Meta(max_length=200)] | None = None
    """Shown to every seat: one check for every name (:func:`.names.check_name`)."""

    def __post_init__(self) -> None:
        if self.name is not None:
            self.name = check_name(self.name)  # a 400 of its own, before anything is done


class ClockSpec(msgspec.Struct):
    per: Literal["move", "game"]
    """A time for every move, or one bank of time for the whole game."""
    seconds: Annotated[int, msgspec.Meta(ge=2, le=7 * 24 * 3600)]


class TableSpec(msgspec.Struct):
    game: Annotated[str, msgspec.Meta(max_length=32)]
    seats: Annotated[list[SeatSpec], msgspec.Meta(max_length=MAX_SEATS)]
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    seed: int | Annotated[str, msgspec.Meta(max_length=40)] | None = None
    """A number below :data:`MAX_SEED`, or its decimal text (a browser's numbers cannot
    hold 128 bits); refused unless the server runs with ``--dev-seeds`` (docs/protocol.md,
    "Seeds")."""
    private: bool = False
    """Invite-only: never listed in the lobby."""
    rated: bool = True
    """Whether the result moves the ratings (if every seat is a bot or a player's)."""
    clock: ClockSpec | None = None
    """A time control: when it runs out, a bot plays that move (docs/protocol.md)."""

    def __post_init__(self) -> None:
        if isinstance(self.seed, str):
            if not _DECIMAL.fullmatch(self.seed):
                raise ValueError("a seed is a whole number, or its decimal digits as text")
            self.seed = int(self.seed)
        if self.seed is not None and not 0 <= self.seed < MAX_SEED:
            raise ValueError(f"a seed is at least 0 and below 2**{MAX_SEED.bit_length() - 1}")


class Made:
    """Who a new table's seats belong to, besides what its request says, and who asked."""

    def __init__(
        self,
        player: tuple[str, str] | None = None,
        holders: dict[int, tuple[str, str]] | None = None,
        maker: str | None = None,
    ) -> None:
        self.player = player
        """The requester: holds the ``you`` seat."""
        self.holders = holders or {}
        """Other seats held by players from the start (a rematch's)."""
        self.maker = maker
        """The client address that asked (the open-table limit), if it counts."""


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

    @router.post("/api/tables")
    async def create_table(
        request: Request, spec: Annotated[TableSpec, body(TableSpec)]
    ) -> dict[str, Any]:
        player = await server.player(request)
        if spec.seed is not None and not server.settings.dev_seeds:
            raise HTTPException(
                400,
                "this server chooses every seed itself, in secret (a seed of your own is "
                "accepted only by a server run with --dev-seeds)",
            )
        client = address(request)
        server.limits.hit("create", client)
        made = await anyio.to_thread.run_sync(new_table, spec, None, Made(player, maker=client))
        runtime = server.hub.tables.get(made["id"])
        if runtime is not None and not runtime.has_humans:
            runtime.kick_bots()  # bots alone: they play now (a spectator's hello never starts them)
        if runtime is not None:
            runtime.kick_clock()
        return made

    def new_table(spec: TableSpec, rematch_of: str | None, made: Made) -> dict[str, Any]:
        try:
            return make_table(spec, rematch_of, made)
        except TooManyOpenTablesError as exc:
            raise HTTPException(429, str(exc)) from None
        except (TypeError, ValueError, AttributeError) as exc:
            # Options of the wrong shape (a number for a list, say) that a game's checks
            # did not expect: the request's fault, said in one line.
            if isinstance(exc, KumiteError):
                raise
            raise HTTPException(400, one_line(f"bad table options: {exc}")) from None

    def make_table(spec: TableSpec, rematch_of: str | None, made: Made) -> dict[str, Any]:
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
        seed = spec.seed if isinstance(spec.seed, int) else new_seed()
        options = adapter(gspec).table_options(gspec, spec.options, len(spec.seats))
        state = game.new_state(seed, options)  # validates the options
        options = state.options_json
        seats: list[Seat] = []
        tokens: dict[int, str] = {}
        holders = {i: p for i, p in made.holders.items() if 0 <= i < len(spec.seats)}
        for index, s in enumerate(spec.seats):
            if s.kind == "you" and made.player is not None:
                holders[index] = made.player
        holders = one_seat_each(holders)
        for index, s in enumerate(spec.seats):
            if s.kind == "bot":
                agent = s.agent or "random"
                make_agent(agent, game, options, index, 0)  # validates the name
                offered_at_table(agent, game.info.id, options)  # its data at hand: no solve
                seats.append(Seat("bot", s.name or f"{agent} bot", agent, claimed=True))
            else:
                kind = "human" if s.kind == "you" else s.kind
                held = holders.get(index)
                name = held[1] if held is not None else s.name or f"Player {index + 1}"
                seats.append(Seat(kind, name, claimed=s.kind == "you" or held is not None))
                tokens[index] = secrets.token_urlsafe(18)
        table_id = secrets.token_hex(6)
        server.store.create_table(
            table_id,
            game.info.id,
            seed,
            options,
            seats,
            tokens,
            rematch_of,
            holders={i: p[0] for i, p in holders.items()},
            private=spec.private,
            rated=spec.rated,
            clock=None if spec.clock is None else msgspec.to_builtins(spec.clock),
            maker=made.maker,
            most_open=server.settings.open_tables_per_client,
        )
        runtime = server.hub.get(table_id)
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
        for link in links:
            if link["seat"] in holders:
                # A player's own seat: their key opens it, no token in the address.
                link["play"] = f"/table/{table_id}#seat={link['seat']}"
        mine = next((i for i, s in enumerate(spec.seats) if s.kind == "you"), None)
        # No seed here: it stays a secret until the game is over (then in the record).
        return {
            "id": table_id,
            "game": game.info.id,
            "seat": mine,
            "links": links,
            "spectate": f"/table/{table_id}",
        }

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
        maker = address(request)
        # Under the table's lock: two players asking at once must not make two rematches.
        async with runtime.lock:
            if not runtime.finished:
                raise HTTPException(409, "the game is not over yet")
            if runtime.next_table is not None:
                raise HTTPException(409, f"a rematch exists: table {runtime.next_table}")
            server.limits.hit("create", maker)
            # A name stored by an earlier kumite that today's check refuses is left out.
            seats = [
                SeatSpec(kind="bot", agent=s.agent, name=valid_name(s.name))
                if s.kind == "bot"
                else SeatSpec(kind="you" if i == asked.seat else "human", name=valid_name(s.name))
                for i, s in enumerate(runtime.seats)
            ]
            spec = TableSpec(
                game=runtime.game.info.id,
                options=runtime.options,
                seats=seats,
                private=runtime.private,
                rated=runtime.rated,
                clock=None
                if runtime.clock.control is None
                else ClockSpec(
                    per=runtime.clock.control["per"], seconds=runtime.clock.control["seconds"]
                ),
            )
            # Each seat held by a player is held by them again: they reach it by their own
            # key, from "My games" or the finished table, with no token handed to anyone.
            held = {
                i: (p, runtime.seats[i].name)
                for i, p in runtime.holders.items()
                if runtime.seats[i].kind != "bot"
            }
            me = held.pop(asked.seat, None) or player
            made = await anyio.to_thread.run_sync(
                new_table, spec, table_id, Made(me, held, maker=maker)
            )
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


def one_seat_each(holders: dict[int, tuple[str, str]]) -> dict[int, tuple[str, str]]:
    """``holders`` with each player at their first seat only (a table of an earlier kumite
    may have had one player at two seats, which its rematch must not copy)."""
    seen: set[str] = set()
    kept = {}
    for seat in sorted(holders):
        if holders[seat][0] not in seen:
            seen.add(holders[seat][0])
            kept[seat] = holders[seat]
    return kept
