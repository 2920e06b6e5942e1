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

``--moves`` times the bots themselves instead, in this machine's processes (no server): for
each level (a fresh process each) every decision of ``--games`` SF Rivals games against
``random`` in each ordered pair of characters (``--pairs``, default all 64 of the shipped
table: so every pair in both seat orders), the level's seat alternating. It prints min,
median, p99 and max a move beside the target (``--target-ms``, 50), the share over it, in
wall time and in the thread's CPU time (on a shared machine the wall time holds the moments
other processes had the core), each side's first game in the process apart (it loads the
side: its solution, its book, the rule tables its later rounds fill), the
seconds the compiled kernels took to load first, the moves again less the interpreter's
garbage collections that fell inside them (a full one pauses every thread of the process for
tens of milliseconds once its heap is large: not the bot's work), and the positions each
level solved while it moved (none but the last rounds' small ones for ``bounded``: its
books):

    python benchmarks/bot_latency.py sfrivals --moves --levels bounded,greedy --games 4
    python benchmarks/bot_latency.py sfrivals --moves --levels belief --pairs ryu,ken zangief,juri
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
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
MOVE_LEVELS = "greedy,bounded,belief,belief-safe,ismcts"


def time_moves(level: str, pairs: list[tuple[str, str]], games: int) -> dict[str, Any]:
    """In this process: every decision of ``level`` in ``games`` games per pair."""
    from kumite.agents.base import decide
    from kumite.agents.registry import make_agent
    from kumite.core.registry import get_game

    started = time.perf_counter()
    kernels_s = None
    if level in ("bounded", "belief", "belief-safe", "equilibrium"):
        from kumite.games.sfrivals.solver import warm

        warm.load()  # what a server's background thread does once, before any table
        kernels_s = round(time.perf_counter() - started, 2)
    game = get_game("sfrivals")
    warm_ms: list[float] = []
    net_ms: list[float] = []
    pauses: list[float] = []
    collecting = [0.0]

    def collected(phase: str, info: dict[str, int]) -> None:
        # the interpreter's garbage collections: a pause of every thread, not the bot's work
        if phase == "start":
            collecting[0] = time.perf_counter()
        else:
            pauses.append(1000 * (time.perf_counter() - collecting[0]))

    gc.callbacks.append(collected)
    first_ms: list[float] = []
    cpu_ms: list[float] = []
    first_cpu: list[float] = []
    for a, b in pairs:
        for g in range(games):
            seed = 1000 * g + 7
            state = game.new_state(seed, {"characters": [a, b]})
            state.quiet = True
            seat = g % 2
            bot = make_agent(level, game, state.options_json, seat, seed)
            rng = random.Random(seed)
            # the pair's first game in each seat: it loads the pair's side (solution, book,
            # the rule tables its later rounds fill), which every later game reads
            first = g < 2
            while state.pending():
                choices = {}
                for d in state.pending():
                    if d.seat == seat:
                        t, c = time.perf_counter(), time.thread_time()
                        before = len(pauses)
                        choices[seat] = decide(bot, state, d)
                        ms = 1000 * (time.perf_counter() - t)
                        if d.kind == "character":
                            continue
                        (first_ms if first else warm_ms).append(ms)
                        if not first:
                            net_ms.append(ms - sum(pauses[before:]))
                        (first_cpu if first else cpu_ms).append(1000 * (time.thread_time() - c))
                    else:
                        choices[d.seat] = rng.choice(d.legal)
                state.apply(choices)
    gc.callbacks.remove(collected)
    solved = _solved_on_moves()
    with open("/proc/self/status") as status:
        rss = next(int(x.split()[1]) for x in status if x.startswith("VmRSS:")) / 1024
    return {
        "level": level,
        "pairs": len(pairs),
        "games": games * len(pairs),
        "kernels_s": kernels_s,
        "moves": _spread(sorted(warm_ms)),
        "moves_cpu": _spread(sorted(cpu_ms)),
        "moves_without_gc": _spread(sorted(net_ms)),
        "gc_pauses_over_20_ms": sorted(round(x, 1) for x in pauses if x > 20),
        "first_game_of_a_side": _spread(sorted(first_ms)),
        "first_game_of_a_side_cpu": _spread(sorted(first_cpu)),
        "all": _spread(sorted(first_ms + warm_ms)),
        "positions_solved_on_moves": solved,
        "rss_mb": round(rss, 1),
        "seconds": round(time.perf_counter() - started, 1),
    }


def _solved_on_moves() -> dict[str, int] | None:
    """States the solver bots solved in this process (their shared memory's objects)."""
    import sys

    if "kumite.games.sfrivals.solver.resident" not in sys.modules:
        return None
    from kumite.games.sfrivals.solver.book import BookSide
    from kumite.games.sfrivals.solver.resident import MEMORY

    out = {"book_nodes_read": 0, "late_nodes": 0, "late_states": 0, "matchup_states": 0}
    for key in MEMORY.kept_keys():
        kept = MEMORY.peek(key)
        if isinstance(kept, BookSide):
            out["book_nodes_read"] += kept.hits
            out["late_nodes"] += kept.late_nodes
            late = kept._late
            out["late_states"] += 0 if late is None else late.states_solved
        elif kept is not None:
            sol: Any = kept
            out["matchup_states"] += sol.solver.states_solved + sum(
                side.states_solved for side in sol._sides if side is not None
            )
    return out


def _spread(ms: list[float]) -> dict[str, Any]:
    if not ms:
        return {"n": 0}
    return {
        "n": len(ms),
        "min_ms": round(ms[0], 2),
        "median_ms": round(statistics.median(ms), 2),
        "p99_ms": round(ms[int(0.99 * (len(ms) - 1))], 2),
        "max_ms": round(ms[-1], 2),
        "over_target": round(sum(1 for x in ms if x > TARGET_MS) / len(ms), 4),
    }


def _line(wall: dict[str, Any], cpu: dict[str, Any], target: float) -> str:
    return (
        f"{wall['n']} moves: min {wall.get('min_ms')} / median {wall.get('median_ms')} / p99 "
        f"{wall.get('p99_ms')} / max {wall.get('max_ms')} ms, "
        f"{100 * wall.get('over_target', 0):.2f}% over {target:g} ms (CPU time: median "
        f"{cpu.get('median_ms')} / p99 {cpu.get('p99_ms')} / max {cpu.get('max_ms')} ms, "
        f"{100 * cpu.get('over_target', 0):.2f}% over)"
    )


def moves_main(args: argparse.Namespace) -> None:
    """``--moves``: each level in a fresh process of its own."""
    rows = []
    for level in args.levels.split(","):
        command = [sys.executable, __file__, "--moves-worker", level, "--games", str(args.games)]
        command += ["--target-ms", str(args.target_ms)]
        if args.pairs:
            command += ["--pairs", *args.pairs]
        done = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ))
        if done.returncode != 0:
            raise RuntimeError(done.stderr[-2000:])
        row = json.loads(done.stdout.strip().splitlines()[-1])
        row["load_average"] = [round(x, 2) for x in os.getloadavg()]
        rows.append(row)
        if not args.json:
            m, c = row["moves"], row["moves_cpu"]
            f, fc, a = row["first_game_of_a_side"], row["first_game_of_a_side_cpu"], row["all"]
            n = row["moves_without_gc"]
            print(
                f"{level}: {row['games']} games over {row['pairs']} ordered pairs (kernels "
                f"{row['kernels_s']} s; {row['rss_mb']} MB; {row['seconds']} s; load "
                f"{row['load_average']})\n"
                f"  after a side's first game, {_line(m, c, args.target_ms)}\n"
                f"  a side's first game, {_line(f, fc, args.target_ms)}\n"
                f"  the same moves less the interpreter's garbage collections inside them: p99 "
                f"{n.get('p99_ms')} / max {n.get('max_ms')} ms, "
                f"{100 * n.get('over_target', 0):.2f}% over (its pauses over 20 ms in the run: "
                f"{row['gc_pauses_over_20_ms']})\n"
                f"  all {a['n']} moves: p99 {a.get('p99_ms')} ms, "
                f"{100 * a.get('over_target', 0):.2f}% over; solved on moves: "
                f"{row['positions_solved_on_moves']}",
                flush=True,
            )
    if args.json:
        print(json.dumps({"target_ms": args.target_ms, "levels": rows}))


def _all_pairs() -> list[tuple[str, str]]:
    from kumite.games.sfrivals.game import GAME

    chars = list(GAME.catalog(GAME.parse_options({})).characters)
    return [(a, b) for a in chars for b in chars]


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
    parser.add_argument("--moves", action="store_true", help="time the bots in-process")
    parser.add_argument("--moves-worker", help=argparse.SUPPRESS)
    parser.add_argument("--games", type=int, default=4, help="--moves: games per pair")
    parser.add_argument("--pairs", nargs="*", help="--moves: X,Y pairs (default: all 64)")
    parser.add_argument("--target-ms", type=float, default=50.0, help="--moves: a move's target")
    args = parser.parse_args()
    if args.moves or args.moves_worker:
        TARGET_MS = args.target_ms
        if args.levels == LEVELS:
            args.levels = MOVE_LEVELS
        if args.moves_worker:
            pairs = [tuple(p.split(",")) for p in args.pairs] if args.pairs else _all_pairs()
            print(json.dumps(time_moves(args.moves_worker, pairs, args.games)))  # type: ignore[arg-type]
            return
        moves_main(args)
        return
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
