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
from collections.abc import Mapping
from typing import Any

from kumite.core.errors import KumiteError
from kumite.core.game import Decision, Game
from kumite.games.sfrivals.solver.setup import MatchupSolution, shared_solution
from kumite.games.sfrivals.solver.strategy import advice

EQUILIBRIUM_AT_MOST = 0.05
"""The certified exploitability (NashConv / 2, win +1 / loss -1) below which a strategy may
be called an equilibrium."""


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
    """Plays the matchup's bound strategy (method tight), sampled from its advice."""

    name = "bounded"

    def __init__(self, options: Mapping[str, Any], seat: int, seed: int) -> None:
        self.options = _public(options)
        self.seat = seat
        self.rng = random.Random(seed)
        self._solution: MatchupSolution | None = None

    def solution(self, view: Mapping[str, Any]) -> MatchupSolution:
        chars = _matchup(self.options, view)
        assert chars is not None, "the characters are chosen before the solver is asked"
        if self._solution is None or self._solution.characters != chars:
            self._solution = shared_solution(chars, self.options)
        return self._solution

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        if decision.kind == "character":
            return self.rng.choice(decision.legal)
        options = advice(view, self.solution(view))
        weights = [max(a.probability, 0.0) for a in options]
        if sum(weights) <= 0:
            return self.rng.choice(decision.legal)
        return self.rng.choices([a.choice for a in options], weights=weights)[0]


class ExactEquilibriumAgent:
    """Plays the exact equilibrium of a small variant's whole hidden-cover game."""

    name = "equilibrium"

    def __init__(self, characters: tuple[str, str], options: Mapping[str, Any], seed: int) -> None:
        self.characters = characters
        self.options = _public(options)
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        if decision.kind == "character":
            return self.rng.choice(decision.legal)
        from kumite.games.sfrivals.solver.hidden import infoset_key

        policy = _exact_policy(self.characters, _frozen(self.options))
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


@functools.lru_cache(maxsize=4)
def _exact_policy(
    characters: tuple[str, str], options: tuple[tuple[str, Any], ...]
) -> dict[str, dict[str, float]]:
    """The LP equilibrium as {information set key: {choice: probability}}."""
    ex = _exact(characters, options)
    return ex.tree.strategy_dict(ex.sigma)  # type: ignore[no-any-return]


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
    from kumite.games.sfrivals.game import GAME
    from kumite.games.sfrivals.solver.setup import known_solution

    opts = GAME.parse_options({**_public(options), "characters": list(characters)})
    sol = known_solution(characters, opts)
    return Certified(None if sol is None else sol.exploitability, "bounds")


def _small_variant(characters: tuple[str, str], options: Mapping[str, Any]) -> bool:
    """The matchup's whole hidden-cover game is small enough to solve exactly (counted only
    for characters of few kinds of card: the full ones are far beyond)."""
    from kumite.games.sfrivals.game import GAME
    from kumite.games.sfrivals.solver.hidden import histories

    try:
        opts = GAME.parse_options({**_public(options), "characters": list(characters)})
        cat = GAME.catalog(opts)
        if max(len(cat.characters[c].cards) for c in characters) > 4:
            return False
        return histories(characters, _public(options), stop_above=500_000) <= 500_000
    except (ValueError, KeyError):  # pragma: no cover - unknown characters fail earlier
        return False


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
    """For listings and the lobby: the certified figure of ``bounded``/``equilibrium`` in
    the matchup ``options`` fix (None when the characters are not fixed or not solved)."""
    chars = _matchup(options, None)
    if chars is None:
        return {"certified_exploitability": None, "matchup": None}
    cert = certified(chars, options)
    return {
        "certified_exploitability": cert.exploitability,
        "matchup": list(chars),
        "equilibrium_available": (
            cert.exploitability is not None and cert.exploitability <= EQUILIBRIUM_AT_MOST
        )
        or _small_variant(chars, options),
    }
