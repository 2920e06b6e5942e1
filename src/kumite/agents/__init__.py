"""Agents: one decision interface for people and bots."""

from kumite.agents.base import Agent
from kumite.agents.registry import UnknownAgentError, agent_names, make_agent
from kumite.agents.runner import run_game
from kumite.agents.uniform import RandomAgent

__all__ = ["Agent", "RandomAgent", "UnknownAgentError", "agent_names", "make_agent", "run_game"]
