"""What one step of each card value does to chosen Rivales fights, under chosen bots.

A designer's screen before (or instead of) a search: for every value ``--vary`` names (the
syntax of ``kumite balance``), the pack moved one step down and one step up, each within its
``--range``; for each of these single moves, every ``--pair`` (``a:b``, ``a``'s score) is
played ``--fights`` times by each ``--agent`` against itself, seats alternating. Every move
plays the same fight seeds as the starting pack (fight ``n`` of pair ``(a, b)`` is seeded
``derive_seed(--seed, "screen", a, b, n)``), so a move's effect is read against the same
deals: the change is given with the standard error of the paired differences.

    python scripts/rivales_screen.py --pair darwin:hansel-gretel \
        --vary 'darwin*:speed,damage,guard' --vary 'darwin:life,ultra_at' \
        --range speed=1..7 --range damage=0..4 --range guard=0..3 \
        [--agent greedy] [--fights 200] [--seed 3401] [--jobs 2] [--start PACK] \
        [--only darwin.pinzon.speed=6,...] [--json]

``--only`` plays the named moves alone (``ID.FIELD=VALUE``), e.g. the few a fast bot's screen
kept, under a slower bot.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rivales_balance import results  # scripts/, the directory of this script

from kumite.agents.registry import agent_names
from kumite.cards.pack import PackData, parse_toml
from kumite.core.errors import KumiteError, OptionsError
from kumite.games.rivales.game import GAME
from kumite.sim.adapters import Adapter, adapter_for
from kumite.sim.balance import Knob, knobs_of, overlay_text, pack_of

CHUNK = 10
"""Fights per job (jobs are spread over the workers)."""

Job = tuple[int, str, str, int, int, str, int, str | None]


def fights(job: Job) -> tuple[int, str, str, int, list[float]]:
    """``a``'s result in each of the fights ``start .. stop - 1`` against ``b``."""
    move, a, b, start, stop, agent, seed, pack = job
    return move, a, b, start, results(a, b, start, stop, agent, pack, seed, "screen")


def parse_range(text: str) -> tuple[str, tuple[int, int]]:
    name, _, span = text.partition("=")
    low, _, high = span.partition("..")
    try:
        return name, (int(low), int(high))
    except ValueError:
        raise OptionsError(f"bad --range {text!r}: use FIELD=LOW..HIGH") from None


def moves_of(knobs: Sequence[Knob], only: Sequence[str]) -> list[tuple[str, Knob | None, int]]:
    """Every single move: (label, knob, new value); the starting pack first."""
    out: list[tuple[str, Knob | None, int]] = [("start", None, 0)]
    by_key = {k.key: k for k in knobs}
    if only:
        for item in only:
            key, _, text = item.partition("=")
            if key not in by_key:
                raise OptionsError(f"--only {item!r}: no value {key!r} among --vary's")
            knob = by_key[key]
            if not text.lstrip("-").isdigit() or not knob.low <= int(text) <= knob.high:
                raise OptionsError(f"--only {item!r}: {key} may be {knob.low}..{knob.high}")
            out.append((f"{key} {knob.base} -> {text}", knob, int(text)))
        return out
    for knob in knobs:
        for value in (knob.base - knob.step, knob.base + knob.step):
            if knob.low <= value <= knob.high:
                out.append((f"{knob.key} {knob.base} -> {value}", knob, value))
    return out


