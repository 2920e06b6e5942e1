"""Games per second for each game and agent, on 1 and all cores, with peak memory, and
OpenSpiel's goofspiel(8) random play when open-spiel is installed (same as `kumite bench`).

    python benchmarks/sim_bench.py [--seconds 3] [--json]
"""

from __future__ import annotations

import argparse
import json

from kumite.cli.bench import run as show
from kumite.sim import bench


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--warmup", type=float, default=bench.WARMUP)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(bench.run(seconds=args.seconds, warmup=args.warmup)))
    else:
        show(args.seconds, args.warmup, None, None, None, False)


if __name__ == "__main__":
    main()
