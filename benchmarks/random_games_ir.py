"""Seeded random games of one game, for instruction counts of two builds in the same run.

Plays ``--warm`` games, then exactly ``--games`` more, each seat choosing uniformly at random
among its legal choices (or, with ``--agent greedy``, the game's greedy bot at every seat),
every choice validated by the engine (quiet states: no event objects are built). Run it twice
under callgrind, with ``--games N`` and ``--games 0``: the difference of the two counts over N
is the instructions per game, the same games for every build::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/random_games_ir.py rivales --games 20

(valgrind prints the total ``Collected`` instructions). Prints the decisions played.

Measured for the typed choices (issue 29): main 5ddb3b3 against the choice codecs (f957030),
the same run, CPython 3.11.7, ``--warm 3``. Instructions per game (``--games N`` minus
``--games 0``, over N):

===============================  =====  ===========  ===========  ===========  ===========
game (options)                   N      pure before  pure after   compiled     compiled
                                                                  before       after
===============================  =====  ===========  ===========  ===========  ===========
sfrivals                         200    1.375 M      1.346 M      1.335 M      1.309 M
rivales (1v1)                    30     2.940 M      2.936 M      1.375 M      1.377 M
rivales (2v2)                    10     7.836 M      7.807 M      3.796 M      3.814 M
sfdbg (2 players)                10     23.49 M      23.35 M      11.37 M      11.26 M
sfdbg (4 players)                4      50.10 M      49.57 M      24.31 M      23.95 M
rivales, ``--agent greedy``      2      139.6 M      139.8 M      33.54 M      33.59 M
===============================  =====  ===========  ===========  ===========  ===========

(-2.2 % to +0.1 % pure, -2.0 % to +0.5 % compiled: engines read their frequent choices by
tables of the codecs' strings, the rest through the codec's memo; docs/speed.md.)

Issue 29 as a whole (typed choices, declared teams, Rivales' table-driven effects and split
end of clash, the renames), pure, the same run: 5ddb3b3 against main 186b8fa, ``--warm 3``
(Rivales 2vs2 with ``final_round_zones=together`` and ``max_combo_cut=while-down`` after, the
readings 5ddb3b3 played, so that both play the same games: 1,144 decisions):

===============================  =====  ===========  ===========  ========
game (options)                   N      before       after        change
===============================  =====  ===========  ===========  ========
sfrivals                         200    1.373 M      1.350 M      -1.7 %
rivales (1v1)                    30     2.937 M      2.984 M      +1.6 %
rivales (2v2)                    10     7.847 M      8.027 M      +2.3 %
sfdbg (2 players)                10     23.50 M      23.76 M      +1.1 %
sfdbg (4 players)                4      50.10 M      50.54 M      +0.9 %
===============================  =====  ===========  ===========  ========
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from kumite.agents.base import decide
from kumite.agents.registry import make_agent
from kumite.core.registry import get_game


def play(game_id: str, options: dict[str, Any], seeds: range, agent: str | None) -> int:
    game = get_game(game_id)
    rng = random.Random(seeds.start)
    steps = 0
    for seed in seeds:
        state = game.new_state(seed, options)
        state.quiet = True
        bots = {}
        if agent is not None:
            bots = {s: make_agent(agent, game, options, s, seed + s) for s in state.players}
        while not state.is_terminal:
            if bots:
                choices = {d.seat: decide(bots[d.seat], state, d) for d in state.pending()}
            else:
                choices = {d.seat: rng.choice(d.legal) for d in state.pending()}
            state.apply(choices)
            steps += 1
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--warm", type=int, default=3)
    parser.add_argument("--options", default="{}", help="the game's options, as JSON")
    parser.add_argument("--agent", default=None, help="a bot at every seat (default: random)")
    args = parser.parse_args()
    options = json.loads(args.options)
    play(args.game, options, range(10**6, 10**6 + args.warm), args.agent)
    steps = play(args.game, options, range(args.games), args.agent)
    print(f"{args.game} {options}: {args.games} games, {steps} decisions")


if __name__ == "__main__":
    main()
