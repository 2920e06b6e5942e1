"""``kumite balance``: from balance targets to the smallest change of card values.

The designer states **targets** (every pairing of entities within ``[a, b]``; every entity's
95% interval containing ½; a drawn chart of target shares; for games of more players every
entity's win rate × players within ``[a, b]``), the **judges** (agents; a change must meet
the targets under each), the **knobs** (which integer values of the pack may move, within
which range and by which step; frozen cards) and a **budget** of fights. The search:

* measures a candidate pack cell by cell (a cell: an unordered pairing of entities, seats
  alternating; or, with more players, a player count played on the balanced design) on
  **common random numbers** — fight ``n`` of a cell has the same seed for every candidate —
  so candidates are compared on the same deals, and a cell whose entities no changed value
  touches is not played again (its fights would be the same);
* samples **sequentially**: a candidate gets ``batch`` fights per cell at a time, more where
  a cell's interval straddles a target bound, and is dropped as soon as its optimistic loss
  (each cell at the end of its interval nearest the target) is worse than the incumbent's;
* proposes candidates with **CMA-ES** (the ``cma`` package, integer variables, box bounds)
  over few knobs at a time: the knobs of the entity furthest from its target, stage by stage,
  so that the fewest values move, each stage starting from the best pack so far;
* the first judge searches; every other judge measures each stage's winner, and between
  those measurements its cells are predicted by the first judge's change since (a change is
  assumed to move both judges alike; the next measurement corrects it);
* then **prunes**: every changed value is put back in turn if the pack stays as good;
* re-checks the winner on **fresh seeds** at ``fights`` per cell under every judge.

The loss is the squared distance of each cell (and each entity's score) to its target band,
narrowed by ``margin`` so that a re-check on fresh seeds lands inside, plus a small price per
changed value and per step moved. Everything is decided from results in a fixed order, never
from which worker finished first, so a run is reproducible from its seed whatever ``jobs``.
"""

from __future__ import annotations

import copy
import dataclasses
import fnmatch
import itertools
import math
import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kumite.cards.pack import KEYED_LISTS, PackData, merge, parse_toml
from kumite.core.errors import OptionsError
from kumite.core.registry import get_game
from kumite.core.rng import derive_seed
from kumite.sim.adapters import adapter_for
from kumite.sim.backends import TaskPool
from kumite.sim.engine import Chunk, SimSpec, Tally
from kumite.sim.stats import Z95, proportion

OWNER_FIELDS = ("fighter", "character", "owner", "hero")
"""Fields of a card that name the entity it belongs to (its values then touch only that
entity's cells); a card without one is shared and touches every cell."""


@dataclasses.dataclass(frozen=True)
class Knob:
    """One integer value of the pack the search may move."""

    table: str
    """The pack's keyed list (``cards``, ``fighters``, ``heroes`` …)."""
    id: str
    field: str
    base: int
    low: int
    high: int
    step: int = 1
    owner: str | None = None
    """The entity it belongs to (``None``: shared by every entity)."""

    @property
    def key(self) -> str:
        return f"{self.id}.{self.field}"


def pack_of(game_id: str, start: str | None = None) -> PackData:
    """The shipped pack of a game whose cards come from packs, with the overlay ``start``
    (TOML text) merged over it if given."""
    game = get_game(game_id)
    packs = getattr(game, "packs", None)
    if packs is None:
        raise OptionsError(f"{game.info.name} has no card pack to balance")
    base: PackData = packs.base()
    if start is None:
        return base
    packs.load(start, "start")  # a bad overlay: one line naming the card and field
    return merge(base, parse_toml(start, "start"), packs.valued, packs.schemas)


def _value(raw: Any) -> Any:
    return raw["value"] if isinstance(raw, dict) and "value" in raw else raw


def knobs_of(
    pack: PackData,
    vary: Sequence[str],
    entities: Sequence[str],
    *,
    ranges: Mapping[str, tuple[int, int]] | None = None,
    max_change: int | None = None,
    steps: Mapping[str, int] | None = None,
    freeze: Sequence[str] = (),
) -> list[Knob]:
    """The knobs ``vary`` names: each ``ID-GLOB:FIELD[,FIELD…]`` takes the listed integer
    fields of every entry (card, fighter, hero …) whose id matches the glob. ``ranges``
    bound a field (absolute values), ``max_change`` bounds a move (in steps), ``steps`` give
    a field's step (default 1), ``freeze`` are id globs never moved."""
    ranges, steps = dict(ranges or {}), dict(steps or {})
    entity_set = set(entities)
    out: dict[str, Knob] = {}
    for item in vary:
        pattern, sep, fields = item.partition(":")
        if not sep or not pattern or not fields:
            raise OptionsError(f"bad --vary {item!r}: use ID-GLOB:FIELD[,FIELD...]")
        names = [f.strip() for f in fields.split(",") if f.strip()]
        matched = False
        for table in KEYED_LISTS:
            for entry in pack.data.get(table, []):
                ident = str(entry["id"])
                if not fnmatch.fnmatchcase(ident, pattern):
                    continue
                if any(fnmatch.fnmatchcase(ident, f) for f in freeze):
                    continue
                owner = ident if ident in entity_set else None
                for f in OWNER_FIELDS:
                    if owner is None and _value(entry.get(f)) in entity_set:
                        owner = str(_value(entry[f]))
                for name in names:
                    value = _value(entry.get(name))
                    if not isinstance(value, int) or isinstance(value, bool):
                        continue
                    matched = True
                    step = steps.get(name, 1)
                    low, high = ranges.get(name, (-(10**9), 10**9))
                    if max_change is not None:
                        low = max(low, value - max_change * step)
                        high = min(high, value + max_change * step)
                    low, high = min(low, value), max(high, value)
                    knob = Knob(table, ident, name, value, low, high, step, owner)
                    if knob.low < knob.high:
                        out[knob.key] = knob
        if not matched:
            raise OptionsError(f"--vary {item!r} names no integer value of the pack")
    return list(out.values())


