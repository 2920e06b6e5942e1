"""``kumite play``: a game in the terminal."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.panel import Panel

from kumite.agents.base import Agent, decide
from kumite.agents.registry import agent_info, make_agent
from kumite.cli.common import new_seed, split_list
from kumite.cli.options import PlaySettings, game_options
from kumite.core.errors import OptionsError
from kumite.core.game import Game, Outcome, State
from kumite.core.registry import get_spec
from kumite.core.rng import derive_seed
from kumite.tui.console import console, pause, print_json
from kumite.tui.registry import front_end
from kumite.tui.screen import TableScreen


def build_agents(
    game: Game[Any], options: Mapping[str, Any], names: list[str], seed: int
) -> list[Agent]:
    fe = front_end(game.info.id)
    humans = [i for i, n in enumerate(names) if n == "human"]
    agents: list[Agent] = []
    for seat, name in enumerate(names):
        if name == "human":
            # the name the log calls the seat by, and "(you)" once for the one person here
            label = f"Player {seat + 1}" + (" (you)" if len(humans) == 1 else "")
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
    spec = get_spec(game_id)
    game = spec.load()
    names = split_list(players) or ["human", "greedy"]
    if not game.info.min_players <= len(names) <= game.info.max_players:
        raise OptionsError(
            f"{game.info.name} needs {game.info.min_players}-{game.info.max_players} players, "
            f"got {len(names)}"
        )
    seed = new_seed() if seed is None else seed
    options = game_options(spec, game, settings, len(names))
    state = game.new_state(seed, options)
    agents = build_agents(game, state.options_json, names, seed)
    humans = [i for i, n in enumerate(names) if n == "human"]
    hot_seat = len(humans) > 1
    viewer = humans[0] if len(humans) == 1 else None
    show = not quiet and not json_out
    if show:
        console.rule(f"[bold]{game.info.name}[/bold] — seed {seed}")
        seats = [seat_line(i, n, len(humans)) for i, n in enumerate(names)]
        console.print("Seats: " + ", ".join(seats))
        for name in dict.fromkeys(names):
            figure = agent_info(name, game_id, state.options_json).get("certified_exploitability")
            if figure is not None:
                console.print(f"{name}: certified exploitability at most {figure:.3f} here")
    with TableScreen(console, None if hot_seat else viewer) as screen:
        outcome = play_loop(state, agents, humans, hot_seat, names, screen if show else None)
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


def seat_line(seat: int, name: str, humans: int) -> str:
    """``Player 1 (you)``, ``Player 2 (greedy bot)``: the names the log uses."""
    if name == "human":
        return f"Player {seat + 1}" + (" (you)" if humans == 1 else "")
    return f"Player {seat + 1} ({name} bot)"


def play_loop(
    state: State,
    agents: list[Agent],
    humans: list[int],
    hot_seat: bool,
    names: list[str],
    screen: TableScreen | None,
) -> Outcome:
    """Play to the end; ``screen`` shows what happens (``None``: nothing is shown)."""
    while not state.is_terminal:
        choices: dict[int, str] = {}
        for decision in state.pending():
            agent = agents[decision.seat]
            if hot_seat and decision.seat in humans:
                console.clear()
                pause(console, f"Pass the terminal to Player {decision.seat + 1}, then press Enter")
            elif screen is not None and decision.seat not in humans:
                screen.thinking(seat_line(decision.seat, names[decision.seat], len(humans)))
            choices[decision.seat] = decide(agent, state, decision)
            if hot_seat and decision.seat in humans:
                console.clear()
        events = state.apply(choices)
        if screen is not None:
            screen.events(events)
            if hot_seat and not state.is_terminal:
                screen.stop()
                pause(console, "Press Enter to continue")
    outcome = state.outcome
    assert outcome is not None
    return outcome


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    out = outcome.to_json()
    out["winner"] = outcome.winners[0] if len(outcome.winners) == 1 else None
    return out


def result_head(outcome: Outcome, labels: list[str], viewer: int | None) -> str:
    """ "You win" / "You lose" for the one person at the terminal; else who won, by name."""
    if outcome.draw:
        return "Draw"
    if viewer is not None:
        if viewer not in outcome.winners:
            return "You lose"
        return "You win" if len(outcome.winners) == 1 else "You share the win"
    who = " & ".join(labels[w] for w in outcome.winners)
    return f"{who} {'wins' if len(outcome.winners) == 1 else 'win'}"


def seat_labels(state: State, names: list[str]) -> list[str]:
    """``Player 2 (Ken, greedy)``: the seat, the name the game gives it (its front end's
    ``seat_names``: a character, a hero) and the agent."""
    given = list(front_end(state.game.info.id).seat_names(state.view(None)))
    given += [None] * (len(names) - len(given))
    return [
        f"Player {seat + 1} ({given[seat]}, {agent})"
        if given[seat]
        else f"Player {seat + 1} ({agent})"
        for seat, agent in enumerate(names)
    ]


def show_result(state: State, outcome: Outcome, names: list[str], viewer: int | None) -> None:
    head = result_head(outcome, seat_labels(state, names), viewer)
    detail = ", ".join(f"{k} {v}" for k, v in outcome.detail.items())
    console.print(Panel(f"[bold]{head}[/bold] — {outcome.reason}. {detail}", title="Result"))
    if viewer is None:
        fe = front_end(state.game.info.id)
        console.print(fe.render(state.game, state.options_json, state.view(None)))
