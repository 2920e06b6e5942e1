"""``ismcts`` (or any agent) against ``greedy`` in one game, seats rotated: wins, draws,
losses, the 95% Wilson interval of its share of wins, and its seconds per move (every move
with a choice, and the moves it actually searched).

Game ``i`` is seeded ``seed + i`` with the game's default options (fighters/heroes dealt by
the game) and ``--players`` seats (SF DBG); the agent sits in seat ``seed % players`` and
every other seat is ``--against`` (so over ``players`` consecutive seeds it sits in every
seat once, and runs over consecutive seeds add up); seat ``s``'s agent is seeded
``derive_seed(game seed, "agent", s)`` as in ``kumite play``. A search agent plays its
level's iteration cap without its time limit a move (``untimed``), so a game replays
exactly whatever the machine's load. One line per game, then the
summary (``--json``: the summary as JSON).

With two seats the share is of the decisive games (draws apart), to be compared with 1/2;
with more it is the share of all games the agent wins alone (a shared first place counts
as not won), to be compared with 1/players.

    python benchmarks/ismcts_vs_greedy.py rivales --games 40 --seed 1000
    python benchmarks/ismcts_vs_greedy.py sfdbg --players 3 --games 99 --seed 3000 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import os
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from kumite.agents import make_agent
from kumite.agents.base import decide
from kumite.agents.ismcts import untimed
from kumite.core.registry import get_game
from kumite.core.rng import derive_seed
from kumite.sim.stats import proportion


def play(game_id: str, agent: str, against: str, players: int, seed: int) -> dict[str, Any]:
    """One game; the agent's result and the time of its moves."""
    game = get_game(game_id)
    options: dict[str, Any] = {"players": players} if players != 2 else {}
    state = game.new_state(seed, options)
    state.quiet = True
    me = seed % players
    names = [agent if s == me else against for s in range(players)]
    agents = [
        make_agent(names[s], game, state.options_json, s, derive_seed(seed, "agent", s))
        for s in range(players)
    ]
    # The iteration cap alone (no time limit a move): every game replays exactly.
    agents = [untimed(a) for a in agents]
    moves: list[float] = []
    searched: list[float] = []
    iterations = 0
    while pending := state.pending():
        choices = {}
        for d in pending:
            t = time.perf_counter()
            choices[d.seat] = decide(agents[d.seat], state, d)
            if d.seat == me and len(d.legal) > 1:
                moves.append(time.perf_counter() - t)
                done = getattr(agents[me], "last_iterations", 0)
                if done:
                    searched.append(moves[-1])
                    iterations += done
        state.apply(choices)
    outcome = state.outcome
    assert outcome is not None
    if outcome.draw or not outcome.winners:
        result = "draw"
    elif me in outcome.winners:
        result = "win" if len(outcome.winners) == 1 else "shared"
    else:
        result = "loss"
    return {
        "seed": seed,
        "names": names,
        "winners": list(outcome.winners),
        "reason": outcome.reason,
        "result": result,
        "moves": moves,
        "searched": searched,
        "iterations": iterations,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="rivales")
    parser.add_argument("--agent", default="ismcts")
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    n = args.players
    count = {"win": 0, "shared": 0, "draw": 0, "loss": 0}
    move_time: list[float] = []
    searched_time: list[float] = []
    iterations = 0
    start = time.perf_counter()
    seeds = range(args.seed, args.seed + args.games)
    call = (args.game, args.agent, args.against, n)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(play, *call, seed) for seed in seeds]
        for i, future in enumerate(futures):
            game = future.result()
            count[game["result"]] += 1
            move_time += game["moves"]
            searched_time += game["searched"]
            iterations += game["iterations"]
            if not args.json:
                print(
                    f"game {i} seed {game['seed']} seats {game['names']}: winners "
                    f"{game['winners']} ({game['reason']}); {game['result']}; "
                    f"W-S-D-L {count['win']}-{count['shared']}-{count['draw']}-{count['loss']}",
                    flush=True,
                )
    wins, losses = count["win"], count["loss"] + count["shared"]
    share = proportion(wins, wins + losses) if n == 2 else proportion(wins, args.games)
    summary = {
        "game": args.game,
        "agent": args.agent,
        "against": args.against,
        "players": n,
        "games": args.games,
        "seeds": [args.seed, args.seed + args.games - 1],
        "wins": count["win"],
        "shared": count["shared"],
        "draws": count["draw"],
        "losses": count["loss"],
        "chance": 1 / n,
        "share": share.to_json(),
        "seconds_per_move": round(sum(move_time) / max(1, len(move_time)), 3),
        "seconds_per_searched_move": round(sum(searched_time) / max(1, len(searched_time)), 3),
        "max_seconds_per_move": round(max(move_time, default=0.0), 3),
        "moves": len(move_time),
        "searched_moves": len(searched_time),
        "iterations_per_searched_move": round(iterations / max(1, len(searched_time)), 1),
        "seconds": round(time.perf_counter() - start, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"{args.agent} vs {args.against} in {args.game} ({n} seats): "
            f"{count['win']}-{count['shared']}-{count['draw']}-{count['loss']} (W-shared-D-L), "
            f"won {share.rate:.3f} [Wilson 95%: {share.low:.3f}, {share.high:.3f}] "
            f"against chance {1 / n:.3f}; {summary['seconds_per_move']} s a move, "
            f"{summary['seconds_per_searched_move']} s a searched move "
            f"(max {summary['max_seconds_per_move']}); load {summary['load_average']}"
        )


if __name__ == "__main__":
    main()
