"""Solver bots beside random bots at one web table server (issue 28): memory and latency.

Starts ``kumite serve`` (SQLite in a temporary directory, ``--bot-memory`` as given, the
default pool: ``--bot-threads`` 2, ``--bot-budget`` 5 s) and plays at once, for
``--seconds``: ``--solver-tables`` SF Rivals tables of solver bots, each over its own pair
of characters (8 pairs by default, the bot cycling through ``--solver-levels``), and
``--random-tables`` tables of ``random`` bots. Each table has one seat played from this
process (a random legal choice the moment it is asked) and one bot seat; a finished table is
replaced by a new one of the same kind and pair. It prints:

* the server's peak resident memory (``VmHWM``, and the largest ``VmRSS`` sampled) beside
  its memory before the first solver table and the cap: the target is peak − before ≤ cap;
* the random bots' move times (from the update that asks the bot to the next update: what
  a person waits): p50, p99, max, beside the target p99 ≤ the budget;
* the solver bots' move times, and how many moves the pool gave a random move (its last
  resort: a bot not answered within budget + grace).

    python benchmarks/solver_tables.py --seconds 120
    python benchmarks/solver_tables.py --bot-memory 512 --solver-levels belief --json
    PYTHONPATH=OLD/src python benchmarks/solver_tables.py --bot-memory 0   # a reference
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from bot_latency import ONE_ADDRESS_LIMITS, play_seat

PAIRS = [
    ("ryu", "ken"),
    ("zangief", "juri"),
    ("poison", "dudley"),
    ("guile", "chunli"),
    ("ken", "poison"),
    ("juri", "ryu"),
    ("dudley", "guile"),
    ("chunli", "zangief"),
]


def status_kb(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


class Sampler(threading.Thread):
    """The server's resident memory, every 0.2 s."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.largest = 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.2):
            with contextlib.suppress(OSError):
                self.largest = max(self.largest, status_kb(self.pid, "VmRSS"))


async def table_loop(
    base: str,
    seats: list[dict[str, Any]],
    options: dict[str, Any],
    until: float,
    waits: list[float],
    rng: random.Random,
) -> int:
    """Play tables of this kind one after the other until ``until``; games finished."""
    finished = 0
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while time.perf_counter() < until:
            answer = await http.post(
                "/api/tables", json={"game": "sfrivals", "seats": seats, "options": options}
            )
            answer.raise_for_status()
            made = answer.json()
            link = made["links"][0]
            play = asyncio.create_task(
                play_seat(base, made["id"], link["seat"], link["token"], waits, rng)
            )
            try:
                await asyncio.wait_for(play, timeout=max(0.1, until - time.perf_counter()))
                finished += 1
            except TimeoutError:
                break
    return finished


async def run(args: argparse.Namespace, base: str) -> dict[str, Any]:
    until = time.perf_counter() + args.seconds
    random_waits: list[float] = []
    solver_waits: list[float] = []
    rng = random.Random(0)
    levels = args.solver_levels.split(",")
    tasks = []
    for n in range(args.solver_tables):
        pair = PAIRS[n % len(PAIRS)]
        seats = [{"kind": "human"}, {"kind": "bot", "agent": levels[n % len(levels)]}]
        options = {"characters": list(pair)}
        tasks.append(
            table_loop(base, seats, options, until, solver_waits, random.Random(rng.random()))
        )
    for _ in range(args.random_tables):
        seats = [{"kind": "human"}, {"kind": "bot", "agent": "random"}]
        pair = PAIRS[rng.randrange(len(PAIRS))]
        options = {"characters": list(pair)}
        tasks.append(
            table_loop(base, seats, options, until, random_waits, random.Random(rng.random()))
        )
    games = await asyncio.gather(*tasks)
    return {
        "solver_games": sum(games[: args.solver_tables]),
        "random_games": sum(games[args.solver_tables :]),
        "random_waits_ms": sorted(1000 * w for w in random_waits),
        "solver_waits_ms": sorted(1000 * w for w in solver_waits),
    }


def _last_fallbacks(log: str) -> dict[str, int] | None:
    """The solver bots' declared-fallback moves, from the server's last "prepared" line."""
    import ast

    lines = [line for line in log.splitlines() if "fallback moves so far: " in line]
    if not lines:
        return None
    found: dict[str, int] = ast.literal_eval(lines[-1].split("fallback moves so far: ")[1])
    return found