# -- targets and the loss -----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Targets:
    pairing: tuple[float, float] | None = None
    """Every pairing's share (row entity's score) within these bounds."""
    half: bool = False
    """Every entity's 95% interval of its score contains ½."""
    chart: Mapping[str, float] | None = None
    """``"a|b" -> share``: a drawn chart, each pairing within ``chart_tolerance``."""
    chart_tolerance: float = 0.05
    share: tuple[float, float] | None = None
    """More players: each entity's win rate × players within these bounds."""
    margin: float = 0.03
    """The search aims this far inside each bound (a re-check on fresh seeds varies)."""
    half_tolerance: float = 0.015
    """The search aims each entity's score within this of ½."""

    def describe(self) -> list[str]:
        out = []
        if self.pairing:
            out.append(f"every pairing within [{self.pairing[0]:.2f}, {self.pairing[1]:.2f}]")
        if self.half:
            out.append("every entity's 95% interval contains 0.5")
        if self.chart:
            out.append(f"every pairing within {self.chart_tolerance:.2f} of the chart")
        if self.share:
            out.append(
                f"every entity's win rate x players within [{self.share[0]}, {self.share[1]}]"
            )
        return out


def parse_chart(text: str) -> dict[str, float]:
    """A drawn chart: lines ``a b share`` or ``a,b,share`` (the share of a against b; the
    reverse pairing is 1 - share)."""
    out: dict[str, float] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = [p for p in re.split(r"[,\s]+", line) if p]
        if len(parts) != 3:
            raise OptionsError(f"chart line {number}: need 'a b share', got {line!r}")
        try:
            share = float(parts[2])
        except ValueError:
            raise OptionsError(f"chart line {number}: {parts[2]!r} is not a share") from None
        if not 0 <= share <= 1:
            raise OptionsError(f"chart line {number}: a share lies in [0, 1]")
        out[f"{parts[0]}|{parts[1]}"] = share
        out[f"{parts[1]}|{parts[0]}"] = 1 - share
    return out


def _band(lo: float, hi: float, margin: float) -> tuple[float, float]:
    centre = (lo + hi) / 2
    half = max(0.0, (hi - lo) / 2 - margin)
    return centre - half, centre + half


def _excess(x: float, band: tuple[float, float]) -> float:
    return max(0.0, band[0] - x, x - band[1])


def _toward(low: float, high: float, band: tuple[float, float]) -> float:
    """The point of ``[low, high]`` nearest the band (the optimistic estimate)."""
    if high < band[0]:
        return high
    if low > band[1]:
        return low
    return max(low, min(high, band[0] if low < band[0] <= high else low))


# -- cells and their measurements ----------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Cell:
    """What one stream of fights measures: a pairing ``(a, b)`` (``tables`` alternate the
    seats) or, with more players, the balanced design at ``players`` seats."""

    key: str
    entities: tuple[str, ...]
    players: int
    tables: tuple[tuple[str, ...], ...] | None


@dataclasses.dataclass
class Score:
    """A cell's results: per entity ``[score, games]`` (a win 1, a draw ½) and the pair
    score for a pairing."""

    tally: Tally = dataclasses.field(default_factory=Tally)
    fights: int = 0

    def add(self, chunk: Chunk) -> None:
        self.tally.merge(chunk.tally)
        self.fights += chunk.stop - chunk.start

    def entity(self, name: str) -> tuple[float, int]:
        c = self.tally.counts("entities").get(name)
        if c is None:
            return 0.0, 0
        return c[1] + c[2] / 2, c[0]

    def pair(self, a: str, b: str) -> tuple[float, int]:
        """``a``'s score against ``b`` over the fights of this pairing."""
        c = self.tally.counts("entity_pairs").get((a, b))
        if c is None:
            return 0.0, 0
        return c[1] + c[2] / 2, c[0]


