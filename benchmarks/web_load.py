"""Load test of the web table: N concurrent bot-vs-bot games over WebSockets on loopback.

Starts ``kumite serve`` (SQLite in a temporary directory unless ``--database-url``), creates N
SF Rivals tables with two remote seats each, and plays every game to the end from this
process with random legal choices, all games at once. Each bot thinks a while before it
answers (``--think MIN MAX`` seconds, default 0.5-1.5, like bots at the table; ``--think 0 0``
answers at once: a pure throughput test). Prints the throughput and the latency of a choice
(sent -> acknowledged, i.e. committed to the database), p50 and p99.
Target (issue 5): 200 concurrent games, p99 < 100 ms.

The server runs with the defaults of ``kumite serve`` but for its limits per client address,
raised for 400 players who all come from this one address (their cost is still paid, and
measured); every table's seed is the server's secret.

    python benchmarks/web_load.py [--games 200] [--think 0.5 1.5] [--database-url URL] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
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

TARGET_P99_MS = 100.0
# Every simulated player comes from 127.0.0.1: per-address limits for a crowd, not one person.
ONE_ADDRESS_LIMITS = [
    "--create-rate",
    "100000/minute",
    "--hello-rate",
    "100000/minute",
    "--max-open-tables",
    "100000",
]


async def play_seat(
    base: str,
    table: str,
    seat: int,
    token: str,
    latencies: list[float],
    rng: random.Random,
    think: tuple[float, float],
) -> None:
    async with websockets.connect(
        base.replace("http", "ws") + f"/ws/{table}", max_size=2**22
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "seat": seat, "token": token}))
        acted = -1
        sent_at = 0.0
        while True:
            message = json.loads(await ws.recv())
            kind = message["type"]
            if kind == "ack":
                latencies.append(time.perf_counter() - sent_at)
            elif kind == "error":
                raise RuntimeError(f"table {table} seat {seat}: {message}")
            elif kind == "update":
                state = message["state"]
                if state["outcome"]:
                    return
                decision = state["decision"]
                if decision and state["step"] != acted:
                    acted = state["step"]
                    if think[1] > 0:  # a bot's thinking time before it answers
                        await asyncio.sleep(rng.uniform(*think))
                    sent_at = time.perf_counter()
                    await ws.send(
                        json.dumps(
                            {
                                "type": "choose",
                                "step": acted,
                                "choice": rng.choice(decision["legal"]),
                            }
                        )
                    )


async def run(base: str, games: int, think: tuple[float, float] = (0.0, 0.0)) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        tables = []
        for _ in range(games):
            answer = await http.post(
                "/api/tables",
                json={"game": "sfrivals", "seats": [{"kind": "human"}, {"kind": "human"}]},
            )
            answer.raise_for_status()
            tables.append(answer.json())
    latencies: list[float] = []
    rng = random.Random(0)
    started = time.perf_counter()
    await asyncio.gather(
        *(
            play_seat(
                base,
                t["id"],
                link["seat"],
                link["token"],
                latencies,
                random.Random(rng.random()),
                think,
            )
            for t in tables
            for link in t["links"]
        )
    )
    elapsed = time.perf_counter() - started
    ms = sorted(x * 1000 for x in latencies)
    return {
        "benchmark": "web-load",
        "concurrent_games": games,
        "seconds": round(elapsed, 2),
        "games_per_second": round(games / elapsed, 1),
        "choices_per_second": round(len(ms) / elapsed, 1),
        "choices": len(ms),
        "latency_ms_p50": round(statistics.median(ms), 1),
        "latency_ms_p99": round(ms[int(0.99 * (len(ms) - 1))], 1),
        "think_seconds": list(think),
        "target_p99_ms": TARGET_P99_MS,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--port", type=int, default=8799)
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        default=(0.5, 1.5),
        metavar=("MIN", "MAX"),
        help="each bot waits a uniform MIN..MAX seconds before answering, as bots at the "
        "table do (0 0: answer at once, a pure throughput test)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{tmp}/load.sqlite3"
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kumite.cli.main",
                "serve",
                "--port",
                str(args.port),
                "--database-url",
                url,
                "--bot-delay",
                "0",
                *ONE_ADDRESS_LIMITS,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=dict(os.environ),
        )
        base = f"http://127.0.0.1:{args.port}"
        try:
            for _ in range(200):
                try:
                    if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            result = asyncio.run(run(base, args.games, tuple(args.think)))
        finally:
            server.terminate()
            server.wait(timeout=10)
    result["database"] = url.split(":", 1)[0]
    if args.json:
        print(json.dumps(result))
    else:
        verdict = "meets" if result["latency_ms_p99"] < TARGET_P99_MS else "misses"
        lo, hi = args.think
        print(
            f"{result['concurrent_games']} concurrent games (bots think {lo:g}-{hi:g} s) "
            f"in {result['seconds']} s: "
            f"{result['games_per_second']} games/s, {result['choices_per_second']} choices/s; "
            f"choice latency p50 {result['latency_ms_p50']} ms, p99 {result['latency_ms_p99']} "
            f"ms ({verdict} the {TARGET_P99_MS:.0f} ms target) [{result['database']}]"
        )


if __name__ == "__main__":
    main()
