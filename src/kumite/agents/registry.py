"""Agents by name: the generic ones here, and the bots each game's spec declares."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kumite.agents.base import Agent, AgentFactory
from kumite.agents.uniform import RandomAgent
from kumite.core.errors import KumiteError
from kumite.core.extras import missing, require
from kumite.core.game import Game
from kumite.core.registry import specs
from kumite.core.spec import GameSpec, Ref


class UnknownAgentError(KumiteError, ValueError):
    """No agent of this name plays this game."""


#: The agents of every game: name -> (what it is, factory).
GENERIC: dict[str, tuple[str, Ref[AgentFactory]]] = {
    "random": ("uniformly random legal choices", Ref("kumite.agents.registry:_random")),
    "ismcts": (
        "information-set Monte Carlo tree search (the game's medium budget a move)",
        Ref("kumite.agents.ismcts:make"),
    ),
    "ismcts-easy": ("information-set MCTS, the easy budget", Ref("kumite.agents.ismcts:make_easy")),
    "ismcts-hard": ("information-set MCTS, the hard budget", Ref("kumite.agents.ismcts:make_hard")),
    "ismcts-expert": (
        "information-set MCTS, the expert budget (seconds a move)",
        Ref("kumite.agents.ismcts:make_expert"),
    ),
}
HUMAN = "a person at this terminal"
LEVELS: dict[str, str] = {
    "random": "Beginner",
    "ismcts-easy": "Casual",
    "ismcts": "Strong",
    "ismcts-hard": "Strong",
    "ismcts-expert": "Expert",
}
"""The generic agents' levels as players are shown them; a game's bot declares its own
(``Bot.level``)."""


def _random(game: Game[Any], options: Mapping[str, Any], seat: int, seed: int) -> Agent:
    return RandomAgent(seed)


def _table(spec: GameSpec | None) -> dict[str, tuple[str, Ref[AgentFactory]]]:
    """The bots that can play here: a game's bot whose extra is not installed is left out."""
    own = (
        {}
        if spec is None
        else {
            b.name: (b.about, b.factory)
            for b in spec.bots
            if b.extra is None or not missing(b.extra)
        }
    )
    return {
        "random": GENERIC["random"],
        **own,
        **{k: v for k, v in GENERIC.items() if k not in own},
    }


def agent_names(game_id: str) -> list[str]:
    """The bots that play ``game_id``: random, the game's own, then search."""
    return list(_table(specs().get(game_id)))


def agent_info(name: str, game_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """A listing's entry for agent ``name`` in a game with ``options`` (the lobby, ``kumite
    play``): its description and, where the game's bot declares one, what it is certified to
    do (its spec's ``Bot.info``) — computed from solutions already at hand, never by solving."""
    spec = specs().get(game_id)
    out: dict[str, Any] = {
        "name": name,
        "about": "" if spec is None else describe(spec, name),
        "level": level(spec, name),
    }
    bot = None if spec is None else next((b for b in spec.bots if b.name == name), None)
    if bot is not None and bot.info is not None:
        out.update(bot.info.load()(options))
    return out


def level(spec: GameSpec | None, name: str) -> str:
    """Agent ``name``'s level as players are shown it (``Strong``; the name is technical)."""
    bot = None if spec is None else next((b for b in spec.bots if b.name == name), None)
    return bot.level if bot is not None else LEVELS.get(name, "Casual")


class NotOfferedError(KumiteError, ValueError):
    """The web table does not offer this bot under these options (its data is not at hand:
    a table never waits for a solve)."""


def not_offered(name: str, game_id: str, options: Mapping[str, Any]) -> str | None:
    """Why the web table does not offer bot ``name`` in ``game_id`` under ``options``, from
    its spec's ``Bot.info`` (its ``not_offered``); None: it does."""
    spec = specs().get(game_id)
    bot = None if spec is None else next((b for b in spec.bots if b.name == name), None)
    if bot is None or bot.info is None:
        return None
    reason = bot.info.load()(options).get("not_offered")
    return None if reason is None else str(reason)


def offered_at_table(name: str, game_id: str, options: Mapping[str, Any]) -> None:
    """Raise :class:`NotOfferedError` (one line) if the web table does not offer ``name``."""
    reason = not_offered(name, game_id, options)
    if reason is not None:
        raise NotOfferedError(f"bot {name!r} is not offered here: {reason}")


def describe(spec: GameSpec, name: str) -> str:
    return HUMAN if name == "human" else _table(spec).get(name, ("", None))[0]


def make_agent(
    name: str, game: Game[Any], options: Mapping[str, Any], seat: int, seed: int
) -> Agent:
    """A bot called ``name`` for ``seat`` of ``game`` (humans are made by the UI)."""
    spec = specs().get(game.info.id)
    found = _table(spec).get(name)
    if found is None:
        bot = None if spec is None else next((b for b in spec.bots if b.name == name), None)
        if bot is not None and bot.extra is not None:
            require(bot.extra, f"the {game.info.id} bot {name!r}")
        known = ", ".join(["human", *agent_names(game.info.id)])
        raise UnknownAgentError(f"no agent {name!r} for {game.info.id} (known: {known})")
    agent: Agent = found[1].load()(game, options, seat, seed)
    return agent
