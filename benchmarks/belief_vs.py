"""The belief-aware SF Rivals agent (or any agent) against another, matchup by matchup.

For each matchup ``X,Y`` (characters fixed, seat 0 plays X), game ``i`` is seeded
``seed + i``; the agent sits in seat ``(seed + i) % 2`` (so it plays both characters of the
matchup equally often, and runs over consecutive seeds add up); seat ``s``'s agent is seeded
``derive_seed(game seed, "agent", s)`` as in ``kumite play``. Per matchup, and in total: the
agent's wins, draws and losses, the 95% Wilson interval of its share of the decisive games
(as ``benchmarks/ismcts_vs_greedy.py``), its mean result (+1 win, 0 draw, -1 loss) with a
95% interval, and its seconds per move: wall and CPU, mean, median, 95th percentile and
maximum, and the first game apart (it solves the positions of its set-ups, which later games
with the same set-ups look up). ``--json``: one JSON line per matchup and a total. Each
game's result goes to stderr as it ends.

    python benchmarks/belief_vs.py --against bounded --games 100 \\
        --matchups ryu,ken ryu,zangief ryu,guile ryu,poison ryu,juri ryu,chunli ryu,dudley ryu,ryu
    python benchmarks/belief_vs.py --against greedy --games 100 --matchups ryu,ken
    python benchmarks/belief_vs.py --pack mini --against bounded --games 200 \\
        --matchups ryu-mini,ken-mini

The solved matchups come from the cache (``kumite solve sfrivals --all`` fills it) or the
shipped solutions; a matchup solved by neither is solved first (minutes).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from typing import Any

from kumite.agents import make_agent
from kumite.agents.base import decide
from kumite.core.registry import get_game
from kumite.core.rng import derive_seed
from kumite.sim.stats import proportion


def play(
    pair: tuple[str, str], agent: str, against: str, games: int, seed: int, pack: str | None
) -> dict[str, Any]:
    game = get_game("sfrivals")
    options: dict[str, Any] = {"characters": list(pair)}
    if pack is not None:
        options["pack"] = pack
    wins = draws = losses = 0
    results: list[float] = []
    move_time: list[float] = []
    move_cpu: list[float] = []
    first_game_moves = 0  # the first game solves what the matchup's later ones look up
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        state = game.new_state(game_seed, options)
        state.quiet = True
        me = game_seed % 2
        names = [agent if s == me else against for s in range(2)]
        agents = [
            make_agent(names[s], game, state.options_json, s, derive_seed(game_seed, "agent", s))
            for s in range(2)
        ]
        while pending := state.pending():
            choices = {}
            for d in pending:
                t, c = time.perf_counter(), time.process_time()
                choices[d.seat] = decide(agents[d.seat], state, d)
                if d.seat == me and len(d.legal) > 1:
                    move_time.append(time.perf_counter() - t)
                    move_cpu.append(time.process_time() - c)
            state.apply(choices)
        outcome = state.outcome
        assert outcome is not None
        results.append(outcome.returns[me])
        if i == 0:
            first_game_moves = len(move_time)
        print(
            f"{','.join(pair)} game {i + 1}/{games} (seed {game_seed}, seat {me}): "
            f"{results[-1]:+g}; {time.perf_counter() - start:.0f} s so far",
            file=sys.stderr,
            flush=True,
        )
        if outcome.draw or not outcome.winners:
            draws += 1
        elif me in outcome.winners:
            wins += 1
        else:
            losses += 1
    share = proportion(wins, wins + losses)
    mean = statistics.fmean(results)
    half = 1.96 * statistics.stdev(results) / math.sqrt(len(results)) if len(results) > 1 else 1.0
    return {
        "matchup": list(pair),
        "agent": agent,
        "against": against,
        "games": games,
        "seeds": [seed, seed + games - 1],
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "share": share.to_json(),
        "mean": round(mean, 4),
        "mean_interval": [round(mean - half, 4), round(mean + half, 4)],
        "seconds_per_move": round(statistics.fmean(move_time), 4) if move_time else 0.0,
        "max_seconds_per_move": round(max(move_time, default=0.0), 3),
        "median_seconds_per_move": _quantile(move_time, 0.5),
        "p95_seconds_per_move": _quantile(move_time, 0.95),
        "cpu_seconds_per_move": round(statistics.fmean(move_cpu), 4) if move_cpu else 0.0,
        "first_game_seconds": round(sum(move_time[:first_game_moves]), 2),
        "later_seconds_per_move": _mean(move_time[first_game_moves:]),
        "later_max_seconds_per_move": round(max(move_time[first_game_moves:], default=0.0), 3),
        "later_cpu_seconds_per_move": _mean(move_cpu[first_game_moves:]),
        "seconds": round(time.perf_counter() - start, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def _mean(xs: list[float]) -> float:
    return round(statistics.fmean(xs), 4) if xs else 0.0


def _quantile(xs: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank): the mean is dominated by the few moves that solve
    a new pair of set-ups, the median and 95th percentile say what a move usually costs."""
    if not xs:
        return 0.0
    ordered = sorted(xs)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="belief")
    parser.add_argument("--against", default="bounded")
    parser.add_argument("--matchups", nargs="+", default=["ryu,ken"])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pack", default=None, help="a shipped variant (mini) or a pack file")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pack = None
    if args.pack is not None:
        pack = get_game("sfrivals").read_overlay(args.pack)  # type: ignore[attr-defined]
    totals = {"wins": 0, "draws": 0, "losses": 0}
    everything: list[float] = []
    for matchup in args.matchups:
        a, b = matchup.split(",")
        row = play((a, b), args.agent, args.against, args.games, args.seed, pack)
        for k in totals:
            totals[k] += row[k]
        everything += [1.0] * row["wins"] + [0.0] * row["draws"] + [-1.0] * row["losses"]
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            s = row["share"]
            print(
                f"{args.agent} vs {args.against} in {a} vs {b}: {row['wins']}-{row['draws']}-"
                f"{row['losses']} (W-D-L), decisive won {s['rate']:.3f} [Wilson 95%: "
                f"{s['low']:.3f}, {s['high']:.3f}]; mean {row['mean']:+.3f} "
                f"[{row['mean_interval'][0]:+.3f}, {row['mean_interval'][1]:+.3f}]; "
                f"{row['seconds_per_move']} s a move (median {row['median_seconds_per_move']}, "
                f"95% {row['p95_seconds_per_move']}, max {row['max_seconds_per_move']}; "
                f"CPU {row['cpu_seconds_per_move']}), first game {row['first_game_seconds']} s, "
                f"later games {row['later_seconds_per_move']} s a move (max "
                f"{row['later_max_seconds_per_move']}); {row['seconds']} s; "
                f"load {row['load_average']}",
                flush=True,
            )
    share = proportion(totals["wins"], totals["wins"] + totals["losses"])
    mean = statistics.fmean(everything)
    half = 1.96 * statistics.stdev(everything) / math.sqrt(len(everything))
    total = {**totals, "share": share.to_json(), "mean": round(mean, 4)}
    total["mean_interval"] = [round(mean - half, 4), round(mean + half, 4)]
    if args.json:
        print(json.dumps({"total": total}))
    else:
        print(
            f"total over {len(args.matchups)} matchups: {totals['wins']}-{totals['draws']}-"
            f"{totals['losses']}, decisive won {share.rate:.3f} [Wilson 95%: {share.low:.3f}, "
            f"{share.high:.3f}]; mean {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"
        )


if __name__ == "__main__":
    main()
