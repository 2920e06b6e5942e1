"""Bot latency at the web table under load: N concurrent tables through the real server.

Starts ``kumite serve`` (SQLite in a temporary directory, the server's defaults: a pool of
``--bot-threads`` 2 threads, a budget of 5 s a move, no bot delay; ``--bot-processes N`` to
think in N worker processes instead), and for each bot level
opens ``--tables`` tables at once, each with one seat played from this process (a random
legal choice the moment it is asked for) and every other seat that level's bot. It plays
them for ``--seconds`` and measures, for every step a bot had to answer, the time a person
waits: from the moment the step was theirs to wait on (the update that asks the bot, or
this seat's own acknowledgement if it also had to choose) to the update of the next step.
Prints p50, p99 and the largest wait per level, and the share over ``--target`` (1 s).

The server counts a search bot's time limit from when its move is asked for
(``kumite.server.bots.BotPool.think``), so time queued behind other tables' bots counts.

    python benchmarks/bot_latency.py sfdbg --tables 4 --seconds 60
    python benchmarks/bot_latency.py rivales --levels greedy,ismcts --tables 4 --json
    python benchmarks/bot_latency.py rivales --tables 4 --seconds 30 --bot-processes 2
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
import time
from typing import Any

import httpx
import websockets

ONE_ADDRESS_LIMITS = [
    "--create-rate",
    "100000/minute",
    "--hello-rate",
    "100000/minute",
    "--max-open-tables",
    "100000",
]
LEVELS = "greedy,ismcts-easy,ismcts,ismcts-hard,ismcts-expert"


async def play_seat(
    base: str, table: str, seat: int, token: str, waits: list[float], rng: random.Random
) -> None:
    """Play ``seat`` at once, and time every step that waits on a bot."""
    async with websockets.connect(
        base.replace("http", "ws") + f"/ws/{table}", max_size=2**22
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "seat": seat, "token": token}))
        waiting_since: float | None = None  # a bot's step began (for this seat) at
        waiting_step = -1
        acted = -1
        while True:
            message = json.loads(await ws.recv())
            now = time.perf_counter()
            kind = message["type"]
            if kind == "ack" and waiting_since is not None:
                waiting_since = max(waiting_since, now)  # our part done: now the bot's
                continue
            if kind == "error":
                raise RuntimeError(f"table {table} seat {seat}: {message}")
            if kind != "update":
                continue
            state = message["state"]
            step = state["step"]
            if waiting_since is not None and step > waiting_step:
                waits.append(now - waiting_since)
                waiting_since = None
            if state["outcome"]:
                return
            bots = [s for s in state["waiting"] if s != seat]
            if bots and waiting_since is None:
                waiting_since, waiting_step = now, step
            decision = state["decision"]
            if decision and step != acted and not state["submitted"]:
                acted = step
                choice = rng.choice(decision["legal"])
                await ws.send(json.dumps({"type": "choose", "step": step, "choice": choice}))


async def run_level(
    base: str, game: str, level: str, players: int, tables: int, seconds: float
) -> dict[str, Any]:
    options: dict[str, Any] = {"players": players} if game == "sfdbg" else {}
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": level}] * (players - 1)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        made = []
        for _ in range(tables):
            answer = await http.post(
                "/api/tables", json={"game": game, "seats": seats, "options": options}
            )
            answer.raise_for_status()
            made.append(answer.json())
    waits: list[float] = []
    rng = random.Random(0)
    seats_played = [
        play_seat(base, t["id"], link["seat"], link["token"], waits, random.Random(rng.random()))
        for t in made
        for link in t["links"]
    ]
    started = time.perf_counter()
    tasks = [asyncio.create_task(s) for s in seats_played]
    done, pending = await asyncio.wait(tasks, timeout=seconds)
    for task in pending:
        task.cancel()
    for task in pending:
        with contextlib.suppress(asyncio.CancelledError):
            await task
    for task in done:
        task.result()  # a table's error is the benchmark's
    ms = sorted(x * 1000 for x in waits) or [0.0]
    return {
        "level": level,
        "tables": tables,
        "seconds": round(time.perf_counter() - started, 1),
        "bot_steps": len(waits),
        "p50_ms": round(statistics.median(ms), 1),
        "p99_ms": round(ms[int(0.99 * (len(ms) - 1))], 1),
        "max_ms": round(ms[-1], 1),
        "over_target": round(sum(1 for x in ms if x > TARGET_MS) / len(ms), 4),
        "finished_tables": sum(1 for t in done if not t.cancelled()),
    }


TARGET_MS = 1000.0
WORKERS_START = 10.0


def main() -> None:
    global TARGET_MS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="sfdbg")
    parser.add_argument("--levels", default=LEVELS)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--target", type=float, default=1.0, help="seconds a person may wait")
    parser.add_argument("--port", type=int, default=8798)
    parser.add_argument(
        "--bot-processes",
        type=int,
        default=0,
        help="the server's worker processes for bots (0: its threads, the default)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    TARGET_MS = args.target * 1000
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kumite.cli.main",
                "serve",
                "--port",
                str(args.port),
                "--database-url",
                f"sqlite:///{tmp}/bots.sqlite3",
                "--bot-delay",
                "0",
                "--bot-processes",
                str(args.bot_processes),
                *ONE_ADDRESS_LIMITS,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=dict(os.environ),
        )
        base = f"http://127.0.0.1:{args.port}"
        try:
            for _ in range(300):
                try:
                    if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            if args.bot_processes:
                # The server starts its workers as it comes up; they take a few seconds to
                # load the games, which a person arriving later never waits for.
                time.sleep(WORKERS_START)
            for level in args.levels.split(","):
                row = asyncio.run(
                    run_level(base, args.game, level, args.players, args.tables, args.seconds)
                )
                row["load_average"] = [round(x, 2) for x in os.getloadavg()]
                rows.append(row)
                if not args.json:
                    print(
                        f"{args.game} {args.players} seats, {level}"
                        f"{f' ({args.bot_processes} bot processes)' if args.bot_processes else ''}"
                        f": {row['tables']} tables at "
                        f"once for {row['seconds']} s, {row['bot_steps']} bot steps: wait p50 "
                        f"{row['p50_ms']} ms, p99 {row['p99_ms']} ms, max {row['max_ms']} ms; "
                        f"{100 * row['over_target']:.1f}% over {args.target:g} s "
                        f"(load {row['load_average']})",
                        flush=True,
                    )
        finally:
            server.terminate()
            server.wait(timeout=10)
    if args.json:
        print(
            json.dumps(
                {
                    "game": args.game,
                    "players": args.players,
                    "bot_processes": args.bot_processes,
                    "levels": rows,
                }
            )
        )


if __name__ == "__main__":
    main()
