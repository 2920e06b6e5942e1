"""Live tables: the only full game states, their seats, clients and bots.

A :class:`TableRuntime` owns one game's state. Every accepted choice is committed to the
store *before* the state changes or anyone is told, so a restarted server rebuilds exactly
what clients were acknowledged. Each client receives only its seat's view and the events its
seat may see.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import anyio

from kumite.agents.base import Agent, decide
from kumite.agents.registry import make_agent
from kumite.core.errors import ChoiceError
from kumite.core.events import Event
from kumite.core.game import Game, State
from kumite.core.registry import get_spec
from kumite.core.rng import derive_seed
from kumite.core.spec import GameSpec, Labeler
from kumite.server.protocol import ProtocolError
from kumite.server.storage import Store, StoredTable, chat_entry, now, token_hash
from kumite.web.table import TableAdapter, adapter

log = logging.getLogger("kumite.server")

Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclasses.dataclass(eq=False)
class Client:
    """One connected socket: a seat (or ``None`` for a spectator) and how to reach it."""

    seat: int | None
    send: Send
    """Sends one message (a JSON-able dict)."""
    sent: int = 0
    """How many entries of the table's event log this client has been sent."""


class TableRuntime:
    """One live table."""

    def __init__(self, hub: Hub, stored: StoredTable) -> None:
        self.hub = hub
        self.id = stored.id
        self.spec: GameSpec = get_spec(stored.game)
        self.game: Game[Any] = self.spec.load()
        self.web: TableAdapter = adapter(self.spec)
        self.seed = stored.seed
        self.options = stored.options
        self.seats = stored.seats
        self.rematch_of = stored.rematch_of
        self.next_table: str | None = stored.next_table
        self.state: State = self.game.new_state(stored.seed, stored.options)
        self.log: list[tuple[int, Event, dict[str, Any]]] = []
        """(step, event, its JSON form), computed once for every client."""
        for index, choices in enumerate(stored.steps):
            self._record(index, self.state.apply(choices))
        self.partial: dict[int, str] = {
            seat: choice for seat, (step, choice) in stored.partial.items() if step == self.step
        }
        # Kept here, so that a client saying hello costs no database round trip.
        self.token_hashes = stored.token_hashes
        self.chat_log = stored.chat
        self.clients: set[Client] = set()
        self.lock = asyncio.Lock()
        self.holds = 0
        """Open connections using this runtime (a finished table stays while any is open)."""
        self.last_used = time.monotonic()
        self.bots: dict[int, Agent] = {
            seat: make_agent(
                info["agent"],
                self.game,
                self.state.options_json,
                seat,
                derive_seed(self.seed, "bot", seat),
            )
            for seat, info in enumerate(self.seats)
            if info["kind"] == "bot"
        }
        self._bot_task: asyncio.Task[None] | None = None
        labels = self.spec.labels
        self.labeler: Labeler | None = (
            None if labels is None else labels.load()(self.game, self.options)
        )

    @property
    def step(self) -> int:
        return len(self.state.history)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal

    # -- what a seat sees ---------------------------------------------------------------
    def snapshot(self, seat: int | None) -> dict[str, Any]:
        pending = self.state.pending()
        mine = next((d for d in pending if d.seat == seat), None)
        outcome = self.state.outcome
        view = self.state.view(seat)
        decision: dict[str, Any] | None = None
        if mine is not None and seat not in self.partial:
            decision = {"kind": mine.kind, "prompt": mine.prompt, "legal": list(mine.legal)}
            if self.labeler is not None:
                # From this seat's own view and choices only: labels reveal nothing more.
                decision["labels"] = self.labeler(view, mine.legal)
        return {
            "table": self.id,
            "game": self.game.info.id,
            "step": self.step,
            "seat": seat,
            "view": view,
            "decision": decision,
            "submitted": seat is not None and seat in self.partial,
            "waiting": [d.seat for d in pending if d.seat not in self.partial],
            "seats": self.public_seats(),
            "outcome": None if outcome is None else outcome.to_json(),
            "next_table": self.next_table,
        }

    def public_seats(self) -> list[dict[str, Any]]:
        connected = {c.seat for c in self.clients if c.seat is not None}
        return [
            {
                "seat": i,
                "kind": s["kind"],
                "agent": s.get("agent"),
                "name": s.get("name"),
                "claimed": bool(s.get("claimed")),
                "connected": i in connected,
            }
            for i, s in enumerate(self.seats)
        ]

    def _record(self, index: int, events: list[Event]) -> None:
        self.log.extend((index, e, {"step": index, **e.to_json()}) for e in events)

    def events_for(self, client: Client) -> list[dict[str, Any]]:
        out = [data for _, event, data in self.log[client.sent :] if event.visible_to(client.seat)]
        client.sent = len(self.log)
        return out

    async def update(self, client: Client) -> None:
        await client.send(
            {
                "type": "update",
                "events": self.events_for(client),
                "state": self.snapshot(client.seat),
            }
        )

    async def broadcast(self) -> None:
        for client in list(self.clients):
            try:
                await self.update(client)
            except Exception:  # a dead socket is dropped; the game goes on
                self.clients.discard(client)

    # -- choices ------------------------------------------------------------------------
    async def choose(self, seat: int, step: int, choice: str) -> None:
        """Accept ``seat``'s choice for step ``step`` or raise :class:`ProtocolError`."""
        async with self.lock:
            self._check(seat, step, choice)
            pending = self.state.pending()
            if len(pending) > 1:
                await self.hub.store.add_partial(self.id, seat, step, choice)
                self.partial[seat] = choice
                if all(d.seat in self.partial for d in pending):
                    await self._commit(dict(self.partial))
            else:
                await self._commit({seat: choice})
        await self.broadcast()
        self.kick_bots()

    def _check(self, seat: int, step: int, choice: str) -> None:
        if self.state.is_terminal:
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
        await self.hub.store.add_step(self.id, index, choices, outcome_json)
        self.state = trial
        self.partial = {}
        self._record(index, events)

    # -- bots ---------------------------------------------------------------------------
    def kick_bots(self) -> None:
        if not self.bots or self.finished:
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.create_task(self._run_bots())

    async def _run_bots(self) -> None:
        while not self.finished:
            todo = [
                d
                for d in self.state.pending()
                if d.seat in self.bots and d.seat not in self.partial
            ]
            if not todo:
                return
            decision = todo[0]
            step = self.step
            state = self.state  # never mutated: a commit replaces it with a new state
            agent = self.bots[decision.seat]
            if self.hub.bot_delay:
                await asyncio.sleep(self.hub.bot_delay)
            # The bot sees its seat's view (search bots: determinisations of it) only.
            choice = await anyio.to_thread.run_sync(decide, agent, state, decision)
            try:
                await self.choose(decision.seat, step, choice)
            except ProtocolError:
                if self.step == step:  # not a race with a newer step: a real fault
                    log.exception("bot %s at table %s", decision.seat, self.id)
                    return

    # -- chat ---------------------------------------------------------------------------
    def channel(self, seat: int) -> str | None:
        """The chat channel of ``seat`` (a team's private channel, or the table's)."""
        return self.web.chat_channel(self.options, seat)

    def chat_rules(self, seat: int | None) -> str | None:
        """The rules of ``seat``'s chat channel, if the game has any."""
        return None if seat is None else self.web.chat_rules(self.options, seat)

    async def chat(self, seat: int, text: str) -> None:
        channel = self.channel(seat)
        if channel is None:
            raise ProtocolError("no-chat", "there is no chat at this table")
        # Judged from the sender's own view: the reason tells them nothing new.
        reason = self.web.chat_refusal(self.game, self.options, self.state.view(seat), text)
        if reason is not None:
            raise ProtocolError("chat-refused", f"not sent: {reason}")
        created = now()
        await self.hub.store.add_chat(self.id, channel, seat, text, created)
        self.chat_log.setdefault(channel, []).append(chat_entry(seat, text, created))
        message = {"type": "chat", "channel": channel, "seat": seat, "text": text}
        for client in list(self.clients):
            if client.seat is not None and self.channel(client.seat) == channel:
                try:
                    await client.send(message)
                except Exception:
                    self.clients.discard(client)

    def chat_history(self, seat: int | None) -> list[dict[str, Any]]:
        channel = None if seat is None else self.channel(seat)
        if channel is None:
            return []
        return list(self.chat_log.get(channel, ()))

    # -- seats --------------------------------------------------------------------------
    def check_token(self, seat: int, token: str) -> bool:
        """Whether ``token`` is ``seat``'s."""
        known = self.token_hashes.get(seat) if 0 <= seat < len(self.seats) else None
        return known is not None and hmac.compare_digest(known, token_hash(token))

    async def set_token(self, seat: int, token: str) -> None:
        await self.hub.store.set_token(self.id, seat, token)
        self.token_hashes[seat] = token_hash(token)

    async def claim(self, seat: int) -> None:
        if not self.seats[seat].get("claimed"):
            self.seats[seat]["claimed"] = True
            await self.hub.store.set_seats(self.id, self.seats)

    async def release(self, seat: int) -> str:
        """The seat's holder leaves: a fresh token (kept by nobody) and an open seat."""
        token = secrets.token_urlsafe(18)
        await self.set_token(seat, token)
        self.seats[seat]["claimed"] = False
        self.seats[seat]["kind"] = "open"
        await self.hub.store.set_seats(self.id, self.seats)
        return token


