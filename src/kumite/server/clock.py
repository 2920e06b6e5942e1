"""A table's clock (docs/protocol.md, "Clocks and absent players"): the time control, each
seat's time left, and the clock bot that plays a move whose time ran out."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from kumite.agents.base import Agent
from kumite.agents.registry import agent_names
from kumite.core.rng import derive_seed
from kumite.server.botworkers import Recipe
from kumite.server.loop import TableLoop
from kumite.server.protocol import ProtocolError
from kumite.server.saving import stored

if TYPE_CHECKING:
    from kumite.server.runtime import TableRuntime

log = logging.getLogger("kumite.server")


class Clock(TableLoop):
    """The clock of one table (its :attr:`control` ``None``: none); it reads the table's
    pending decisions and plays a timed-out move through the table's :meth:`choose`."""

    def __init__(self, table: TableRuntime, control: dict[str, Any] | None) -> None:
        self.table = table
        self.control = control
        """The time control (``per``: move or game, ``seconds``; per game also ``banks``)."""
        self.banks: dict[int, float] = {
            int(k): float(v) for k, v in ((control or {}).get("banks") or {}).items()
        }
        """Per game clock: each seat's seconds left, as of the start of the current step."""
        self.since: dict[int, float] = {}
        """Seat -> when its current decision began (monotonic); restarted after a restart."""
        self.agents: dict[int, tuple[Agent, Recipe]] = {}

    def bot(self) -> str:
        """The bot that plays a move whose time ran out: the game's ``greedy`` bot where it
        has one, else ``random`` (docs/rulings.md, ``kumite.ruling.clock``)."""
        return "greedy" if "greedy" in agent_names(self.table.game.info.id) else "random"

    def clocked(self) -> list[int]:
        """The seats whose clock runs now: people's seats waiting for their decision."""
        table = self.table
        if self.control is None or table.over:
            return []
        return [
            d.seat
            for d in table.state.pending()
            if d.seat not in table.partial and d.seat not in table.driver.agents
        ]

    def remaining(self, seat: int, at: float | None = None) -> float:
        """Seconds left on ``seat``'s clock (negative: run out)."""
        assert self.control is not None
        at = time.monotonic() if at is None else at
        since = self.since.setdefault(seat, at)
        budget = (
            float(self.control["seconds"])
            if self.control["per"] == "move"
            else self.banks.get(seat, float(self.control["seconds"]))
        )
        return budget - (at - since)

    def charge(self, seat: int) -> None:
        """``seat`` has chosen: a game clock keeps what is left of its bank."""
        if self.control is not None and self.control["per"] == "game" and seat in self.since:
            self.banks[seat] = max(0.0, self.remaining(seat))

    def restart(self) -> None:
        """A step was applied: the clocks of the seats asked now start now."""
        self.since = {}
        started = time.monotonic()
        for seat in self.clocked():
            self.since[seat] = started

    async def save(self) -> None:
        """Store a game clock's banks (after a step)."""
        if self.control is not None and self.control["per"] == "game":
            self.control = {**self.control, "banks": {str(k): v for k, v in self.banks.items()}}
            await stored(self.table.hub.store.set_clock(self.table.id, self.control))

    def view(self) -> dict[str, Any] | None:
        """What every client is told of the clock: the time control, the bot, and the
        seconds left of each seat whose clock runs now (for a countdown)."""
        if self.control is None:
            return None
        at = time.monotonic()
        return {
            "per": self.control["per"],
            "seconds": self.control["seconds"],
            "bot": self.bot(),
            "remaining": {
                str(seat): round(max(0.0, self.remaining(seat, at)), 1) for seat in self.clocked()
            },
        }

    def wanted(self) -> bool:
        return self.control is not None

    async def _run(self) -> None:
        """Until the game is over: when a seat's time runs out, its move is the clock bot's."""
        table = self.table
        while not table.over:
            seats = self.clocked()
            if not seats:
                await asyncio.sleep(0.5)
                continue
            left = min(self.remaining(seat) for seat in seats)
            if left > 0:
                await asyncio.sleep(min(left, 1.0))
                continue
            seat = next(seat for seat in seats if self.remaining(seat) <= 0)
            step, state = table.step, table.state
            decision = next(d for d in state.pending() if d.seat == seat)
            made = self.agents.get(seat)
            if made is None:
                recipe = table.driver.recipe(
                    self.bot(), seat, derive_seed(table.bot_seed, "clock", seat)
                )
                made = self.agents[seat] = (table.driver.make(recipe), recipe)
            choice = await table.hub.bots.think(made[0], state, decision, made[1])
            if table.step != step or seat in table.partial:
                continue  # the player chose meanwhile
            message = {"type": "timeout", "seat": seat, "bot": self.bot(), "step": step}
            for client in list(table.clients):
                with contextlib.suppress(Exception):
                    await client.send(message)
            try:
                await table.choose(seat, step, choice)
            except ProtocolError:
                if table.step == step and seat not in table.partial:
                    log.exception("clock bot for seat %s at table %s", seat, table.id)
                    return
