"""``kumite balance``: targets in, the smallest change of card values out (an overlay pack
and a report). The search is :mod:`kumite.sim.balance`; this module reads the command line,
shows a progress bar and writes the files."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from kumite.cli.common import new_seed, split_list
from kumite.core.errors import OptionsError
from kumite.core.registry import get_spec
from kumite.sim.adapters import adapter_for
from kumite.sim.backends import default_jobs
from kumite.sim.balance import BalanceSpec, Targets, balance, knobs_of, pack_of, parse_chart
from kumite.tui.console import console, err_console


@dataclasses.dataclass
class BalanceArgs:
    game: str
    judges: list[str]
    vary: list[str]
    ranges: list[str]
    steps: list[str]
    max_change: int | None
    freeze: list[str]
    pairing: str | None
    half: bool
    chart: Path | None
    chart_tolerance: float
    share: str | None
    players: list[int]
    entities: str | None
    budget: int
    fights: int
    seed: int | None
    jobs: int | None
    backend: str
    address: str | None
    start: Path | None
    out: Path
    report: Path | None
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    progress: bool = True
    json_out: bool = False
    batch: int = 20
    max_fights: int = 80
    judge_batch: int = 40
    stages: int = 6
    judge_check: int | None = None
    screen: int = 2


def _bounds(text: str, what: str) -> tuple[float, float]:
    parts = [p for p in text.replace("..", ",").split(",") if p.strip()]
    try:
        lo, hi = (float(p) for p in parts)
    except ValueError:
        raise OptionsError(f"--{what} {text!r}: give two numbers, e.g. 0.4,0.6") from None
    if lo > hi:
        raise OptionsError(f"--{what} {text!r}: the lower bound comes first")
    return lo, hi


def _field_ints(items: Sequence[str], what: str) -> dict[str, tuple[int, int] | int]:
    out: dict[str, Any] = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq:
            raise OptionsError(f"--{what} {item!r}: use FIELD=VALUE")
        try:
            if what == "range":
                lo, hi = _bounds(value, what)
                out[name.strip()] = (int(lo), int(hi))
            else:
                out[name.strip()] = int(value)
        except ValueError:
            raise OptionsError(f"--{what} {item!r}: integers only") from None
    return out


def spec_of(args: BalanceArgs) -> BalanceSpec:
    game_spec = get_spec(args.game)
    game = game_spec.load()
    start = None
    if args.start is not None:
        start = game.read_overlay(args.start)  # type: ignore[attr-defined]
    pack = pack_of(args.game, start)
    adapter = adapter_for(args.game)
    entities = split_list(args.entities) or adapter.entity_ids(game, args.options)
    targets = Targets(
        pairing=_bounds(args.pairing, "pairing") if args.pairing else None,
        half=args.half,
        chart=parse_chart(args.chart.read_text("utf-8")) if args.chart else None,
        chart_tolerance=args.chart_tolerance,
        share=_bounds(args.share, "share") if args.share else None,
    )
    if not targets.describe():
        raise OptionsError("give a target: --pairing A,B, --half, --chart FILE or --share A,B")
    ranges = _field_ints(args.ranges, "range")
    steps = _field_ints(args.steps, "step")
    knobs = knobs_of(
        pack,
        args.vary,
        entities,
        ranges=ranges,  # type: ignore[arg-type]
        max_change=args.max_change,
        steps=steps,  # type: ignore[arg-type]
        freeze=args.freeze,
    )
    return BalanceSpec(
        game=args.game,
        judges=tuple(args.judges),
        knobs=tuple(knobs),
        targets=targets,
        seed=new_seed() if args.seed is None else args.seed,
        budget=args.budget,
        options=dict(args.options),
        players=tuple(args.players) or (game.info.min_players,),
        entities=tuple(entities),
        start=start,
        fights=args.fights,
        batch=args.batch,
        max_fights=args.max_fights,
        judge_batch=args.judge_batch,
        stages=args.stages,
        judge_check=args.judge_check,
        screen=args.screen,
        pack_id=args.out.stem,
    )


@contextmanager
def _bar(enabled: bool, total: int) -> Iterator[Any]:
    if not enabled or not err_console.is_terminal:
        yield None
        return
    with Progress(
        TextColumn("[bold]balance"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("fights (search budget)"),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
        auto_refresh=False,  # no refresh thread: the workers can then be forked safely
    ) as bar:
        task = bar.add_task("balance", total=total)

        def advance(n: int, _what: str) -> None:
            bar.advance(task, n)
            bar.refresh()

        yield advance


def run(args: BalanceArgs) -> dict[str, Any]:
    spec = spec_of(args)
    jobs = default_jobs() if args.jobs is None else args.jobs

    def log(message: str) -> None:
        if not args.json_out:
            err_console.print(f"[dim]{escape(message)}[/dim]")

    log(
        f"{len(spec.knobs)} values may move; judges {', '.join(spec.judges)}; seed {spec.seed}; "
        + "; ".join(spec.targets.describe())
    )

    def found(overlay: str | None) -> None:
        if overlay is not None:
            args.out.write_text(overlay, "utf-8")
            log(f"wrote {args.out}; re-checking on fresh seeds")

    with _bar(args.progress and not args.json_out, spec.budget) as advance:
        doc = balance(
            spec,
            jobs=jobs,
            backend=args.backend,
            address=args.address,
            progress=advance,
            log=log,
            found=found,
        )
    if args.report is not None:
        args.report.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", "utf-8")
    if args.json_out:
        console.print_json(json.dumps(doc))
    else:
        show(doc)
        if doc["overlay"] is not None:
            console.print(f"Wrote the overlay pack to {args.out} (load it with --pack {args.out})")
        if args.report is not None:
            console.print(f"Wrote the report to {args.report}")
    return doc


def show(doc: Mapping[str, Any]) -> None:
    """Before and after tables per judge, the changes with their reasons, the convergence."""
    console.rule(
        f"[bold]kumite balance[/bold] — {doc['game']}, seed {doc['seed']}: "
        + ("meets the targets" if doc["meets"] else "does NOT meet the targets")
    )
    for judge in doc["judges"]:
        b, a = doc["before"][judge], doc["after"][judge]
        for part, title in (("entities", "score"), ("cells", "pairing"), ("shares", "share x n")):
            if not b[part]:
                continue
            key = "share" if part == "shares" else "score"
            table = Table(title=f"{judge}: {title} before and after (95% interval), fresh seeds")
            for col in ("", "before", "after", "fights"):
                table.add_column(col)
            for name in b[part]:
                rb, ra = b[part][name], a[part].get(name, {})
                table.add_row(name, _fmt(rb, key), _fmt(ra, key), str(ra.get("n", "")))
            console.print(table)
        console.print(f"{judge}: {'meets' if a['meets'] else 'does NOT meet'} the targets")
    if doc["changes"]:
        table = Table(title="Changes")
        for col in ("value", "from", "to", "why"):
            table.add_column(col)
        for c in doc["changes"]:
            table.add_row(c["key"], str(c["from"]), str(c["to"]), c["reason"])
        console.print(table)
    else:
        console.print("No change: the pack is kept as it is.")
    table = Table(title="Convergence")
    for col in ("step", "fights", "loss", "changes", "meets"):
        table.add_column(col)
    for h in doc["history"]:
        table.add_row(
            h["step"], str(h["fights"]), f"{h['loss']:.5f}", str(len(h["changes"])),
            "yes" if h["meets"] else "",
        )  # fmt: skip
    console.print(table)
    f = doc["fights"]
    console.print(
        f"{f['search']} fights searching ({doc['fights_per_second']} fights/s), "
        f"{f['check']} re-checking on fresh seeds, {doc['seconds']} s"
    )


def _fmt(r: Mapping[str, Any], key: str) -> str:
    if not r or r.get("n", 0) == 0:
        return "-"
    return f"{r[key]:.3f} [{r['low']:.3f}, {r['high']:.3f}]"
