"""``kumite bench``: games per second for each game and agent, on one core and on all cores,
with peak memory; and OpenSpiel's goofspiel(8) random play in the same run, when
``open-spiel`` is installed, as a yardstick.

Every measurement runs in fresh worker processes (so peak memory is that of the
measurement alone): each worker warms up (imports, memo tables) for ``warmup`` seconds,
then plays
games through the same code path as ``kumite sim`` (:meth:`kumite.sim.engine.Runner.chunk`:
agents, game, tallies) in three timed runs, and the fastest counts. The all-cores rate is
the sum of the workers' rates measured while they all run at once.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import multiprocessing
import os
import random
import resource
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from kumite.agents.registry import agent_names
from kumite.core.registry import game_ids, get_game
from kumite.sim.adapters import adapter_for
from kumite.sim.engine import Runner, SimSpec

GOOFSPIEL = "goofspiel(num_cards=8)"
WARMUP = 2.0
"""Seconds each worker plays before its timed runs."""
RUNS = 3
"""Timed runs per measurement (the fastest is kept)."""


@dataclasses.dataclass
class Measure:
    """One worker's run."""

    games: int
    seconds: float
    peak_rss_mb: float

    @property
    def rate(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0


@dataclasses.dataclass
class Row:
    game: str
    agent: str
    path: str
    """``engine`` (agents through the game contract), ``fast rollout`` (the game's random
    rollout), ``fast rollout + sim tallies`` (what ``kumite sim`` does per game)."""
    one_core: float
    all_cores: float | None = None
    jobs: int = 1
    peak_rss_mb: float = 0.0
    """Peak resident memory of the one-core worker."""
    peak_rss_mb_per_worker: float | None = None

    @property
    def scaling(self) -> float | None:
        if self.all_cores is None or not self.one_core:
            return None
        return self.all_cores / self.one_core

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "agent": self.agent,
            "path": self.path,
            "games_per_second_1_core": round(self.one_core, 1),
            "jobs": self.jobs,
            "games_per_second_all_cores": None
            if self.all_cores is None
            else round(self.all_cores, 1),
            "scaling": None if self.scaling is None else round(self.scaling, 2),
            "peak_rss_mb_1_core": round(self.peak_rss_mb, 1),
            "peak_rss_mb_per_worker": None
            if self.peak_rss_mb_per_worker is None
            else round(self.peak_rss_mb_per_worker, 1),
        }


def _peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


Play = Callable[[int, int], object]
"""``play(a, b)`` plays games ``a..b-1``."""


class _Timer:
    """Timed runs of one way of playing, resumable so that several can take turns."""

    def __init__(self, play: Play, offset: int) -> None:
        self.play = play
        self.next = offset
        self.batch = 1  # grows with the rate: slow agents (search) take seconds a game
        self.best: Measure | None = None

    def warm(self, seconds: float) -> None:
        """Play untimed for ``seconds``: imports, caches and memo tables."""
        t_end = time.perf_counter() + seconds
        while time.perf_counter() < t_end:
            self._batch()

    def _batch(self) -> int:
        n = self.batch
        self.play(self.next, self.next + n)
        self.next += n
        return n

    def run(self, seconds: float) -> None:
        games = 0
        t0 = time.perf_counter()
        while True:
            games += self._batch()
            elapsed = time.perf_counter() - t0
            if elapsed >= seconds:
                break
            self.batch = min(self.batch * 2, max(1, int(games / elapsed * 0.1)))
        measure = Measure(games, elapsed, _peak_rss_mb())
        if self.best is None or measure.rate > self.best.rate:
            self.best = measure

    def result(self) -> Measure:
        assert self.best is not None
        self.best.peak_rss_mb = _peak_rss_mb()
        return self.best


def _timed(play: Play, seconds: float, warmup: float, offset: int) -> Measure:
    """Play batches of games (indices from ``offset``) after a warm-up in :data:`RUNS` timed
    runs of ``seconds / RUNS``; keep the fastest (the machine may be shared: the best run
    is the one least disturbed by others)."""
    timer = _Timer(play, offset)
    timer.warm(warmup)
    for _ in range(RUNS):
        timer.run(seconds / RUNS)
    return timer.result()


def _sim_player(spec: SimSpec, tally: bool) -> Play:
    runner = Runner(spec)
    if tally:
        return lambda a, b: runner.chunk(a, b, rows=False)

    def play(a: int, b: int) -> None:
        for index in range(a, b):
            runner.play(index)

    return play


def measure_sim(
    spec: SimSpec, tally: bool, seconds: float, warmup: float = WARMUP, offset: int = 0
) -> Measure:
    """Worker: games of ``spec`` as the simulation engine plays them; with ``tally``, also
    counted into the statistics tables as ``kumite sim`` does."""
    return _timed(_sim_player(spec, tally), seconds, warmup, offset)


