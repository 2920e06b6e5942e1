"""Load test of the web table: N concurrent games of all three games over WebSockets on
loopback, half of the seats the server's own bots.

Starts ``kumite serve`` (``--processes N``: N of them on one PostgreSQL database, each seat's
socket sent to a different one in turn, so that most sockets are forwarded to their table's
owner; docs/deploy.md), SQLite in a temporary directory unless ``--database-url``. It makes
``--games`` tables, a third each of SF Rivals (a player against a greedy bot), Rivales 2vs2
and SF DBG for 4 (two players and two greedy bots each; greedy is the lobby's default bot),
and plays them from this one process: each player answers a uniform ``--think MIN MAX``
seconds after its decision arrives (default 5-15 s: a person at a table thinks seconds; 0.5
1.5 is the stress pace of earlier rounds), with a random legal choice, for
``--duration`` seconds or until every game is over. Players arrive at random over the first
``--ramp`` seconds (10), as people do, not all in one instant.

It prints, each beside its target (issue 15):

- choice -> acknowledgement (sent until the ``ack``: committed), p50 / p99 < 50 ms;
- choice -> opponent's update (sent until another player of the table is sent the update
  that shows it; timed for the players at the table when the choice was sent: one who
  arrives later never waited for it), p50 / p99 < 100 ms;
- both p99s by 10 s of the run: every answer counts, the ramp's too (no warm-up is left out),
  and this shows where a tail is;
- errors (any ``error`` message, a socket closed early, a table not made): 0;
- the resident memory of the server process(es) at the end, the machine's load average and
  the CPU time of the servers and of this client during the run (the client shares the
  machine: the figures are honest only beside it).

This client keeps its own cycle collector's passes short the way the server does
(:mod:`kumite.server.collector`): its full passes over 1,666 sockets (up to 0.12 s) would
otherwise be timed as the server's latency.

``--churn N`` measures memory instead: a fresh server's resident memory, then after it has
made N tables and finished them (bot-vs-bot SF Rivals and Rivales tables, which play by
themselves from their creation on; ``--evict-after`` seconds later, when the finished tables
have been let go of), target within 2x.

    python benchmarks/web_load.py [--games 1000] [--think 5 15] [--duration 60]
        [--database-url URL] [--processes N] [--bot-processes N] [--bot AGENT]
        [--churn 10000] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec
import websockets

from kumite.server import collector

TARGET_ACK_MS = 50.0
TARGET_UPDATE_MS = 100.0
TARGET_MEMORY_RATIO = 2.0
# Every simulated player comes from 127.0.0.1: per-address limits for a crowd, not one person.
ONE_ADDRESS_LIMITS = [
    "--create-rate",
    "1000000/minute",
    "--hello-rate",
    "1000000/minute",
    "--max-open-tables",
    "1000000",
    "--max-silent-sockets",
    "1000000",
]
BOT = {"kind": "bot", "agent": "greedy"}
PLAYER = {"kind": "human"}
MIXES: list[dict[str, Any]] = [
    {"game": "sfrivals", "seats": [PLAYER, BOT]},
    {"game": "rivales", "seats": [PLAYER, BOT, PLAYER, BOT]},  # one player in each team
    {"game": "sfdbg", "seats": [PLAYER, BOT, PLAYER, BOT]},
]


# Only what a player needs of a message: msgspec skips the rest (views, events) unread.
class Decision(msgspec.Struct):
    legal: list[str]


class State(msgspec.Struct):
    step: int
    waiting: list[int]
    decision: Decision | None = None
    outcome: Any = None
    closed: bool = False


class Message(msgspec.Struct):
    type: str
    state: State | None = None
    code: str | None = None
    message: str | None = None


DECODE = msgspec.json.Decoder(Message).decode
_ENCODER = msgspec.json.Encoder()


def ENCODE(message: dict[str, Any]) -> str:  # noqa: N802
    return _ENCODER.encode(message).decode()  # a text frame: a binary one is refused


@dataclass
class Table:
    id: str
    sent: dict[int, tuple[int, float]] = field(default_factory=dict)
    """seat -> (step, when) of its latest choice not yet seen by every other player."""
    seen: dict[int, set[int]] = field(default_factory=dict)
    """seat -> the players who have been shown its latest choice, or were not there when
    it was made (a player who arrives later is not kept waiting by it: not timed)."""
    present: set[int] = field(default_factory=set)
    """The players who have had their first update (who are at the table)."""
    players: set[int] = field(default_factory=set)
    """The seats of its players (not its bots)."""


@dataclass
class Figures:
    ack: list[float] = field(default_factory=list)
    update: list[float] = field(default_factory=list)
    ack_at: list[float] = field(default_factory=list)
    """When each acknowledgement came (perf_counter): the tail's place in the run."""
    update_at: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    finished: set[str] = field(default_factory=set)


