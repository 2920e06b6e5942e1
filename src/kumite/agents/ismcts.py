"""``ismcts``: information-set Monte Carlo tree search, for every game.

Each iteration samples a *determinisation* — the current state with everything the agent's
seat cannot see resampled consistently with its view (:meth:`State.determinize`, handed to
the agent as a sampler, never the state itself) — and plays it out:

* Tree nodes are information sets: a seat's node is keyed by that seat's view in the
  sampled world, so the agent's own nodes never depend on hidden cards (multiple-observer
  ISMCTS, Cowling, Powley & Whitehouse 2012).
* Selection is UCB1 with availability counts (an action's exploration term counts the
  iterations in which it was legal), decoupled per seat when several seats decide at once
  (simultaneous moves, as SF Rivals' reveals).
* One node is added per iteration; below it, a rollout gives each seat a value.
* Each node's action statistics are updated with its seat's value.

What is game-specific is optional and sits in the game's :class:`~kumite.agents.search.
SearchHooks`: which choices of a decision are worth searching (action abstraction: a
decision left with one candidate is played at once, in the tree and at the root), how a
rollout plays and when it stops with an evaluation, and the budget of each level. Without
hooks every legal choice is searched and rollouts are uniformly random to the end.

The move played is the root action visited most. A level may instead ask for *paired*
root sweeps: each determinisation (and random stream) is played once with every root
candidate, and the best mean value is played (unless it beats the first candidate, the
game's own preference, by fewer than ``confidence`` standard errors of the paired
difference) — common random numbers, so that the comparison of candidates is not drowned
in the luck of the draw (SF DBG's buys).

The search is *anytime*: its budget is an iteration cap and a time limit a move, whichever
comes first (each named level sets both), and a caller may add a deadline of its own
(:attr:`ISMCTSAgent.deadline`, e.g. when the move was asked for). When time is up it plays
the best move found so far — the time is checked before every iteration and, in paired
sweeps, before every candidate (a sweep cut short is dropped: its candidates were not all
played on that world). Search randomness is seeded from the agent's seed and the view, so
the agent is a fixed (reproducible) policy of its view whenever the iteration cap comes
first (always, :func:`untimed`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import random
import time
from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec

from kumite.agents.base import Sampler
from kumite.agents.search import (
    DEFAULT_HOOKS,
    DEFAULT_LEVEL,
    LEVELS,
    Budgeted,
    Level,
    SearchHooks,
    search_hooks,
)
from kumite.core.game import Decision, Game, State

__all__ = ["DEFAULT_LEVEL", "LEVELS", "ISMCTSAgent", "Level", "untimed"]

NodeKey = tuple[int, str]
A = TypeVar("A")


@dataclasses.dataclass(slots=True)
class _Node:
    visits: dict[str, int] = dataclasses.field(default_factory=dict)
    total: dict[str, float] = dataclasses.field(default_factory=dict)
    available: dict[str, int] = dataclasses.field(default_factory=dict)

    def select(self, legal: tuple[str, ...], c: float, rng: random.Random) -> str:
        for a in legal:
            self.available[a] = self.available.get(a, 0) + 1
        untried = [a for a in legal if a not in self.visits]
        if untried:
            return rng.choice(untried)
        best, best_score = legal[0], -math.inf
        for a in legal:
            n = self.visits[a]
            score = self.total[a] / n + c * math.sqrt(math.log(self.available[a]) / n)
            if score > best_score:
                best, best_score = a, score
        return best

    def update(self, action: str, reward: float) -> None:
        self.visits[action] = self.visits.get(action, 0) + 1
        self.total[action] = self.total.get(action, 0.0) + reward


class ISMCTSAgent:
    """Information-set MCTS over any game that implements ``determinize``."""

    def __init__(
        self,
        seat: int,
        seed: int,
        level: str = DEFAULT_LEVEL,
        hooks: SearchHooks = DEFAULT_HOOKS,
    ) -> None:
        if level not in hooks.levels:
            raise ValueError(f"unknown ismcts level {level!r} (one of {', '.join(hooks.levels)})")
        self.name = "ismcts" if level == DEFAULT_LEVEL else f"ismcts-{level}"
        self.seat = seat
        self.seed = seed
        self.hooks = hooks
        self.level = hooks.levels[level]
        self.last_iterations = 0
        self.deadline: float | None = None
        """A ``time.monotonic()`` by which the next move must be answered (on top of the
        level's own limit); used once, then cleared."""

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        raise RuntimeError("ismcts needs a determinisation sampler: call it through decide()")

    def choose_with(self, view: Mapping[str, Any], decision: Decision, sample: Sampler) -> str:
        self.last_iterations = 0
        budget = self.level
        deadline = _earliest(
            None if budget.seconds is None else time.monotonic() + budget.seconds, self.deadline
        )
        self.deadline = None
        if len(decision.legal) == 1:
            return decision.legal[0]
        candidates = self.hooks.candidates(view, decision)
        if len(candidates) == 1:
            return candidates[0]
        rng = random.Random(_digest(self.seed, view))
        tree: dict[NodeKey, _Node] = {}
        root_key = (decision.seat, _digest(0, view))

        def time_left() -> bool:
            return deadline is None or time.monotonic() < deadline

        n = 0
        sweeps: list[list[float]] = []  # paired: each sweep's value of every candidate
        while n < budget.iterations and time_left():
            world = sample(rng)
            if not budget.paired:
                self._iterate(world, tree, root_key, candidates, decision.seat, rng)
                n += 1
                continue
            # One sweep: every candidate on the same world and the same random stream.
            stream = rng.getrandbits(64)
            sweep: list[float] = []
            for action in candidates:
                if sweep and not time_left():
                    break
                sweep.append(
                    self._iterate(
                        world.clone(),
                        tree,
                        root_key,
                        candidates,
                        decision.seat,
                        random.Random(stream),
                        action,
                    )
                )
            n += len(sweep)
            if len(sweep) == len(candidates):
                sweeps.append(sweep)
        self.last_iterations = n
        if budget.paired:
            return _paired_choice(candidates, sweeps, budget.confidence)
        root = tree.get(root_key)
        if root is None or not root.visits:
            return candidates[0]
        return max(candidates, key=lambda a: (root.visits.get(a, 0), root.total.get(a, 0.0)))

    def _iterate(
        self,
        state: State,
        tree: dict[NodeKey, _Node],
        root_key: NodeKey,
        root_candidates: tuple[str, ...],
        me: int,
        rng: random.Random,
        root_action: str | None = None,
    ) -> float:
        """One iteration; returns the value it gave the searching seat ``me``."""
        state.quiet = True
        hooks = self.hooks
        c = self.level.exploration
        path: list[tuple[_Node, int, str]] = []
        first = True
        while True:
            pending = state.pending()
            if not pending:
                outcome = state.outcome
                assert outcome is not None
                returns = outcome.returns
                break
            choices: dict[int, str] = {}
            added = False
            for d in pending:
                if first and d.seat == me:
                    key, candidates = root_key, root_candidates
                elif len(d.legal) == 1:
                    choices[d.seat] = d.legal[0]
                    continue
                elif (at_once := hooks.forced(state, d)) is not None:
                    choices[d.seat] = at_once
                    continue
                else:
                    view = state.view(d.seat)
                    candidates = hooks.candidates(view, d)
                    if len(candidates) == 1:
                        choices[d.seat] = candidates[0]
                        continue
                    key = (d.seat, _digest(0, view))
                node = tree.get(key)
                if node is None:
                    node = tree[key] = _Node()
                    added = True
                if first and d.seat == me and root_action is not None:
                    action = root_action
                else:
                    action = node.select(candidates, c, rng)
                path.append((node, d.seat, action))
                choices[d.seat] = action
            first = False
            state.apply_trusted(choices)
            if added:
                returns = hooks.rollout(state, rng)
                break
        for node, seat, action in path:
            node.update(action, returns[seat])
        return returns[me]


def _earliest(*times: float | None) -> float | None:
    known = [t for t in times if t is not None]
    return min(known) if known else None


def untimed(agent: A) -> A:
    """``agent`` — if it searches by :class:`Level` — with its level's time limit lifted (its
    iteration cap alone), so that it replays exactly whatever the machine's load: for the
    lab, whose results are seeded. Any other agent is returned as it is."""
    if isinstance(agent, Budgeted) and agent.level.seconds is not None:
        agent.level = dataclasses.replace(agent.level, seconds=None)
    return agent


def _paired_choice(
    candidates: tuple[str, ...], sweeps: list[list[float]], confidence: float
) -> str:
    """The candidate with the best mean over the sweeps — but the first candidate (the
    game's own preference) unless the best beats it by ``confidence`` standard errors of
    their paired difference."""
    if not sweeps:
        return candidates[0]
    k = len(sweeps)
    means = [sum(s[i] for s in sweeps) / k for i in range(len(candidates))]
    best = max(range(len(candidates)), key=lambda i: (means[i], -i))
    if best == 0 or confidence <= 0:
        return candidates[best]
    diffs = [s[best] - s[0] for s in sweeps]
    mean = sum(diffs) / k
    var = sum((d - mean) ** 2 for d in diffs) / (k - 1) if k > 1 else math.inf
    return candidates[best] if mean > confidence * math.sqrt(var / k) else candidates[0]


def _digest(seed: int, view: Mapping[str, Any]) -> str:
    blob = msgspec.json.encode(view, order="sorted")
    return hashlib.blake2b(b"%d|%s" % (seed, blob), digest_size=12).hexdigest()


def _level_factory(level: str) -> Any:
    def factory(game: Game[Any], options: Mapping[str, Any], seat: int, seed: int) -> ISMCTSAgent:
        return ISMCTSAgent(seat, seed, level, search_hooks(game, options))

    return factory


make = _level_factory(DEFAULT_LEVEL)
make_easy = _level_factory("easy")
make_hard = _level_factory("hard")
make_expert = _level_factory("expert")
