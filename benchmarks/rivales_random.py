"""Full random Rivales 1vs1 fights per second on one core.

Each fight: both fighters picked at random at the table, random life markers, random legal
choices to the end (three rounds or more), every choice validated by the engine (quiet
states: no event objects are built). The rate is measured in CPU time of this process (so
other work on a shared machine does not distort it) after a warm-up, over several timed
runs; printed: fights/s and decisions/s per CPU second over all timed runs, the median and
best run, the wall time (which a loaded machine stretches), and the target of issue 4
(1,000 fights/s).

    python benchmarks/rivales_random.py [--seconds 5] [--mode 1v1|2v2] [--json]
    python benchmarks/rivales_random.py --fights N   # exactly N timed fights (see below)

Measured (1vs1, this machine: 2 cores shared with other sessions, so instruction counts
are the reliable figure; CPython 3.11.7). Instructions per fight = (Ir of ``--fights 200``
minus Ir of ``--fights 0``) / 200 under ``PYTHONHASHSEED=0 valgrind --tool=callgrind``:
the same 200 fights after the same warm-up, so two builds do exactly the same work.
About 0.35 M of each fight's instructions are this script's own (``random.choice``, the
choices dict, ``pending()``), not the engine's.

====================================  ============  ==========================================
build                                 instr./fight  fights/s per CPU second (median run)
====================================  ============  ==========================================
before the fifth pass (main 1b075ac)  3.08 M        936, 1194, 947 (930, 1191, 915)
after it                              2.73 M        1174, 1181, 1175 (1266, 1305, 1257)
====================================  ============  ==========================================

(-11.4 % instructions; the rates are three alternating 5 s runs of each build on the
shared machine at load ~3, 2026-11-30: too noisy to rank builds by themselves.)

The fifth pass (flat profile; each step a few per cent): side and energy counts in plain
loops (``operator.countOf`` over ``map(attrgetter)`` costs more instructions than the
interpreter's specialised slot read); the state's attributes in ``__slots__`` (CPython 3.11
specialises attribute and method look-ups of an instance dict only up to 30 keys, and a
state has over 50); ``is_terminal`` a plain attribute; a clash's phases without decisions
entered directly; persona decisions made once per round; compiled requirements carried in
the effect queue; the shuffle's steps tabulated per deck size.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from kumite.games.rivales.game import GAME

TARGET = 1000


def play(n: int, start: int, rng: random.Random, mode: str) -> int:
    steps = 0
    options = {"mode": mode}
    for seed in range(start, start + n):
        state = GAME.new_state(seed, options)
        state.quiet = True
        while not state.is_terminal:
            state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
            steps += 1
    return steps


def exact(fights: int, mode: str) -> tuple[int, float]:
    """The warm-up and then exactly ``fights`` fights (for instruction counts): decisions
    and CPU seconds of those fights."""
    rng = random.Random(0)
    play(200, 0, rng, mode)  # warm-up, as :func:`measure`
    t0 = time.process_time()
    steps = play(fights, 10**6, rng, mode)
    return steps, time.process_time() - t0


def measure(seconds: float, mode: str) -> tuple[list[float], int, int, float, float]:
    """Rates of the timed runs, fights, decisions, CPU seconds, wall seconds."""
    rng = random.Random(0)
    play(200, 0, rng, mode)  # warm-up
    rates: list[float] = []
    steps = fights = 0
    cpu = 0.0
    start = 10**6
    wall0 = time.perf_counter()
    deadline = time.process_time() + seconds
    while time.process_time() < deadline or len(rates) < 3:
        n = 500
        t0 = time.process_time()
        steps += play(n, start, rng, mode)
        dt = time.process_time() - t0
        cpu += dt
        rates.append(n / dt)
        fights += n
        start += n
    wall = time.perf_counter() - wall0
    return rates, fights, steps, cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--mode", choices=("1v1", "2v2"), default="1v1")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--fights", type=int, default=None, help="play exactly this many timed fights"
    )
    args = parser.parse_args()
    if args.fights is not None:
        steps, cpu = exact(args.fights, args.mode)
        print(f"{args.fights} {args.mode} fights, {steps} decisions, {cpu:.2f} s CPU")
        return
    rates, fights, steps, cpu, wall = measure(args.seconds, args.mode)
    median = statistics.median(rates)
    result = {
        "benchmark": f"rivales-random-fights-{args.mode}",
        "fights_per_second_best": round(max(rates)),
        "fights_per_second_median": round(median),
        "fights_per_cpu_second": round(fights / cpu),
        "decisions_per_cpu_second": round(steps / cpu),
        "decisions_per_fight": round(steps / fights, 1),
        "fights": fights,
        "cpu_seconds": round(cpu, 2),
        "wall_seconds": round(wall, 2),
        "fights_per_wall_second": round(fights / wall),
        "target": TARGET,
        "ratio_to_target": round(median / TARGET, 2),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"Rivales random {args.mode} fights: {result['fights_per_cpu_second']} fights/s and "
            f"{result['decisions_per_cpu_second']} decisions/s per CPU second "
            f"(runs of 500: median {result['fights_per_second_median']}/s, "
            f"best {result['fights_per_second_best']}/s); {result['fights']} fights, "
            f"{result['decisions_per_fight']} decisions a fight, in {result['cpu_seconds']} s "
            f"CPU / {result['wall_seconds']} s wall ({result['fights_per_wall_second']}/s wall); "
            f"target {TARGET}/s for 1v1, ratio {result['ratio_to_target']}"
        )


if __name__ == "__main__":
    main()
