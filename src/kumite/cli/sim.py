"""``kumite sim``: many bot games, with statistics, what-if packs, JSON, CSV and reports."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from kumite.cli.common import new_seed, split_list
from kumite.cli.options import PlaySettings, game_options
from kumite.core.errors import OptionsError
from kumite.core.game import Game
from kumite.core.registry import get_spec
from kumite.sim.analysis import plural
from kumite.sim.backends import Progress as ProgressFn
from kumite.sim.backends import SimResult, default_jobs, simulate
from kumite.sim.engine import SimSpec
from kumite.sim.results import document, write_csv, write_games_csv
from kumite.tui.console import console, err_console, print_json


@dataclasses.dataclass
class SimArgs:
    game: str
    players: list[str]
    games: int
    jobs: int | None
    seed: int | None
    pack: Path | None
    settings: PlaySettings
    design: str
    rotate: bool
    backend: str
    address: str | None
    out: Path | None
    csv: Path | None
    games_csv: Path | None
    report: Path | None
    json_out: bool
    progress: bool = True
    batched: bool = False
    restricted: int = 0
    loops: bool = False


def lineups(game: Game[Any], players: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """``--players`` values (each ``a,b,...``; ``random*3`` repeats) as line-ups."""
    if not players:
        return (("random",) * game.info.min_players,)
    out = []
    for spec in players:
        seats: list[str] = []
        for item in split_list(spec):
            name, star, count = item.partition("*")
            if star:
                if not count.isdigit() or int(count) < 1:
                    raise OptionsError(f"bad player spec {item!r}: use NAME*COUNT, e.g. random*3")
                seats.extend([name] * int(count))
            else:
                seats.append(name)
        if "human" in seats:
            raise OptionsError("simulations are played by bots; use 'kumite play' to play")
        out.append(tuple(seats))
    return tuple(out)


@contextmanager
def progress_bar(enabled: bool, total: int, label: str) -> Iterator[ProgressFn | None]:
    if not enabled or not err_console.is_terminal:
        yield None
        return
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
        auto_refresh=False,  # no refresh thread: the workers can then be forked safely
    ) as bar:
        task = bar.add_task(label, total=total)
        bar.refresh()

        def advance(n: int) -> None:
            bar.advance(task, n)
            bar.refresh()

        yield advance


def run(args: SimArgs) -> dict[str, Any]:
    game_spec = get_spec(args.game)
    game = game_spec.load()
    teams = lineups(game, args.players)
    seed = new_seed() if args.seed is None else args.seed
    jobs = default_jobs() if args.jobs is None else args.jobs
    if args.games < 1:
        raise OptionsError("--games must be at least 1")
    counts = sorted({len(t) for t in teams})

    def options_for(settings: PlaySettings) -> dict[str, Any]:
        """Options of the first line-up's size, and per size when line-ups differ."""
        by = tuple((n, game_options(game_spec, game, settings, n)) for n in counts)
        main = dict(by)[len(teams[0])]
        return {"options": main, "options_by_players": by if len(counts) > 1 else ()}

    base_settings = dataclasses.replace(args.settings, pack=None)
    base = SimSpec(
        game=args.game,
        lineups=teams,
        games=args.games,
        seed=seed,
        design=args.design,
        rotate=args.rotate,
        batched=args.batched,
        loops=args.loops,
        **options_for(base_settings),
    )
    specs = [base]
    pack_text = None
    if args.pack is not None:
        with_pack = options_for(args.settings)
        pack_text = with_pack["options"].get("pack")
        specs.append(dataclasses.replace(base, label="pack", stream="pack", **with_pack))
    results: list[SimResult] = []
    rows = args.games_csv is not None
    for spec in specs:
        label = f"{game.info.name}" + (" (with the pack)" if spec.label == "pack" else "")
        with progress_bar(args.progress and not args.json_out, spec.games, label) as advance:
            results.append(
                simulate(
                    spec,
                    jobs=jobs,
                    backend=args.backend,
                    address=args.address,
                    progress=advance,
                    rows=rows,
                )
            )
    doc = document(
        results,
        pack_name=None if args.pack is None else args.pack.name,
        pack_text=pack_text,
    )
    if args.restricted > 0:
        from kumite.sim.adapters import adapter_for
        from kumite.sim.restricted import card_values

        adapter = adapter_for(args.game)
        cards = list(adapter.card_names(game, base.options))
        err_console.print(
            f"Restricted play: {len(cards)} cards, {args.restricted} games each with and "
            "without the card"
        )
        doc["runs"][0]["analysis"]["restricted_cards"] = card_values(
            base,
            cards,
            args.restricted,
            adapter.card_owners(game, base.options),
            jobs=jobs,
            backend=args.backend,
            address=args.address,
        )
    if args.out is not None:
        args.out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", "utf-8")
    if args.csv is not None:
        write_csv(doc, args.csv)
    if args.games_csv is not None:
        write_games_csv([(r.spec.label, r.rows) for r in results], args.games_csv)
    if args.report is not None:
        from kumite.sim.report import write_report

        write_report(doc, args.report)
    if args.json_out:
        print_json(doc)
    else:
        show(doc)
        for path, what in (
            (args.out, "results"),
            (args.csv, "statistics CSV"),
            (args.games_csv, "games CSV"),
            (args.report, "report"),
        ):
            if path is not None:
                console.print(f"Wrote the {what} to {path}")
    return doc


