"""Agents by name, per game."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from kumite.agents.base import Agent
from kumite.agents.uniform import RandomAgent
from kumite.core.errors import KumiteError
from kumite.core.game import Game


class UnknownAgentError(KumiteError, ValueError):
    """No agent of this name plays this game."""


#: Agent name -> game id -> "module:factory". ``*`` matches every game.
AGENTS: dict[str, dict[str, str]] = {
    "random": {"*": "kumite.agents.registry:_random"},
    "greedy": {
        "sfrivals": "kumite.agents.sfrivals_greedy:make",
        "rivales": "kumite.agents.rivales_greedy:make",
        "sfdbg": "kumite.agents.sfdbg_greedy:make",
    },
    "priority": {"sfdbg": "kumite.agents.sfdbg_priority:make"},
    "priority-power": {"sfdbg": "kumite.agents.sfdbg_priority:make_power"},
    "priority-attack": {"sfdbg": "kumite.agents.sfdbg_priority:make_attack"},
    "ismcts": {"*": "kumite.agents.ismcts:make"},
    "ismcts-easy": {"*": "kumite.agents.ismcts:make_easy"},
    "ismcts-hard": {"*": "kumite.agents.ismcts:make_hard"},
    "ismcts-expert": {"*": "kumite.agents.ismcts:make_expert"},
    "bounded": {"sfrivals": "kumite.agents.equilibrium:make_bounded"},
    "belief": {"sfrivals": "kumite.agents.belief:make"},
    "equilibrium": {"sfrivals": "kumite.agents.equilibrium:make"},
}

DESCRIPTIONS: dict[str, str] = {
    "human": "a person at this terminal",
    "random": "uniformly random legal choices",
    "greedy": "rule-based: the best immediate result, knowing only its own view",
    "priority": "SF DBG: buys by a priority list written as data (balanced strategy)",
    "priority-power": "SF DBG: priority list, Big-Money style (Power first)",
    "priority-attack": "SF DBG: priority list that buys every Attack",
    "ismcts": "information-set Monte Carlo tree search (600 iterations a move; SF DBG 100)",
    "ismcts-easy": "information-set MCTS, 60 iterations a move (SF DBG 20)",
    "ismcts-hard": "information-set MCTS, 1200 iterations a move (SF DBG 250)",
    "ismcts-expert": "information-set MCTS, 3 seconds a move (SF DBG 6)",
    "bounded": "SF Rivals: the solver's bound strategy, certified to give up at most its "
    "matchup's exploitability (kumite solve prints it)",
    "belief": "SF Rivals: tracks the odds of the opponent's hidden cover from its plays and "
    "answers with exact fight values",
    "equilibrium": "SF Rivals: a strategy certified within 0.05 of an equilibrium — only where "
    "one is (e.g. the mini pack, solved exactly); else play bounded",
}

#: Agent name -> "module:function" giving, for a game's options, what a listing should show
#: beside the description (e.g. a certified exploitability); see :func:`agent_info`.
INFO: dict[str, str] = {
    "bounded": "kumite.agents.equilibrium:info",
    "equilibrium": "kumite.agents.equilibrium:info",
}


def _random(game: Game[Any], options: Mapping[str, Any], seat: int, seed: int) -> Agent:
    return RandomAgent(seed)


def agent_info(name: str, game_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """A listing's entry for agent ``name`` in a game with ``options`` (the lobby, ``kumite
    play``): its description and, where the agent has one, what it is certified to do —
    computed from solutions already at hand, never by solving."""
    out: dict[str, Any] = {"name": name, "about": DESCRIPTIONS.get(name, "")}
    target = INFO.get(name)
    if target is not None and game_id in AGENTS.get(name, {}):
        module, _, attr = target.partition(":")
        out.update(getattr(importlib.import_module(module), attr)(options))
    return out


def agent_names(game_id: str) -> list[str]:
    return [n for n, games in AGENTS.items() if "*" in games or game_id in games]


def make_agent(
    name: str, game: Game[Any], options: Mapping[str, Any], seat: int, seed: int
) -> Agent:
    """A bot called ``name`` for ``seat`` of ``game`` (humans are made by the UI)."""
    games = AGENTS.get(name)
    target = None if games is None else games.get(game.info.id, games.get("*"))
    if target is None:
        known = ", ".join(["human", *agent_names(game.info.id)])
        raise UnknownAgentError(f"no agent {name!r} for {game.info.id} (known: {known})")
    module, _, attr = target.partition(":")
    factory = getattr(importlib.import_module(module), attr)
    agent: Agent = factory(game, options, seat, seed)
    return agent
