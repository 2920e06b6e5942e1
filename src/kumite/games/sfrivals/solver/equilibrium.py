"""SF Rivals agents that play the solver's strategies, named for what they are.

* ``bounded``: the bound strategy of the matchup (:mod:`kumite.games.sfrivals.solver`, method
  tight) — certified to give up at most its matchup's exploitability (``kumite solve``
  prints it; :func:`info` gives it to listings and the lobby). On the full game that is far
  from 0, so it is not called an equilibrium.
* ``equilibrium``: offered only where a strategy is *certified* within
  :data:`EQUILIBRIUM_AT_MOST` of an equilibrium — a matchup whose tight bounds meet that
  closely, or a small variant solved exactly (the mini pack: the sequence-form LP's
  equilibrium, certified by exact best responses). Elsewhere making it fails with one line
  that names the certified figure and the agents to play instead.

Both decide from their own view only, and load only the matchup's small summary (a cached or
shipped solution); the fight positions they meet are solved on demand and shared by every
game of the process. A character pick, which the solver does not cover, is a seeded random
choice.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Mapping, Sequence
from typing import Any

from kumite.core.errors import KumiteError
from kumite.core.game import Decision, Game
from kumite.games.sfrivals.choice import CODEC, Play
from kumite.games.sfrivals.solver import background
from kumite.games.sfrivals.solver import warm as warm  # registers the kernels' loader
from kumite.games.sfrivals.solver.book import side_book
from kumite.games.sfrivals.solver.offer import BOUNDED_VERSION as BOUNDED_VERSION
from kumite.games.sfrivals.solver.offer import EQUILIBRIUM_AT_MOST as EQUILIBRIUM_AT_MOST
from kumite.games.sfrivals.solver.offer import EXACT_VERSION as EXACT_VERSION
from kumite.games.sfrivals.solver.offer import _small_variant
from kumite.games.sfrivals.solver.setup import (
    MatchupSolution,
    known_shared_solution,
    shared_solution,
)
from kumite.games.sfrivals.solver.strategy import advice
from kumite.games.sfrivals.solver.tight import play_distribution


class NoCertifiedEquilibriumError(KumiteError, ValueError):
    """The matchup has no strategy certified close enough to an equilibrium."""


def _matchup(options: Mapping[str, Any], view: Mapping[str, Any] | None) -> tuple[str, str] | None:
    chars = options.get("characters")
    if view is not None:
        chars = [p["character"] for p in view["players"]]
    if not chars or None in chars:
        return None
    return (str(chars[0]), str(chars[1]))


def _public(options: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in options.items() if k != "characters"}


class BoundedAgent:
    """Plays the matchup's bound strategy (method tight), sampled from its advice: its
    set-up mix, then its behaviour strategy from the view (:mod:`.tight`), read from the
    side's shipped book where there is one (:mod:`.book`), else solved on demand."""

    name = "bounded"
    version = BOUNDED_VERSION
    prepare_in_background = False
    """At the web table (the bot pool sets it): never solve on a move (:mod:`.background`);
    until what a move needs is solved, ``greedy`` plays it."""

    def __init__(self, options: Mapping[str, Any], seat: int, seed: int) -> None:
        self.options = _public(options)
        self.seat = seat
        self.seed = seed
        self.rng = random.Random(seed)
        self._fallback: Any = None

    def solution(self, view: Mapping[str, Any]) -> MatchupSolution:
        chars = _matchup(self.options, view)
        assert chars is not None, "the characters are chosen before the solver is asked"
        if self.prepare_in_background:
            found = known_shared_solution(chars, self.options)
            if found is None:  # never solved at a table (not offered there: registry)
                raise background.NotPrepared(f"{chars[0]} vs {chars[1]} is not solved")
            return found
        return shared_solution(chars, self.options)

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        if decision.kind == "character":
            return self.rng.choice(decision.legal)
        if not self.prepare_in_background:
            return self.play(view, decision)
        background.prepare_kernels()  # loaded in the background before a round needs them
        try:
            with background.table_move():
                probs = self.distribution(view, decision)
        except background.NotPrepared:
            background.PREPARER.submit(self._job_key(view), lambda: self._prepare(view, decision))
            background.fell_back(self.name)
            return self.fallback(view, decision)
        return self._draw(decision.legal, probs)

    def distribution(self, view: Mapping[str, Any], decision: Decision) -> list[float]:
        """The strategy's probability of each of ``decision.legal``."""
        sol = self.solution(view)
        if decision.kind == "setup":  # the mix alone (its values, an LP, are for hints)
            mix = sol.setup[self.seat]
            return [float(mix.get(c, 0.0)) for c in decision.legal]
        if sol.method != "tight" or sol.plans is None:
            with background.holding(sol.lock):
                return [max(a.probability, 0.0) for a in advice(view, sol)]
        book = side_book(sol, self.seat)
        side: Any = book if book is not None else sol.side(self.seat)
        with background.holding(side.lock if book is not None else sol.lock):
            probs = play_distribution(view, side, sol.plans[self.seat])
        char = sol.solver.chars[self.seat]
        cards = [CODEC.parse_as(c, Play).card for c in decision.legal]
        return [float(probs.get(char.card(card).index, 0.0)) for card in cards]

    def play(self, view: Mapping[str, Any], decision: Decision) -> str:
        """A choice drawn from :meth:`distribution` (solving on demand)."""
        return self._draw(decision.legal, self.distribution(view, decision))

    def probabilities(self, view: Mapping[str, Any], decision: Decision) -> dict[str, float]:
        """What :meth:`choose` plays (solving on demand), as probabilities: for exact
        exploitability (kumite.envs.exploit)."""
        if decision.kind == "character":
            return {c: 1.0 / len(decision.legal) for c in decision.legal}
        weights = [max(w, 0.0) for w in self.distribution(view, decision)]
        total = sum(weights)
        if total <= 0:  # as _draw: uniform
            return {c: 1.0 / len(decision.legal) for c in decision.legal}
        return {c: w / total for c, w in zip(decision.legal, weights, strict=True) if w > 0}

    def _draw(self, legal: Sequence[str], weights: list[float]) -> str:
        weights = [max(w, 0.0) for w in weights]
        if sum(weights) <= 0:
            return self.rng.choice(legal)
        return self.rng.choices(legal, weights=weights)[0]

    def _job_key(self, view: Mapping[str, Any]) -> tuple[Any, ...]:
        """This bot's preparation (its latest position replaces one still queued)."""
        return ("bounded", id(self))

    def _prepare(self, view: Mapping[str, Any], decision: Decision) -> None:
        """In the background: solve what this decision needs (its result is not played)."""
        self.distribution(view, decision)

    def fallback(self, view: Mapping[str, Any], decision: Decision) -> str:
        """``greedy``'s move (the declared fallback at the web table)."""
        if self._fallback is None:
            from kumite.games.sfrivals.bots.greedy import make as make_greedy
            from kumite.games.sfrivals.game import GAME

            self._fallback = make_greedy(GAME, self.options, self.seat, self.seed)
        choice: str = self._fallback.choose(view, decision)
        return choice


