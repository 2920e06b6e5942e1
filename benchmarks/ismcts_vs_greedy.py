"""``ismcts`` (or any agent) against ``greedy`` in one game, seats alternated: wins, draws,
losses, the 95% Wilson interval of its share of the decisive games, and its seconds per
move (every move with a choice, and the moves it actually searched).

Game ``i`` is seeded ``seed + i`` with the game's default options (fighters/heroes dealt by
the game); the agent sits in seat ``seed % 2`` (so runs over consecutive seeds add up);
seat ``s``'s agent is seeded ``derive_seed(game seed, "agent", s)`` as in ``kumite play``.
One line per game, then the summary (``--json``: the summary as JSON).

    python benchmarks/ismcts_vs_greedy.py rivales --games 40 --seed 1000
    python benchmarks/ismcts_vs_greedy.py sfdbg --games 60 --seed 1000 --agent ismcts
"""

from __future__ import annotations

import argparse
import json
import os
import time

from kumite.agents import make_agent
from kumite.agents.base import decide
from kumite.core.registry import get_game
from kumite.core.rng import derive_seed
from kumite.sim.stats import proportion


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="rivales")
    parser.add_argument("--agent", default="ismcts")
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = get_game(args.game)
    wins = draws = losses = 0
    move_time: list[float] = []
    searched_time: list[float] = []
    iterations = 0
    start = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        state = game.new_state(seed, {})
        state.quiet = True
        me = seed % 2
        names = [args.agent if s == me else args.against for s in range(2)]
        agents = [
            make_agent(names[s], game, state.options_json, s, derive_seed(seed, "agent", s))
            for s in range(2)
        ]
        while pending := state.pending():
            choices = {}
            for d in pending:
                t = time.perf_counter()
                choices[d.seat] = decide(agents[d.seat], state, d)
                if d.seat == me and len(d.legal) > 1:
                    move_time.append(time.perf_counter() - t)
                    done = getattr(agents[me], "last_iterations", 0)
                    if done:
                        searched_time.append(move_time[-1])
                        iterations += done
            state.apply(choices)
        outcome = state.outcome
        assert outcome is not None
        if outcome.draw or not outcome.winners:
            draws += 1
        elif me in outcome.winners:
            wins += 1
        else:
            losses += 1
        if not args.json:
            print(
                f"game {i} seed {seed} seats {names}: winners {outcome.winners} "
                f"({outcome.reason}); {wins}-{draws}-{losses}",
                flush=True,
            )
    share = proportion(wins, wins + losses)
    summary = {
        "game": args.game,
        "agent": args.agent,
        "against": args.against,
        "games": args.games,
        "seeds": [args.seed, args.seed + args.games - 1],
        "wins": wins,
        "draws": draws,
        "losses": losses,
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
            f"{args.agent} vs {args.against} in {args.game}: {wins}-{draws}-{losses} "
            f"(W-D-L), decisive won {share.rate:.3f} [Wilson 95%: {share.low:.3f}, "
            f"{share.high:.3f}]; {summary['seconds_per_move']} s a move, "
            f"{summary['seconds_per_searched_move']} s a searched move "
            f"(max {summary['max_seconds_per_move']}); load {summary['load_average']}"
        )


if __name__ == "__main__":
    main()
