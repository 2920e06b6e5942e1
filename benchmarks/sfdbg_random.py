"""Benchmark: full random 4-player SF DBG games per second on one core.

Every seat is the uniformly random agent (``kumite.agents.RandomAgent``); states are quiet
(no events are built), as in simulation. Prints games/s and decisions/s per second of CPU
time of this process (one core; wall-clock time is printed too, but on a shared machine it
also counts other programs).

    python benchmarks/sfdbg_random.py [--games N] [--players P] [--variant V] [--rounds R]

Uniformly random players almost never finish a game by the rules (they rarely buy, so the
Line-Up is not exhausted and the Stages are not defeated): a random 4-player game runs to the
``round_limit`` (60 rounds = 240 turns, about 1,000 decisions). ``--rounds`` sets a lower
limit to measure shorter games.
"""

from __future__ import annotations

import argparse
import time

from kumite.agents import RandomAgent, run_game
from kumite.core.rng import derive_seed
from kumite.games.sfdbg import GAME


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--rounds", type=int, default=None, help="round_limit (default 60)")
    args = parser.parse_args()
    decisions = 0
    turns = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for game in range(args.games):
        options = {"players": args.players, "variant": args.variant}
        if args.rounds is not None:
            options["round_limit"] = args.rounds
        state = GAME.new_state(game, options)
        state.quiet = True
        agents = [RandomAgent(derive_seed(game, "agent", s)) for s in range(args.players)]
        run_game(state, agents)
        decisions += len(state.history)
        turns += state.turn
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - start
    print(
        f"sfdbg random {args.players}-player games ({args.variant}): "
        f"{args.games / cpu:.1f} games/s, {decisions / cpu:,.0f} decisions/s on one core "
        f"({decisions / args.games:.0f} decisions and {turns / args.games:.0f} turns per game; "
        f"{args.games} games in {cpu:.2f} s CPU, {wall:.2f} s wall)"
    )


if __name__ == "__main__":
    main()
