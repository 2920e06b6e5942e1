"""Per-game search knowledge for :mod:`kumite.agents.ismcts` (optional hooks).

The ISMCTS agent is generic over the game contract. A game may register
:class:`SearchHooks` that make it stronger or faster without changing the algorithm:

* **action abstraction** — :meth:`SearchHooks.candidates` narrows a decision to the choices
  worth searching, best first (SF DBG: one card to play is as good as another, so a turn's
  plays are fixed and only its buys are searched). A decision narrowed to one candidate is
  played without a search, in the tree and at the root;
* **rollouts** — :meth:`SearchHooks.rollout` plays a determinisation on from where the tree
  ends and returns a value per seat in the game's utility range: by default uniformly random
  play to the end of the game; a game may use a policy and stop early with an evaluation;
* **budgets** — :attr:`SearchHooks.levels` sets the iterations of each difficulty level.

Hooks see only what the agent hands them: the view of the seat deciding (``candidates``) or
a determinisation — a sampled world consistent with the searching seat's view, never the
true state (``rollout``).

A game declares a factory in its spec (``GameSpec.search``), called as
``factory(game, options)`` with the game's public options.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from kumite.core.game import Decision, Game, State
from kumite.core.registry import specs


@dataclasses.dataclass(frozen=True, slots=True)
class Level:
    """A difficulty level's budget: an iteration cap and a time limit a move, whichever
    comes first (``seconds=None``: iterations only)."""

    iterations: int
    seconds: float | None
    exploration: float = 0.7
    paired: bool = False
    """Root sweeps: every root candidate on each determinisation (see ismcts)."""
    confidence: float = 0.0
    """Paired: leave the first candidate only for one better by this many standard errors."""


@runtime_checkable
class Budgeted(Protocol):
    """An agent that searches within a :class:`Level`: the lab lifts its time limit
    (:func:`kumite.agents.ismcts.untimed`), the server cuts it to its bot budget."""

    level: Level


#: The time a move of every level but ``expert`` may take at most: a person at the web table
#: has an answer within a second even when other tables' bots share the machine (the rest
#: of the second is the server's). On an idle machine the iteration cap comes first, so the
#: agent is a fixed, reproducible policy of its view; the lab can lift the limit
#: (:func:`kumite.agents.ismcts.untimed`) to replay exactly whatever the load.
MOVE_SECONDS = 0.6

#: The generic levels; a game's hooks may set their own budgets.
LEVELS: dict[str, Level] = {
    "easy": Level(iterations=60, seconds=MOVE_SECONDS),
    "medium": Level(iterations=600, seconds=MOVE_SECONDS),
    "hard": Level(iterations=1200, seconds=MOVE_SECONDS),
    "expert": Level(iterations=100_000, seconds=3.0),
}
DEFAULT_LEVEL = "medium"


class SearchHooks:
    """The defaults: search every legal choice; uniformly random rollouts to the end."""

    levels: Mapping[str, Level] = LEVELS

    def candidates(self, view: Mapping[str, Any], decision: Decision) -> tuple[str, ...]:
        """The choices of ``decision`` worth searching (a non-empty subset of its legal
        choices, best first), knowing only ``view`` — the deciding seat's view."""
        return decision.legal

    def forced(self, state: State, decision: Decision) -> str | None:
        """Inside the search tree: a choice to play at once in the (quiet, determinised)
        ``state``, without building a view or a node; ``None`` to ask :meth:`candidates`.
        A shortcut for games where most decisions are not worth searching."""
        return None

    def rollout(self, state: State, rng: random.Random) -> tuple[float, ...]:
        """Play the (quiet, determinised) ``state`` on and return each seat's value."""
        while True:
            pending = state.pending()
            if not pending:
                break
            state.apply_trusted({d.seat: rng.choice(d.legal) for d in pending})
        outcome = state.outcome
        assert outcome is not None
        return outcome.returns


DEFAULT_HOOKS = SearchHooks()

HooksFactory = Callable[[Game[Any], Mapping[str, Any]], SearchHooks]


def search_hooks(game: Game[Any], options: Mapping[str, Any]) -> SearchHooks:
    """The hooks ``game``'s spec declares (with these options), else the defaults."""
    spec = specs().get(game.info.id)
    if spec is None or spec.search is None:
        return DEFAULT_HOOKS
    factory: HooksFactory = spec.search.load()
    return factory(game, options)
