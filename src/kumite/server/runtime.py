"""Live tables: the only full game states and their clients (the hub of all of them is
:mod:`kumite.server.hub`).

A :class:`TableRuntime` owns one game's state. Every accepted choice is committed to the
store *before* the state changes or anyone is told, so a restarted server rebuilds exactly
what clients were acknowledged. Each client receives only its seat's view and the events its
seat may see. Tables are loaded from storage when first asked for (after a restart too).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import msgspec

from kumite.agents.base import Agent
from kumite.core.errors import ChoiceError
from kumite.core.events import Event
from kumite.core.game import Game, State
from kumite.core.registry import get_spec
from kumite.core.spec import GameSpec
from kumite.server import naming
from kumite.server.botdriver import BotDriver
from kumite.server.botworkers import Recipe
from kumite.server.chat import SPECTATOR_TALK as SPECTATOR_TALK
from kumite.server.chat import SPECTATORS as SPECTATORS
from kumite.server.chat import TableChat
from kumite.server.clock import Clock
from kumite.server.protocol import ProtocolError
from kumite.server.saving import stored as _stored
from kumite.server.seating import Seating
from kumite.server.storage import Seat, StoredTable, now
from kumite.web.table import TableAdapter, adapter, choice_labels, decision_json

if TYPE_CHECKING:
    from kumite.server.hub import Hub

log = logging.getLogger("kumite.server")

Send = Callable[[dict[str, Any]], Awaitable[None]]
Close = Callable[[int], Awaitable[None]]


async def _no_close(code: int) -> None:
    return None


_ENCODE = msgspec.json.Encoder().encode


def _audience(event: Event, seats: int) -> int:
    """Who may see ``event`` (:meth:`Event.visible_to`, which a game's event may override),
    as a bit mask: bit 0 the spectators, bit ``s + 1`` seat ``s``."""
    return sum(1 << (n + 1) for n in range(-1, seats) if event.visible_to(None if n < 0 else n))


@dataclasses.dataclass(eq=False)
class Client:
    """One connected socket: a seat (or ``None`` for a spectator) and how to reach it."""

    seat: int | None
    send: Send
    """Sends one message (a JSON-able dict)."""
    sent: int = 0
    """How many entries of the table's event log this client has been sent."""
    close: Close = _no_close
    """Closes the socket with a WebSocket close code."""
    address: str = ""
    """The client's address (rate limits)."""
    name: str | None = None
    """A spectator's player name (its hello's key), shown to the table as watching."""


class TableRuntime:
    """One live table: the game's state and its log of events, the clients and what each
    may see, and the choices that move it, committed before they are applied.

    The rest is in parts it orchestrates: :attr:`seating` (seats, tokens, holders),
    :attr:`driver` (its bots), :attr:`clock` (the time control) and :attr:`chat_room`.
    """

    def __init__(self, hub: Hub, stored: StoredTable) -> None:
        self.hub = hub
        self.id = stored.id
        self.spec: GameSpec = get_spec(stored.game)
        self.game: Game[Any] = self.spec.load()
        self.web: TableAdapter = adapter(self.spec)
        self.seed = stored.seed
        """The game's seed: a secret until the game is over (docs/protocol.md, "Seeds")."""
        self.bot_seed = stored.bot_seed
        """The seed of the bots' own streams: never shown to anyone."""
        self.options = stored.options
        self.seating = Seating(
            stored.id, hub.store, stored.seats, stored.token_hashes, stored.holders
        )
        self.rematch_of = stored.rematch_of
        self.next_table: str | None = stored.next_table
        self.state: State = self.game.new_state(stored.seed, stored.options)
        self.log: list[tuple[int, msgspec.Raw]] = []
        """Each event as (who may see it, a bit mask: :func:`_audience`; its JSON), encoded
        once for every client. Neither is an object the cycle collector tracks: a long
        game's log had been most of what its full passes walked (hundreds of thousands of
        objects at 1,000 tables, a pause of ~0.3 s; docs/protocol.md, Load)."""
        for index, choices in enumerate(stored.steps):
            self._record(index, self.state.apply(choices))
        self.closed = stored.status == "closed"
        """Closed unfinished (left too long without a step): no more choices."""
        self.updated = stored.updated
        """When the last step was applied (or the table made)."""
        self.partial = self._restored_partials(stored.partial)
        self.private = stored.private
        self.rated = stored.rated
        self.last_seen: dict[int, float] = {}
        """Seat -> when its player last had a socket open or chose (monotonic)."""
        self.loaded = time.monotonic()
        self.resigned: dict[str, Any] | None = (
            stored.outcome if stored.status == "finished" and not self.state.is_terminal else None
        )
        """The outcome of a game ended by a resignation (outside the game's rules)."""
        self.chat_room = TableChat(self, stored.chat)
        self.clients: set[Client] = set()
        self.lock = asyncio.Lock()
        self.holds = 0
        """Open connections using this runtime (a finished table stays while any is open)."""
        self.last_used = time.monotonic()
        self.driver = BotDriver(self)
        self.clock = Clock(self, stored.clock)
        self.labels = choice_labels(self.spec, self.game, self.options)
        self._names: tuple[Any, list[naming.SeatName]] | None = None
        self.rating_changes: dict[int, dict[str, Any]] | None = None
        """Seat -> its rating before and after this table (the display scale), once rated."""

    # The parts' state, under the names the routers and tests know it by.
    @property
    def seats(self) -> list[Seat]:
        return self.seating.seats

    @property
    def token_hashes(self) -> dict[int, str]:
        return self.seating.token_hashes

    @property
    def holders(self) -> dict[int, str]:
        """seat -> the id of the player holding it (docs/protocol.md, "Players")."""
        return self.seating.holders

    @property
    def bots(self) -> dict[int, Agent]:
        return self.driver.agents

    @property
    def recipes(self) -> dict[int, Recipe]:
        return self.driver.recipes

    @property
    def chat_log(self) -> dict[str, list[dict[str, Any]]]:
        return self.chat_room.log

    @property
    def step(self) -> int:
        return len(self.state.history)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal or self.resigned is not None

    @property
    def over(self) -> bool:
        """No choice will be made here again: the game is over, or the table was closed."""
        return self.closed or self.finished

    @property
    def outcome(self) -> dict[str, Any] | None:
        """The result (JSON), by the rules or by a resignation; ``None`` while playing."""
        if self.resigned is not None:
            return self.resigned
        return None if self.state.outcome is None else self.state.outcome.to_json()

    @property
    def status(self) -> str:
        return "closed" if self.closed else "finished" if self.finished else "playing"

    @property
    def has_humans(self) -> bool:
        """Whether a seat is a person's (or open for one): else bots play it all alone."""
        return any(s.kind != "bot" for s in self.seats)

    @property
    def busy(self) -> bool:
        """Whether something is under way here: a lock held, a bot or the clock running."""
        return self.lock.locked() or self.driver.busy or self.clock.busy

    def stop(self) -> None:
        """Stop its bots and its clock (the table is over, or no longer served here)."""
        self.driver.stop()
        self.clock.stop()

    def _restored_partials(self, stored: dict[int, tuple[int, str]]) -> dict[int, str]:
        """The stored partial choices that belong to the current step and are legal there
        (any other is left over from an earlier step, and is dropped)."""
        pending = {d.seat: d for d in self.state.pending()}
        kept: dict[int, str] = {}
        for seat, (step, choice) in stored.items():
            decision = pending.get(seat)
            if step == self.step and decision is not None and choice in decision.legal:
                kept[seat] = choice
        return kept

    def recover(self) -> bool:
        """Complete a step whose every choice was stored as a partial choice but not the
        step itself (a server killed between the two by an earlier kumite, which stored
        the last choice as a partial one first): store and apply it now. Returns whether
        there was one. Run when the table is loaded, before anyone is served."""
        pending = self.state.pending()
        if self.over or len(pending) < 2 or any(d.seat not in self.partial for d in pending):
            return False
        choices = {d.seat: self.partial[d.seat] for d in pending}
        trial = self.state.clone()
        events = trial.apply(choices)
        outcome = None if trial.outcome is None else trial.outcome.to_json()
        index = self.step
        self.hub.store.add_step_now(self.id, index, choices, outcome)
        log.warning("table %s: completed step %d from its stored choices", self.id, index)
        self._applied(index, trial, events)
        return True

    # -- what a seat sees ---------------------------------------------------------------
    def snapshot(
        self, seat: int | None, seats: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """What ``seat`` sees now (``seats``: :meth:`public_seats`, if made already)."""
        pending = [] if self.over else self.state.pending()
        mine = next((d for d in pending if d.seat == seat), None)
        view = self.state.view(seat)
        decision: dict[str, Any] | None = None
        if mine is not None and seat not in self.partial:
            decision = decision_json(self.labels, self.state, mine, view)
        return {
            "table": self.id,
            "game": self.game.info.id,
            "step": self.step,
            "seat": seat,
            "view": view,
            "decision": decision,
            "submitted": seat is not None and seat in self.partial,
            "waiting": [d.seat for d in pending if d.seat not in self.partial],
            "seats": self.public_seats() if seats is None else seats,
            "marks": naming.marks(self.names(), seat),
            "result": naming.result_line(self.outcome, self.names(), seat),
            "ratings": self.rating_changes,
            "outcome": self.outcome,
            "closed": self.closed,
            "next_table": self.next_table,
            "clock": self.clock_view(),
            "watching": self.watching(),
        }

    def names(self) -> list[naming.SeatName]:
        """Each seat's name (:mod:`.naming`), made again only when a seat changes."""
        key = (
            tuple((s.kind, s.name, s.agent, s.claimed) for s in self.seats),
            tuple(sorted(self.driver.stand_ins.items())),
        )
        if self._names is None or self._names[0] != key:
            made = naming.seat_names(
                self.game.info.id, self.options, self.seats, self.state.teams, self.driver.stand_ins
            )
            self._names = (key, made)
        return self._names[1]

    def public_seats(self) -> list[dict[str, Any]]:
        connected = {c.seat for c in self.clients if c.seat is not None}
        return [
            {
                "seat": i,
                **s.to_json(),
                **n.to_json(),
                "connected": i in connected,
                "stand_in": self.driver.stand_ins.get(i),
                # Seconds until the others may hand this seat to a bot (the server's
                # absent_after of silence): a page offers it then, never at table start.
                "absent_in": 0.0
                if i in connected
                else round(max(0.0, self.hub.settings.absent_after - self.silent_for(i)), 1),
            }
            for i, (s, n) in enumerate(zip(self.seats, self.names(), strict=True))
        ]

    def _record(self, index: int, events: list[Event]) -> None:
        self.log.extend(
            (_audience(e, len(self.seats)), msgspec.Raw(_ENCODE({"step": index, **e.to_json()})))
            for e in events
        )

    def events_for(self, client: Client) -> list[msgspec.Raw]:
        """The events ``client`` has not been sent yet that its seat may see (JSON)."""
        bit = 1 if client.seat is None else 1 << (client.seat + 1)
        out = [data for to, data in self.log[client.sent :] if to & bit]
        client.sent = len(self.log)
        return out

    async def update(self, client: Client, seats: list[dict[str, Any]] | None = None) -> None:
        await client.send(
            {
                "type": "update",
                "events": self.events_for(client),
                "state": self.snapshot(client.seat, seats),
            }
        )

    async def broadcast(self) -> None:
        seats = self.public_seats()  # the same for everyone: made once
        for client in list(self.clients):
            try:
                await self.update(client, seats)
            except Exception:  # a dead socket is dropped; the game goes on
                self.clients.discard(client)

    # -- choices ------------------------------------------------------------------------
    async def choose(self, seat: int, step: int, choice: str) -> None:
        """Accept ``seat``'s choice for step ``step`` or raise :class:`ProtocolError`.

        Returns once the choice is committed. The last choice of a simultaneous step is
        committed with the step itself, in one transaction, so that no crash can leave a
        table whose every seat has chosen but whose step was never taken."""
        async with self.lock:
            self._check(seat, step, choice)
            pending = self.state.pending()
            self.clock.charge(seat)
            self.last_seen[seat] = time.monotonic()
            if any(d.seat != seat and d.seat not in self.partial for d in pending):
                await _stored(self.hub.store.add_partial(self.id, seat, step, choice))
                self.partial[seat] = choice
            else:
                await self._commit({**self.partial, seat: choice})
                await self.clock.save()
        await self.broadcast()
        self.kick_bots()

    def _check(self, seat: int, step: int, choice: str) -> None:
        if self.closed:
            raise ProtocolError("closed", "this table was closed unfinished")
        if self.finished:
            raise ProtocolError("game-over", "the game is over")
        if step != self.step:
            raise ProtocolError(
                "stale", f"that choice was for step {step}; the table is at step {self.step}"
            )
        decision = next((d for d in self.state.pending() if d.seat == seat), None)
        if decision is None:
            raise ProtocolError("not-your-turn", "no decision is pending for your seat")
        if seat in self.partial:
            raise ProtocolError("already-chosen", "you have already chosen for this step")
        if choice not in decision.legal:
            reason = self.state.explain_illegal(seat, choice)
            raise ProtocolError("illegal", f"choice {choice!r} rejected: {reason}")

    async def _commit(self, choices: dict[int, str]) -> None:
        """Durably store, then apply, one complete step."""
        trial = self.state.clone()
        try:
            events = trial.apply(choices)
        except ChoiceError as exc:  # validated already; defensive
            raise ProtocolError("illegal", str(exc)) from None
        outcome = trial.outcome
        index = self.step
        outcome_json = None if outcome is None else outcome.to_json()
        await _stored(self.hub.store.add_step(self.id, index, choices, outcome_json))
        self._applied(index, trial, events)

    def _applied(self, index: int, state: State, events: list[Event]) -> None:
        self.state = state
        self.partial = {}
        self.updated = now()
        self.clock.restart()
        self._record(index, events)
        if self.finished:
            self.hub.rate(self)

    # -- the parts, as the routers and sockets call them ----------------------------------
    def kick_bots(self) -> None:
        self.driver.kick()

    def kick_clock(self) -> None:
        self.clock.kick()

    def clock_view(self) -> dict[str, Any] | None:
        return self.clock.view()

    def channel(self, seat: int) -> str | None:
        return self.chat_room.channel(seat)

    def chat_rules(self, seat: int | None) -> str | None:
        return self.chat_room.rules(seat)

    async def chat(self, seat: int, text: str) -> None:
        await self.chat_room.send(seat, text)

    async def spectator_chat(self, name: str | None, text: str) -> None:
        await self.chat_room.send_as_spectator(name, text)

    def public_channel(self) -> str | None:
        return self.chat_room.public_channel()

    def watching(self) -> dict[str, Any]:
        """Who is watching: how many spectators, and the names of those who said hello
        with a player key (the others are guests)."""
        names = sorted({c.name for c in self.clients if c.seat is None and c.name})
        return {"count": self.spectators(), "names": names}

    def chat_history(self, seat: int | None) -> list[dict[str, Any]]:
        return self.chat_room.history(seat)

    def check_token(self, seat: int, token: str) -> bool:
        return self.seating.check_token(seat, token)

    def seat_held_by(self, player_id: str) -> int | None:
        return self.seating.held_by(player_id)

    async def seat_person(self, seat: int, player: tuple[str, str] | None, *, joined: bool) -> str:
        """Seat a person at ``seat`` (the caller holds the table's lock and has checked that
        they may take it; :meth:`Seating.seat_person`). ``joined``: an open seat taken
        mid-game, whose chat starts now (its team's earlier talk was not for them)."""
        chat_from = self.chat_room.length(seat) if joined else None
        return await self.seating.seat_person(seat, player, chat_from)

    async def release(self, seat: int) -> str:
        return await self.seating.release(seat)

    async def hold(self, seat: int, player: str | None) -> None:
        await self.seating.hold(seat, player)

    # -- absent players -----------------------------------------------------------------
    def silent_for(self, seat: int) -> float:
        """Seconds since ``seat``'s player last had a socket open or chose (0: connected)."""
        if any(c.seat == seat for c in self.clients):
            return 0.0
        return time.monotonic() - self.last_seen.get(seat, self.loaded)

    async def stand_in(self, seat: int) -> str:
        """A bot (the clock's) plays ``seat`` until its player comes back (says hello again)."""
        agent_name = self.clock.bot()
        self.driver.stand_in(seat, agent_name)
        await self.broadcast()
        self.kick_bots()
        return agent_name

    def take_back(self, seat: int) -> None:
        self.driver.take_back(seat)

    def side(self, seat: int) -> set[int]:
        """The seats on ``seat``'s side: its team as the game declares it (``State.teams``;
        each seat alone unless the game has teams)."""
        return set(self.state.team(seat))

    async def resign(self, seat: int) -> dict[str, Any]:
        """``seat`` resigns: the game ends now, every seat of the other side(s) wins
        (docs/rulings.md, ``kumite.ruling.resign``). Returns the outcome."""
        async with self.lock:
            if self.closed:
                raise ProtocolError("closed", "this table was closed unfinished")
            if self.finished:
                raise ProtocolError("game-over", "the game is over")
            losers = self.side(seat)
            winners = [i for i in range(len(self.seats)) if i not in losers]
            name = self.names()[seat].name
            outcome: dict[str, Any] = {
                "winners": winners,
                "draw": False,
                "returns": [1.0 if i in winners else -1.0 for i in range(len(self.seats))],
                "reason": f"{name} resigned",
                "rule": "kumite.ruling.resign",
                "resigned": seat,
            }
            await _stored(self.hub.store.finish(self.id, outcome))
            self.resigned = outcome
            self.partial = {}
            self.updated = now()
            self.stop()
            self.hub.rate(self)
        await self.broadcast()
        return outcome

    async def disconnect(self, seat: int | None, code: int, error: ProtocolError) -> None:
        """Tell every socket of ``seat`` (``None``: every socket) why, and close it now."""
        for client in list(self.clients):
            if seat is None or client.seat == seat:
                self.clients.discard(client)
                with contextlib.suppress(Exception):  # a socket already gone
                    await client.send(error.to_json())
                    await client.close(code)

    def spectators(self) -> int:
        return sum(client.seat is None for client in self.clients)

    async def close_idle(self, cutoff: datetime.datetime) -> bool:
        """Close this unfinished table if it has had no step since ``cutoff``: no more
        choices, its bots stop, its sockets are told and closed. Returns whether it was."""
        async with self.lock:
            if self.over or self.updated >= cutoff:
                return False
            await _stored(self.hub.store.close_table(self.id, cutoff))
            self.closed = True
            self.driver.stop()
        await self.broadcast()
        await self.disconnect(
            None, CLOSED_CODE, ProtocolError("closed", "this table was closed unfinished")
        )
        return True


LEFT_CODE = 4403
"""WebSocket close code for the sockets of a seat whose player left it, or whose earlier
token stopped working when its invitee took it."""
ONE_SEAT_CODE = 4409
"""WebSocket close code for a hello that would seat a player at a second seat of a table."""


def one_seat_only(held: int) -> str:
    """Why a player may not take a second seat at a table where they hold ``held``."""
    return f"you hold seat {held + 1} at this table already: one seat a person"


CLOSED_CODE = 4410
"""WebSocket close code for the sockets of a table closed unfinished."""
RESTART_CODE = 1012
"""WebSocket close code ("service restart") for the sockets of a table this process no
longer serves: reconnect, to whichever process owns it now."""
