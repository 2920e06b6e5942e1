"""``kumite match``: several fights, team matches and round-robin tournaments (bots)."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from kumite.agents.registry import make_agent
from kumite.agents.runner import run_game
from kumite.cli.common import new_seed
from kumite.core.errors import OptionsError
from kumite.core.game import Outcome
from kumite.core.registry import get_spec
from kumite.core.rng import derive_seed
from kumite.sim.tournament import (
    Entrant,
    Standings,
    entrants_from,
    play_match,
    play_round_robin,
    play_team_match,
    scoring,
)
from kumite.tui.console import console, print_json


def run(
    game_id: str,
    players: str | None,
    team_a: str | None,
    team_b: str | None,
    entrants: str | None,
    fights: int,
    scoring_name: str,
    seed: int | None,
    json_out: bool,
) -> None:
    spec = get_spec(game_id)
    game = spec.load()
    if not game.info.min_players <= 2 <= game.info.max_players:
        raise OptionsError("matches and tournaments are for games two players can play")
    seat_option = None if spec.role is None else spec.role.option
    if fights < 1:
        raise OptionsError("--fights must be at least 1")
    rule = scoring(scoring_name)
    seed = new_seed() if seed is None else seed

    def fight(a: Entrant, b: Entrant, fight_seed: int) -> Outcome:
        for e in (a, b):
            if e.agent == "human":
                raise OptionsError("matches are played by bots; use 'kumite play' to play")
        options = spec.with_seats({}, 2)
        if a.character or b.character:
            if seat_option is None:
                raise OptionsError(f"{game_id} entrants take no AGENT:ROLE suffix")
            options[seat_option] = [a.character, b.character]
        state = game.new_state(fight_seed, options)
        state.quiet = True
        agents = [
            make_agent(e.agent, game, state.options_json, s, derive_seed(fight_seed, s))
            for s, e in enumerate((a, b))
        ]
        return run_game(state, agents)

    modes = [x is not None for x in (players, team_a or team_b, entrants)]
    if sum(modes) != 1:
        raise OptionsError("give exactly one of --players, --team-a/--team-b or --entrants")
    result: dict[str, Any]
    if players is not None:
        pair = entrants_from(players)
        if len(pair) != 2:
            raise OptionsError("--players needs two entrants")
        seeds = [derive_seed(seed, "fight", n) for n in range(fights)]
        table = play_match(pair[0], pair[1], fights, fight, rule, seeds)
        result = {"mode": "match", **table.to_json()}
    elif entrants is not None:
        field = entrants_from(entrants)
        if len(field) < 2:
            raise OptionsError("a tournament needs at least two entrants")
        table = play_round_robin(
            field, fights, fight, rule, lambda i, j, n: derive_seed(seed, "rr", i, j, n)
        )
        result = {"mode": "round-robin", **table.to_json()}
    else:
        a, b = entrants_from(team_a or ""), entrants_from(team_b or "")
        seeds = [derive_seed(seed, "team", n) for n in range(len(a))]
        table, totals = play_team_match(a, b, fight, rule, seeds)
        result = {"mode": "team", "team_points": list(totals), **table.to_json()}
    result.update({"game": game_id, "seed": seed, "scoring": scoring_name})
    if json_out:
        print_json(result)
        return
    show(table, result)


def show(table: Standings, result: dict[str, Any]) -> None:
    out = Table(title=f"{result['mode']} — scoring {result['scoring']}, seed {result['seed']}")
    for col in ("entrant", "points", "wins", "draws", "losses"):
        out.add_column(col, justify="left" if col == "entrant" else "right")
    for row in result["standings"]:
        out.add_row(
            row["entrant"],
            str(row["points"]),
            str(row["wins"]),
            str(row["draws"]),
            str(row["losses"]),
        )
    console.print(out)
    if "team_points" in result:
        a, b = result["team_points"]
        verdict = "Team A wins" if a > b else "Team B wins" if b > a else "The teams draw"
        console.print(f"[bold]Team points {a}-{b}: {verdict}.[/bold]")
