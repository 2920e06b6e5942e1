"""Benchmark: full random 4-player SF DBG games per second on one core.

Every seat is the uniformly random agent (``kumite.agents.RandomAgent``) driven by
``kumite.agents.run_game``, every choice validated by the engine; states are quiet (no events
are built), as in simulation. Prints games/s and decisions/s per second of CPU time of this
process (one core), and decisions per game. ``--repeat`` plays the same games again and keeps
the best run: on a shared machine CPU time is also inflated by the other programs (shared caches
and cores), so the best of a few runs is the fairest figure. Wall-clock time is printed too.

    python benchmarks/sfdbg_random.py [--games N] [--repeat R] [--players P] [--variant V]
                                      [--rounds R] [--json]

What a "full random game" is. The random agent picks uniformly among the legal choices, and
``end`` (end the turn) is one of about 4.4 of them, so a random player ends his turn early,
with Power left, and buys little (about one card every 2.5 turns in 4-player games). The rules
still end such a game: the Line-Up cannot be refilled once the main deck (106 cards after the
first Line-Up) runs out, which takes random players about 290-360 turns (72-89 rounds, 1,200 to
1,600 decisions; measured over 8 games with no round limit). The ruling
``sfdbg.ruling.round-limit`` (default 60 rounds, docs/rulings.md) ends them first: a random
4-player game is 240 turns and about 1,000 decisions, ending with about 28 cards left in the
main deck. ``--rounds`` sets another limit (the default is the game's, not lowered here).

Measured on the 2-core shared development machine (pyenv CPython 3.11.7 built without PGO,
load average 10-12 from other sessions), alternating the two versions under the same load, best
of 5 runs of 40 games each (the spread between runs was 30-50 %):

    before the speed-up (main at 3aa525a):  51 games/s,  51,000 decisions/s per CPU second
    after:                                  74 games/s,  73,000 decisions/s per CPU second

and, independent of the load, 76.4 million machine instructions per game before and 57.3
million after (valgrind, the first 10 games, 981 decisions per game): 25 % fewer. Issue 3's target
(200 games/s on one core) means 5 microseconds per decision, the agent, the runner and the
validation included; this machine spends about 14.

A third pass (the runner resolves each agent's dispatch once per game, RandomAgent inlines
``Random.choice`` draw for draw, ``apply`` inlines the validation shortcut and ``_apply``, a
``Request`` is a named tuple and a ``Decision`` is made by setting its slots, shuffles read bit
lengths from a table, draws across a reshuffle go by slices) cut valgrind's count further, for
games 1-6 with ``PYTHONHASHSEED=0``: 53.7 million instructions per game on main at 7e57cb1,
48.7 million after (9 % fewer). About 880 bytecodes run per decision; the turn's legal choices
(``turn_legal``) are a quarter of them, and the runner, the agent, ``pending`` and ``apply``
(the protocol every caller pays) about a third.

The compiled build (``make fast``, then ``.venv-fast/bin/python`` runs this script; see
docs/speed.md) runs the same code through mypyc. Its first version took 23.6 million
instructions per game (games 1002-1011 after 40 warm-up games, ``PYTHONHASHSEED=0``) and ran
164-184 games/s per CPU second (best of 10 runs of 100 games, load average 1.5-2.5). Making
``Decision``, ``Ctx``, ``Request`` and ``Attack`` native classes brought it to 15.9 million
(46.6 million pure), and 173-310 games/s, median 285, in ten runs in a row (one run, on a
busy host, fell below 200). The build measured is printed.
"""

from __future__ import annotations

import argparse
import json
import time

from kumite.agents import RandomAgent, run_game
from kumite.core.rng import derive_seed
from kumite.games.sfdbg import engine
from kumite.games.sfdbg.game import GAME

BUILD = "pure Python" if engine.__file__.endswith(".py") else "compiled (mypyc)"
"""Which build runs: ``make fast`` builds the compiled one (docs/speed.md)."""

TARGET = 200
"""Issue 3: full random 4-player games per second on one core."""


def play(games: int, players: int, variant: str, rounds: int | None) -> tuple[int, int]:
    """Play ``games`` random games; return the decisions and turns played."""
    decisions = turns = 0
    for game in range(games):
        options: dict[str, object] = {"players": players, "variant": variant}
        if rounds is not None:
            options["round_limit"] = rounds
        state = GAME.new_state(game, options)
        state.quiet = True
        agents = [RandomAgent(derive_seed(game, "agent", s)) for s in range(players)]
        run_game(state, agents)
        decisions += len(state.history)
        turns += state.turn
    return decisions, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=1, help="runs; the best is reported")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--rounds", type=int, default=None, help="round_limit (default 60)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    best_cpu = best_wall = float("inf")
    decisions = turns = 0
    for _ in range(max(1, args.repeat)):
        wall = time.perf_counter()
        cpu = time.process_time()
        decisions, turns = play(args.games, args.players, args.variant, args.rounds)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    result = {
        "benchmark": "sfdbg-random-games",
        "build": BUILD,
        "players": args.players,
        "variant": args.variant,
        "games": args.games,
        "games_per_cpu_second": round(args.games / best_cpu, 1),
        "decisions_per_cpu_second": round(decisions / best_cpu),
        "decisions_per_game": round(decisions / args.games),
        "turns_per_game": round(turns / args.games),
        "cpu_seconds": round(best_cpu, 3),
        "wall_seconds": round(best_wall, 3),
        "target_games_per_second": TARGET,
    }
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"sfdbg random {args.players}-player games ({args.variant}, {BUILD}): "
        f"{result['games_per_cpu_second']} games/s and "
        f"{result['decisions_per_cpu_second']:,} decisions/s per CPU second on one core "
        f"({result['decisions_per_game']} decisions and {result['turns_per_game']} turns per "
        f"game; best of {max(1, args.repeat)}: {args.games} games in {best_cpu:.2f} s CPU, "
        f"{best_wall:.2f} s wall; issue 3's target: {TARGET} games/s)"
    )
    if BUILD == "pure Python":
        print(
            "the target is for the compiled build: `make fast`, then `make bench` (docs/speed.md)"
        )


if __name__ == "__main__":
    main()