@dataclasses.dataclass(frozen=True)
class BalanceSpec:
    game: str
    judges: tuple[str, ...]
    knobs: tuple[Knob, ...]
    targets: Targets
    seed: int
    budget: int
    """Fights the search may play (the final re-check is extra)."""
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    players: tuple[int, ...] = (2,)
    entities: tuple[str, ...] = ()
    """The entities balanced (default: every one)."""
    start: str | None = None
    """An overlay (TOML text) the search starts from; the result includes it."""
    fights: int = 200
    """Fights per cell of the final re-check on fresh seeds."""
    judge_check: int | None = None
    """Fights per cell of the re-check under the other judges (default: ``fights``)."""
    batch: int = 20
    """Fights per cell at each sampling step."""
    max_fights: int = 80
    """Most fights per cell for one candidate during the search."""
    judge_batch: int = 40
    """Fights per cell when another judge measures a stage's winner."""
    stages: int = 6
    """Entities worked on, one after the other (furthest from its target first)."""
    screen: int = 2
    """Single moves tried per value: up to this many steps each way."""
    combine: int = 4
    """Values combined by CMA-ES after the single moves (those that helped most)."""
    generations: int = 6
    pack_id: str = "balanced"
    change_price: float = 4e-4
    """Loss added per changed value (the search prefers fewer changes)."""
    step_price: float = 1e-4
    """Loss added per step moved."""

    @property
    def check_fights(self) -> int:
        return self.fights if self.judge_check is None else self.judge_check

    def __post_init__(self) -> None:
        if not self.judges:
            raise OptionsError("give at least one judge (--judge)")
        if not self.knobs:
            raise OptionsError("no value may move: give --vary")
        if self.budget < 1:
            raise OptionsError("--budget must be at least 1")


Values = tuple[int, ...]


@dataclasses.dataclass
class Candidate:
    values: Values
    loss: float = math.inf
    optimistic: float = math.inf
    estimates: dict[str, Any] = dataclasses.field(default_factory=dict)


Progress = Callable[[int, str], None]
"""``progress(fights_just_played, what)``."""


