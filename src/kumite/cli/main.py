"""``kumite``: play, replay and inspect the games."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from kumite.cli import cards as cards_cmd
from kumite.cli import match as match_cmd
from kumite.cli import play as play_cmd
from kumite.cli import replay as replay_cmd
from kumite.cli import solve as solve_cmd
from kumite.cli.common import friendly_errors, split_list
from kumite.games import game_ids
from kumite.tui.registry import PlaySettings

app = typer.Typer(
    name="kumite",
    help="Play, solve and balance fighting-themed tabletop card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

GAME_IDS = ", ".join(game_ids())
GameArg = Annotated[str, typer.Argument(help="Game id: " + GAME_IDS + ".")]


@app.command()
@friendly_errors
def play(
    game: Annotated[str, typer.Argument(help="Game id: " + GAME_IDS + ".")] = "sfrivals",
    players: Annotated[
        str | None,
        typer.Option("--players", "-p", help="Agent per seat, e.g. human,greedy or random,greedy."),
    ] = None,
    characters: Annotated[
        str | None, typer.Option(help="SF Rivals: character per seat, e.g. ryu,ken.")
    ] = None,
    fighters: Annotated[str | None, typer.Option(help="Rivales: fighter per seat.")] = None,
    heroes: Annotated[str | None, typer.Option(help="SF DBG: Super Hero per seat.")] = None,
    mode: Annotated[str | None, typer.Option(help="Rivales: 1v1 or 2v2.")] = None,
    variant: Annotated[
        str | None, typer.Option(help="SF DBG: high-powered or secret-heroes.")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed (random if omitted).")] = None,
    record: Annotated[Path | None, typer.Option(help="Write the game record here.")] = None,
    pack: Annotated[
        Path | None, typer.Option(help="Your own card pack, loaded over the shipped one.")
    ] = None,
    rule: Annotated[
        list[str] | None,
        typer.Option(help="Rule option KEY=VALUE, e.g. ultra_rule=power (see docs/rulings.md)."),
    ] = None,
    quiet: Annotated[bool, typer.Option(help="Bots only: print just the result.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
) -> None:
    """Play a game in the terminal against bots or people (hot-seat)."""
    settings = PlaySettings(
        characters=split_list(characters),
        fighters=split_list(fighters),
        heroes=split_list(heroes),
        mode=mode,
        variant=variant,
        pack=pack,
        rules=play_cmd.parse_rules(rule or []),
    )
    play_cmd.run(game, players, settings, seed, record, quiet, json_out)


@app.command()
@friendly_errors
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    json_out: Annotated[
        bool, typer.Option("--json", help="Print outcome and events as JSON.")
    ] = False,
) -> None:
    """Re-run a recorded game and show it."""
    replay_cmd.run(file, json_out)


@app.command()
@friendly_errors
def cards(
    game: GameArg = "sfrivals",
    only: Annotated[
        str | None, typer.Option("--only", "--character", help="Only this character/fighter/hero.")
    ] = None,
    pack: Annotated[Path | None, typer.Option(help="Your own pack over the shipped one.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List a game's cards with the provenance of every value."""
    cards_cmd.run(game, only, pack, json_out)


@app.command()
@friendly_errors
def rules(game: GameArg = "sfrivals") -> None:
    """List the rule references events cite, with the clause or ruling each names."""
    cards_cmd.rules(game)


