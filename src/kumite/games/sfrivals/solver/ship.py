"""Write the solved matchups kumite ships: ``python -m kumite.games.sfrivals.solver.ship``.

Solves (or loads from the cache, ``$KUMITE_CACHE_DIR``) every matchup of the base pack under
the default rules by method tight — what ``kumite solve sfrivals --all`` does — and writes
their summaries (bounds, set-up games and mixes; no fight tables: agents solve the positions
they meet) to :data:`~kumite.games.sfrivals.solver.setup.SHIPPED`, under a megabyte. Same
pack, rules and solver version, same file: the values are deterministic. ``--cached`` ships
only the matchups the cache already holds (solving none): a partial table, where the rest
takes hours. The books of ``bounded``'s first rounds are written from these by
``python -m kumite.games.sfrivals.solver.book`` (write them again after shipping new
solutions: a book only serves the solution it was written from).
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver.setup import (
    SHIPPED,
    SOLVER_VERSION,
    cache_key,
    cache_path,
    full_summary,
    solve_matchup,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name(SHIPPED))
    parser.add_argument(
        "--cached", action="store_true", help="only the matchups already in the cache"
    )
    args = parser.parse_args()
    opts = GAME.parse_options({})
    chars = list(GAME.catalog(opts).characters)
    rows = []
    for i, a in enumerate(chars):
        for b in chars[i:]:
            mine = GAME.parse_options({"characters": [a, b]})
            if args.cached and not cache_path((a, b), mine).with_suffix(".json").exists():
                continue
            sol = solve_matchup((a, b), {})
            summary = full_summary(sol)
            summary["from_cache"] = False
            rows.append([cache_key((a, b), sol.options), summary])
            print(f"{a} vs {b}: [{sol.lower:+.4f}, {sol.upper:+.4f}]")
    blob = json.dumps({"solver_version": SOLVER_VERSION, "matchups": rows}, sort_keys=True)
    # a fixed mtime: the same solutions give the same bytes
    args.out.write_bytes(gzip.compress(blob.encode("utf-8"), mtime=0))
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes, {len(rows)} matchups)")


if __name__ == "__main__":
    main()
