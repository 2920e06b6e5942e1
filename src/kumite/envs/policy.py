"""What you bring to the table: policies, opponents and pools of them (docs/envs.md,
"Opponents you bring").

A **policy** is any callable from one seat's observation and its legal-action mask to an
action id — the shapes every kumite environment uses:

* :class:`Policy`: ``policy(observation, mask) -> int``, ``observation`` a float32 vector
  (the game's encoding of the seat's view, as the environment returns it, normalised if the
  environment is), ``mask`` a bool vector of ``num_actions`` entries (``True``: legal). The
  ids are the environment's action ids (``env.action_space``; no NO-OP).
* :class:`BatchedPolicy`: ``policy(observations, masks) -> actions`` on ``[N, size]``
  float32 and ``[N, num_actions]`` bool arrays, returning ``N`` action ids (an int array).
  :func:`batched` and :func:`unbatched` turn one kind into the other.

An **opponent** (:data:`Opponent`, what ``opponents=`` takes) is a kumite agent by name
(``"random"``, ``"greedy"`` …), a kumite :class:`~kumite.agents.base.Agent` object, a
:class:`Policy`, or an :class:`OpponentPool`, which gives one of its members per episode —
uniformly, or by prioritised fictitious self-play (PFSP, as AlphaStar's league samples:
more often the opponents the learner beats least).
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeAlias, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from kumite.agents.base import Agent
from kumite.core.errors import OptionsError

Observation: TypeAlias = NDArray[np.float32]
"""One seat's observation: the game's encoding of its view (``[size]``)."""
Mask: TypeAlias = NDArray[np.bool_]
"""One seat's legal actions: ``[num_actions]`` booleans."""


@runtime_checkable
class Policy(Protocol):
    """``policy(observation, mask) -> action id`` (one seat, one decision)."""

    def __call__(self, observation: Observation, mask: Mask, /) -> int: ...


@runtime_checkable
class BatchedPolicy(Protocol):
    """``policy(observations[N, size], masks[N, num_actions]) -> actions[N]``."""

    def __call__(self, observations: Observation, masks: Mask, /) -> NDArray[np.int64]: ...


PRIORITIES = ("uniform", "hard", "even")
"""How an :class:`OpponentPool` samples: uniformly; ``hard``, PFSP's ``(1 - p) ** power``
(``p`` the learner's expected score against the member: the members it beats least come
most often); ``even``, PFSP's ``(p (1 - p)) ** power`` (the members it beats half the time)."""


class _Batched:
    """A :class:`Policy` applied row by row (:func:`batched`)."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    def __call__(self, observations: Observation, masks: Mask) -> NDArray[np.int64]:
        return np.array(
            [self.policy(o, m) for o, m in zip(observations, masks, strict=True)], dtype=np.int64
        )


class _Unbatched:
    """A :class:`BatchedPolicy` asked about one row (:func:`unbatched`)."""

    def __init__(self, policy: BatchedPolicy) -> None:
        self.policy = policy

    def __call__(self, observation: Observation, mask: Mask) -> int:
        return int(self.policy(observation[None], mask[None])[0])


def batched(policy: Policy) -> BatchedPolicy:
    """``policy`` as a :class:`BatchedPolicy` (it is called once per row)."""
    return _Batched(policy)


def unbatched(policy: BatchedPolicy) -> Policy:
    """``policy`` as a :class:`Policy` (a batch of one)."""
    return _Unbatched(policy)


class RandomPolicy:
    """A uniformly random legal action, from its own seeded generator (a baseline, and an
    example of a picklable policy)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: Observation, mask: Mask) -> int:
        return int(self.rng.choice(np.flatnonzero(mask)))


def is_agent(opponent: object) -> bool:
    """A kumite agent object (it has ``choose(view, decision)`` and a ``name``)."""
    return isinstance(opponent, Agent) and not isinstance(opponent, str)


def check_opponent(opponent: object) -> None:
    """A one-line error unless ``opponent`` is an :data:`Opponent`."""
    if isinstance(opponent, str | OpponentPool) or is_agent(opponent) or callable(opponent):
        return
    raise OptionsError(
        f"an opponent is an agent name, a kumite agent, a policy (a callable from observation "
        f"and mask to an action id) or an OpponentPool, not {type(opponent).__name__}"
    )


@dataclasses.dataclass
class Member:
    """One opponent of a pool, with the learner's results against it."""

    name: str
    opponent: str | Agent | Policy
    games: int = 0
    score: float = 0.0
    """The learner's summed scores against it: 1 a win, 1/2 a draw, 0 a loss."""

    @property
    def expected(self) -> float:
        """The learner's expected score against it, with one win and one loss assumed
        before any game (so an unplayed member counts as an even match)."""
        return (self.score + 1.0) / (self.games + 2.0)


