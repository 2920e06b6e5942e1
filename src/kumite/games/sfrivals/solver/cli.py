"""``kumite solve``: solve SF Rivals matchups, the 8x8 table of certified intervals, the
strength table, and small variants exactly."""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from kumite.core.errors import OptionsError
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver.bounds import SecretSetup
from kumite.games.sfrivals.solver.setup import METHODS, MatchupSolution, cache_dir, solve_matchup
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
    method: str = "tight",
    exact: bool = False,
) -> None:
    if method not in METHODS:
        raise OptionsError(f"unknown method {method!r} (known: {', '.join(METHODS)})")
    if all_matchups:
        if exact:
            raise OptionsError("--exact solves one matchup: give --characters X,Y")
        table(options, out, use_cache, json_out, method)
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
    if exact:
        exact_matchup(pair, options, json_out)
        return
    with console.status(f"Solving {pair[0]} vs {pair[1]} (cache: {cache_dir()}) ..."):
        sol = solve_matchup(pair, options, cache=use_cache, method=method)
    if json_out:
        print_json(sol.summary())
    else:
        show(sol)


def exact_matchup(pair: tuple[str, str], options: dict[str, Any], json_out: bool) -> None:
    """The whole hidden-cover game of a small variant, exactly (sequence-form LP), beside
    the bounds of both methods."""
    from kumite.games.sfrivals.solver.hidden import solve_exact

    with console.status(f"Solving the whole hidden-cover game of {pair[0]} vs {pair[1]} ..."):
        ex = solve_exact(pair, options)
        bounds = {m: solve_matchup(pair, options, cache=False, method=m) for m in METHODS}
    result = {
        **ex.summary(),
        "bounds": {
            m: {"lower": b.lower, "upper": b.upper, "exploitability": b.exploitability}
            for m, b in bounds.items()
        },
    }
    if json_out:
        print_json(result)
        return
    console.print(f"[bold]{pair[0]} (seat 0) vs {pair[1]} (seat 1)[/bold], whole hidden-cover game")
    console.print(
        f"exact value {ex.value:+.9f}  (sequence-form LP; its equilibrium's exploitability "
        f"{ex.exploitability:.1e} by exact best responses)"
    )
    console.print(
        f"{result['histories']:,} histories, {result['infosets']:,} information sets, "
        f"{ex.seconds:.0f} s"
    )
    for m, b in bounds.items():
        console.print(
            f"method {m}: certified [{b.lower:+.4f}, {b.upper:+.4f}], "
            f"exploitability <= {b.exploitability:.4f}"
        )


def show(sol: MatchupSolution) -> None:
    a, b = sol.characters
    console.print(f"[bold]{a} (seat 0) vs {b} (seat 1)[/bold], method {sol.method}")
    console.print(
        f"value {sol.value:+.4f}  (certified bounds [{sol.lower:+.4f}, {sol.upper:+.4f}]; "
        "win +1, draw 0, loss -1 for seat 0)"
    )
    console.print(f"exploitability <= {sol.exploitability:.4f}  (NashConv / 2, certified)")
    source = " (from the cache)" if sol.from_cache else ""
    if sol.swapped_from is not None:
        x, y = sol.swapped_from
        source = f" (the solution of {x} vs {y}, seats swapped)"
    console.print(f"time {sol.seconds:.1f} s, {sol.states:,} fight states{source}")
    for seat, name in enumerate(sol.characters):
        t = Table(title=f"Set-up strategy of {name} (seat {seat})")
        t.add_column("cover (hidden), drawn uniformly from")
        t.add_column("shown")
        t.add_column("probability", justify="right")
        plan = sol.setup[seat] if sol.plans is None else sol.plans[seat]
        for choice, p in sorted(plan.items(), key=lambda kv: -kv[1]):
            if p > 1e-6:
                st = SecretSetup.parse(choice)
                t.add_row(" or ".join(st.cover_from), st.shown, f"{p:.3f}")
        console.print(t)


def table(
    options: dict[str, Any], out: Path, use_cache: bool, json_out: bool, method: str = "tight"
) -> None:
    chars = list(GAME.catalog(GAME.parse_options(options)).characters)
    pairs = [(a, b) for i, a in enumerate(chars) for b in chars[i:]]
    results: dict[tuple[str, str], dict[str, Any]] = {}
    t0 = time.perf_counter()
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
            sol = solve_matchup((a, b), options, cache=use_cache, method=method)
            results[(a, b)] = sol.summary()
            bar.advance(task)
    seconds = time.perf_counter() - t0
    grid = value_grid(chars, results)
    lows, highs = interval_grid(chars, results)
    out.mkdir(parents=True, exist_ok=True)
    paths = write_table(chars, grid, results, out, (lows, highs), seconds)
    if json_out:
        print_json(
            {
                "characters": chars,
                "method": method,
                "values": grid,
                "lower": lows,
                "upper": highs,
                "seconds": seconds,
                "files": [str(p) for p in paths],
            }
        )
        return
    t = Table(
        title=f"SF Rivals ({method}): certified interval of the row character's value "
        "(win +1, draw 0, loss -1)"
    )
    t.add_column("")
    for c in chars:
        t.add_column(c, justify="right")
    for c, low, high in zip(chars, lows, highs, strict=True):
        t.add_row(c, *(f"[{lo:+.2f},{hi:+.2f}]" for lo, hi in zip(low, high, strict=True)))
    console.print(t)
    gaps = [float(r["exploitability"]) for r in results.values()]
    console.print(
        f"{len(results)} matchups in {seconds:.0f} s; certified exploitability at most "
        f"{max(gaps):.3f} (mean {sum(gaps) / len(gaps):.3f})"
    )
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


def interval_grid(
    chars: list[str], results: dict[tuple[str, str], dict[str, Any]]
) -> tuple[list[list[float]], list[list[float]]]:
    """Certified lower and upper bounds of the row character's value against the column
    character (seat-symmetric: the interval of (b, a) is that of (a, b), negated)."""
    lows = [[0.0] * len(chars) for _ in chars]
    highs = [[0.0] * len(chars) for _ in chars]
    for (a, b), summary in results.items():
        i, j = chars.index(a), chars.index(b)
        lo, hi = float(summary["lower"]), float(summary["upper"])
        lows[j][i], highs[j][i] = -hi, -lo
        lows[i][j], highs[i][j] = lo, hi
    return lows, highs


def write_table(
    chars: list[str],
    grid: list[list[float]],
    results: dict[tuple[str, str], dict[str, Any]],
    out: Path,
    intervals: tuple[list[list[float]], list[list[float]]] | None = None,
    seconds: float | None = None,
) -> list[Path]:
    csv_path = out / "sfrivals-values.csv"
    with csv_path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["character", *chars])
        for c, row in zip(chars, grid, strict=True):
            w.writerow([c, *(f"{v:.6f}" for v in row)])
    lows, highs = intervals if intervals is not None else interval_grid(chars, results)
    interval_path = out / "sfrivals-intervals.csv"
    with interval_path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["character", *chars])
        for c, low, high in zip(chars, lows, highs, strict=True):
            w.writerow([c, *(f"[{lo:.6f} {hi:.6f}]" for lo, hi in zip(low, high, strict=True))])
    json_path = out / "sfrivals-values.json"
    json_path.write_text(
        json.dumps(
            {
                "characters": chars,
                "values": grid,
                "lower": lows,
                "upper": highs,
                "seconds": seconds,
                "matchups": [results[k] for k in sorted(results)],
            },
            indent=1,
        )
    )
    paths = [csv_path, interval_path, json_path]
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