@app.command()
@friendly_errors
def match(
    game: GameArg = "sfrivals",
    players: Annotated[
        str | None, typer.Option("--players", "-p", help="Two entrants AGENT[:CHARACTER].")
    ] = None,
    team_a: Annotated[str | None, typer.Option(help="Team match: entrants of team A.")] = None,
    team_b: Annotated[str | None, typer.Option(help="Team match: entrants of team B.")] = None,
    entrants: Annotated[
        str | None, typer.Option(help="Round-robin tournament: all entrants.")
    ] = None,
    fights: Annotated[int, typer.Option(help="Fights per pairing.")] = 1,
    scoring: Annotated[
        str, typer.Option(help="win2-draw1 (2 points a win, 1 a draw) or win1.")
    ] = "win2-draw1",
    seed: Annotated[int | None, typer.Option(help="Seed (random if omitted).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Bot matches of several fights, team matches and tournaments, scored per fight
    (two-player games: SF Rivals, Rivales 1vs1)."""
    match_cmd.run(game, players, team_a, team_b, entrants, fights, scoring, seed, json_out)


@app.command()
@friendly_errors
def sim(
    game: GameArg = "sfrivals",
    players: Annotated[
        list[str] | None,
        typer.Option(
            "--players",
            "-p",
            help="Agents per seat, e.g. random,greedy or random*3; repeat for several "
            "line-ups (games alternate between them). Default: random players.",
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = 1000,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Master seed (random if omitted).")] = None,
    pack: Annotated[
        Path | None,
        typer.Option(help="What-if: also simulate with this pack and compare before/after."),
    ] = None,
    characters: Annotated[str | None, typer.Option(help="SF Rivals: character per seat.")] = None,
    fighters: Annotated[str | None, typer.Option(help="Rivales: fighter per seat.")] = None,
    heroes: Annotated[str | None, typer.Option(help="SF DBG: Super Hero per seat.")] = None,
    mode: Annotated[str | None, typer.Option(help="Rivales: 1v1 or 2v2.")] = None,
    variant: Annotated[str | None, typer.Option(help="SF DBG: a variant.")] = None,
    rule: Annotated[
        list[str] | None, typer.Option(help="Rule option KEY=VALUE (see docs/rulings.md).")
    ] = None,
    design: Annotated[
        str,
        typer.Option(
            help="balanced: every character/fighter/hero combination in turn; free: the "
            "agents choose; auto: balanced unless the options fix them."
        ),
    ] = "auto",
    rotate: Annotated[
        bool, typer.Option(help="Rotate the line-up's seats from game to game.")
    ] = True,
    backend: Annotated[str, typer.Option(help="local (processes) or ray.")] = "local",
    address: Annotated[
        str | None, typer.Option(help="Ray: cluster address (default: a local Ray).")
    ] = None,
    out: Annotated[Path | None, typer.Option(help="Write the result file (JSON) here.")] = None,
    csv: Annotated[Path | None, typer.Option(help="Write the statistics as CSV here.")] = None,
    games_csv: Annotated[
        Path | None, typer.Option(help="Write one CSV row per game (seed, seats, result).")
    ] = None,
    report: Annotated[Path | None, typer.Option(help="Write the HTML report here.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Simulate many bot games: win rates with intervals, seat effects, ratings, matchups,
    card impact; with --pack, a before/after comparison."""
    # The balance lab's modules (numpy, scipy, matplotlib) load only when used.
    from kumite.cli import sim as sim_cmd

    settings = PlaySettings(
        characters=split_list(characters),
        fighters=split_list(fighters),
        heroes=split_list(heroes),
        mode=mode,
        variant=variant,
        pack=pack,
        rules=play_cmd.parse_rules(rule or []),
    )
    sim_cmd.run(
        sim_cmd.SimArgs(
            game=game,
            players=list(players or []),
            games=games,
            jobs=jobs,
            seed=seed,
            pack=pack,
            settings=settings,
            design=design,
            rotate=rotate,
            backend=backend,
            address=address,
            out=out,
            csv=csv,
            games_csv=games_csv,
            report=report,
            json_out=json_out,
        )
    )


@app.command()
@friendly_errors
def report(
    files: Annotated[
        list[Path], typer.Argument(help="Result files of 'kumite sim --out' (one game).")
    ],
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="The HTML file (default: beside the first).")
    ] = None,
) -> None:
    """Write a self-contained HTML balance report (plots embedded, no network needed)."""
    from kumite.cli import report as report_cmd

    report_cmd.run(files, out)


@app.command()
@friendly_errors
def bench(
    seconds: Annotated[float, typer.Option(help="Seconds per measurement.")] = 3.0,
    warmup: Annotated[
        float, typer.Option(help="Seconds each worker plays before it is timed.")
    ] = 2.0,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", help="Cores for the parallel run (default: all).")
    ] = None,
    games: Annotated[str | None, typer.Option(help="Only these games (comma-separated).")] = None,
    agents: Annotated[str | None, typer.Option(help="Only these agents.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Games per second for each game and agent on 1 and all cores, peak memory, and
    OpenSpiel's goofspiel(8) random play as a yardstick when open-spiel is installed."""
    from kumite.cli import bench as bench_cmd

    bench_cmd.run(seconds, warmup, jobs, games, agents, json_out)


@app.command()
@friendly_errors
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy URL (default: $KUMITE_DATABASE_URL, else an SQLite file in your "
            "data directory), e.g. postgresql+psycopg://user@localhost/kumite."
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits before moving (easier to follow).")
    ] = 0.4,
) -> None:
    """Serve the web table: play in the browser, against bots or online with friends."""
    from kumite.cli import serve as serve_cmd

    serve_cmd.run(host, port, database_url, bot_delay)


@app.command()
@friendly_errors
def solve(
    game: GameArg = "sfrivals",
    characters: Annotated[
        str | None, typer.Option(help="The matchup, e.g. ryu,ken (seat 0, seat 1).")
    ] = None,
    all_matchups: Annotated[
        bool, typer.Option("--all", help="Every matchup: the 8x8 table of certified intervals.")
    ] = False,
    out: Annotated[Path, typer.Option(help="--all: where to write CSV, JSON and PNG.")] = Path("."),
    pack: Annotated[
        Path | None,
        typer.Option(help="Your own pack over the shipped one, or a shipped variant: mini."),
    ] = None,
    rule: Annotated[
        list[str] | None, typer.Option(help="Rule option KEY=VALUE (see docs/rulings.md).")
    ] = None,
    cache: Annotated[bool, typer.Option(help="Use and fill the on-disk solution cache.")] = True,
    strength: Annotated[
        bool, typer.Option(help="Exact best response to each agent instead (strength table).")
    ] = False,
    agents: Annotated[
        str | None, typer.Option(help="--strength: agents to rate, e.g. random,greedy.")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    method: Annotated[
        str, typer.Option(help="tight (secret covers; default) or adaptive (see docs/solver.md).")
    ] = "tight",
    exact: Annotated[
        bool, typer.Option(help="A small variant (--pack mini): the exact value, by LP.")
    ] = False,
) -> None:
    """Solve SF Rivals: certified value interval, exploitability, set-up strategy (see
    docs/solver.md)."""
    options: dict[str, Any] = dict(play_cmd.parse_rules(rule or []))
    if pack is not None:
        from kumite.games.sfrivals.cards import read_overlay

        shipped = None if pack.exists() else solve_cmd.shipped_pack(str(pack))
        options["pack"] = shipped if shipped is not None else read_overlay(pack)
    solve_cmd.run(
        game, characters, all_matchups, options, out, cache, strength, agents, json_out,
        method, exact,
    )  # fmt: skip


def main() -> None:
    app()


if __name__ == "__main__":
    main()