class OpponentPool:
    """Opponents drawn one per episode: kumite agents (by name or object) and policies —
    snapshots of a learner, typically (:meth:`snapshot`). ``priority`` chooses how
    (:data:`PRIORITIES`); ``max_size`` keeps only that many snapshots, dropping the oldest
    (members added with ``keep=True`` — a fixed baseline — are never dropped).

    The environments record the learner's result against the member of each episode
    (:meth:`record`: 1 a win, 0 a loss, 1/2 a draw), which ``hard`` and ``even`` sampling
    read. A pool is shared by the environments of one process (a synchronous vector env);
    each subprocess of an asynchronous one gets a copy and records only its own games.
    """

    def __init__(
        self,
        opponents: Mapping[str, str | Agent | Policy] | Sequence[str | Agent | Policy] = (),
        priority: str = "uniform",
        power: float = 1.0,
        max_size: int | None = None,
    ) -> None:
        if priority not in PRIORITIES:
            raise OptionsError(f"priority={priority!r}: one of {', '.join(PRIORITIES)}")
        if not power > 0:
            raise OptionsError(f"power={power!r}: a positive number")
        if max_size is not None and max_size < 1:
            raise OptionsError(f"max_size={max_size!r}: at least 1")
        self.priority = priority
        self.power = float(power)
        self.max_size = max_size
        self.members: list[Member] = []
        self._kept: set[str] = set()
        self._count = 0
        items = (
            opponents.items() if isinstance(opponents, Mapping) else ((None, o) for o in opponents)
        )
        for name, opponent in items:
            self.add(opponent, name, keep=True)

    def __len__(self) -> int:
        return len(self.members)

    def __iter__(self) -> Iterator[Member]:
        return iter(self.members)

    def __getitem__(self, name: str) -> Member:
        for m in self.members:
            if m.name == name:
                return m
        raise KeyError(name)

    @property
    def names(self) -> list[str]:
        return [m.name for m in self.members]

    def add(
        self, opponent: str | Agent | Policy, name: str | None = None, keep: bool = False
    ) -> str:
        """Add ``opponent`` (as it is: not copied); returns its name (given, the agent's
        name, or ``snapshot-<k>``)."""
        if isinstance(opponent, OpponentPool):
            raise OptionsError("a pool's members are agents or policies, not pools")
        check_opponent(opponent)
        if name is None:
            name = opponent if isinstance(opponent, str) else f"snapshot-{self._count}"
        if name in self.names:
            raise OptionsError(f"the pool already has a member called {name!r}")
        self._count += 1
        self.members.append(Member(name, opponent))
        if keep:
            self._kept.add(name)
        if self.max_size is not None:
            dropped = [m for m in self.members if m.name not in self._kept]
            while len(dropped) > self.max_size:
                self.members.remove(dropped.pop(0))
        return name

    def snapshot(self, policy: Policy, name: str | None = None) -> str:
        """Add a frozen copy of ``policy`` (``copy.deepcopy``: later training does not
        change it); returns its name."""
        return self.add(copy.deepcopy(policy), name)

    def weights(self) -> NDArray[np.float64]:
        """Each member's probability of being drawn, in order."""
        if not self.members:
            raise OptionsError("the opponent pool is empty")
        if self.priority == "uniform":
            w = np.ones(len(self.members))
        else:
            p = np.array([m.expected for m in self.members])
            base = 1.0 - p if self.priority == "hard" else p * (1.0 - p)
            w = np.power(base, self.power)
        total = float(w.sum())
        if not math.isfinite(total) or total <= 0:
            w = np.ones(len(self.members))
            total = float(len(self.members))
        return w / total

    def sample(self, rng: np.random.Generator) -> Member:
        """One member, drawn with :meth:`weights` from ``rng``."""
        k = int(rng.choice(len(self.members), p=self.weights()))
        return self.members[k]

    def record(self, name: str, score: float) -> None:
        """The learner scored ``score`` (1 win, 1/2 draw, 0 loss) against member ``name``
        (a member since dropped is ignored)."""
        for m in self.members:
            if m.name == name:
                m.games += 1
                m.score += float(score)
                return

    def table(self) -> list[dict[str, Any]]:
        """Each member's name, games, the learner's mean score and its draw probability."""
        return [
            {
                "name": m.name,
                "games": m.games,
                "score": m.score / m.games if m.games else None,
                "weight": float(w),
            }
            for m, w in zip(self.members, self.weights(), strict=True)
        ]


def score_of(value: float, low: float, high: float) -> float:
    """A return in ``[low, high]`` as a score in ``[0, 1]`` (a win 1, a loss 0)."""
    return (value - low) / (high - low) if high > low else 0.5


Opponent: TypeAlias = "str | Agent | Policy | OpponentPool"
"""What takes a seat across the table: a kumite agent by name, a kumite agent object, a
:class:`Policy`, or an :class:`OpponentPool` (one member per episode)."""

__all__ = [
    "PRIORITIES",
    "BatchedPolicy",
    "Mask",
    "Member",
    "Observation",
    "Opponent",
    "OpponentPool",
    "Policy",
    "RandomPolicy",
    "batched",
    "check_opponent",
    "is_agent",
    "score_of",
    "unbatched",
]
