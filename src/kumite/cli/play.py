"""``kumite play``: a game in the terminal."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.panel import Panel

from kumite.agents.base import Agent, decide
from kumite.agents.registry import agent_info, make_agent
from kumite.cli.common import console, new_seed, print_json, split_list
from kumite.core.errors import OptionsError
from kumite.core.events import Event
from kumite.core.game import Game, Outcome, State
from kumite.core.rng import derive_seed
from kumite.games import get_game
from kumite.tui.console import pause, print_events
from kumite.tui.registry import PlaySettings, front_end


def parse_rules(items: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        key, sep, val = item.partition("=")
        if not sep or not key:
            raise OptionsError(f"--rule needs KEY=VALUE, got {item!r}")
        out[key.strip()] = val.strip()
    return out


def build_agents(
    game: Game[Any], options: Mapping[str, Any], names: list[str], seed: int
) -> list[Agent]:
    fe = front_end(game.info.id)
    humans = [i for i, n in enumerate(names) if n == "human"]
    agents: list[Agent] = []
    for seat, name in enumerate(names):
        if name == "human":
            label = "You" if len(humans) == 1 else f"Player {seat + 1}"
            agents.append(fe.human(console, game, options, seat, label))
        else:
            agents.append(make_agent(name, game, options, seat, derive_seed(seed, "agent", seat)))
    return agents


def run(
    game_id: str,
    players: str | None,
    settings: PlaySettings,
    seed: int | None,
    record: Path | None,
    quiet: bool,
    json_out: bool,
) -> None:
    game = get_game(game_id)
    fe = front_end(game_id)
    names = split_list(players) or ["human", "greedy"]
    if not game.info.min_players <= len(names) <= game.info.max_players:
        raise OptionsError(
            f"{game.info.name} needs {game.info.min_players}-{game.info.max_players} players, "
            f"got {len(names)}"
        )
    seed = new_seed() if seed is None else seed
    options = fe.options(game, dataclasses.replace(settings, players=len(names)))
    state = game.new_state(seed, options)
    agents = build_agents(game, state.options_json, names, seed)
    humans = [i for i, n in enumerate(names) if n == "human"]
    hot_seat = len(humans) > 1
    viewer = humans[0] if len(humans) == 1 else None
    show = not quiet and not json_out
    if show:
        console.rule(f"[bold]{game.info.name}[/bold] — seed {seed}")
        console.print("Seats: " + ", ".join(f"{i + 1}: {n}" for i, n in enumerate(names)))
        for name in dict.fromkeys(names):
            figure = agent_info(name, game_id, state.options_json).get("certified_exploitability")
            if figure is not None:
                console.print(f"{name}: certified exploitability at most {figure:.3f} here")
    outcome = play_loop(state, agents, humans, hot_seat, viewer, show)
    if record is not None:
        state.to_record(players=names).save(record)
    if json_out:
        print_json(
            {
                "seed": seed,
                "players": names,
                "outcome": outcome_json(outcome),
                **({"record": str(record)} if record else {}),
            }
        )
    else:
        show_result(state, outcome, names, viewer)
        if record is not None:
            console.print(f"Record written to {record} (replay: kumite replay {record})")


def play_loop(
    state: State,
    agents: list[Agent],
    humans: list[int],
    hot_seat: bool,
    viewer: int | None,
    show: bool,
) -> Outcome:
    while not state.is_terminal:
        choices: dict[int, str] = {}
        for decision in state.pending():
            agent = agents[decision.seat]
            if hot_seat and decision.seat in humans:
                console.clear()
                pause(console, f"Pass the terminal to Player {decision.seat + 1}, then press Enter")
            choices[decision.seat] = decide(agent, state, decision)
            if hot_seat and decision.seat in humans:
                console.clear()
        events = state.apply(choices)
        if show:
            report(events, viewer, hot_seat)
            if hot_seat and not state.is_terminal:
                pause(console, "Press Enter to continue")
    outcome = state.outcome
    assert outcome is not None
    return outcome


def report(events: list[Event], viewer: int | None, hot_seat: bool) -> None:
    """What happened, as the viewer may see it (hot-seat: public events only)."""
    print_events(console, events, None if hot_seat else viewer)


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    out = outcome.to_json()
    out["winner"] = outcome.winners[0] if len(outcome.winners) == 1 else None
    return out


def show_result(state: State, outcome: Outcome, names: list[str], viewer: int | None) -> None:
    if outcome.draw:
        head = "Draw"
    else:
        head = " & ".join(f"Player {w + 1} ({names[w]})" for w in outcome.winners) + " wins"
    detail = ", ".join(f"{k} {v}" for k, v in outcome.detail.items())
    console.print(Panel(f"[bold]{head}[/bold] — {outcome.reason}. {detail}", title="Result"))
    if viewer is None:
        fe = front_end(state.game.info.id)
        console.print(fe.render(state.game, state.options_json, state.view(None)))