class Balancer:
    """One balance run (:func:`balance` drives it)."""

    def __init__(
        self,
        spec: BalanceSpec,
        pool: TaskPool,
        progress: Progress | None = None,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.spec = spec
        self.pool = pool
        self.progress = progress
        self.log = log or (lambda _m: None)
        self.game = get_game(spec.game)
        self.adapter = adapter_for(spec.game)
        self.pack = pack_of(spec.game, spec.start)
        self._start = None if spec.start is None else parse_toml(spec.start, "start").data
        self.entities = list(spec.entities) or self.adapter.entity_ids(self.game, spec.options)
        self.cells = self._cells()
        self.knobs = list(spec.knobs)
        self.base: Values = tuple(k.base for k in self.knobs)
        self.fights_played = 0
        self._scores: dict[tuple[str, str, str, Values], Score] = {}
        self.history: list[dict[str, Any]] = []
        self._overlays: dict[Values, str] = {}
        self._measured: dict[str, list[Values]] = {}
        self.failed: dict[tuple[str, str, str, Values], str] = {}
        """Cells whose fights raised under a candidate (its loss is then infinite)."""
        self.on_found: Callable[[str | None], None] | None = None
        """Called with the overlay as soon as the search has it (before the re-check)."""
        try:
            self.game.parse_options({**spec.options, "players": max(spec.players)})
            self._has_players = True
        except Exception:
            self._has_players = False

    # -- cells --

    def _cells(self) -> list[Cell]:
        spec = self.spec
        out = []
        pairings = not spec.targets.share
        for players in spec.players:
            if pairings and players == 2:
                for a, b in itertools.combinations(self.entities, 2):
                    out.append(Cell(f"{a}|{b}", (a, b), 2, ((a, b), (b, a))))
            else:
                out.append(Cell(f"{players} players", tuple(self.entities), players, None))
        if not out:
            raise OptionsError("nothing to balance: fewer than two entities")
        return out

    def _relevant(self, cell: Cell, values: Values) -> Values:
        """The values that can change ``cell``'s fights: its entities' and shared ones."""
        ents = set(cell.entities)
        return tuple(
            v if (k.owner is None or k.owner in ents) else k.base
            for k, v in zip(self.knobs, values, strict=True)
        )

    # -- packs --

    def overlay(self, values: Values, *, note: str = "kumite balance") -> str | None:
        """The overlay pack of ``values`` (``None``: the shipped pack)."""
        changed = [(k, v) for k, v in zip(self.knobs, values, strict=True) if v != k.base]
        if not changed:
            return self.spec.start
        found = self._overlays.get(values)
        if found is None:
            found = self._overlays[values] = overlay_text(
                self.pack, changed, self.spec.pack_id, note=note, start=self._start
            )
        return found

    def _sim(self, cell: Cell, judge: str, values: Values, stream: str) -> SimSpec:
        options = dict(self.spec.options)
        text = self.overlay(values)
        if text is not None:
            options["pack"] = text
        seed = derive_seed(self.spec.seed, stream, judge, cell.key)
        by_players: tuple[tuple[int, Mapping[str, Any]], ...] = ()
        if self._has_players:
            options = {**options, "players": cell.players}
        return SimSpec(
            game=self.spec.game,
            lineups=((judge,) * cell.players,),
            games=0,
            seed=seed,
            options=options,
            options_by_players=by_players,
            design="balanced",
            rotate=False,
            stream=stream,
            tables=cell.tables,
            mirrors=False,
        )

    # -- measuring --

    def score(self, cell: Cell, judge: str, values: Values, stream: str = "search") -> Score:
        key = (stream, judge, cell.key, self._relevant(cell, values))
        found = self._scores.get(key)
        if found is None:
            found = self._scores[key] = Score()
        return found

    def measure(self, wants: Sequence[tuple[Cell, str, Values, int, str]]) -> None:
        """Play until each ``(cell, judge, values, fights, stream)`` has ``fights`` fights
        (in whole ``batch``es), all requests at once on the pool."""
        tasks = []
        seen: set[tuple[str, str, str, Values]] = set()
        for cell, judge, values, fights, stream in wants:
            rel = self._relevant(cell, values)
            key = (stream, judge, cell.key, rel)
            if key in seen:
                continue
            seen.add(key)
            have = self.score(cell, judge, values, stream).fights
            spec = self._sim(cell, judge, rel, stream)
            size = max(2, min(self.spec.batch, 10))
            for start in range(have, fights, size):
                tasks.append((key, spec, start, min(fights, start + size)))
        if not tasks:
            return
        report = self.progress
        results = self.pool.run(
            [(spec, a, b) for _k, spec, a, b in tasks],
            None if report is None else (lambda n: report(n, "fights")),
            errors=True,
        )
        for (key, spec, a, b), chunk in zip(tasks, results, strict=True):
            if isinstance(chunk, BaseException):
                if key not in self.failed:
                    self.failed[key] = (
                        f"{type(chunk).__name__}: {chunk} (fights {a}..{b - 1} of seed "
                        f"{spec.seed}, stream {spec.stream})"
                    )
                    changes = ", ".join(
                        f"{k.key} {v}"
                        for k, v in zip(self.knobs, key[3], strict=True)
                        if v != k.base
                    )
                    self.log(
                        f"a candidate's fights fail, it is dropped [{changes}]: " + self.failed[key]
                    )
                continue
            self._scores[key].add(chunk)
            self.fights_played += chunk.stop - chunk.start

    # -- estimates --

    def estimates(self, values: Values, judge: str, stream: str = "search") -> dict[str, Any]:
        """Per cell and per entity: score, fights and 95% interval under ``judge``."""
        cells: dict[str, Any] = {}
        totals: dict[str, list[float]] = {e: [0.0, 0] for e in self.entities}
        shares: dict[str, Any] = {}
        for cell in self.cells:
            sc = self.score(cell, judge, values, stream)
            if cell.tables is not None:
                a, b = cell.entities
                # a pairing's score: a's results over its fights (a draw half a win)
                s, n = sc.entity(a)
                cells[cell.key] = _interval(s, n)
                totals[a][0] += s
                totals[a][1] += n
                totals[b][0] += n - s
                totals[b][1] += n
            else:
                counts = sc.tally.counts("entity_players")
                for e in self.entities:
                    c = counts.get((e, cell.players), [0, 0, 0])
                    n = c[0]
                    p = proportion(c[1], n)
                    shares[f"{e}@{cell.players}"] = {
                        "share": (p.rate * cell.players) if n else math.nan,
                        "low": p.low * cell.players,
                        "high": p.high * cell.players,
                        "n": n,
                    }
        entities = {e: _interval(s, int(n)) for e, (s, n) in totals.items() if n}
        return {"cells": cells, "entities": entities, "shares": shares}

    def _loss_of(self, est: Mapping[str, Any], optimistic: bool) -> tuple[float, bool]:
        """The loss of one judge's estimates, and whether they meet the targets."""
        t = self.spec.targets
        loss = 0.0
        meets = True

        def term(r: Mapping[str, float], band: tuple[float, float], key: str = "score") -> float:
            x = _toward(r["low"], r["high"], band) if optimistic else r[key]
            return _excess(x, band) ** 2

        for key, r in est["cells"].items():
            if r["n"] == 0:
                continue
            if t.pairing:
                loss += term(r, _band(*t.pairing, t.margin))
                meets = meets and t.pairing[0] <= r["score"] <= t.pairing[1]
            if t.chart and key in t.chart:
                c = t.chart[key]
                band = _band(c - t.chart_tolerance, c + t.chart_tolerance, t.margin / 2)
                loss += term(r, band)
                meets = meets and abs(r["score"] - c) <= t.chart_tolerance
        if t.half:
            for r in est["entities"].values():
                loss += term(r, (0.5 - t.half_tolerance, 0.5 + t.half_tolerance))
                meets = meets and r["low"] <= 0.5 <= r["high"]
        if t.share:
            band = _band(*t.share, t.margin * 2)
            for r in est["shares"].values():
                if r["n"]:
                    loss += term(r, band, "share") / 4
                    meets = meets and t.share[0] <= r["share"] <= t.share[1]
        return loss, meets

    def price(self, values: Values) -> float:
        spec = self.spec
        out = 0.0
        for k, v in zip(self.knobs, values, strict=True):
            if v != k.base:
                out += spec.change_price + spec.step_price * abs(v - k.base) / k.step
        return out

    # -- the other judges' predictions --

    def predicted(self, values: Values, judge: str) -> dict[str, Any]:
        """``judge``'s estimates of ``values``. The first judge's are measured. Another
        judge's, cell by cell: its measurement of the nearest pack it measured, moved by the
        first judge's change between that pack and ``values`` (zero where it measured these
        very values); an entity's score then adds up its predicted cells."""
        first = self.spec.judges[0]
        if judge == first:
            return self.estimates(values, judge)
        now = self.estimates(values, first)
        points = self._measured.get(judge) or [self.base]
        cells: dict[str, Any] = {}
        shares: dict[str, Any] = {}
        totals: dict[str, list[float]] = {e: [0.0, 0] for e in self.entities}
        cache: dict[Values, tuple[dict[str, Any], dict[str, Any]]] = {}
        for cell in self.cells:
            rel = self._relevant(cell, values)
            ref = min(
                reversed(points),
                key=lambda p: sum(
                    abs(a - b) for a, b in zip(self._relevant(cell, p), rel, strict=True)
                ),
            )
            if ref not in cache:
                cache[ref] = (self.estimates(ref, judge), self.estimates(ref, first))
            mine, then = cache[ref]
            if cell.tables is not None:
                r = mine["cells"][cell.key]
                if r["n"] == 0:
                    continue
                shift = now["cells"][cell.key]["score"] - then["cells"][cell.key]["score"]
                if math.isnan(shift):
                    shift = 0.0
                cells[cell.key] = moved = {
                    **r,
                    "score": min(1.0, max(0.0, r["score"] + shift)),
                    "low": min(1.0, max(0.0, r["low"] + shift)),
                    "high": min(1.0, max(0.0, r["high"] + shift)),
                }
                a, b = cell.entities
                n = r["n"]
                totals[a][0] += moved["score"] * n
                totals[a][1] += n
                totals[b][0] += (1 - moved["score"]) * n
                totals[b][1] += n
            else:
                for key, r in mine["shares"].items():
                    if not key.endswith(f"@{cell.players}"):
                        continue
                    shift = now["shares"][key]["share"] - then["shares"][key]["share"]
                    if math.isnan(shift):
                        shift = 0.0
                    shares[key] = {
                        **r,
                        "share": r["share"] + shift,
                        "low": r["low"] + shift,
                        "high": r["high"] + shift,
                    }
        entities = {e: _interval(sc, int(n)) for e, (sc, n) in totals.items() if n}
        return {"cells": cells, "entities": entities, "shares": shares}

    def loss(self, values: Values, optimistic: bool = False) -> tuple[float, bool]:
        if self.failed and any(
            (stream, judge, cell.key, self._relevant(cell, values)) in self.failed
            for stream, judge in {(k[0], k[1]) for k in self.failed}
            for cell in self.cells
        ):
            return math.inf, False
        total = self.price(values)
        meets = True
        for judge in self.spec.judges:
            part, ok = self._loss_of(self.predicted(values, judge), optimistic)
            total += part
            meets = meets and ok
        return total, meets

    # -- racing --

    def evaluate(self, candidates: Sequence[Values], incumbent: float) -> list[float]:
        """Each candidate's loss under the first judge, sampled ``batch`` fights per cell
        at a time up to ``max_fights``: a candidate whose optimistic loss is already worse
        than ``incumbent`` stops; cells clearly inside their band stop early."""
        spec = self.spec
        first = spec.judges[0]
        active = list(dict.fromkeys(candidates))
        level = dict.fromkeys(active, 0)
        while active:
            wants = []
            for v in active:
                level[v] = min(spec.max_fights, level[v] + spec.batch)
                for cell in self.cells:
                    if self._settled(cell, first, v):
                        continue
                    wants.append((cell, first, v, level[v], "search"))
            self.measure(wants)
            still = []
            for v in active:
                if level[v] >= spec.max_fights:
                    continue
                optimistic, _ = self.loss(v, optimistic=True)
                if optimistic > incumbent:
                    continue  # clearly worse (or its fights fail)
                if all(self._settled(c, first, v) for c in self.cells):
                    continue
                still.append(v)
            active = still
            if self.fights_played >= spec.budget:
                break
        return [self.loss(v)[0] for v in candidates]

    def _settled(self, cell: Cell, judge: str, values: Values) -> bool:
        """Enough fights: the cell's interval lies inside its band, or it is at the most."""
        sc = self.score(cell, judge, values)
        if sc.fights >= self.spec.max_fights:
            return True
        if sc.fights < self.spec.batch or cell.tables is None:
            return False
        t = self.spec.targets
        r = _interval(*sc.entity(cell.entities[0]))
        bands = []
        if t.pairing:
            bands.append(_band(*t.pairing, t.margin))
        if t.chart and cell.key in t.chart:
            c = t.chart[cell.key]
            bands.append((c - t.chart_tolerance, c + t.chart_tolerance))
        if t.half:
            return False  # an entity's score needs every one of its cells
        return bool(bands) and all(b[0] <= r["low"] and r["high"] <= b[1] for b in bands)

    # -- the search --

    def worst_entities(self, values: Values) -> list[str]:
        """Entities by how far they are from their targets (furthest first)."""
        badness = dict.fromkeys(self.entities, 0.0)
        for judge in self.spec.judges:
            est = self.predicted(values, judge)
            for e, r in est["entities"].items():
                badness[e] += (r["score"] - 0.5) ** 2
            t = self.spec.targets
            for key, r in est["cells"].items():
                a, b = key.split("|")
                if t.pairing:
                    x = _excess(r["score"], _band(*t.pairing, t.margin)) ** 2
                    badness[a] += x
                    badness[b] += x
            for key, r in est["shares"].items():
                e = key.split("@")[0]
                if r["n"]:
                    badness[e] += (r["share"] - 1.0) ** 2
        return sorted(badness, key=lambda e: -badness[e])

    def measure_judges(self, values: Values) -> None:
        """Every judge but the first measures ``values`` (its reference from now on)."""
        for judge in self.spec.judges[1:]:
            self.measure([(c, judge, values, self.spec.judge_batch, "search") for c in self.cells])
            self._measured.setdefault(judge, []).append(values)

    def run(self) -> dict[str, Any]:
        import cma  # the optimiser: an established CMA-ES (integer variables, bounds)

        spec = self.spec
        started = time.perf_counter()
        best = self.base
        self.measure([(c, spec.judges[0], best, spec.max_fights, "search") for c in self.cells])
        self.measure_judges(best)
        best_loss, meets = self.loss(best)
        self._record("start", best, best_loss, meets)
        tried: set[str] = set()
        for stage in range(spec.stages):
            if meets or self.fights_played >= spec.budget:
                break
            changed = {k.key for k, v in zip(self.knobs, best, strict=True) if v != k.base}
            movable = {k.owner for k in self.knobs}
            shared = None in movable
            order = [
                e for e in self.worst_entities(best) if e not in tried and (shared or e in movable)
            ]
            if not order:
                break
            target = order[0]
            tried.add(target)
            active = [
                i for i, k in enumerate(self.knobs) if k.owner in (target, None) or k.key in changed
            ]
            if not active:
                continue
            # One value at a time first (the fewest changes), then CMA-ES over the few values
            # whose single moves helped most, together.
            stage_best, stage_loss, gain = self._singles(active, best, best_loss)
            self._record(
                f"stage {stage + 1} ({target}) single values",
                stage_best,
                stage_loss,
                self.loss(stage_best)[1],
            )
            top = sorted((i for i in gain if gain[i] > 0), key=lambda i: -gain[i])
            top = sorted(
                set(top[: spec.combine]) | {i for i in active if best[i] != self.knobs[i].base}
            )
            if len(top) >= 2 and not self.loss(stage_best)[1]:
                stage_best, stage_loss = self._cma(cma, top, stage_best, stage_loss, stage, target)
            if stage_best != best:
                self.measure_judges(stage_best)
                loss, ok = self.loss(stage_best)
                if loss < best_loss:
                    best, best_loss, meets = stage_best, loss, ok
                    tried.clear()
                    tried.add(target)
                if len(spec.judges) > 1:
                    self._record(f"stage {stage + 1} ({target}) judged", best, best_loss, meets)
        best, best_loss, meets = self.prune(best, best_loss)
        self._record("pruned", best, best_loss, meets)
        if self.on_found is not None:
            self.on_found(self.overlay(best))
        return self.finish(best, time.perf_counter() - started)

    def _singles(
        self, active: list[int], best: Values, best_loss: float
    ) -> tuple[Values, float, dict[int, float]]:
        """Each value moved alone, one step further each round in each direction while the
        last step helped (up to ``screen`` steps): the best single move, and how much each
        value's best move gained."""
        spec = self.spec
        stage_best, stage_loss = best, best_loss
        gain: dict[int, float] = {}
        last = {(i, d): best_loss for i in active for d in (-1, 1)}
        for r in range(1, spec.screen + 1):
            moves = []
            for (i, d), _prev in last.items():
                k = self.knobs[i]
                v = best[i] + d * r * k.step
                if k.low <= v <= k.high:
                    moves.append(((i, d), (*best[:i], v, *best[i + 1 :])))
            if not moves or self.fights_played >= spec.budget:
                break
            losses = self.evaluate([v for _m, v in moves], min(stage_loss, best_loss))
            nxt = {}
            for ((i, d), moved), loss in zip(moves, losses, strict=True):
                gain[i] = max(gain.get(i, 0.0), best_loss - loss)
                if loss < stage_loss:
                    stage_best, stage_loss = moved, loss
                if loss < last[i, d]:
                    nxt[i, d] = loss
            last = nxt
        return stage_best, stage_loss, gain

    def _cma(
        self, cma: Any, active: list[int], best: Values, best_loss: float, stage: int, target: str
    ) -> tuple[Values, float]:
        spec = self.spec
        x0 = [best[i] / self.knobs[i].step for i in active]
        lows = [self.knobs[i].low / self.knobs[i].step for i in active]
        highs = [self.knobs[i].high / self.knobs[i].step for i in active]
        es = cma.CMAEvolutionStrategy(
            x0,
            0.7,
            {
                "bounds": [lows, highs],
                "integer_variables": list(range(len(active))),
                "seed": derive_seed(spec.seed, "cma", stage) % (2**31 - 1) + 1,
                "verbose": -9,
                "popsize": max(6, min(10, 4 + int(3 * math.log(len(active))))),
            },
        )
        for generation in range(spec.generations):
            if self.fights_played >= spec.budget:
                break
            xs = es.ask()
            cands = []
            for x in xs:
                v = list(best)
                for j, i in enumerate(active):
                    k = self.knobs[i]
                    v[i] = int(min(k.high, max(k.low, round(x[j]) * k.step)))
                cands.append(tuple(v))
            losses = self.evaluate(cands, best_loss)
            es.tell(xs, [min(x, 1.0) for x in losses])
            for cand, loss in zip(cands, losses, strict=True):
                if loss < best_loss:
                    best, best_loss = cand, loss
            self._record(
                f"stage {stage + 1} ({target}) CMA-ES generation {generation + 1}",
                best,
                best_loss,
                self.loss(best)[1],
            )
            if self.loss(best)[1]:
                break
        return best, best_loss

    def prune(self, values: Values, loss: float) -> tuple[Values, float, bool]:
        """Put each changed value back (smallest move first) while the pack stays as good."""
        spec = self.spec
        order = sorted(
            (i for i, k in enumerate(self.knobs) if values[i] != k.base),
            key=lambda i: abs(values[i] - self.knobs[i].base),
        )
        for i in order:
            trial = list(values)
            trial[i] = self.knobs[i].base
            t = tuple(trial)
            self.measure([(c, spec.judges[0], t, spec.max_fights, "search") for c in self.cells])
            new, _ = self.loss(t)
            if new <= loss:
                values, loss = t, new
        return values, *self.loss(values)

    def _record(self, step: str, values: Values, loss: float, meets: bool) -> None:
        entry: dict[str, Any] = {
            "step": step,
            "fights": self.fights_played,
            "loss": round(loss, 6),
            "meets": meets,
            "changes": {k.key: v for k, v in zip(self.knobs, values, strict=True) if v != k.base},
        }
        self.history.append(entry)
        changes = ", ".join(f"{k} {v}" for k, v in entry["changes"].items())
        self.log(
            f"{step}: loss {loss:.5f}, {len(entry['changes'])} change(s), "
            f"{self.fights_played} fights"
            + (" — meets the targets" if meets else "")
            + (f" [{changes}]" if changes else "")
        )

    # -- the re-check --

    def check(self, values: Values, stream: str) -> dict[str, Any]:
        """Every judge on ``stream``'s fresh seeds, ``fights`` per cell."""
        wants = [
            (c, j, values, self.spec.fights, stream) for j in self.spec.judges for c in self.cells
        ]
        self.measure(wants)
        out = {}
        for judge in self.spec.judges:
            est = self.estimates(values, judge, stream)
            _, meets = self._loss_of(est, False)
            out[judge] = {**est, "meets": meets}
        return out

    def finish(self, best: Values, seconds: float) -> dict[str, Any]:
        searched = self.fights_played
        before = self.check(self.base, "check")
        after = self.check(best, "check") if best != self.base else before
        changes = []
        for k, v in zip(self.knobs, best, strict=True):
            if v == k.base:
                continue
            changes.append(
                {
                    "key": k.key,
                    "table": k.table,
                    "id": k.id,
                    "field": k.field,
                    "from": k.base,
                    "to": v,
                    "owner": k.owner,
                    "reason": self._reason(k, v, before, after),
                }
            )
        return {
            "format": "kumite-balance/1",
            "game": self.spec.game,
            "seed": self.spec.seed,
            "judges": list(self.spec.judges),
            "targets": self.spec.targets.describe(),
            "entities": self.entities,
            "knobs": len(self.knobs),
            "changes": changes,
            "overlay": self.overlay(best),
            "before": before,
            "after": after,
            "meets": all(r["meets"] for r in after.values()),
            "history": self.history,
            "failed": sorted(set(self.failed.values())),
            "fights": {"search": searched, "check": self.fights_played - searched},
            "seconds": round(seconds, 1),
            "fights_per_second": round(searched / seconds, 1) if seconds > 0 else None,
        }

    def _reason(self, k: Knob, v: int, before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
        who = k.owner or "every entity"
        parts = []
        for judge in self.spec.judges:
            b = before[judge]["entities"].get(k.owner or "", {}).get("score")
            a = after[judge]["entities"].get(k.owner or "", {}).get("score")
            if b is not None and a is not None:
                parts.append(f"{judge} {b:.3f} -> {a:.3f}")
        move = "lowered" if v < k.base else "raised"
        where = f" ({who}'s score: " + ", ".join(parts) + ")" if parts else ""
        return f"{k.field} {move} {k.base} -> {v}{where}"


def _interval(score: float, n: int) -> dict[str, Any]:
    if n == 0:
        return {"score": math.nan, "low": 0.0, "high": 1.0, "n": 0}
    p = score / n
    z2n = Z95 * Z95 / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = Z95 * math.sqrt(max(0.0, p * (1 - p)) / n + z2n / (4 * n)) / (1 + z2n)
    return {
        "score": p,
        "low": max(0.0, centre - half),
        "high": min(1.0, centre + half),
        "n": n,
    }


# -- packs out ----------------------------------------------------------------------------


def _provenance(pack: PackData, table: str, ident: str, field: str) -> str:
    for entry in pack.data.get(table, []):
        if entry.get("id") == ident:
            raw = entry.get(field)
            if isinstance(raw, dict) and "from" in raw:
                return str(raw["from"])
    return pack.defaults.get(field, "estimate")


def _inline(value: Any) -> str:
    """A TOML value written inline (strings, numbers, booleans, arrays, tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_inline(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} in TOML")


def _key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else _inline(k)


def overlay_text(
    pack: PackData,
    changes: Sequence[tuple[Knob, int]],
    pack_id: str,
    *,
    note: str,
    start: Mapping[str, Any] | None = None,
) -> str:
    """An overlay of the shipped pack: ``start`` (an overlay's data, if the search started
    from one) with ``changes``. Each changed value keeps its provenance in ``pack`` (a
    reconstructed value stays ``reconstructed``) and notes what it was."""
    data: dict[str, Any] = copy.deepcopy(dict(start or {}))
    meta = dict(data.get("pack", {}))
    meta.update(
        {
            "id": pack_id,
            "base": meta.get("base", pack.id),
            "game": str(pack.meta.get("game")),
            "version": str(meta.get("version", "1")),
            "title": f"{note}: {len(changes)} value(s) changed by the search",
        }
    )
    data["pack"] = meta
    start_id = str((start or {}).get("pack", {}).get("id", ""))
    for k, v in changes:
        prov = _provenance(pack, k.table, k.id, k.field)
        if start_id and prov == f"source:{start_id}":
            prov = f"source:{pack_id}"  # the starting overlay's own values are now this one's
        entries = data.setdefault(k.table, [])
        entry = next((e for e in entries if e.get("id") == k.id), None)
        if entry is None:
            entry = {"id": k.id}
            entries.append(entry)
        entry[k.field] = {
            "value": v,
            "from": prov,
            "note": f"{note}: was {k.base}",
        }
    lines = ["[pack]"] + [f"{_key(k)} = {_inline(v)}" for k, v in meta.items()]
    for key, value in data.items():
        if key == "pack":
            continue
        if key in KEYED_LISTS:
            for entry in sorted(value, key=lambda e: str(e.get("id"))):
                lines += ["", f"[[{key}]]"]
                lines += [f"{_key(f)} = {_inline(v)}" for f, v in entry.items()]
        elif isinstance(value, dict):
            lines += ["", f"[{_key(key)}]"] + [
                f"{_key(f)} = {_inline(v)}" for f, v in value.items()
            ]
        else:
            lines.insert(0, f"{_key(key)} = {_inline(value)}")
    return "\n".join(lines) + "\n"


def rewrite_base(text: str, changes: Sequence[Mapping[str, Any]]) -> str:
    """The shipped pack's TOML ``text`` with ``changes`` (``id``, ``field``, ``to``) written
    in place: only the number changes, its provenance and the file's comments stay."""
    lines = text.splitlines(keepends=True)
    for change in changes:
        ident, field, to = change["id"], change["field"], int(change["to"])
        start = next(
            (i for i, ln in enumerate(lines) if re.fullmatch(rf'id = "{re.escape(ident)}"\s*', ln)),
            None,
        )
        if start is None:
            raise OptionsError(f"no entry {ident!r} in the pack")
        for i in range(start + 1, len(lines)):
            if lines[i].startswith("[[") or lines[i].startswith("id = "):
                raise OptionsError(f"entry {ident!r} has no plain field {field!r}")
            m = re.match(rf"({re.escape(field)} = (?:\{{ value = )?)(-?\d+)", lines[i])
            if m:
                lines[i] = m.group(1) + str(to) + lines[i][m.end() :]
                break
    return "".join(lines)


def balance(
    spec: BalanceSpec,
    *,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
    log: Callable[[str], None] | None = None,
    found: Callable[[str | None], None] | None = None,
) -> dict[str, Any]:
    """Run the search of ``spec``; the result document (``changes``, ``overlay``, before and
    after tables per judge, the convergence ``history``). ``found`` gets the overlay as
    soon as the search has it, before the re-check on fresh seeds."""
    with TaskPool(jobs, backend, address) as pool:
        balancer = Balancer(spec, pool, progress, log)
        balancer.on_found = found
        return balancer.run()