def _pct(p: dict[str, Any]) -> str:
    if p.get("rate") is None:
        return "-"
    return f"{100 * p['rate']:.1f}% [{100 * p['low']:.1f}, {100 * p['high']:.1f}]"


def _pts(r: dict[str, Any]) -> str:
    if r.get("value") is None:
        return "-"
    return f"{100 * r['value']:+.1f} pts [{100 * r['low']:+.1f}, {100 * r['high']:+.1f}]"


def show(doc: dict[str, Any]) -> None:
    """A summary of the result document on the terminal."""
    for run in doc["runs"]:
        a = run["analysis"]
        spec = run["spec"]
        title = "with the pack" if run["label"] == "pack" else "base"
        console.rule(
            f"[bold]{doc['game_name']}[/bold] — {a['games']} games, seed {spec['seed']}, {title}"
        )
        console.print(
            f"{run['games_per_second']:.0f} games/s on {run['jobs']} job(s) ({run['backend']}); "
            f"draws {_pct(a['draw'])}; mean length {a['mean_length']:.2f} {a['turn']}s; "
            + ", ".join(f"{k} {v}" for k, v in a["reasons"].items())
        )
        seats = Table(title="Seats (win rate, 95% Wilson interval)")
        for col in ("players", "seat", "win rate", "p (seats equal)"):
            seats.add_column(col)
        for group in a["seats"]:
            for s in group["seats"]:
                seats.add_row(
                    str(group["players"]),
                    str(s["seat"] + 1),
                    _pct(s["win"]),
                    f"{group['p_equal']:.3g}",
                )
        console.print(seats)
        sections = [("agent", a["agents"])]
        if "entities" in a:
            sections.append((a["entity"], a["entities"]))
        for name, side in sections:
            if len(side["table"]) < 2:
                continue
            elo = {r["name"]: r for r in side["ratings"]}
            table = Table(
                title=f"{plural(name).capitalize()} (Bradley–Terry rating on the Elo scale)"
            )
            for col in (name, "games", "win rate", "decisive won", "rating [95%]"):
                table.add_column(col)
            for row in sorted(side["table"], key=lambda r: -elo.get(r["name"], {"elo": 0})["elo"]):
                r = elo.get(row["name"])
                table.add_row(
                    side.get("names", {}).get(row["name"], row["name"]),
                    str(row["n"]),
                    _pct(row["win"]),
                    _pct(row["share"]),
                    "-" if r is None else f"{r['elo']:.0f} [{r['low']:.0f}, {r['high']:.0f}]",
                )
            console.print(table)
        if "cards" in a:
            impact = [r for r in a["cards"]["impact"] if r["significant"]]
            impact.sort(key=lambda r: -(r["diff"] or 0))
            if impact:
                table = Table(title="Cards whose play goes with a different win rate (q < 0.05)")
                for col in ("card", "win rate when played", "when not", "q"):
                    table.add_column(col)
                for r in impact[:8] + (impact[-8:] if len(impact) > 16 else impact[8:]):
                    owner = a.get("entities", {}).get("names", {}).get(r["scope"])
                    table.add_row(
                        f"{owner}: {r['name']}" if owner else r["name"],
                        _pct(r["with"]["win"]),
                        _pct(r["without"]["win"]),
                        f"{r['q']:.2g}",
                    )
                console.print(table)
        flags = a.get("flags") or []
        if flags:
            table = Table(title="Games to look at (replay: kumite play … --seed SEED)")
            for col in ("flag", "what", "games", "first seeds"):
                table.add_column(col)
            for f in flags:
                table.add_row(
                    f["flag"],
                    f["what"],
                    str(f["games"]),
                    ", ".join(str(seed) for _i, seed in f["examples"][:5]),
                )
            console.print(table)
        restricted = a.get("entities", {}).get("restricted") or []
        if restricted and len(restricted) > 1:
            names = a["entities"].get("names", {})
            table = Table(
                title=f"Restricted play: a side's loss of win share without the {a['entity']}"
            )
            for col in (a["entity"], "value [95%]"):
                table.add_column(col)
            for r in restricted:
                table.add_row(names.get(r["entity"], r["entity"]), _pts(r))
            console.print(table)
        cards = a.get("restricted_cards") or []
        if cards:
            table = Table(title="Restricted play: win share lost without the card")
            for col in ("card", "value [95%]", "games"):
                table.add_column(col)
            for r in cards:
                table.add_row(r["card"], _pts(r), str(r["n"]))
            console.print(table)
    if "whatif" in doc:
        rows = doc["whatif"]
        sig = [r for r in rows if r["significant"]]
        table = Table(
            title=f"What-if: {len(sig)} of {len(rows)} differences significant "
            "(Fisher exact, Benjamini–Hochberg q < 0.05)"
        )
        for col in ("rate", "of", "before", "after", "q"):
            table.add_column(col)
        for r in sorted(sig, key=lambda r: r["q"])[:30]:
            table.add_row(
                r["kind"],
                r.get("name", r["key"]),
                _pct(r["before"]),
                _pct(r["after"]),
                f"{r['q']:.2g}",
            )
        console.print(table)