def _goofspiel_player(offset: int) -> Play:
    """Random goofspiel(8) games through pyspiel, driven from Python like kumite's games
    (legal actions asked each step, a uniformly random choice per player)."""
    import pyspiel

    game = pyspiel.load_game(GOOFSPIEL)
    rng = random.Random(offset)
    players = range(game.num_players())

    def play(a: int, b: int) -> None:
        for _ in range(a, b):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_simultaneous_node():
                    state.apply_actions([rng.choice(state.legal_actions(p)) for p in players])
                elif state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(rng.choice(outcomes)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))

    return play


def measure_against_goofspiel(
    cases: list[tuple[str, SimSpec, bool]], seconds: float, warmup: float = WARMUP
) -> dict[str, Measure]:
    """Worker: goofspiel(8) and each case **taking turns** on one core (goofspiel, case 1,
    case 2, …, :data:`RUNS` times), so the ratio compares rates measured side by side under
    the same conditions. Keyed ``goofspiel`` and by case name."""
    timers = {"goofspiel": _Timer(_goofspiel_player(0), 0)}
    for name, spec, tally in cases:
        timers[name] = _Timer(_sim_player(spec, tally), 0)
    for timer in timers.values():
        timer.warm(warmup)
    for _ in range(RUNS):
        for timer in timers.values():
            timer.run(seconds / RUNS)
    return {name: timer.result() for name, timer in timers.items()}


def has_openspiel() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def _pool(jobs: int) -> concurrent.futures.ProcessPoolExecutor:
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    return concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)


def _run(fn: Callable[..., Measure], args: tuple[Any, ...], jobs: int) -> list[Measure]:
    """``fn(*args, offset)`` in ``jobs`` fresh processes at once."""
    with _pool(jobs) as pool:
        futures = [pool.submit(fn, *args, k * 10**7) for k in range(jobs)]
        return [f.result() for f in futures]


def cases(
    games: Iterable[str] | None = None, agents: Iterable[str] | None = None
) -> list[tuple[str, str, str, SimSpec, bool]]:
    """``(game, agent, path, spec, tally)`` to measure: each agent against itself in every
    game through the engine; random play also through the game's fast rollout, alone and
    with the statistics tallies of ``kumite sim``."""
    wanted = set(agents) if agents is not None else None
    out: list[tuple[str, str, str, SimSpec, bool]] = []
    for game_id in games or game_ids():
        info = get_game(game_id).info
        for agent in agent_names(game_id):
            if wanted is not None and agent not in wanted:
                continue
            lineup = ((agent,) * info.min_players,)
            spec = SimSpec(game_id, lineup, 0, seed=1, fast=False)
            out.append((game_id, agent, "engine", spec, False))
            if agent == "random" and adapter_for(game_id).has_fast_random:
                fast = dataclasses.replace(spec, fast=True)
                out.append((game_id, agent, "fast rollout", fast, False))
                out.append((game_id, agent, "fast rollout + sim tallies", fast, True))
    return out


def run(
    *,
    seconds: float = 3.0,
    warmup: float = WARMUP,
    jobs: int | None = None,
    games: Iterable[str] | None = None,
    agents: Iterable[str] | None = None,
    openspiel: bool = True,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Measure every case on one core and on ``jobs`` cores (default: all)."""
    jobs = jobs or os.cpu_count() or 1
    rows: list[Row] = []
    for game_id, agent, path, spec, tally in cases(games, agents):
        if progress is not None:
            progress(f"{game_id} {agent} ({path})")
        (one,) = _run(measure_sim, (spec, tally, seconds, warmup), 1)
        row = Row(game_id, agent, path, one.rate, jobs=jobs, peak_rss_mb=one.peak_rss_mb)
        if jobs > 1:
            many = _run(measure_sim, (spec, tally, seconds, warmup), jobs)
            row.all_cores = sum(m.rate for m in many)
            row.peak_rss_mb_per_worker = max(m.peak_rss_mb for m in many)
        rows.append(row)
    out: dict[str, Any] = {
        "cpu_count": os.cpu_count(),
        "jobs": jobs,
        "seconds": seconds,
        "warmup": warmup,
        "rows": [r.to_json() for r in rows],
    }
    if openspiel and has_openspiel():
        if progress is not None:
            progress("OpenSpiel goofspiel(8) and random play, taking turns on one core")
        random_cases = [
            (f"{g} {a} ({p})", spec, tally)
            for g, a, p, spec, tally in cases(games, agents)
            if a == "random"
        ]
        with _pool(1) as pool:
            side = pool.submit(measure_against_goofspiel, random_cases, seconds, warmup).result()
        gs = side.pop("goofspiel")
        out["openspiel"] = {
            "game": GOOFSPIEL,
            "games_per_second_1_core": round(gs.rate, 1),
            "peak_rss_mb_1_core_shared": round(gs.peak_rss_mb, 1),
        }
        out["side_by_side"] = {name: round(m.rate, 1) for name, m in side.items()}
        out["ratios_to_goofspiel"] = {name: round(m.rate / gs.rate, 3) for name, m in side.items()}
    else:
        out["openspiel"] = None
    out["load_average"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    return out
