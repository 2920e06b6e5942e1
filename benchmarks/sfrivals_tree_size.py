"""How big the hidden-cover SF Rivals game is: an estimate of its game tree.

An exact equilibrium of a matchup, or the exact exploitability of a strategy that looks at
the order of play, must visit every history of the game: both set-ups, then every sequence of
cards played. This script estimates that number with Knuth's estimator (follow one random
path; the product of the branching factors along it, summed over the path's depths, is an
unbiased estimate of the number of nodes) over random set-up pairs, for each matchup:

* ``nodes per set-up pair``: fight histories after one pair of set-ups (covers known);
* ``nodes per matchup``: times the number of set-up pairs — the size of the tree a CFR over
  the real game would walk on every iteration (and an exact best response at least once).

Same seed, same figures. Default: three matchups, 20,000 paths each (~10 s).

    python benchmarks/sfrivals_tree_size.py [--paths 20000] [--matchups zangief,juri ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics

from kumite.games.sfrivals.game import GAME

MATCHUPS = ("zangief,juri", "ryu,ken", "poison,dudley")


def estimate(pair: list[str], paths: int, seed: int) -> dict[str, float]:
    """Knuth's estimate of the fight tree's nodes per set-up pair, with a standard error."""
    rng = random.Random(f"{seed}:{','.join(pair)}")
    options = GAME.parse_options({"characters": pair})
    samples: list[float] = []
    setups = 0.0
    for game_seed in range(paths):
        state = GAME.new_state(game_seed, options)
        state.quiet = True
        first = state.pending()
        setups = math.prod(len(d.legal) for d in first)
        state.apply({d.seat: rng.choice(d.legal) for d in first})
        nodes = weight = 1.0
        while not state.is_terminal:
            decisions = state.pending()
            for d in decisions:
                weight *= len(d.legal)
            nodes += weight
            state.apply({d.seat: rng.choice(d.legal) for d in decisions})
        samples.append(nodes)
    mean = statistics.fmean(samples)
    return {
        "setup_pairs": setups,
        "nodes_per_setup_pair": mean,
        "standard_error": statistics.stdev(samples) / math.sqrt(len(samples)),
        "nodes_per_matchup": mean * setups,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--paths", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--matchups", nargs="*", default=list(MATCHUPS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {m: estimate(m.split(","), args.paths, args.seed) for m in args.matchups}
    if args.json:
        print(json.dumps({"benchmark": "sfrivals-tree-size", "matchups": results}))
        return
    for matchup, r in results.items():
        print(
            f"{matchup:>16}: {r['nodes_per_setup_pair']:.3g} ± {r['standard_error']:.2g} "
            f"nodes per set-up pair x {r['setup_pairs']:.0f} set-up pairs "
            f"= {r['nodes_per_matchup']:.3g} nodes per matchup"
        )


if __name__ == "__main__":
    main()
