"""Fights per second during a `kumite balance` run, beside plain `kumite sim` of the same
agents and games in the same run: what the search spends beyond playing (candidate packs,
their catalogs, many small batches of fights) should be small.

Both run on one core (``--jobs 1``) in this process, one after the other, twice in
alternation; each rate is the best of its two runs.

    python benchmarks/sim_balance.py [--agent greedy] [--budget 600] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import time

from kumite.sim.backends import simulate
from kumite.sim.balance import BalanceSpec, Targets, balance, knobs_of, pack_of
from kumite.sim.engine import SimSpec

FIGHTERS = ("curie", "sombrerero", "zorro")


def search(agent: str, budget: int, seed: int) -> float:
    pack = pack_of("rivales")
    knobs = knobs_of(pack, ["curie.*:speed,damage"], FIGHTERS, max_change=1)
    spec = BalanceSpec(
        "rivales", (agent,), tuple(knobs), Targets(pairing=(0.45, 0.55), half=True), seed=seed,
        budget=budget, entities=FIGHTERS, fights=10, batch=10, max_fights=20, stages=1, screen=1,
    )  # fmt: skip
    doc = balance(spec, jobs=1)
    searched = int(doc["fights"]["search"])
    return searched / float(doc["seconds"]) if doc["seconds"] else 0.0


def plain(agent: str, games: int, seed: int) -> float:
    spec = SimSpec("rivales", ((agent, agent),), games, seed=seed, mirrors=False)
    t0 = time.perf_counter()
    simulate(spec, jobs=1, rows=False)
    return games / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--budget", type=int, default=600)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rates = {"balance": 0.0, "sim": 0.0}
    for k in range(2):
        rates["balance"] = max(rates["balance"], search(args.agent, args.budget, 10 + k))
        rates["sim"] = max(rates["sim"], plain(args.agent, args.budget, 10 + k))
    out = {
        "benchmark": "rivales-balance-vs-sim",
        "agent": args.agent,
        "fights": args.budget,
        "balance_fights_per_second": round(rates["balance"], 1),
        "sim_games_per_second": round(rates["sim"], 1),
        "ratio": round(rates["balance"] / rates["sim"], 2),
        "load_average": list(os.getloadavg()),
    }
    if args.json:
        print(json.dumps(out))
        return
    print(
        f"Rivales, {args.agent} bots, about {args.budget} fights, one core: kumite balance "
        f"{out['balance_fights_per_second']} fights/s searching, kumite sim "
        f"{out['sim_games_per_second']} games/s: {out['ratio']:.0%} of plain simulation "
        f"(load average {out['load_average'][0]:.1f})"
    )


if __name__ == "__main__":
    main()
