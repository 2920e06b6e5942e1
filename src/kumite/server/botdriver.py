"""A table's bots: how each is made (here and in a bot worker), and the task that lets them
play their seats' decisions, one at a time, through the table's :meth:`choose`."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING

from kumite.agents.base import Agent
from kumite.agents.registry import make_agent
from kumite.core.rng import derive_seed
from kumite.server.botworkers import Recipe
from kumite.server.loop import TableLoop
from kumite.server.protocol import ProtocolError

if TYPE_CHECKING:
    from kumite.server.runtime import TableRuntime

log = logging.getLogger("kumite.server")


class BotDriver(TableLoop):
    """The bots of one table: its bot seats' and those of seats a bot stands in for."""

    def __init__(self, table: TableRuntime) -> None:
        self.table = table
        self.recipes: dict[int, Recipe] = {
            # From the bots' own secret: the game's seed is handed out once the game is
            # over, and must not tell how the bots of a rematch think either.
            seat: self.recipe(
                info.agent or "random", seat, derive_seed(table.bot_seed, "bot", seat)
            )
            for seat, info in enumerate(table.seats)
            if info.kind == "bot"
        }
        """Seat -> how its bot is made (again, in a bot worker process: :mod:`.botworkers`)."""
        self.agents: dict[int, Agent] = {seat: self.make(r) for seat, r in self.recipes.items()}
        self.stand_ins: dict[int, str] = {}
        """Seats handed to a bot while their player is away: seat -> the bot's agent."""

    def recipe(self, agent: str, seat: int, seed: int) -> Recipe:
        """How to make bot ``agent`` for ``seat`` with its own ``seed``."""
        table = self.table
        options = json.dumps(table.options, sort_keys=True)
        return Recipe(table.id, table.game.info.id, table.seed, options, agent, seat, seed)

    def make(self, recipe: Recipe) -> Agent:
        """The bot of ``recipe``, here (its twin in a bot worker is made the same way)."""
        table = self.table
        return make_agent(
            recipe.agent, table.game, table.state.options_json, recipe.seat, recipe.agent_seed
        )

    def wanted(self) -> bool:
        return bool(self.agents)

    async def _run(self) -> None:
        table = self.table
        while not table.over:
            todo = [
                d
                for d in table.state.pending()
                if d.seat in self.agents and d.seat not in table.partial
            ]
            if not todo:
                return
            decision = todo[0]
            step = table.step
            state = table.state  # never mutated: a commit replaces it with a new state
            agent = self.agents[decision.seat]
            if table.hub.bot_delay:
                await asyncio.sleep(table.hub.bot_delay)
            # The bot sees its seat's view (search bots: determinisations of it) only.
            recipe = self.recipes.get(decision.seat)
            choice = await table.hub.bots.think(agent, state, decision, recipe)
            try:
                await table.choose(decision.seat, step, choice)
            except ProtocolError:
                if table.step == step:  # not a race with a newer step: a real fault
                    log.exception("bot %s at table %s", decision.seat, table.id)
                    return

    def stand_in(self, seat: int, agent_name: str) -> None:
        """Bot ``agent_name`` plays ``seat`` until its player comes back."""
        recipe = self.recipe(agent_name, seat, derive_seed(self.table.bot_seed, "stand-in", seat))
        self.recipes[seat] = recipe
        self.agents[seat] = self.make(recipe)
        self.stand_ins[seat] = agent_name

    def take_back(self, seat: int) -> None:
        """The player of a seat a bot stood in for is back: the seat is theirs again."""
        if self.stand_ins.pop(seat, None) is not None:
            self.agents.pop(seat, None)
            self.recipes.pop(seat, None)
