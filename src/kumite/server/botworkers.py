"""Bots thinking in processes of their own (``kumite serve --bot-processes N``).

In threads, a thinking bot holds the server's GIL: its event loop (every socket, every
commit) waits a switch interval at a time, and one process is one core for both. Here each
of N worker processes keeps the tables' bots it is given (a table always goes to the same
worker) with their own copy of the game's state, rebuilt from the table's seed and choices
and brought up to date with the steps taken since its last move: a job carries the choices
made so far, not the state, so sending it costs what a few hundred short dicts cost.

The bot is made by the same :func:`~kumite.agents.registry.make_agent` call with the same
seed, and decides by the same :func:`~kumite.agents.base.decide` call on the same state as a
thread would: from what its seat may know, exactly as before.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import time
from typing import Any

from kumite.agents.base import Agent, decide
from kumite.agents.ismcts import ISMCTSAgent
from kumite.agents.registry import make_agent
from kumite.agents.search import Budgeted
from kumite.core.game import State
from kumite.core.registry import get_game

CACHED = 4096
"""Bots (with their game states) a worker keeps; the least recently used go first and are
rebuilt from the table's record if asked for again."""


@dataclasses.dataclass(frozen=True)
class Recipe:
    """How to make one table's bot again in a worker: the arguments of its ``make_agent``
    call, and the table's seed and options to rebuild its state from."""

    table: str
    game: str
    seed: int
    """The table's seed (a secret until the game is over: it stays inside the server)."""
    options: str
    """The table's options (JSON)."""
    agent: str
    seat: int
    agent_seed: int


@dataclasses.dataclass
class _Bot:
    state: State
    agent: Agent


_bots: collections.OrderedDict[Recipe, _Bot] = collections.OrderedDict()


def think(
    recipe: Recipe,
    history: list[dict[int, str]],
    budget: float,
    deadline: float | None,
) -> tuple[str, float]:
    """In a worker: the bot's choice at the table after ``history``'s steps, and when the
    worker began on it (``time.monotonic``, one clock for all processes of the machine)."""
    started = time.monotonic()
    bot = _bots.pop(recipe, None)
    if bot is None or len(bot.state.history) > len(history):
        game = get_game(recipe.game)
        state = game.new_state(recipe.seed, json.loads(recipe.options))
        agent = make_agent(recipe.agent, game, state.options_json, recipe.seat, recipe.agent_seed)
        bot = _Bot(state, agent)
    for choices in history[len(bot.state.history) :]:
        bot.state.apply(choices)
    _bots[recipe] = bot
    while len(_bots) > CACHED:
        _bots.popitem(last=False)
    cap(bot.agent, budget)
    at_table(bot.agent)
    if deadline is not None and isinstance(bot.agent, ISMCTSAgent):
        bot.agent.deadline = deadline
    decision = next(d for d in bot.state.pending() if d.seat == recipe.seat)
    return decide(bot.agent, bot.state, decision), started


def cap(agent: Any, seconds: float) -> None:
    """Cut a search agent's time limit a move (its level's ``seconds``) to ``seconds``."""
    level = agent.level if isinstance(agent, Budgeted) else None
    if level is not None and (level.seconds is None or level.seconds > seconds):
        agent.level = dataclasses.replace(level, seconds=seconds)


def at_table(agent: Any) -> None:
    """Tell a bot that prepares big data (SF Rivals' solver bots: ``prepare_in_background``)
    that it plays at the web table: no move may wait for a solve; it plays its declared
    fallback while the solve runs in the background."""
    if hasattr(agent, "prepare_in_background"):
        agent.prepare_in_background = True


def warm() -> None:
    """Load the games and their bots before the first move (a worker's first job)."""
    from kumite.core.registry import game_ids

    for game_id in game_ids():
        get_game(game_id)


def ready() -> None:
    """A worker's first job (:meth:`~kumite.server.bots.BotPool.start`): done once its
    initializer (:func:`warm`) has run."""
