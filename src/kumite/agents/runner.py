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
    apply, trusted = state.apply, state.apply_trusted
    while True:
        found = pending()
        if not found:
            break
        legal = True  # every choice among its decision's legal ones: no need to validate
        if len(found) == 1:
            decision = found[0]
            choice = deciders[decision.seat](decision)
            legal = choice in decision.legal
            choices = {decision.seat: choice}
        else:
            choices = {}
            for decision in found:
                choice = deciders[decision.seat](decision)
                legal = legal and choice in decision.legal
                choices[decision.seat] = choice
        # Anything else goes through the validation, and its precise error.
        events = trusted(choices) if legal else apply(choices)
        if on_step is not None:
            on_step(state, choices, events)
    outcome = state.outcome
    assert outcome is not None
    return outcome