async def play_seat(
    url: str,
    table: Table,
    seat: int,
    token: str,
    figures: Figures,
    rng: random.Random,
    think: tuple[float, float],
    stop_at: float,
    arrive: float,
) -> None:
    await asyncio.sleep(arrive)  # players arrive over the ramp, not all in one instant
    try:
        async with websockets.connect(url, max_size=2**22, compression=None, open_timeout=30) as ws:
            await ws.send(ENCODE({"type": "hello", "seat": seat, "token": token}))
            acted = -1
            sent = [0.0]  # when the latest choice was sent
            thinking: asyncio.Future[None] | None = None
            while time.perf_counter() < stop_at:
                try:
                    raw = await asyncio.wait_for(ws.recv(), stop_at - time.perf_counter())
                except TimeoutError:
                    return
                now = time.perf_counter()
                message = DECODE(raw)
                if message.type == "ack":
                    figures.ack.append(now - sent[0])
                    figures.ack_at.append(now)
                elif message.type == "error":
                    figures.errors.append(f"{table.id} seat {seat}: {message.code}")
                    return
                elif message.type == "update" and message.state is not None:
                    state = message.state
                    table.present.add(seat)
                    for other, (step, when) in table.sent.items():
                        if other == seat or seat in table.seen[other]:
                            continue
                        if state.step > step or (state.step == step and other not in state.waiting):
                            figures.update.append(now - when)
                            figures.update_at.append(now)
                            table.seen[other].add(seat)
                    if state.outcome is not None or state.closed:
                        figures.finished.add(table.id)
                        return
                    if state.decision and state.step != acted:
                        acted = state.step
                        # Think in a task of its own: meanwhile this player goes on reading
                        # (else an update would wait unread, and be timed late).
                        if thinking is not None:
                            thinking.cancel()
                        thinking = asyncio.ensure_future(
                            answer(
                                ws,
                                table,
                                seat,
                                acted,
                                rng.choice(state.decision.legal),
                                rng.uniform(*think) if think[1] > 0 else 0.0,
                                sent,
                            )
                        )
            if thinking is not None:
                thinking.cancel()
    except (OSError, websockets.ConnectionClosed) as exc:
        figures.errors.append(f"{table.id} seat {seat}: {type(exc).__name__} {exc}")


async def answer(
    ws: Any, table: Table, seat: int, step: int, choice: str, delay: float, sent: list[float]
) -> None:
    """A player's choice, ``delay`` seconds from now."""
    if delay:
        await asyncio.sleep(delay)
    sent[0] = time.perf_counter()
    table.sent[seat] = (step, sent[0])
    table.seen[seat] = table.players - table.present
    with contextlib.suppress(websockets.ConnectionClosed):  # the run is over
        await ws.send(ENCODE({"type": "choose", "step": step, "choice": choice}))


def _with_bot(mix: dict[str, Any], agent: str) -> dict[str, Any]:
    """``mix`` with its bot seats played by ``agent``."""
    seats = [{**s, "agent": agent} if s["kind"] == "bot" else s for s in mix["seats"]]
    return {**mix, "seats": seats}


async def run(
    bases: list[str],
    games: int,
    think: tuple[float, float],
    duration: float,
    ramp: float,
    bot: str = "greedy",
) -> dict[str, Any]:
    figures = Figures()
    jobs = []
    rng = random.Random(0)
    async with httpx.AsyncClient(timeout=60) as http:
        for index in range(games):
            mix = _with_bot(MIXES[index % len(MIXES)], bot)
            answer = await http.post(bases[index % len(bases)] + "/api/tables", json=mix)
            if answer.status_code != 200:
                figures.errors.append(f"table {index}: {answer.status_code} {answer.text[:80]}")
                continue
            made = answer.json()
            table = Table(made["id"], players={link["seat"] for link in made["links"]})
            for n, link in enumerate(made["links"]):
                base = bases[(index + n + 1) % len(bases)]  # another process than the maker
                url = base.replace("http", "ws") + f"/ws/{table.id}"
                jobs.append((url, table, link["seat"], link["token"], random.Random(rng.random())))
    print(f"{len(jobs)} players start", file=sys.stderr, flush=True)
    started = time.perf_counter()
    stop_at = started + duration
    # This client's own full collections (up to 0.12 s over its 1,666 sockets) would be
    # timed as the server's latency: it keeps them short the way the server does.
    freezing = asyncio.ensure_future(collector.run(0))
    await asyncio.gather(
        *(
            play_seat(
                url, table, seat, token, figures, seat_rng, think, stop_at, rng.uniform(0, ramp)
            )
            for url, table, seat, token, seat_rng in jobs
        )
    )
    elapsed = time.perf_counter() - started
    freezing.cancel()
    ack = sorted(x * 1000 for x in figures.ack)
    update = sorted(x * 1000 for x in figures.update)
    return {
        "concurrent_games": games,
        "players": len(jobs),
        "seconds": round(elapsed, 1),
        "games_finished": len(figures.finished),
        "choices": len(ack),
        "choices_per_second": round(len(ack) / elapsed, 1),
        "ack_ms_p50": _quantile(ack, 0.5),
        "ack_ms_p99": _quantile(ack, 0.99),
        "update_ms_p50": _quantile(update, 0.5),
        "update_ms_p99": _quantile(update, 0.99),
        "updates_measured": len(update),
        "errors": len(figures.errors),
        "first_errors": figures.errors[:5],
        "windows": _windows(figures, started, elapsed),
    }


