"""Agents: one decision interface for people and bots."""

from kumite.agents.base import Agent, RandomAgent
from kumite.agents.registry import UnknownAgentError, agent_names, make_agent
from kumite.agents.runner import run_game

__all__ = ["Agent", "RandomAgent", "UnknownAgentError", "agent_names", "make_agent", "run_game"]