class ExactEquilibriumAgent:
    """Plays the exact equilibrium of a small variant's whole hidden-cover game."""

    name = "equilibrium"

    def __init__(self, characters: tuple[str, str], options: Mapping[str, Any], seed: int) -> None:
        self.characters = characters
        self.options = _public(options)
        self.rng = random.Random(seed)

    version = EXACT_VERSION
    prepare_in_background = False

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        if decision.kind == "character":
            return self.rng.choice(decision.legal)
        from kumite.games.sfrivals.solver.hidden import infoset_key

        key = (self.characters, _frozen(self.options))
        policy = _EXACT_POLICIES.get(key)
        if policy is None:
            if self.prepare_in_background:  # the whole game's LP: minutes, never on a move
                background.PREPARER.submit(("exact", key), lambda: _exact_policy(*key))
                return self.rng.choice(decision.legal)
            policy = _exact_policy(*key)
        probs = policy[infoset_key(view)]
        return self.rng.choices(list(probs), weights=list(probs.values()))[0]


class CertifiedBoundedAgent(BoundedAgent):
    """``bounded`` under the name ``equilibrium``, where its certificate allows it."""

    name = "equilibrium"


def _frozen(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, v) for k, v in options.items()))


@functools.lru_cache(maxsize=4)
def _exact(characters: tuple[str, str], options: tuple[tuple[str, Any], ...]) -> Any:
    from kumite.games.sfrivals.solver.hidden import solve_exact

    return solve_exact(characters, dict(options))


_EXACT_POLICIES: dict[Any, dict[str, dict[str, float]]] = {}


def _exact_policy(
    characters: tuple[str, str], options: tuple[tuple[str, Any], ...]
) -> dict[str, dict[str, float]]:
    """The LP equilibrium as {information set key: {choice: probability}} (kept: a small
    variant's, a few per process)."""
    key = (characters, options)
    found = _EXACT_POLICIES.get(key)
    if found is None:
        ex = _exact(characters, options)
        found = _EXACT_POLICIES[key] = ex.tree.strategy_dict(ex.sigma)
        while len(_EXACT_POLICIES) > 4:
            _EXACT_POLICIES.pop(next(iter(_EXACT_POLICIES)))
    return found


@dataclasses.dataclass(frozen=True)
class Certified:
    """What the solver certifies about an agent's strategy in one matchup."""

    exploitability: float | None
    """NashConv / 2 at most this (None: the matchup is not solved yet)."""
    source: str
    """``bounds`` (method tight) or ``exact`` (a small variant's LP equilibrium)."""


def certified(characters: tuple[str, str], options: Mapping[str, Any]) -> Certified:
    """The certified exploitability of the solver's strategy in a matchup, from a solution
    the cache or kumite already holds (nothing is solved here: None if none)."""
    from kumite.games.sfrivals.solver.offer import certified_exploitability

    return Certified(certified_exploitability(characters, options), "bounds")


def make_bounded(game: Game[Any], options: Mapping[str, Any], seat: int, seed: int) -> BoundedAgent:
    return BoundedAgent(options, seat, seed)


def make(game: Game[Any], options: Mapping[str, Any], seat: int, seed: int) -> Any:
    """``equilibrium``: only where certified (see the module docstring)."""
    chars = _matchup(options, None)
    if chars is None:
        raise NoCertifiedEquilibriumError(
            "equilibrium needs the matchup fixed (--characters X,Y): its certificate is "
            "per matchup; play 'bounded' or 'belief' otherwise"
        )
    cert = certified(chars, options)
    if cert.exploitability is not None and cert.exploitability <= EQUILIBRIUM_AT_MOST:
        return CertifiedBoundedAgent(options, seat, seed)
    if _small_variant(chars, options):
        return ExactEquilibriumAgent(chars, options, seed)
    figure = "not solved yet" if cert.exploitability is None else f"{cert.exploitability:.3f}"
    raise NoCertifiedEquilibriumError(
        f"no certified equilibrium for {chars[0]} vs {chars[1]}: the solver's strategy is "
        f"certified exploitable by at most {figure} (an equilibrium must be within "
        f"{EQUILIBRIUM_AT_MOST}); play 'bounded' (that strategy) or 'belief'"
    )


def info(options: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`.offer.bounded_info` (listings and the lobby)."""
    from kumite.games.sfrivals.solver.offer import bounded_info

    return bounded_info(options)