IDLE_EVICT = 300.0
"""Seconds a finished, unwatched table stays in memory (:meth:`Hub.sweep`)."""
SWEEP_EVERY = 30.0


class Hub:
    """All live tables of a server."""

    def __init__(self, store: Store, *, bot_delay: float = 0.0) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.tables: dict[str, TableRuntime] = {}
        self._swept = float("-inf")

    def resume(self) -> int:
        """Rebuild every unfinished table from storage (after a restart)."""
        count = 0
        for stored in self.store.unfinished():
            try:
                self.tables[stored.id] = TableRuntime(self, stored)
                count += 1
            except Exception:
                log.exception("could not resume table %s", stored.id)
        return count

    def get(self, table_id: str) -> TableRuntime | None:
        runtime = self.tables.get(table_id)
        if runtime is None:
            stored = self.store.load(table_id)
            if stored is None:
                return None
            runtime = self.tables[table_id] = TableRuntime(self, stored)
        runtime.last_used = time.monotonic()
        return runtime

    def sweep(self, now: float | None = None) -> list[str]:
        """Let go of finished tables nobody has used for :data:`IDLE_EVICT` seconds.

        Without this a long-running server keeps every table it ever served, and its garbage
        collector's full passes grow with them. A table let go of is loaded again from
        storage when next asked for. Runs its scan at most every :data:`SWEEP_EVERY` s.
        """
        now = time.monotonic() if now is None else now
        if now - self._swept < SWEEP_EVERY:
            return []
        self._swept = now
        idle = [
            table_id
            for table_id, rt in self.tables.items()
            if rt.finished
            and rt.holds == 0
            and not rt.clients
            and not rt.lock.locked()
            and now - rt.last_used >= IDLE_EVICT
        ]
        for table_id in idle:
            del self.tables[table_id]
        return idle

    def start_bots(self) -> None:
        for runtime in self.tables.values():
            runtime.kick_bots()
