"""Making a table: the one service behind ``POST /api/tables`` and a rematch. It validates
the request (seats, options, bots, a seed), reserves a place under the maker's open-table
limit, seats the people and bots, stores the table and loads it into the hub."""

from __future__ import annotations

import re
import secrets
from typing import Annotated, Any, Literal

import anyio
import msgspec
from fastapi import HTTPException

from kumite.agents.registry import make_agent, offered_at_table
from kumite.core.errors import KumiteError
from kumite.core.game import Game
from kumite.core.registry import get_spec
from kumite.server.context import Server
from kumite.server.names import check_name, valid_name
from kumite.server.protocol import one_line
from kumite.server.runtime import TableRuntime
from kumite.server.seeds import MAX_SEED, new_seed
from kumite.server.storage import Seat, TooManyOpenTablesError
from kumite.web.table import adapter

MAX_SEATS = 16
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


class TableMaker:
    """Makes the tables of one server."""

    def __init__(self, server: Server) -> None:
        self.server = server

    async def create(self, spec: TableSpec, made: Made) -> dict[str, Any]:
        """A table asked for by ``made.maker`` (the lobby's form, the API): made, and its
        bots and clock started where nobody else will start them. Returns the answer."""
        server = self.server
        if spec.seed is not None and not server.settings.dev_seeds:
            raise HTTPException(
                400,
                "this server chooses every seed itself, in secret (a seed of your own is "
                "accepted only by a server run with --dev-seeds)",
            )
        assert made.maker is not None
        server.limits.hit("create", made.maker)
        answer = await anyio.to_thread.run_sync(self.make, spec, None, made)
        runtime = server.hub.tables.get(answer["id"])
        if runtime is not None and not runtime.has_humans:
            runtime.kick_bots()  # bots alone: they play now (a spectator's hello never starts them)
        if runtime is not None:
            runtime.kick_clock()
        return answer

    async def rematch(
        self, runtime: TableRuntime, seat: int, player: tuple[str, str] | None, maker: str
    ) -> dict[str, Any]:
        """The rematch of a finished table, asked for by ``seat`` (the caller holds the
        table's lock and has checked there is none yet): the same game, options and seats,
        each held by the same player again."""
        self.server.limits.hit("create", maker)
        # A name stored by an earlier kumite that today's check refuses is left out.
        seats = [
            SeatSpec(kind="bot", agent=s.agent, name=valid_name(s.name))
            if s.kind == "bot"
            else SeatSpec(kind="you" if i == seat else "human", name=valid_name(s.name))
            for i, s in enumerate(runtime.seats)
        ]
        clock = runtime.clock.control
        spec = TableSpec(
            game=runtime.game.info.id,
            options=runtime.options,
            seats=seats,
            private=runtime.private,
            rated=runtime.rated,
            clock=None if clock is None else ClockSpec(per=clock["per"], seconds=clock["seconds"]),
        )
        # Each seat held by a player is held by them again: they reach it by their own
        # key, from "My games" or the finished table, with no token handed to anyone.
        held = {
            i: (p, runtime.seats[i].name)
            for i, p in runtime.holders.items()
            if runtime.seats[i].kind != "bot"
        }
        me = held.pop(seat, None) or player
        return await anyio.to_thread.run_sync(
            self.make, spec, runtime.id, Made(me, held, maker=maker)
        )

    def make(self, spec: TableSpec, rematch_of: str | None, made: Made) -> dict[str, Any]:
        """Make the table (in a worker thread: it stores it); a request's fault is a 400,
        the maker's open-table limit a 429."""
        try:
            return self._make(spec, rematch_of, made)
        except TooManyOpenTablesError as exc:
            raise HTTPException(429, str(exc)) from None
        except (TypeError, ValueError, AttributeError) as exc:
            # Options of the wrong shape (a number for a list, say) that a game's checks
            # did not expect: the request's fault, said in one line.
            if isinstance(exc, KumiteError):
                raise
            raise HTTPException(400, one_line(f"bad table options: {exc}")) from None

    def _make(self, spec: TableSpec, rematch_of: str | None, made: Made) -> dict[str, Any]:
        gspec = get_spec(spec.game)
        game = gspec.load()
        _check_seats(spec, game)
        seed = spec.seed if isinstance(spec.seed, int) else new_seed()
        options = adapter(gspec).table_options(gspec, spec.options, len(spec.seats))
        state = game.new_state(seed, options)  # validates the options
        options = state.options_json
        holders = _holders(spec, made)
        seats, tokens = _seat(spec, game, options, holders)
        table_id = secrets.token_hex(6)
        self.server.store.create_table(
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
            most_open=self.server.settings.open_tables_per_client,
        )
        runtime = self.server.hub.get(table_id)
        assert runtime is not None
        mine = next((i for i, s in enumerate(spec.seats) if s.kind == "you"), None)
        # No seed here: it stays a secret until the game is over (then in the record).
        return {
            "id": table_id,
            "game": game.info.id,
            "seat": mine,
            "links": _links(table_id, spec, tokens, holders),
            "spectate": f"/table/{table_id}",
        }


def _check_seats(spec: TableSpec, game: Game[Any]) -> None:
    """A 400 unless the game can be played by this many seats, one of them at most yours."""
    if not game.info.min_players <= len(spec.seats) <= game.info.max_players:
        raise HTTPException(
            400,
            f"{game.info.name} needs {game.info.min_players}-"
            f"{game.info.max_players} seats, got {len(spec.seats)}",
        )
    if sum(s.kind == "you" for s in spec.seats) > 1:
        raise HTTPException(400, "only one seat can be yours")


def _holders(spec: TableSpec, made: Made) -> dict[int, tuple[str, str]]:
    """Seat -> the player holding it from the start: the requester's ``you`` seat and a
    rematch's seats, each player at one seat."""
    holders = {i: p for i, p in made.holders.items() if 0 <= i < len(spec.seats)}
    for index, s in enumerate(spec.seats):
        if s.kind == "you" and made.player is not None:
            holders[index] = made.player
    return one_seat_each(holders)


def _seat(
    spec: TableSpec, game: Game[Any], options: dict[str, Any], holders: dict[int, Any]
) -> tuple[list[Seat], dict[int, str]]:
    """The new table's seats, and a fresh token for each seat that is not a bot's (a bot's
    agent checked: a known name whose data is at hand, so no solve starts)."""
    seats: list[Seat] = []
    tokens: dict[int, str] = {}
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
    return seats, tokens


def _links(
    table_id: str, spec: TableSpec, tokens: dict[int, str], holders: dict[int, Any]
) -> list[dict[str, Any]]:
    """Each person's seat's link, with its token (and, for a seat a player holds, the link
    their key opens, with no token in the address)."""
    links: list[dict[str, Any]] = [
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
            link["play"] = f"/table/{table_id}#seat={link['seat']}"
    return links


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