WINDOW = 10.0
"""Seconds of each slice of the run whose p99s are printed (where the tail is: at the ramp,
or throughout)."""


def _windows(figures: Figures, started: float, elapsed: float) -> list[dict[str, Any]]:
    """The p99s of each :data:`WINDOW` seconds of the run, by when the answer came."""
    out = []
    for n in range(int(elapsed // WINDOW) + 1):
        lo, hi = started + n * WINDOW, started + (n + 1) * WINDOW
        ack = sorted(
            x * 1000 for x, t in zip(figures.ack, figures.ack_at, strict=True) if lo <= t < hi
        )
        update = sorted(
            x * 1000 for x, t in zip(figures.update, figures.update_at, strict=True) if lo <= t < hi
        )
        if ack or update:
            out.append(
                {
                    "from_s": n * WINDOW,
                    "choices": len(ack),
                    "ack_ms_p99": _quantile(ack, 0.99),
                    "update_ms_p99": _quantile(update, 0.99),
                    "ack_ms_max": round(ack[-1], 1) if ack else None,
                }
            )
    return out


def _quantile(values: list[float], q: float) -> float | None:
    return round(values[int(q * (len(values) - 1))], 1) if values else None


# -- the server processes ------------------------------------------------------------------
def rss_mb(pid: int) -> float:
    """Resident memory of a process (VmRSS), in MB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def loadavg() -> float:
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


@contextlib.contextmanager
def servers(url: str, count: int, port: int, extra: list[str]) -> Any:
    procs = []
    bases = []
    try:
        for n in range(count):
            bases.append(f"http://127.0.0.1:{port + n}")
            procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "kumite.cli.main",
                        "serve",
                        "--port",
                        str(port + n),
                        "--database-url",
                        url,
                        "--bot-delay",
                        "0",
                        *ONE_ADDRESS_LIMITS,
                        *extra,
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    env=dict(os.environ),
                )
            )
        for base in bases:
            for _ in range(300):
                try:
                    if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
            else:
                raise RuntimeError(f"{base} did not start")
        yield bases, procs
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=20)


def load(args: argparse.Namespace, url: str) -> dict[str, Any]:
    extra = ["--bot-processes", str(args.bot_processes)]
    with servers(url, args.processes, args.port, extra) as (bases, procs):
        before = {p.pid: cpu_seconds(p.pid) for p in procs}
        me = cpu_seconds(os.getpid())
        load_before = loadavg()
        result = asyncio.run(
            run(bases, args.games, tuple(args.think), args.duration, args.ramp, args.bot)
        )
        result["server_cpu_seconds"] = round(
            sum(cpu_seconds(p.pid) - before[p.pid] for p in procs), 1
        )
        result["client_cpu_seconds"] = round(cpu_seconds(os.getpid()) - me, 1)
        result["load_average"] = [load_before, loadavg()]
        result["server_rss_mb"] = [rss_mb(p.pid) for p in procs]
    return result


async def churn_tables(base: str, count: int, window: int = 200) -> int:
    """Make ``count`` bot-vs-bot tables, at most ``window`` unfinished at once, and wait for
    each to finish. Returns how many were refused or did not finish."""
    mixes = [
        {"game": "sfrivals", "seats": [BOT, BOT]},
        {"game": "rivales", "seats": [{"kind": "bot"}, {"kind": "bot"}]},
    ]
    failed = 0
    gate = asyncio.Semaphore(window)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:

        async def one(index: int) -> None:
            nonlocal failed
            async with gate:
                answer = await http.post("/api/tables", json=mixes[index % len(mixes)])
                if answer.status_code != 200:
                    failed += 1
                    return
                table = answer.json()["id"]
                for _ in range(600):
                    info = (await http.get(f"/api/tables/{table}")).json()
                    if info.get("finished"):
                        return
                    await asyncio.sleep(0.5)
                failed += 1

        await asyncio.gather(*(one(i) for i in range(count)))
    return failed


def churn(args: argparse.Namespace, url: str) -> dict[str, Any]:
    evict = ["--evict-after", str(args.evict_after)]
    with servers(url, 1, args.port, evict) as (bases, procs):
        pid = procs[0].pid
        time.sleep(2)
        fresh = rss_mb(pid)
        started = time.perf_counter()
        failed = asyncio.run(churn_tables(bases[0], args.churn))
        made = time.perf_counter() - started
        at_end = rss_mb(pid)
        time.sleep(args.evict_after + 31)  # the finished tables are let go of
        settled = rss_mb(pid)
    return {
        "tables": args.churn,
        "failed": failed,
        "seconds": round(made, 1),
        "fresh_rss_mb": fresh,
        "rss_mb_when_done": at_end,
        "rss_mb_after_eviction": settled,
        "ratio": round(settled / fresh, 2),
        "target_ratio": TARGET_MEMORY_RATIO,
    }


def verdict(value: float | None, target: float) -> str:
    return "no data" if value is None else ("meets" if value < target else "MISSES")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--port", type=int, default=8799)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play at most")
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        default=(5.0, 15.0),
        metavar=("MIN", "MAX"),
        help="each player waits a uniform MIN..MAX seconds before answering (a person at a "
        "table: seconds; 0.5 1.5 is the stress pace, 0 0 answers at once)",
    )
    parser.add_argument(
        "--ramp", type=float, default=10.0, help="players arrive over the first S seconds"
    )
    parser.add_argument(
        "--bot", default="greedy", help="the agent of every bot seat (greedy: the lobby's)"
    )
    parser.add_argument(
        "--bot-processes",
        type=int,
        default=0,
        help="each server's bots think in N worker processes (kumite serve --bot-processes)",
    )
    parser.add_argument("--churn", type=int, default=0, help="measure memory over N tables")
    parser.add_argument("--evict-after", type=float, default=5.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.processes > 1 and not (args.database_url or "").startswith("postgresql"):
        parser.error("--processes N needs a PostgreSQL --database-url")
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{tmp}/load.sqlite3"
        result = churn(args, url) if args.churn else load(args, url)
    result["database"] = url.split(":", 1)[0].split("+", 1)[0]
    if args.json:
        print(json.dumps(result))
    elif args.churn:
        r = result
        print(
            f"[{r['database']}] {r['tables']} tables made and finished in {r['seconds']} s "
            f"({r['failed']} failed): server memory fresh {r['fresh_rss_mb']} MB, when done "
            f"{r['rss_mb_when_done']} MB, after eviction {r['rss_mb_after_eviction']} MB = "
            f"{r['ratio']}x fresh (target < {TARGET_MEMORY_RATIO:g}x: "
            f"{verdict(r['ratio'], TARGET_MEMORY_RATIO)})"
        )
    else:
        r = result
        lo, hi = args.think
        print(
            f"[{r['database']}, {args.processes} process(es), --bot-processes "
            f"{args.bot_processes}, bots {args.bot}] {r['concurrent_games']} games, "
            f"{r['players']} players (think {lo:g}-{hi:g} s) + as many bot seats, "
            f"{r['seconds']} s, {r['games_finished']} finished, {r['choices_per_second']} "
            "player choices/s\n"
            f"  choice -> ack:             p50 {r['ack_ms_p50']} ms, p99 {r['ack_ms_p99']} ms "
            f"(target p99 < {TARGET_ACK_MS:g} ms: {verdict(r['ack_ms_p99'], TARGET_ACK_MS)})\n"
            f"  choice -> opponent update: p50 {r['update_ms_p50']} ms, p99 "
            f"{r['update_ms_p99']} ms (target p99 < {TARGET_UPDATE_MS:g} ms: "
            f"{verdict(r['update_ms_p99'], TARGET_UPDATE_MS)}; {r['updates_measured']} seen)\n"
            f"  errors: {r['errors']} (target 0: {'meets' if not r['errors'] else 'MISSES'})"
            f"{' ' + str(r['first_errors']) if r['errors'] else ''}\n"
            f"  server memory at the end: {r['server_rss_mb']} MB; load average "
            f"{r['load_average'][0]} -> {r['load_average'][1]}; CPU s: servers "
            f"{r['server_cpu_seconds']}, this client {r['client_cpu_seconds']}\n"
            "  p99 ack / update (max ack) by 10 s of the run: "
            + ", ".join(
                f"{w['from_s']:g}s {w['ack_ms_p99']}/{w['update_ms_p99']} ({w['ack_ms_max']})"
                for w in r["windows"]
            )
        )


if __name__ == "__main__":
    with contextlib.suppress(ImportError):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    main()
