"""``kumite solve``: solve SF Rivals matchups, the 8x8 value table, the strength table."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from kumite.core.errors import OptionsError
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver.setup import MatchupSolution, cache_dir, solve_matchup
from kumite.games.sfrivals.solver.strength import DEFAULT_AGENTS, strength_table
from kumite.tui.console import console, err_console, print_json


def run(
    chars: list[str],
    all_matchups: bool,
    options: dict[str, Any],
    out: Path,
    use_cache: bool,
    strength: bool,
    agents: list[str],
    json_out: bool,
) -> None:
    if all_matchups:
        table(options, out, use_cache, json_out)
        return
    if len(chars) != 2:
        raise OptionsError("give two characters: --characters X,Y (or --all)")
    GAME.parse_options({**options, "characters": chars})  # unknown names fail here
    pair = (chars[0], chars[1])
    if strength:
        names = tuple(agents) or DEFAULT_AGENTS
        result = strength_table(pair, options, names)
        if json_out:
            print_json(result)
        else:
            show_strength(result)
        return
    with console.status(f"Solving {pair[0]} vs {pair[1]} (cache: {cache_dir()}) ..."):
        sol = solve_matchup(pair, options, cache=use_cache)
    if json_out:
        print_json(sol.summary())
    else:
        show(sol)


def show(sol: MatchupSolution) -> None:
    a, b = sol.characters
    console.print(f"[bold]{a} (seat 0) vs {b} (seat 1)[/bold]")
    console.print(
        f"value {sol.value:+.4f}  (certified bounds [{sol.lower:+.4f}, {sol.upper:+.4f}]; "
        "win +1, draw 0, loss -1 for seat 0)"
    )
    console.print(f"exploitability <= {sol.exploitability:.4f}  (NashConv / 2, certified)")
    cached = " (from the cache)" if sol.from_cache else ""
    console.print(f"time {sol.seconds:.1f} s, {sol.states:,} fight states{cached}")
    for seat, name in enumerate(sol.characters):
        t = Table(title=f"Set-up strategy of {name} (seat {seat})")
        t.add_column("cover (hidden)")
        t.add_column("shown")
        t.add_column("probability", justify="right")
        for choice, p in sorted(sol.setup[seat].items(), key=lambda kv: -kv[1]):
            if p > 1e-6:
                _, cover, shown = choice.split(":")
                t.add_row(cover, shown, f"{p:.3f}")
        console.print(t)


def table(options: dict[str, Any], out: Path, use_cache: bool, json_out: bool) -> None:
    chars = list(GAME.catalog(options).characters)
    pairs = [(a, b) for i, a in enumerate(chars) for b in chars[i:]]
    results: dict[tuple[str, str], dict[str, Any]] = {}
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=err_console,
    ) as bar:
        task = bar.add_task("matchups", total=len(pairs))
        for a, b in pairs:
            bar.update(task, description=f"{a} vs {b}")
            results[(a, b)] = solve_matchup((a, b), options, cache=use_cache).summary()
            bar.advance(task)
    grid = value_grid(chars, results)
    out.mkdir(parents=True, exist_ok=True)
    paths = write_table(chars, grid, results, out)
    if json_out:
        print_json({"characters": chars, "values": grid, "files": [str(p) for p in paths]})
        return
    t = Table(title="SF Rivals: value for the row character (win +1, draw 0, loss -1)")
    t.add_column("")
    for c in chars:
        t.add_column(c, justify="right")
    for c, row in zip(chars, grid, strict=True):
        t.add_row(c, *(f"{v:+.3f}" for v in row))
    console.print(t)
    for p in paths:
        console.print(f"wrote {p}")


def value_grid(
    chars: list[str], results: dict[tuple[str, str], dict[str, Any]]
) -> list[list[float]]:
    """Row character's value against the column character (seat-symmetric game: the value
    of (b, a) is minus that of (a, b))."""
    grid = [[0.0] * len(chars) for _ in chars]
    for (a, b), summary in results.items():
        i, j = chars.index(a), chars.index(b)
        grid[j][i] = -float(summary["value"])
        grid[i][j] = float(summary["value"])  # a mirror match keeps its own value
    return grid


def write_table(
    chars: list[str],
    grid: list[list[float]],
    results: dict[tuple[str, str], dict[str, Any]],
    out: Path,
) -> list[Path]:
    csv_path = out / "sfrivals-values.csv"
    with csv_path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["character", *chars])
        for c, row in zip(chars, grid, strict=True):
            w.writerow([c, *(f"{v:.6f}" for v in row)])
    json_path = out / "sfrivals-values.json"
    json_path.write_text(
        json.dumps(
            {
                "characters": chars,
                "values": grid,
                "matchups": [results[k] for k in sorted(results)],
            },
            indent=1,
        )
    )
    paths = [csv_path, json_path]
    png = heat_map(chars, grid, out / "sfrivals-values.png")
    if png is not None:
        paths.append(png)
    return paths


def heat_map(chars: list[str], grid: list[list[float]], path: Path) -> Path | None:
    """A heat map of the value table (skipped, with a message, if matplotlib is missing)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        err_console.print(
            "[yellow]matplotlib is not installed: no heat map (pip install matplotlib)[/yellow]"
        )
        return None
    fig, ax = plt.subplots(figsize=(7, 6))
    im = ax.imshow(grid, cmap="RdBu", vmin=-1, vmax=1)
    ax.set_xticks(range(len(chars)), chars, rotation=45, ha="right")
    ax.set_yticks(range(len(chars)), chars)
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            ax.text(j, i, f"{v:+.2f}", ha="center", va="center", fontsize=8)
    ax.set_title("SF Rivals matchup values (row character, +1 = always wins)")
    fig.colorbar(im, ax=ax)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def show_strength(result: dict[str, Any]) -> None:
    a, b = result["characters"]
    console.print(
        f"[bold]{a} vs {b}[/bold], set-ups {result['setups'][0]} / {result['setups'][1]}; "
        f"perfect-information value {result['value']:+.4f} for seat 0"
    )
    t = Table(title="Exact best response to each agent (perfect-information opponent)")
    for col in ("agent", "seat", "worst case", "exploitability", "time"):
        t.add_column(col, justify="left" if col == "agent" else "right")
    for r in result["rows"]:
        t.add_row(
            r["agent"],
            str(r["seat"]),
            f"{r['worst_case']:+.4f}",
            f"{r['exploitability']:.4f}",
            f"{r['seconds']:.1f} s",
        )
    console.print(t)
