"""``kumite``: play, replay and inspect the games."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from kumite.cli import cards as cards_cmd
from kumite.cli import exploit as exploit_cmd
from kumite.cli import match as match_cmd
from kumite.cli import play as play_cmd
from kumite.cli import replay as replay_cmd
from kumite.cli.common import friendly_errors
from kumite.cli.options import OptionOpt, PickOpt, game_options, settings_from
from kumite.cli.solve import app as solve_app
from kumite.core.extras import require
from kumite.core.registry import default_game, game_ids, get_spec
from kumite.server.settings import ServerSettings

app = typer.Typer(
    name="kumite",
    help="Play, solve and balance fighting-themed tabletop card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

GAME_IDS = ", ".join(game_ids())
DEFAULT_GAME = default_game()
GameArg = Annotated[str, typer.Argument(help="Game id: " + GAME_IDS + ".")]
#: The game's own flags (``--characters``, ``--mode``) reach the commands as extra arguments.
GAME_FLAGS = {"allow_extra_args": True, "ignore_unknown_options": True}


def game_and_flags(game: str, extra: list[str]) -> tuple[str, list[str]]:
    """The game id and the game's own flags: an unknown flag first on the line lands in the
    GAME argument (click fills it first), so it is taken back, and a bare word is the game."""
    if not game.startswith("-"):
        return game, extra
    tokens, chosen, flags = [game, *extra], DEFAULT_GAME, []
    while tokens:
        token = tokens.pop(0)
        if not token.startswith("-"):
            chosen = token
            continue
        flags.append(token)
        if "=" not in token and tokens:
            flags.append(tokens.pop(0))
    return chosen, flags


@app.command()
@friendly_errors
def games(
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the installed games, with their seats, role, options, bots and faces."""
    from kumite.cli import games as games_cmd

    games_cmd.run(json_out)