def _moves(
    args: argparse.Namespace, pack: PackData, fighters: list[str], adapter: Adapter
) -> list[tuple[str, Knob | None, int]]:
    """The moves ``--vary``, ``--range`` and ``--only`` name (at most one step each)."""
    knobs = knobs_of(
        pack,
        args.vary,
        fighters,
        ranges=dict(parse_range(r) for r in args.range),
        max_change=1,
        adapter=adapter,
    )
    return moves_of(knobs, [o for o in args.only.split(",") if o])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pair", action="append", required=True, help="a:b (repeatable)")
    parser.add_argument("--vary", action="append", required=True, help="ID-GLOB:FIELD[,...]")
    parser.add_argument("--range", action="append", default=[], help="FIELD=LOW..HIGH")
    parser.add_argument("--agent", action="append", help="any Rivales bot; repeatable")
    parser.add_argument("--fights", type=int, default=200, help="fights per pair and move")
    parser.add_argument("--seed", type=int, default=3401)
    parser.add_argument("--jobs", "-j", type=int, default=2)
    parser.add_argument("--start", type=Path, default=None, help="overlay pack to start from")
    parser.add_argument("--only", default="", help="ID.FIELD=VALUE,... (these moves alone)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        start = GAME.read_overlay(args.start) if args.start else None
    except KumiteError as error:
        parser.error(str(error))
    pack = pack_of("rivales", start)
    fighters = list(GAME.catalog(GAME.parse_options({"pack": start} if start else {})).fighters)
    pairs = [(p.partition(":")[0], p.partition(":")[2]) for p in args.pair]
    for a, b in pairs:
        if a not in fighters or b not in fighters or a == b:
            parser.error(f"bad --pair {a}:{b}: two different fighters of {', '.join(fighters)}")
    agents = [a for item in args.agent or ["greedy"] for a in item.split(",") if a]
    bots = [name for name in agent_names(GAME.info.id) if name != "human"]
    for agent in agents:
        if agent not in bots:
            parser.error(f"unknown agent {agent!r}: one of {', '.join(bots)}")
    adapter = adapter_for("rivales")
    try:
        moves = _moves(args, pack, fighters, adapter)
    except OptionsError as error:
        parser.error(str(error))
    start_data = None if start is None else parse_toml(start, "start").data
    texts = [
        start
        if knob is None
        else overlay_text(
            pack,
            [(knob, value)],
            "rivales-screen",
            note="screen",
            start=start_data,
            adapter=adapter,
        )
        for _, knob, value in moves
    ]
    out: dict[str, Any] = {"seed": args.seed, "fights": args.fights, "agents": {}}
    for agent in agents:
        work: list[Job] = [
            (m, a, b, s, min(s + CHUNK, args.fights), agent, args.seed, texts[m])
            for m, (a, b) in itertools.product(range(len(moves)), pairs)
            for s in range(0, args.fights, CHUNK)
        ]
        with multiprocessing.Pool(args.jobs) as pool:
            done = pool.map(fights, work, chunksize=1)
        results: dict[tuple[int, str, str], list[float]] = {}
        for m, a, b, _start, rs in sorted(done):  # fights in order
            results.setdefault((m, a, b), []).extend(rs)
        rows = []
        for m, (label, _, _) in enumerate(moves):
            row: dict[str, Any] = {"move": label}
            for a, b in pairs:
                mine, base = results[(m, a, b)], results[(0, a, b)]
                diffs = [x - y for x, y in zip(mine, base, strict=True)]
                mean = sum(mine) / len(mine)
                delta = sum(diffs) / len(diffs)
                var = sum((d - delta) ** 2 for d in diffs) / max(1, len(diffs) - 1)
                row[f"{a}|{b}"] = {
                    "score": round(mean, 3),
                    "change": round(delta, 3),
                    "se": round(math.sqrt(var / len(diffs)), 3),
                }
            rows.append(row)
        out["agents"][agent] = rows
        if not args.json:
            show(agent, args, pairs, rows)
    if args.json:
        print(json.dumps(out))


def show(
    agent: str, args: argparse.Namespace, pairs: list[tuple[str, str]], rows: list[Any]
) -> None:
    print(
        f"{agent} vs {agent}, {args.fights} fights per pair and move (seats alternating), "
        f"seed {args.seed}{', from ' + args.start.name if args.start else ''}; "
        "score of the first fighter, change from the start (± its standard error)"
    )
    width = max(len(r["move"]) for r in rows)
    heads = [f"{a}:{b}"[:22] for a, b in pairs]
    print(" " * width + "".join(f"  {h:>22}" for h in heads))
    for row in rows:
        cells = []
        for a, b in pairs:
            c = row[f"{a}|{b}"]
            change = "" if row["move"] == "start" else f" {c['change']:+.3f}±{c['se']:.3f}"
            cells.append(f"{c['score']:.3f}{change}")
        print(f"{row['move']:>{width}}" + "".join(f"  {c:>22}" for c in cells))


if __name__ == "__main__":
    main()