def quantiles(ms: list[float]) -> dict[str, float | int]:
    if not ms:
        return {"moves": 0}
    return {
        "moves": len(ms),
        "p50_ms": round(statistics.median(ms), 1),
        "p99_ms": round(ms[int(0.99 * (len(ms) - 1))], 1),
        "max_ms": round(ms[-1], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--solver-tables", type=int, default=8)
    parser.add_argument("--random-tables", type=int, default=8)
    parser.add_argument("--solver-levels", default="belief,belief-safe,bounded,belief")
    parser.add_argument(
        "--bot-memory", type=float, default=1024.0, help="megabytes (the cap; 0: no flag)"
    )
    parser.add_argument("--bot-budget", type=float, default=5.0)
    parser.add_argument("--port", type=int, default=8797)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "server.log"
        with open(log_path, "w") as log:
            command = [sys.executable, "-m", "kumite.cli.main", "serve", "--port", str(args.port)]
            command += ["--database-url", f"sqlite:///{tmp}/bots.sqlite3", "--bot-delay", "0"]
            if args.bot_memory > 0:  # 0: a server from before the flag (a reference run)
                command += ["--bot-memory", f"{args.bot_memory:g}"]
            command += ["--bot-budget", f"{args.bot_budget:g}", *ONE_ADDRESS_LIMITS]
            env = {**os.environ, "KUMITE_SOLVER_LOG": "1"}  # the preparations in the log
            server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        base = f"http://127.0.0.1:{args.port}"
        sampler = Sampler(server.pid)
        try:
            for _ in range(600):
                try:
                    if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            before_mb = status_kb(server.pid, "VmRSS") / 1024
            sampler.start()
            started = time.perf_counter()
            result = asyncio.run(run(args, base))
            seconds = time.perf_counter() - started
            peak_mb = status_kb(server.pid, "VmHWM") / 1024
        finally:
            sampler.stop.set()
            server.terminate()
            server.wait(timeout=30)
        text = log_path.read_text()
    random_ms = result.pop("random_waits_ms")
    solver_ms = result.pop("solver_waits_ms")
    target_ms = args.bot_budget * 1000
    row = {
        **result,
        "seconds": round(seconds, 1),
        "memory": {
            "before_mb": round(before_mb, 1),
            "peak_mb": round(peak_mb, 1),
            "largest_sampled_mb": round(sampler.largest / 1024, 1),
            "cap_mb": args.bot_memory,
            "within_cap": args.bot_memory > 0 and peak_mb - before_mb <= args.bot_memory,
        },
        "random_bots": {**quantiles(random_ms), "target_p99_ms": target_ms},
        "solver_bots": quantiles(solver_ms),
        "random_moves_by_the_pool": text.count("a random move"),
        "preparations": text.count("prepared "),
        "fallback_moves": _last_fallbacks(text),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    row["random_bots"]["within_budget"] = (
        bool(random_ms) and row["random_bots"]["p99_ms"] <= target_ms
    )
    if args.json:
        print(json.dumps(row))
        return
    mem = row["memory"]
    rb, sb = row["random_bots"], row["solver_bots"]
    print(
        f"{args.solver_tables} solver tables ({args.solver_levels}) over {len(PAIRS)} pairs + "
        f"{args.random_tables} random tables, {row['seconds']} s: {row['solver_games']} solver "
        f"games, {row['random_games']} random games"
    )
    print(
        f"server memory: before {mem['before_mb']} MB, peak {mem['peak_mb']} MB (sampled "
        f"{mem['largest_sampled_mb']} MB): +{mem['peak_mb'] - mem['before_mb']:.0f} MB against "
        f"a cap of {mem['cap_mb']:g} MB -> {'within' if mem['within_cap'] else 'OVER'}"
    )
    print(
        f"random bots: {rb.get('moves', 0)} moves, p50 {rb.get('p50_ms')} ms, p99 "
        f"{rb.get('p99_ms')} ms, max {rb.get('max_ms')} ms against a p99 target of "
        f"{target_ms:g} ms -> {'within' if rb['within_budget'] else 'OVER'}"
    )
    print(
        f"solver bots: {sb.get('moves', 0)} moves, p50 {sb.get('p50_ms')} ms, p99 "
        f"{sb.get('p99_ms')} ms, max {sb.get('max_ms')} ms; the pool's random moves: "
        f"{row['random_moves_by_the_pool']}; background preparations "
        f"{row['preparations']}, the bots' own fallback moves {row['fallback_moves']} "
        f"(load {row['load_average']})"
    )


if __name__ == "__main__":
    main()