@app.command(context_settings=GAME_FLAGS)
@friendly_errors
def play(
    ctx: typer.Context,
    game: GameArg = DEFAULT_GAME,
    players: Annotated[
        str | None,
        typer.Option("--players", "-p", help="Agent per seat, e.g. human,greedy or random,greedy."),
    ] = None,
    pick: PickOpt = None,
    seed: Annotated[int | None, typer.Option(help="Seed (random if omitted).")] = None,
    record: Annotated[Path | None, typer.Option(help="Write the game record here.")] = None,
    pack: Annotated[
        Path | None, typer.Option(help="Your own card pack, loaded over the shipped one.")
    ] = None,
    option: OptionOpt = None,
    quiet: Annotated[bool, typer.Option(help="Bots only: print just the result.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
) -> None:
    """Play a game in the terminal against bots or people (hot-seat)."""
    game, extra = game_and_flags(game, ctx.args)
    settings = settings_from(get_spec(game), pick, option or [], pack, extra)
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
    game: GameArg = DEFAULT_GAME,
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
def rules(game: GameArg = DEFAULT_GAME) -> None:
    """List the rule references events cite, with the clause or ruling each names."""
    cards_cmd.rules(game)


@app.command()
@friendly_errors
def match(
    game: GameArg = DEFAULT_GAME,
    players: Annotated[
        str | None, typer.Option("--players", "-p", help="Two entrants AGENT[:ROLE].")
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
    (two-player games; AGENT:ROLE fixes the entrant's character, fighter or hero)."""
    match_cmd.run(game, players, team_a, team_b, entrants, fights, scoring, seed, json_out)


@app.command(context_settings=GAME_FLAGS)
@friendly_errors
def sim(
    ctx: typer.Context,
    game: GameArg = DEFAULT_GAME,
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
    pick: PickOpt = None,
    option: OptionOpt = None,
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
    batched: Annotated[
        bool,
        typer.Option(
            help=(
                "Random play on the game's batched engine, many games at once on arrays "
                "(SF Rivals: other random games than the default, docs/envs.md)."
            )
        ),
    ] = False,
    restricted: Annotated[
        int,
        typer.Option(
            help="Restricted play: value every card by N games with and N without it "
            "(0: only the characters/fighters/heroes, from the games already played)."
        ),
    ] = 0,
    loops: Annotated[
        bool, typer.Option(help="Flag games that repeat a position (slower).")
    ] = False,
) -> None:
    """Simulate many bot games: win rates with intervals, seat effects, ratings, matchups,
    restricted play, card impact, games to look at; with --pack, a before/after comparison."""
    # The balance lab's modules (numpy, scipy, matplotlib) load only when used.
    require("lab", "kumite sim")
    from kumite.cli import sim as sim_cmd

    game, extra = game_and_flags(game, ctx.args)
    settings = settings_from(get_spec(game), pick, option or [], pack, extra)
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
            batched=batched,
            restricted=restricted,
            loops=loops,
        )
    )


@app.command(context_settings=GAME_FLAGS)
@friendly_errors
def balance(
    ctx: typer.Context,
    game: GameArg = DEFAULT_GAME,
    judge: Annotated[
        list[str] | None,
        typer.Option(
            "--judge",
            help="Agent judging the balance (every seat); repeat for several: a change must "
            "meet the targets under each. The first searches, the others check. Default greedy.",
        ),
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            help="Values that may move: ID-GLOB:FIELD[,FIELD...], e.g. 'curie*:speed,damage' "
            "(cards, fighters, heroes whose id matches); repeatable."
        ),
    ] = None,
    range_: Annotated[
        list[str] | None,
        typer.Option("--range", help="A field's allowed values, e.g. damage=0..4; repeatable."),
    ] = None,
    step: Annotated[
        list[str] | None, typer.Option(help="A field's step, e.g. life=1; repeatable.")
    ] = None,
    max_change: Annotated[int | None, typer.Option(help="Most steps any value may move.")] = None,
    freeze: Annotated[
        list[str] | None, typer.Option(help="Ids (globs) that never move; repeatable.")
    ] = None,
    pairing: Annotated[
        str | None, typer.Option(help="Target: every pairing's share within A,B, e.g. 0.4,0.6.")
    ] = None,
    half: Annotated[
        bool, typer.Option("--half", help="Target: every entity's 95% interval contains 1/2.")
    ] = False,
    chart: Annotated[
        Path | None,
        typer.Option(help="Target: a drawn chart, lines 'a b share' (the reverse is 1-share)."),
    ] = None,
    chart_tolerance: Annotated[float, typer.Option(help="Chart: allowed distance.")] = 0.05,
    share: Annotated[
        str | None,
        typer.Option(help="Target (more players): win rate x players within A,B, e.g. 0.8,1.2."),
    ] = None,
    players_: Annotated[
        list[int] | None,
        typer.Option("--players", help="Player counts to balance at (repeatable)."),
    ] = None,
    entities: Annotated[
        str | None, typer.Option(help="Only these characters/fighters/heroes (comma-separated).")
    ] = None,
    budget: Annotated[int, typer.Option(help="Fights the search may play.")] = 20000,
    fights: Annotated[
        int, typer.Option(help="Fights per pairing of the re-check on fresh seeds.")
    ] = 200,
    batch: Annotated[int, typer.Option(help="Fights per pairing per sampling step.")] = 20,
    max_fights: Annotated[
        int, typer.Option(help="Most fights per pairing for one candidate.")
    ] = 80,
    judge_fights: Annotated[
        int,
        typer.Option(
            help="Fights per pairing when a later judge checks a stage (--together: the most "
            "per pairing for one candidate under the later judges)."
        ),
    ] = 40,
    together: Annotated[
        bool,
        typer.Option(
            "--together",
            help="Every judge measures every candidate (for judges a change does not move "
            "alike); the later judges sample --judge-step fights per pairing at a time.",
        ),
    ] = False,
    judge_step: Annotated[
        int | None,
        typer.Option(help="--together: a later judge's fights per pairing per step (--batch)."),
    ] = None,
    stages: Annotated[int, typer.Option(help="Entities worked on, one after the other.")] = 6,
    screen: Annotated[
        int, typer.Option(help="Single moves tried per value: up to this many steps each way.")
    ] = 2,
    judge_check: Annotated[
        int | None,
        typer.Option(help="Re-check fights per pairing under the later judges (default --fights)."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed (random if omitted).")] = None,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")
    ] = None,
    backend: Annotated[str, typer.Option(help="local (processes) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray: cluster address.")] = None,
    start: Annotated[
        Path | None, typer.Option(help="Start from this overlay pack (the result includes it).")
    ] = None,
    out: Annotated[
        Path, typer.Option(help="The overlay pack written (load it with --pack).")
    ] = Path("balanced.toml"),
    report: Annotated[Path | None, typer.Option(help="Write the report (JSON) here.")] = None,
    option: OptionOpt = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Search the smallest change of card values that meets balance targets under every
    judge; write it as an overlay pack and report before/after tables (docs/simulation.md)."""
    require("lab", "kumite balance")
    from kumite.cli import balance as balance_cmd

    game, extra = game_and_flags(game, ctx.args)
    spec = get_spec(game)
    settings = settings_from(spec, None, option or [], None, extra)
    options = game_options(spec, spec.load(), settings, spec.load().info.min_players)
    balance_cmd.run(
        balance_cmd.BalanceArgs(
            game=game,
            judges=list(judge or ["greedy"]),
            vary=list(vary or []),
            ranges=list(range_ or []),
            steps=list(step or []),
            max_change=max_change,
            freeze=list(freeze or []),
            pairing=pairing,
            half=half,
            chart=chart,
            chart_tolerance=chart_tolerance,
            share=share,
            players=list(players_ or []),
            entities=entities,
            budget=budget,
            fights=fights,
            seed=seed,
            jobs=jobs,
            backend=backend,
            address=address,
            start=start,
            out=out,
            report=report,
            options=options,
            json_out=json_out,
            batch=batch,
            max_fights=max_fights,
            judge_batch=judge_fights,
            together=together,
            judge_step=judge_step,
            stages=stages,
            judge_check=judge_check,
            screen=screen,
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
    require("lab", "kumite report")
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
    dev_seeds: Annotated[
        bool,
        typer.Option(
            help="Development only: accept a seed of the client's choosing when it makes a "
            "table (whoever knows a seed can work out every hidden card)."
        ),
    ] = False,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            help="A Host name to serve besides the loopback names and --host (repeatable; "
            "'*.example.org' for subdomains, '*' for any), e.g. the name people type."
        ),
    ] = None,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="A web page origin (scheme://host[:port]) whose pages may open this "
            "server's WebSockets besides its own (repeatable)."
        ),
    ] = None,
    create_rate: Annotated[
        str, typer.Option(help="New tables per client address, e.g. '30/minute'.")
    ] = ServerSettings.create_rate,
    hello_rate: Annotated[
        str, typer.Option(help="WebSocket hellos per client address.")
    ] = ServerSettings.hello_rate,
    chat_rate: Annotated[
        str, typer.Option(help="Chat messages per client address.")
    ] = ServerSettings.chat_rate,
    max_open_tables: Annotated[
        int, typer.Option(help="Unfinished tables one client address may have made.")
    ] = ServerSettings.open_tables_per_client,
    max_spectators: Annotated[
        int, typer.Option(help="Spectators per table.")
    ] = ServerSettings.spectators_per_table,
    max_silent_sockets: Annotated[
        int,
        typer.Option(help="WebSockets one client address may have open before their hello."),
    ] = ServerSettings.silent_sockets_per_client,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="The address or network of a reverse proxy whose X-Forwarded-For names the "
            "client (repeatable; default none: nobody's is believed; docs/deploy.md)."
        ),
    ] = None,
    bot_threads: Annotated[
        int, typer.Option(help="Threads in which the bots of all tables think.")
    ] = ServerSettings.bot_threads,
    bot_processes: Annotated[
        int,
        typer.Option(
            help="Worker processes in which the bots think instead of threads (0: threads; "
            "the machine's cores suit a busy server, docs/protocol.md, Load)."
        ),
    ] = ServerSettings.bot_processes,
    bot_budget: Annotated[
        float, typer.Option(help="Seconds a bot may think about one move.")
    ] = ServerSettings.bot_budget,
    bot_memory: Annotated[
        float,
        typer.Option(
            help="Megabytes the bots of a process keep for data shared between tables "
            "(solver bots' solutions and solved positions; least recently used let go of)."
        ),
    ] = ServerSettings.bot_memory,
    idle_close: Annotated[
        float,
        typer.Option(
            help="Hours after its last move that an unfinished table is closed (0: never)."
        ),
    ] = ServerSettings.idle_close / 3600,
    evict_after: Annotated[
        float,
        typer.Option(
            help="Seconds a table nobody uses stays in memory (loaded again when asked for)."
        ),
    ] = ServerSettings.evict_after,
    full_collection_every: Annotated[
        float,
        typer.Option(
            help="Seconds between two full passes of the cycle collector, each a short stop "
            "of the server (0: never; docs/protocol.md, Load)."
        ),
    ] = ServerSettings.full_collection_every,
    advertise: Annotated[
        str,
        typer.Option(
            help="With several servers on one PostgreSQL database: the address the others "
            "reach this one at, http://HOST:PORT (default: --host and --port; docs/deploy.md)."
        ),
    ] = ServerSettings.advertise,
) -> None:
    """Serve the web table: play in the browser, against bots or online with friends."""
    from kumite.cli import serve as serve_cmd

    settings = serve_cmd.settings(
        dev_seeds=dev_seeds,
        allowed_hosts=tuple(allow_host or ()),
        allowed_origins=tuple(allow_origin or ()),
        create_rate=create_rate,
        hello_rate=hello_rate,
        chat_rate=chat_rate,
        open_tables_per_client=max_open_tables,
        spectators_per_table=max_spectators,
        silent_sockets_per_client=max_silent_sockets,
        trusted_proxies=tuple(trusted_proxy or ()),
        bot_threads=bot_threads,
        bot_processes=bot_processes,
        bot_budget=bot_budget,
        bot_memory=bot_memory,
        idle_close=idle_close * 3600,
        evict_after=evict_after,
        full_collection_every=full_collection_every,
        advertise=advertise,
    )
    serve_cmd.run(host, port, database_url, bot_delay, settings)


app.add_typer(solve_app)


@app.command(context_settings=GAME_FLAGS)
@friendly_errors
def exploit(
    ctx: typer.Context,
    game: GameArg = DEFAULT_GAME,
    pick: Annotated[str | None, typer.Option("--pick", help="The matchup, e.g. ryu,ken.")] = None,
    pack: Annotated[
        Path | None, typer.Option(help="A small pack: your own, or one shipped (mini).")
    ] = None,
    option: OptionOpt = None,
    policy: Annotated[
        str,
        typer.Option(
            help="random, a bot (e.g. greedy, bounded), or MODULE:ATTRIBUTE (a policy; "
            "see docs/envs.md)."
        ),
    ] = "random",
    normalize: Annotated[
        bool, typer.Option(help="The policy reads normalised observations.")
    ] = False,
    setups: Annotated[
        int, typer.Option(help="Full game: the responder's set-ups tried (each a bound).")
    ] = 1,
    budget: Annotated[
        int | None,
        typer.Option(help="Full game: nodes a level may hold (the rest pruned, as losses)."),
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """A policy's worst cases and exploitability in one matchup: exact on a small pack, on
    the full game a sound lower bound and the upper bound where certified, each labelled
    (see docs/envs.md, "Exploitability of your policy")."""
    require("solver", "kumite exploit")
    game, extra = game_and_flags(game, ctx.args)
    spec = get_spec(game)
    settings = settings_from(spec, pick, option or [], pack, extra)
    bounds: dict[str, Any] = {"setups": setups} if setups != 1 else {}
    if budget is not None:
        bounds["budget"] = budget
    options = game_options(spec, spec.load(), settings, 2)
    exploit_cmd.run(game, options, policy, normalize, json_out, bounds)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
