"""Where the games run: this process, local worker processes, or a Ray cluster.

Every backend splits the games into the same kind of index ranges and calls
:func:`kumite.sim.engine.run_chunk` on each; results are put back in index order, so the
outcome does not depend on the backend or the number of jobs.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from kumite.core.errors import KumiteError, OptionsError
from kumite.sim.engine import Chunk, GameRow, SimSpec, Tally, chunks, run_chunk, runner_for

BACKENDS = ("local", "ray")
Progress = Callable[[int], None]
"""Called with the number of games just finished."""


class BackendError(KumiteError):
    """The backend could not run (e.g. Ray not installed or not reachable)."""


@dataclasses.dataclass
class SimResult:
    spec: SimSpec
    tally: Tally
    rows: list[GameRow]
    seconds: float
    backend: str
    jobs: int

    @property
    def games_per_second(self) -> float:
        return self.tally.games / self.seconds if self.seconds > 0 else float("inf")


def default_jobs() -> int:
    return os.cpu_count() or 1


def simulate(
    spec: SimSpec,
    *,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
    rows: bool = True,
    chunk_size: int | None = None,
) -> SimResult:
    """Play every game of ``spec`` and tally them."""
    if jobs < 1:
        raise OptionsError("--jobs must be at least 1")
    if backend not in BACKENDS:
        raise OptionsError(f"unknown backend {backend!r} (one of: {', '.join(BACKENDS)})")
    start = time.perf_counter()
    if chunk_size is None and spec.batched:
        runner = runner_for(spec)
        if runner.vectorized():
            # Arrays of a few hundred thousand games: each call plays thousands of fights
            # of each pairing; the engine is filled and compiled here, before the fork.
            chunk_size = max(20_000, min(1_000_000, -(-spec.games // (jobs * 4))))
            if backend == "local":
                runner.warm()
    ranges = list(chunks(spec.games, jobs, chunk_size))
    if backend == "ray":
        results = _run_ray(spec, ranges, jobs, address, progress, rows)
    elif jobs == 1:
        results = []
        for a, b in ranges:
            results.append(run_chunk(spec, a, b, rows))
            if progress is not None:
                progress(b - a)
    else:
        results = _run_local(spec, ranges, jobs, progress, rows)
    seconds = time.perf_counter() - start
    return _combine(spec, results, seconds, backend, jobs)


def _combine(
    spec: SimSpec, results: list[Chunk], seconds: float, backend: str, jobs: int
) -> SimResult:
    results.sort(key=lambda c: c.start)
    tally = Tally()
    rows: list[GameRow] = []
    for chunk in results:
        tally.merge(chunk.tally)
        rows.extend(chunk.rows)
    return SimResult(spec, tally, rows, seconds, backend, jobs)


def _context() -> Any:
    """Fork where it is safe — Linux, and no other thread in this process that could hold a
    lock at the fork (the CLI's progress bar refreshes without a thread): workers start at
    once and inherit imports and warm caches. Otherwise a fork server (or spawn)."""
    methods = multiprocessing.get_all_start_methods()
    if sys.platform == "linux" and "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["kumite.sim.engine"])
        return ctx
    return multiprocessing.get_context("spawn")


def _run_local(
    spec: SimSpec,
    ranges: list[tuple[int, int]],
    jobs: int,
    progress: Progress | None,
    rows: bool,
) -> list[Chunk]:
    out: list[Chunk] = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=_context()) as pool:
        futures = [pool.submit(run_chunk, spec, a, b, rows) for a, b in ranges]
        for future in concurrent.futures.as_completed(futures):
            chunk = future.result()
            out.append(chunk)
            if progress is not None:
                progress(chunk.stop - chunk.start)
    return out


def _run_ray(
    spec: SimSpec,
    ranges: list[tuple[int, int]],
    jobs: int,
    address: str | None,
    progress: Progress | None,
    rows: bool,
) -> list[Chunk]:
    try:
        import ray
    except ImportError:
        raise BackendError("the ray backend needs Ray: pip install 'kumite[ray]'") from None
    started = False
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(
                    num_cpus=jobs,
                    include_dashboard=False,
                    log_to_driver=False,
                    configure_logging=False,
                )
        # Ray raises a bare Exception when its node times out starting (an overloaded host).
        except Exception as exc:
            raise BackendError(f"cannot start or reach Ray ({address or 'local'}): {exc}") from None
        started = True
    try:
        task: Any = ray.remote(run_chunk)
        pending = [task.remote(spec, a, b, rows) for a, b in ranges]
        out: list[Chunk] = []
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                chunk: Chunk = ray.get(ref)
                out.append(chunk)
                if progress is not None:
                    progress(chunk.stop - chunk.start)
        return out
    finally:
        if started:
            ray.shutdown()


Task = tuple[SimSpec, int, int]
"""``(spec, start, stop)``: games ``start..stop-1`` of ``spec``."""


class TaskPool:
    """Workers kept for many small batches of chunks (a balance run asks for a few hundred
    fights at a time, thousands of times): this process (``jobs=1``), local processes or
    Ray. :meth:`run` returns the chunks in the order of the tasks, whoever finished first."""

    def __init__(self, jobs: int = 1, backend: str = "local", address: str | None = None) -> None:
        if jobs < 1:
            raise OptionsError("--jobs must be at least 1")
        if backend not in BACKENDS:
            raise OptionsError(f"unknown backend {backend!r} (one of: {', '.join(BACKENDS)})")
        self.jobs, self.backend, self.address = jobs, backend, address
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._ray: Any = None
        self._started_ray = False

    def __enter__(self) -> TaskPool:
        if self.backend == "ray":
            self._start_ray()
        elif self.jobs > 1:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.jobs, mp_context=_context()
            )
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
        if self._started_ray:
            self._ray.shutdown()

    def _start_ray(self) -> None:
        try:
            import ray
        except ImportError:
            raise BackendError("the ray backend needs Ray: pip install 'kumite[ray]'") from None
        self._ray = ray
        if not ray.is_initialized():
            try:
                if self.address:
                    ray.init(address=self.address, log_to_driver=False)
                else:
                    ray.init(
                        num_cpus=self.jobs,
                        include_dashboard=False,
                        log_to_driver=False,
                        configure_logging=False,
                    )
            except Exception as exc:
                raise BackendError(f"cannot start or reach Ray: {exc}") from None
            self._started_ray = True
        self._task: Any = ray.remote(run_chunk)

    def run(
        self, tasks: list[Task], progress: Progress | None = None, errors: bool = False
    ) -> list[Any]:
        """The chunks of ``tasks`` in order; with ``errors``, a task that raised gives its
        exception in its place instead of stopping the run (a pack whose fights crash)."""
        out: list[Any] = [None] * len(tasks)
        if self._ray is not None:
            refs = {self._task.remote(s, a, b, False): i for i, (s, a, b) in enumerate(tasks)}
            pending = list(refs)
            while pending:
                ready, pending = self._ray.wait(pending, num_returns=1)
                for ref in ready:
                    try:
                        chunk: Chunk = self._ray.get(ref)
                    except Exception as exc:
                        if not errors:
                            raise
                        out[refs[ref]] = getattr(exc, "cause", None) or exc
                        continue
                    out[refs[ref]] = chunk
                    if progress is not None:
                        progress(chunk.stop - chunk.start)
        elif self._pool is not None:
            futures = {
                self._pool.submit(run_chunk, s, a, b, False): i for i, (s, a, b) in enumerate(tasks)
            }
            for future in concurrent.futures.as_completed(futures):
                failed = future.exception()
                if failed is not None:
                    if not errors:
                        raise failed
                    out[futures[future]] = failed
                    continue
                chunk = future.result()
                out[futures[future]] = chunk
                if progress is not None:
                    progress(chunk.stop - chunk.start)
        else:
            for i, (s, a, b) in enumerate(tasks):
                try:
                    out[i] = run_chunk(s, a, b, False)
                except Exception as exc:
                    if not errors:
                        raise
                    out[i] = exc
                    continue
                if progress is not None:
                    progress(b - a)
        return out
