"""Drive a game with one agent per seat."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from kumite.agents.base import Agent, decider
from kumite.core.events import Event
from kumite.core.game import Outcome, State

StepHook = Callable[[State, Mapping[int, str], list[Event]], None]


def run_game(state: State, agents: Sequence[Agent], on_step: StepHook | None = None) -> Outcome:
    """Play ``state`` to the end. Each agent sees only its own seat's view."""
    deciders = [decider(agent, state) for agent in agents]
    pending = state.pending
    apply = state.apply
    while True:
        found = pending()
        if not found:
            break
        if len(found) == 1:
            decision = found[0]
            choices = {decision.seat: deciders[decision.seat](decision)}
        else:
            choices = {}
            for decision in found:
                choices[decision.seat] = deciders[decision.seat](decision)
        events = apply(choices)
        if on_step is not None:
            on_step(state, choices, events)
    outcome = state.outcome
    assert outcome is not None
    return outcome
