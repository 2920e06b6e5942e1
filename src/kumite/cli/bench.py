"""``kumite bench``: games per second per game and agent, 1 and all cores, peak memory."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from kumite.cli.common import split_list
from kumite.core.errors import OptionsError
from kumite.sim import bench
from kumite.tui.console import console, err_console, print_json


def run(
    seconds: float,
    warmup: float,
    jobs: int | None,
    games: str | None,
    agents: str | None,
    json_out: bool,
) -> dict[str, Any]:
    if seconds <= 0 or warmup < 0:
        raise OptionsError("--seconds must be positive and --warmup not negative")
    if jobs is not None and jobs < 1:
        raise OptionsError("--jobs must be at least 1")

    def note(what: str) -> None:
        if not json_out:
            err_console.print(f"[dim]measuring {what}…[/dim]")

    result = bench.run(
        seconds=seconds,
        warmup=warmup,
        jobs=jobs,
        games=split_list(games) or None,
        agents=split_list(agents) or None,
        progress=note,
    )
    if json_out:
        print_json(result)
        return result
    n = result["jobs"]
    table = Table(
        title=f"Games per second (best of 3 runs in {result['seconds']:g} s, after "
        f"{result['warmup']:g} s of warm-up)"
    )
    for col in ("game", "agent", "path", "1 core", f"{n} cores", "scaling", "peak RSS (MB)"):
        table.add_column(col, justify="left" if col in ("game", "agent", "path") else "right")
    for r in result["rows"]:
        many = r["games_per_second_all_cores"]
        table.add_row(
            r["game"],
            r["agent"],
            r["path"],
            f"{r['games_per_second_1_core']:,.0f}",
            "-" if many is None else f"{many:,.0f}",
            "-" if r["scaling"] is None else f"{r['scaling']:.2f}x",
            f"{r['peak_rss_mb_1_core']:.0f}"
            + (
                ""
                if r["peak_rss_mb_per_worker"] is None
                else f" / {r['peak_rss_mb_per_worker']:.0f} per worker"
            ),
        )
    console.print(table)
    gs = result["openspiel"]
    if gs is None:
        console.print(
            "OpenSpiel is not installed (pip install 'kumite[bench]'): no goofspiel yardstick."
        )
    else:
        console.print(
            f"OpenSpiel {gs['game']} random play, taking turns with kumite's random play on "
            f"one core: {gs['games_per_second_1_core']:,.0f} games/s."
        )
        for name, ratio in result["ratios_to_goofspiel"].items():
            rate = result["side_by_side"][name]
            console.print(f"  {name}: {rate:,.0f} games/s = {ratio:.2f}x goofspiel(8)")
    load = result.get("load_average")
    if load:
        console.print(
            f"[dim]load average at the end: {load[0]:.2f} on {result['cpu_count']} cores[/dim]"
        )
    return result
