"""One decision interface for people and bots.

An agent is given what its seat may see (the seat's view) and the pending decision, and
returns one of the decision's legal choices. Card and rule code never asks who decides.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, Protocol, runtime_checkable

from kumite.core.game import Decision, Game, State


@runtime_checkable
class Agent(Protocol):
    """Anything that can take a seat."""

    name: str

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        """Return one of ``decision.legal``, knowing only ``view``."""
        ...


Sampler = Callable[[random.Random], State]
"""``sample(rng)``: a determinisation of the current state for the deciding seat —
everything that seat cannot see resampled (:meth:`~kumite.core.game.State.determinize`)."""


#: The view given to agents that declare ``needs_view = False`` (read-only: shared).
NO_VIEW: Mapping[str, Any] = MappingProxyType({})

#: ``needs_view = LAZY``: the agent often decides from the legal choices alone, so its seat's
#: view is built only if it reads it (:class:`LazyView`).
LAZY = "lazy"


class LazyView(Mapping[str, Any]):
    """A seat's view, built on first read — the very view the agent would otherwise be
    given, so nothing else can be seen through it. Valid only while its decision is being
    made: :func:`decide` closes it when the agent answers (a view never built then cannot
    be built later, from a state that has moved on)."""

    __slots__ = ("_seat", "_state", "_view")

    def __init__(self, state: State, seat: int) -> None:
        self._state: State | None = state
        self._seat = seat
        self._view: Mapping[str, Any] | None = None

    def _built(self) -> Mapping[str, Any]:
        if self._view is None:
            if self._state is None:
                raise RuntimeError("a lazy view is only valid during its own decision")
            self._view = self._state.view(self._seat)
        return self._view

    def __getitem__(self, key: str) -> Any:
        return self._built()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._built())

    def __len__(self) -> int:
        return len(self._built())

    @property
    def built(self) -> bool:
        """Whether the agent read the view (for tests and measurements)."""
        return self._view is not None

    def close(self) -> None:
        self._state = None


@runtime_checkable
class DeclaresView(Protocol):
    """An agent that says whether it reads its seat's view: ``False`` (never: it is given
    :data:`NO_VIEW`), :data:`LAZY` (only sometimes: a :class:`LazyView`) or ``True`` (the
    default of an agent that declares nothing)."""

    @property
    def needs_view(self) -> bool | str: ...


@runtime_checkable
class Searcher(Protocol):
    """A search agent: besides its seat's view, it is given a sampler of determinisations
    for its seat (never the state itself)."""

    def choose_with(self, view: Mapping[str, Any], decision: Decision, sample: Sampler) -> str:
        """Return one of ``decision.legal``, knowing ``view`` and sampling worlds."""
        ...


def decide(agent: Agent, state: State, decision: Decision) -> str:
    """Ask ``agent`` for ``decision``, as its declared abilities say (:class:`DeclaresView`,
    :class:`Searcher`)."""
    return _ask(agent, _needs_view(agent), _searcher(agent), state, decision)


def decider(agent: Agent, state: State) -> Callable[[Decision], str]:
    """``decide(agent, state, decision)`` as a function of the decision alone, its abilities
    read once per game: an agent that needs neither a view nor a sampler is called directly."""
    needs, searcher = _needs_view(agent), _searcher(agent)
    if not needs and searcher is None:
        return functools.partial(agent.choose, NO_VIEW)
    return lambda decision: _ask(agent, needs, searcher, state, decision)


def _needs_view(agent: Agent) -> bool | str:
    return agent.needs_view if isinstance(agent, DeclaresView) else True


def _searcher(agent: Agent) -> Searcher | None:
    return agent if isinstance(agent, Searcher) else None


def _ask(
    agent: Agent, needs: bool | str, searcher: Searcher | None, state: State, decision: Decision
) -> str:
    if needs == LAZY:
        lazy = LazyView(state, decision.seat)
        try:
            return agent.choose(lazy, decision)
        finally:
            lazy.close()
    view: Mapping[str, Any] = state.view(decision.seat) if needs else NO_VIEW
    if searcher is not None:

        def sample(rng: random.Random, seat: int = decision.seat) -> State:
            return state.determinize(seat, rng)

        return searcher.choose_with(view, decision, sample)
    return agent.choose(view, decision)


AgentFactory = Callable[[Game[Any], Mapping[str, Any], int, int], Agent]
"""``factory(game, options, seat, seed)`` -> agent. ``options`` are the game's public
options (characters, pack overlay, rule variants)."""
