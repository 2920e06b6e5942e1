"""The lab's search for the SF DBG Super Heroes' values (``kumite balance sfdbg`` through its
Python API, for the two settings the command line does not take: CMA-ES generations and how
many values it combines; by default none: single moves only, one hero per stage, the
fewest changes, and budget left for more heroes' stages).

The values that may move are the heroes' own: every number of each Super Hero's
Counter-Attack and of its Ultra's play effects (only those the reconstructed texts state, so
each text is rewritten with its number; the Ultras' cost and VP are published and never
move), at most ``--max-change`` steps. The target: every hero's win rate x players within
[0.8, 1.2] at each player count, under ``greedy``. Writes the overlay pack (``--out``) and
the report (``--report``, JSON; ``kumite balance``'s document).

    python scripts/sfdbg_heroes_search.py [--seed 3201] [--budget 75000] [--jobs 1]
        [--players 2,3,4] [--batch 280] [--max-fights 840] [--fights 1400]
        [--stages 6] [--screen 2] [--generations 0] [--combine 3] [--max-change 2]
        [--heroes akuma,sagat,...] [--start FILE] [--out heroes.toml] [--report heroes.json]

``--heroes`` limits the values that may move to those heroes' (every hero is still
measured); ``--start`` continues from an overlay (an earlier run's ``--out``: its values are
the new starting point, and the result contains them).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from kumite.cli.balance import show
from kumite.core.errors import OptionsError
from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.lab import ADAPTER
from kumite.sim.balance import BalanceSpec, Targets, balance, knobs_of, pack_of


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=3201)
    parser.add_argument("--budget", type=int, default=75_000, help="games the search may play")
    parser.add_argument("--jobs", "-j", type=int, default=1)
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--batch", type=int, default=280, help="games per player count a step")
    parser.add_argument("--max-fights", type=int, default=840, help="most per candidate")
    parser.add_argument("--fights", type=int, default=1400, help="re-check, per player count")
    parser.add_argument("--stages", type=int, default=6)
    parser.add_argument("--screen", type=int, default=2)
    parser.add_argument("--generations", type=int, default=0)
    parser.add_argument("--combine", type=int, default=3)
    parser.add_argument("--max-change", type=int, default=2)
    parser.add_argument("--heroes", default="", help="only these heroes' values move")
    parser.add_argument("--start", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=Path("heroes.toml"))
    parser.add_argument("--report", type=Path, default=Path("heroes.json"))
    args = parser.parse_args()

    start = GAME.read_overlay(args.start) if args.start else None
    pack = pack_of("sfdbg", start)
    heroes = [str(h["id"]) for h in pack.data["heroes"]]
    only = set(args.heroes.split(",")) - {""}
    moving = [h for h in pack.data["heroes"] if not only or h["id"] in only]
    vary = [f"{h['id']}:counter.*.amount,counter.*.min_cost" for h in moving]
    vary += [f"{h['ultra']}:play.**.amount,play.**.min_cost" for h in moving]
    knobs = []
    for item in vary:  # one hero at a time: Balrog's and Vega's Counter-Attacks state no number
        try:
            knobs += knobs_of(
                pack,
                [item],
                heroes,
                ranges={"amount": (1, 6), "min_cost": (1, 3)},
                max_change=args.max_change,
                adapter=ADAPTER,
            )
        except OptionsError as exc:  # no number this text states
            print(f"skip {item}: {exc}", file=sys.stderr)
    spec = BalanceSpec(
        game="sfdbg",
        judges=("greedy",),
        knobs=tuple(knobs),
        targets=Targets(share=(0.8, 1.2)),
        seed=args.seed,
        budget=args.budget,
        players=tuple(int(p) for p in args.players.split(",")),
        entities=tuple(heroes),
        start=start,
        fights=args.fights,
        batch=args.batch,
        max_fights=args.max_fights,
        stages=args.stages,
        screen=args.screen,
        generations=args.generations,
        combine=args.combine,
        pack_id=args.out.stem,
    )
    print(f"{len(knobs)} values may move; seed {args.seed}", file=sys.stderr, flush=True)

    def found(overlay: str | None) -> None:
        if overlay is not None:
            args.out.write_text(overlay, "utf-8")
            print(f"wrote {args.out}; re-checking on fresh seeds", file=sys.stderr, flush=True)

    doc = balance(
        spec,
        jobs=args.jobs,
        log=lambda m: print(m, file=sys.stderr, flush=True),
        found=found,
    )
    args.report.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", "utf-8")
    show(doc)


if __name__ == "__main__":
    main()
