"""Drive a game with one agent per seat."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from kumite.agents.base import Agent, decide
from kumite.core.events import Event
from kumite.core.game import Outcome, State

StepHook = Callable[[State, Mapping[int, str], list[Event]], None]


def run_game(state: State, agents: Sequence[Agent], on_step: StepHook | None = None) -> Outcome:
    """Play ``state`` to the end. Each agent sees only its own seat's view."""
    while True:
        pending = state.pending()
        if not pending:
            break
        choices: dict[int, str] = {}
        for decision in pending:
            choices[decision.seat] = decide(agents[decision.seat], state, decision)
        events = state.apply(choices)
        if on_step is not None:
            on_step(state, choices, events)
    outcome = state.outcome
    assert outcome is not None
    return outcome
