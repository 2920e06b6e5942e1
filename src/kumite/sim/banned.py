"""Restricted play's agent: any agent, refusing the choices that use some cards.

Jaffe et al. (AIIDE 2012) value a card by how much a player loses when they may not use it.
:class:`Restricted` wraps the agent of a seat and removes from each decision the choices
that name a banned card (``Adapter.choice_card``) before the agent sees it — unless that
would leave no choice (the rules then force the card). A search agent still imagines its
own future plays freely; only what it does is restricted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kumite.agents.base import Agent, DeclaresView, Searcher
from kumite.core.decision import Decision

RESTRICTED = "!without="
"""Agent names ``AGENT!without=CARD[+CARD…]`` in a line-up play restricted."""


def restricted_name(agent: str, cards: Sequence[str]) -> str:
    return agent + RESTRICTED + "+".join(cards)


class Restricted:
    """``agent`` that may not use ``banned`` cards."""

    def __init__(
        self, agent: Agent, banned: frozenset[str], card_of: Callable[[str], str | None]
    ) -> None:
        self.agent = agent
        self.banned = banned
        self.card_of = card_of
        self.name = restricted_name(agent.name, sorted(banned))
        self.needs_view = agent.needs_view if isinstance(agent, DeclaresView) else True
        if isinstance(agent, Searcher):
            self.choose_with = self._choose_with

    def _allowed(self, decision: Decision) -> Decision:
        legal = tuple(c for c in decision.legal if self.card_of(c) not in self.banned)
        if not legal or len(legal) == len(decision.legal):
            return decision
        return Decision(decision.seat, decision.kind, legal, decision.prompt)

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        return self.agent.choose(view, self._allowed(decision))

    def _choose_with(self, view: Mapping[str, Any], decision: Decision, sample: Any) -> str:
        choice: str = self.agent.choose_with(  # type: ignore[attr-defined]
            view, self._allowed(decision), sample
        )
        return choice
