"""The whole SF Rivals matchup: set-up choices, hidden covers, and the fight.

The real game is not one of perfect information: each player's *cover* (the set-up card
laid face down on their life gauge) stays hidden for the whole fight, so each player knows
the opponent's hand only up to which of the opponent's unseen cards is the cover. An exact
solution would need information sets over whole play histories (beliefs about the cover
depend on the order in which cards were played), far beyond what fits here. Instead this
module computes **sound bounds** and the strategies that achieve them:

* ``lower``: seat 0 commits to a set-up (cover, shown) and then plays the maximin strategy
  of the perfect-information fight against an **adaptive** seat 1 — one that holds all nine
  unseen cards and picks its cover only at the end (:mod:`.fight`). Every real seat-1
  strategy, whatever it knows, is a strategy of that adaptive player, and seat 0's strategy
  only uses what seat 0 sees (its own hand, seat 1's unseen cards, the table). So seat 0's
  strategy is guaranteed at least ``L(set-up 0, shown 1)`` whatever seat 1 does; the set-up
  stage is then the matrix game ``max_x min_shown1 x @ L``, solved exactly by LP.
* ``upper``: the same from seat 1's side, against an adaptive seat 0.

The true value of the matchup lies in ``[lower, upper]``; the strategy pair found is
certified to be at most ``(upper - lower) / 2`` exploitable (NashConv / 2, in win/draw/loss
units). Everything in the bounds is exact; what is approximate is only how close the bound
strategies are to an equilibrium of the hidden-cover game.

That is method ``adaptive``. The default, method ``tight`` (:mod:`.bounds`), tightens both
relaxations — a seat may keep its own cover secret among two card types, and the opponent
is committed to a cover of one class of its cards, unknown — and contains ``adaptive``, so
its bounds are never looser.
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from kumite.games.sfrivals.cards import Catalog, Character
from kumite.games.sfrivals.choice import SetUp
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.options import Options
from kumite.games.sfrivals.solver.bounds import BoundSolver, SecretSetup, SideBound, side_bound
from kumite.games.sfrivals.solver.fight import FightSolver, Position, setup_hand
from kumite.games.sfrivals.solver.known import (
    SHIPPED as SHIPPED,
)
from kumite.games.sfrivals.solver.known import (
    SOLVER_VERSION as SOLVER_VERSION,
)
from kumite.games.sfrivals.solver.known import (
    _with_characters,
    shipped_summary,
)
from kumite.games.sfrivals.solver.known import (
    all_known as all_known,
)
from kumite.games.sfrivals.solver.known import (
    cache_dir as cache_dir,
)
from kumite.games.sfrivals.solver.known import (
    cache_key as cache_key,
)
from kumite.games.sfrivals.solver.known import (
    cache_path as cache_path,
)
from kumite.games.sfrivals.solver.known import (
    data_digest as data_digest,
)
from kumite.games.sfrivals.solver.known import (
    is_known as is_known,
)
from kumite.games.sfrivals.solver.resident import MEMORY
from kumite.solve.matrix import solve_matrix

METHODS = ("tight", "adaptive")
"""``tight``: :mod:`.bounds` (secret covers, classes of the opponent's cover); ``adaptive``:
the committed-against-adaptive bounds below."""
Progress = Callable[[str], None]


def setup_cards(char: Character, choice: str) -> tuple[str, str]:
    """``setup:<cover>:<shown>`` -> (cover id, shown id)."""
    typed = SetUp.parse(choice)
    return typed.cover, typed.shown


@dataclasses.dataclass
class MatchupSolution:
    """Bounds, set-up strategies and the fight tables of one ordered pairing."""

    characters: tuple[str, str]
    options: Options
    lower: float
    """Seat 0's guaranteed value with its strategy (a lower bound on the game value)."""
    upper: float
    """What seat 1's strategy concedes at most (an upper bound on the game value)."""
    setup: tuple[dict[str, float], dict[str, float]]
    """Set-up strategy per seat: choice -> probability."""
    lower_matrix: np.ndarray[Any, np.dtype[np.float64]]
    """L[setup choice of seat 0, shown card of seat 1]."""
    upper_matrix: np.ndarray[Any, np.dtype[np.float64]]
    """U[shown card of seat 0, setup choice of seat 1]."""
    rows: tuple[tuple[str, ...], tuple[str, ...]]
    """Seat 0's set-up choices and shown cards (the rows of L and U)."""
    cols: tuple[tuple[str, ...], tuple[str, ...]]
    """Seat 1's shown cards and set-up choices (the columns of L and U)."""
    seconds: float
    states: int
    solver: FightSolver
    """The fight solver of the pairing (seat 0 first), filled on demand."""
    from_cache: bool = False
    method: str = "adaptive"
    plans: tuple[dict[str, float], dict[str, float]] | None = None
    """``tight``: each seat's mix over its (secret) set-ups, by :attr:`SecretSetup.name`;
    :attr:`setup` is then its marginal over the engine's set-up choices."""
    classes: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    """``tight``: per seat, the classes (bit masks of card types) of the opponent's cover."""
    swapped_from: tuple[str, str] | None = None
    """Derived from the solution of these characters, seats swapped (:func:`swapped`)."""
    _sides: list[BoundSolver | None] = dataclasses.field(default_factory=lambda: [None, None])
    _setup_values: list[dict[str, float] | None] = dataclasses.field(
        default_factory=lambda: [None, None]
    )
    digests: list[str | None] = dataclasses.field(
        default_factory=lambda: [None, None], init=False, repr=False, compare=False
    )
    """Each seat's set-up mix digest, once worked out (:mod:`.book`)."""
    lock: threading.RLock = dataclasses.field(
        default_factory=threading.RLock, init=False, repr=False, compare=False
    )
    """Held by whoever solves or looks up its positions (a table's move, the background
    preparation, :mod:`.resident` letting it go): its solvers are not thread-safe."""

    def resident_bytes(self) -> int:
        """What its solvers hold, about (:mod:`.resident`)."""
        total = self.solver.resident_bytes()
        for side in self._sides:
            if side is not None:
                total += side.resident_bytes(with_fight=side.fight is not self.solver)
        return total

    def release(self) -> None:
        """Drop every solved position (memos: solved again when asked)."""
        self.solver.release()
        for side in self._sides:
            if side is not None:
                side.release()
                side.fight.release()

    def setup_values(self, seat: int) -> dict[str, float]:
        """Each set-up choice of ``seat`` (a row of L, a column of U) and its value against
        the opponent's optimal mix of shown cards: one LP per seat, solved on first use."""
        found = self._setup_values[seat]
        if found is None:
            if seat == 0:
                values = self.lower_matrix @ solve_matrix(self.lower_matrix).col
                choices = self.rows[0]
            else:
                values = -(solve_matrix(self.upper_matrix).row @ self.upper_matrix)
                choices = self.cols[1]
            found = self._setup_values[seat] = {
                c: float(v) for c, v in zip(choices, values, strict=True)
            }
        return found

    def side(self, seat: int) -> BoundSolver:
        """``tight``: the bound solver of ``seat``'s strategy, in that seat's frame (for seat
        1 the mirrored pairing), empty at first and filled on demand."""
        found = self._sides[seat]
        if found is None:
            if seat == 0:
                fight = self.solver
            else:
                cat = self.solver.catalog
                b, a = self.solver.chars[1], self.solver.chars[0]
                fight = FightSolver(cat, self.options, (b, a))
            found = self._sides[seat] = BoundSolver(fight, self.classes[seat] or None)
        return found

    @property
    def value(self) -> float:
        """Midpoint of the bounds: the value to within :attr:`exploitability`."""
        return (self.lower + self.upper) / 2.0

    @property
    def exploitability(self) -> float:
        """Certified upper bound on the strategy pair's NashConv / 2."""
        return (self.upper - self.lower) / 2.0

    def summary(self) -> dict[str, Any]:
        return {
            "characters": list(self.characters),
            "options": GAME.options_to_json(self.options),
            "value": self.value,
            "lower": self.lower,
            "upper": self.upper,
            "exploitability": self.exploitability,
            "seconds": self.seconds,
            "states": self.states,
            "setup": [
                {k: v for k, v in sorted(s.items(), key=lambda kv: -kv[1]) if v > 1e-9}
                for s in self.setup
            ],
            "solver_version": SOLVER_VERSION,
            "method": self.method,
            "plans": None
            if self.plans is None
            else [
                {k: v for k, v in sorted(p.items(), key=lambda kv: -kv[1]) if v > 1e-9}
                for p in self.plans
            ],
            "from_cache": self.from_cache,
            "swapped_from": None if self.swapped_from is None else list(self.swapped_from),
        }


def solve_matchup(
    characters: tuple[str, str],
    options: Options | dict[str, Any] | None = None,
    *,
    cache: bool = True,
    progress: Progress | None = None,
    method: str = "tight",
) -> MatchupSolution:
    """Solve (or load from the cache) the matchup of ``characters`` under ``options`` by
    ``method`` (:data:`METHODS`)."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (known: {', '.join(METHODS)})")
    opts = _with_characters(options, characters)
    path = cache_path(characters, opts, method) if cache else None
    if cache:
        known = known_solution(characters, opts, method)
        if known is not None:
            return known
    if method == "tight":
        sol = _solve_tight(characters, opts, progress)
    else:
        sol = _solve(characters, opts, progress)
    if path is not None:
        _save(path, sol)
    return sol


def shared_solution(
    characters: tuple[str, str], options: Options | dict[str, Any] | None = None
) -> MatchupSolution:
    """:func:`solve_matchup` (method tight, cached), one object per process and matchup:
    the agents of many games share it and the positions it has solved since, within the
    process's solver memory (:mod:`.resident`: let go of when unused and over its cap)."""
    opts = _with_characters(options, characters)
    return MEMORY.get(
        ("matchup", cache_key(characters, opts)), lambda: solve_matchup(characters, opts)
    )


def known_shared_solution(
    characters: tuple[str, str], options: Options | dict[str, Any] | None = None
) -> MatchupSolution | None:
    """:func:`shared_solution` if the matchup is known (cached or shipped), else None:
    nothing is solved."""
    opts = _with_characters(options, characters)
    key = ("matchup", cache_key(characters, opts))
    found = MEMORY.peek(key)
    if found is None:
        found = known_solution(characters, opts)
        if found is None:
            return None
    made: MatchupSolution = found  # type: ignore[assignment]
    return MEMORY.get(key, lambda: made)


def known_solution(
    characters: tuple[str, str], opts: Options, method: str = "tight"
) -> MatchupSolution | None:
    """The matchup's solution from the cache or the shipped table, solving nothing: its own
    entry, else (method ``tight``) the seat-swapped matchup's, swapped (:func:`swapped`).
    None if neither is known; a damaged cache entry counts as unknown."""
    pairs = [characters]
    if method == "tight" and characters[0] != characters[1]:
        pairs.append((characters[1], characters[0]))
    for pair in pairs:
        pair_opts = opts if pair == characters else _with_characters(opts, pair)
        sol = _cached(pair, pair_opts, method)
        if sol is None:
            sol = shipped_solution(pair, pair_opts, method)
        if sol is not None:
            return sol if pair == characters else swapped(sol, opts)
    return None


def _cached(characters: tuple[str, str], opts: Options, method: str) -> MatchupSolution | None:
    path = cache_path(characters, opts, method).with_suffix(".json")
    if not path.exists():
        return None
    try:
        return _load(path, characters, opts)
    except (OSError, ValueError, KeyError, TypeError):
        return None  # a damaged cache entry is solved again


def swapped(sol: MatchupSolution, opts: Options | None = None) -> MatchupSolution:
    """Method ``tight``'s solution of the same matchup with the seats swapped, exactly what
    solving it computes: :func:`_solve_tight` bounds each seat in its own frame (seat 1 by
    the mirrored pairing), so the swapped matchup has the same two side bounds in the other
    order. Its lower bound is this one's upper, negated (and the other way round); its bound
    games are this one's, transposed and negated; the mixes, classes and labels change
    seats. ``opts``: the swapped matchup's options (default: these with the characters
    swapped)."""
    if sol.method != "tight":
        raise ValueError("only method tight's solutions swap seats exactly")
    a, b = sol.characters
    opts = opts if opts is not None else _with_characters(sol.options, (b, a))
    cat = GAME.catalog(opts)
    plans = None if sol.plans is None else (sol.plans[1], sol.plans[0])
    return MatchupSolution(
        characters=(b, a),
        options=opts,
        lower=-sol.upper,
        upper=-sol.lower,
        setup=(sol.setup[1], sol.setup[0]),
        # L'[set-up of b, class:shown of a] = b's guarantee = -U[class:shown of a, set-up of b]
        lower_matrix=np.ascontiguousarray(-sol.upper_matrix.T),
        upper_matrix=np.ascontiguousarray(-sol.lower_matrix.T),
        rows=(sol.cols[1], sol.cols[0]),
        cols=(sol.rows[1], sol.rows[0]),
        seconds=sol.seconds,
        states=sol.states,
        solver=FightSolver(cat, opts, (cat.characters[b], cat.characters[a])),
        from_cache=sol.from_cache,
        method="tight",
        plans=plans,
        classes=(sol.classes[1], sol.classes[0]),
        swapped_from=None if sol.swapped_from == (b, a) else (a, b),
    )


def shipped_solution(
    characters: tuple[str, str], opts: Options, method: str = "tight"
) -> MatchupSolution | None:
    """The shipped solution of the matchup, if this pack, rules and method are the ones
    shipped, else None."""
    summary = shipped_summary(characters, opts, method)
    return None if summary is None else from_summary(summary, characters, opts)


def _solve(
    characters: tuple[str, str], opts: Options, progress: Progress | None
) -> MatchupSolution:
    t0 = time.perf_counter()
    cat = GAME.catalog(opts)
    a, b = cat.characters[characters[0]], cat.characters[characters[1]]
    solver = FightSolver(cat, opts, (a, b))
    rows0 = a.setup_choices
    shown0 = tuple(c.id for c in a.cards)
    cols1 = b.setup_choices
    shown1 = tuple(c.id for c in b.cards)
    if progress:
        progress("lower bound: seat 0 committed, seat 1 adaptive")
    full = (cat.rules.life, cat.rules.life)
    low_pos = [
        Position((_hand(a, r), setup_hand(b, None, b.card(s))), full, adaptive=(False, True))
        for r in rows0
        for s in shown1
    ]
    lower_m = solver.values(low_pos).reshape(len(rows0), len(shown1))
    if progress:
        progress("upper bound: seat 0 adaptive, seat 1 committed")
    up_pos = [
        Position((setup_hand(a, None, a.card(s)), _hand(b, c)), full, adaptive=(True, False))
        for s in shown0
        for c in cols1
    ]
    upper_m = solver.values(up_pos).reshape(len(shown0), len(cols1))
    low = solve_matrix(lower_m)
    up = solve_matrix(upper_m)
    return MatchupSolution(
        characters=characters,
        options=opts,
        lower=low.value,
        upper=up.value,
        setup=(
            {r: float(p) for r, p in zip(rows0, low.row, strict=True)},
            {c: float(p) for c, p in zip(cols1, up.col, strict=True)},
        ),
        lower_matrix=lower_m,
        upper_matrix=upper_m,
        rows=(rows0, shown0),
        cols=(shown1, cols1),
        seconds=time.perf_counter() - t0,
        states=solver.states_solved,
        solver=solver,
    )


def _solve_tight(
    characters: tuple[str, str], opts: Options, progress: Progress | None
) -> MatchupSolution:
    """Method ``tight``: each seat's bound of :mod:`.bounds` (seat 1's from the mirrored
    pairing), the set-up LPs over secret set-ups."""
    t0 = time.perf_counter()
    cat = GAME.catalog(opts)
    a, b = cat.characters[characters[0]], cat.characters[characters[1]]
    sides: list[SideBound] = []
    states = 0
    for seat, pair in ((0, (a, b)), (1, (b, a))):
        if seat == 1 and a is b:  # a mirror match: seat 1's side is seat 0's
            sides.append(sides[0])
            break
        if progress:
            progress(f"seat {seat}'s bound: {pair[0].id} keeping its cover secret")
        side = side_bound(FightSolver(cat, opts, pair), progress=progress)
        states += side.solver.states_solved
        side.solver.levels.clear()  # agents re-solve what they meet: free the memory now
        sides.append(side)
    low, up = sides
    # seat 1's guarantee is seat 0's of the mirrored matchup: in seat 0's terms, negated
    upper_m = -up.matrix.T
    plans = tuple(
        {st.name: float(p) for st, p in zip(side.setups, side.mix, strict=True)} for side in sides
    )
    return MatchupSolution(
        characters=characters,
        options=opts,
        lower=low.value,
        upper=-up.value,
        setup=(_marginal(plans[0]), _marginal(plans[1])),
        lower_matrix=low.matrix,
        upper_matrix=upper_m,
        rows=(tuple(st.name for st in low.setups), tuple(_label(c) for c in up.cols)),
        cols=(tuple(_label(c) for c in low.cols), tuple(st.name for st in up.setups)),
        seconds=time.perf_counter() - t0,
        states=states,
        solver=FightSolver(cat, opts, (a, b)),
        method="tight",
        plans=(plans[0], plans[1]),
        classes=(
            tuple(int(c) for c in low.solver.classes),
            tuple(int(c) for c in up.solver.classes),
        ),
    )


def _label(col: tuple[int, str]) -> str:
    """``<class>:<shown card>``: a column of a tight bound's set-up game."""
    return f"{col[0]}:{col[1]}"


def _marginal(plan: dict[str, float]) -> dict[str, float]:
    """The engine's set-up choices of a mix of secret set-ups (the cover uniform over S)."""
    out: dict[str, float] = {}
    for name, p in plan.items():
        st = SecretSetup.parse(name)
        for cover in st.cover_from:
            key = SetUp(cover, st.shown).format()
            out[key] = out.get(key, 0.0) + p / len(st.cover_from)
    return out


def _hand(char: Character, choice: str) -> tuple[int, ...]:
    cover, shown = setup_cards(char, choice)
    return setup_hand(char, char.card(cover), char.card(shown))


def _save(path: Path, sol: MatchupSolution) -> None:
    """One small JSON file: the bounds, the set-up games and mixes. The fight tables are
    not kept: agents and hints solve the positions they meet on demand (exactly the values
    the matchup solve computed), so a load reads kilobytes, not tens of megabytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    summary = full_summary(sol)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(summary))
    os.replace(tmp, path.with_suffix(".json"))


def full_summary(sol: MatchupSolution) -> dict[str, Any]:
    """:meth:`MatchupSolution.summary` with everything :func:`from_summary` needs."""
    summary = sol.summary()
    summary["setup_full"] = [sol.setup[0], sol.setup[1]]
    summary["plans_full"] = None if sol.plans is None else [sol.plans[0], sol.plans[1]]
    summary["classes"] = [list(sol.classes[0]), list(sol.classes[1])]
    summary["rows"] = [list(sol.rows[0]), list(sol.rows[1])]
    summary["cols"] = [list(sol.cols[0]), list(sol.cols[1])]
    summary["lower_matrix"] = sol.lower_matrix.tolist()
    summary["upper_matrix"] = sol.upper_matrix.tolist()
    return summary


def _load(path: Path, characters: tuple[str, str], opts: Options) -> MatchupSolution:
    summary = json.loads(path.with_suffix(".json").read_text())
    if summary.get("solver_version") != SOLVER_VERSION:
        raise ValueError("stale cache entry")
    return from_summary(summary, characters, opts)


def from_summary(
    summary: dict[str, Any], characters: tuple[str, str], opts: Options
) -> MatchupSolution:
    """A solution from its saved summary (the cache's or a shipped one), fight tables
    empty (filled on demand)."""
    cat: Catalog = GAME.catalog(opts)
    a, b = cat.characters[characters[0]], cat.characters[characters[1]]
    plans = summary.get("plans_full")
    classes = summary.get("classes") or [[], []]
    return MatchupSolution(
        characters=characters,
        options=opts,
        lower=float(summary["lower"]),
        upper=float(summary["upper"]),
        setup=(dict(summary["setup_full"][0]), dict(summary["setup_full"][1])),
        lower_matrix=np.array(summary["lower_matrix"], dtype=np.float64),
        upper_matrix=np.array(summary["upper_matrix"], dtype=np.float64),
        rows=(tuple(summary["rows"][0]), tuple(summary["rows"][1])),
        cols=(tuple(summary["cols"][0]), tuple(summary["cols"][1])),
        seconds=float(summary["seconds"]),
        states=int(summary["states"]),
        solver=FightSolver(cat, opts, (a, b)),
        from_cache=True,
        method=str(summary.get("method", "adaptive")),
        plans=None if plans is None else (dict(plans[0]), dict(plans[1])),
        classes=(tuple(classes[0]), tuple(classes[1])),
    )
