"""The batched SF Rivals engine: full random fights per second on one core, beside OpenSpiel's
goofspiel(8) random play measured in the same run (issue 17: target >= 30x), and the memory
of 10^5 fights stepped at once; and (issue 31: target >= 20x) env steps per second through
the batched vector environment's Gymnasium API (kumite.envs.vector: ``env.step`` of
``--envs`` games, against the random and the greedy opponent) beside goofspiel(8)'s steps
(one ``apply_actions`` each) in the same run.

Each fight: both characters drawn at random (every pairing of the pack), random set-ups,
random legal cards to the end (kumite.games.sfrivals.batch). Every pairing's rule tables
are filled up front when the engine first meets it (``FightSolver.fill_committed``), so a
short warm-up (``--warmup`` fights, one batch by default) meets every pairing and compiles
the kernels; its time is printed. Then batches of fights and goofspiel(8) games take turns
for the timed runs, and the best and median of each are printed, by wall-clock time and by
the thread's CPU time (the fair measure on a shared machine: a process the OS holds back
loses wall time, not CPU time). goofspiel(8) is driven from Python the way ``kumite bench``
drives it (legal actions asked each step, one random choice per player); it is OpenSpiel's
C++ engine underneath.

The learner's actions of the vector API are drawn by a small compiled sampler (a uniform
legal action per game, from the masks the step returned); its time is not counted (it stands
for the learner's policy), and is printed beside.

    python benchmarks/env_batch.py [--seconds 20] [--batch 100000] [--warmup 100000]
                                   [--envs 4096] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import time
from typing import Any

import numpy as np
from numba import njit

from kumite.games.sfrivals.batch import BatchEngine
from kumite.games.sfrivals.game import GAME

TARGET = 30.0
VECTOR_TARGET = 20.0


Rate = tuple[float, float]
"""Per second of wall-clock time, per second of CPU time."""


def goofspiel_rate(seconds: float, rng: random.Random) -> Rate:
    import pyspiel

    game = pyspiel.load_game("goofspiel(num_cards=8)")
    players = range(game.num_players())
    games = 0
    t0, c0 = time.perf_counter(), time.thread_time()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in players])
            elif state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        games += 1
    return games / (time.perf_counter() - t0), games / (time.thread_time() - c0)


def goofspiel_steps(seconds: float, rng: random.Random) -> Rate:
    """goofspiel(8) random play: players' steps (``apply_actions``) per second."""
    import pyspiel

    game = pyspiel.load_game("goofspiel(num_cards=8)")
    players = range(game.num_players())
    steps = 0
    t0, c0 = time.perf_counter(), time.thread_time()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in players])
                steps += 1
            elif state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
    return steps / (time.perf_counter() - t0), steps / (time.thread_time() - c0)


@njit(cache=True)
def _sample(masks: Any, state: Any) -> Any:
    """A uniform legal action per row (the learner's stand-in), from a xorshift stream."""
    out = np.zeros(masks.shape[0], dtype=np.int64)
    for i in range(masks.shape[0]):
        n = 0
        for j in range(masks.shape[1]):
            n += masks[i, j]
        state[0] ^= state[0] << np.uint64(13)
        state[0] ^= state[0] >> np.uint64(7)
        state[0] ^= state[0] << np.uint64(17)
        k = int(state[0] % np.uint64(max(n, 1)))
        for j in range(masks.shape[1]):
            if masks[i, j]:
                if k == 0:
                    out[i] = j
                    break
                k -= 1
    return out


class VectorRun:
    """A batched vector env and its last masks, stepped for timed runs."""

    def __init__(self, envs: int, opponent: str) -> None:
        from kumite.envs.vector import BatchedVectorEnv

        self.env = BatchedVectorEnv("sfrivals", envs, {}, 0, opponent, copy=False)
        self.masks = self.env.reset(seed=0)[1]["action_mask"]
        self.state = np.array([0x9E3779B97F4A7C15], dtype=np.uint64)
        self.sampling = 0.0

    def rate(self, seconds: float) -> Rate:
        steps, wall, cpu = 0, 0.0, 0.0
        t_end = time.perf_counter() + seconds
        while time.perf_counter() < t_end:
            c = time.thread_time()
            actions = _sample(self.masks, self.state)
            t0, c0 = time.perf_counter(), time.thread_time()
            self.sampling += c0 - c
            self.masks = self.env.step(actions)[4]["action_mask"]
            wall += time.perf_counter() - t0
            cpu += time.thread_time() - c0
            steps += self.env.num_envs
        return steps / wall, steps / cpu


def batch_rate(engine: BatchEngine, n: int, start: int) -> Rate:
    t0, c0 = time.perf_counter(), time.thread_time()
    engine.random_fights(np.arange(start, start + n))
    return n / (time.perf_counter() - t0), n / (time.thread_time() - c0)


def memory(engine: BatchEngine, n: int) -> dict[str, float]:
    """Bytes per fight of the arrays a batch of ``n`` fights holds, and of the rule tables."""
    fights = engine.random_fights(np.arange(n))
    per_fight = sum(
        a.nbytes
        for a in (fights.characters, fights.setup, fights.played, fights.legal, fights.winner)
    ) + sum(a.nbytes for a in (fights.lives, fights.rounds, fights.reason))
    # and what the kernel holds while it runs: key, random stream, status, end index
    per_fight += n * (8 + 8 + 1 + 8)
    arrays: dict[int, int] = {}  # the per-character tables are shared between pairings
    for solver in engine._solvers.values():
        for t in (*solver.tables, solver.pairs_filled):
            if isinstance(t, np.ndarray):
                arrays[id(t)] = t.nbytes
    tables = sum(arrays.values())
    return {
        "fights": n,
        "arrays_mb": per_fight / 2**20,
        "bytes_per_fight": per_fight / n,
        "rule_tables_mb": tables / 2**20,
        "pairings": len(engine._solvers),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--batch", type=int, default=100_000)
    parser.add_argument("--warmup", type=int, default=100_000)
    parser.add_argument("--envs", type=int, default=4096, help="games of the vector API")
    parser.add_argument("--no-engine", action="store_true", help="only the vector API")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.no_engine:
        vector_main(args)
        return
    engine = BatchEngine(GAME, {})
    n = args.batch
    t0 = time.perf_counter()
    warm, start = [], 10**9
    while start - 10**9 < args.warmup:  # meets every pairing: its tables are filled
        warm.append(batch_rate(engine, n, start)[0])
        start += n
    warmed = start - 10**9
    warmup_s = time.perf_counter() - t0
    rng = random.Random(0)
    ours: list[Rate] = []
    theirs: list[Rate] = []
    deadline = time.perf_counter() + args.seconds
    while time.perf_counter() < deadline or len(ours) < 3:
        theirs.append(goofspiel_rate(1.0, rng))
        ours.append(batch_rate(engine, n, start))
        start += n

    def summary(rates: list[Rate], col: int) -> dict[str, float]:
        xs = [r[col] for r in rates]
        return {"best": max(xs), "median": statistics.median(xs)}

    result: dict[str, Any] = {"target_ratio": TARGET, "load_average": os.getloadavg()}
    for name, col in (("wall", 0), ("cpu", 1)):
        a, b = summary(ours, col), summary(theirs, col)
        result[name] = {
            "batched_fights_per_s": a,
            "goofspiel8_games_per_s": b,
            "ratio_median": a["median"] / b["median"],
            "ratio_best": a["best"] / b["best"],
        }
    result |= {
        "warmup": {"seconds": warmup_s, "rates": warm},
        "memory": memory(engine, 100_000),
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return
    shown = ", ".join(f"{r:,.0f}" for r in warm[:: max(1, len(warm) // 8)])
    print(f"warm-up {warmup_s:.1f} s ({warmed:,} fights, tables filled): batch rates {shown}")
    for name in ("wall", "cpu"):
        r = result[name]
        ours_s, theirs_s = r["batched_fights_per_s"], r["goofspiel8_games_per_s"]
        print(
            f"[{name}] batched SF Rivals {ours_s['median']:,.0f} random fights/s (median; best "
            f"{ours_s['best']:,.0f}), one core; goofspiel(8) {theirs_s['median']:,.0f} games/s "
            f"(best {theirs_s['best']:,.0f}), same run; ratio {r['ratio_median']:.1f}x "
            f"(median), {r['ratio_best']:.1f}x (best); target {TARGET:.0f}x"
        )
    m = result["memory"]
    print(
        f"memory: {m['fights']:,} fights at once hold {m['arrays_mb']:.1f} MB of arrays "
        f"({m['bytes_per_fight']:.0f} B a fight); rule tables {m['rule_tables_mb']:.0f} MB for "
        f"{m['pairings']} pairings; peak RSS {m['peak_rss_mb']:.0f} MB"
    )
    print(f"load average {[round(x, 2) for x in result['load_average']]}")
    vector_main(args)


def vector_main(args: argparse.Namespace) -> None:
    """Env steps/s of the vector API beside goofspiel(8)'s steps, alternating 1-second runs."""
    t0 = time.perf_counter()
    runs = {name: VectorRun(args.envs, name) for name in ("random", "greedy")}
    for run in runs.values():
        run.rate(2.0)  # compiled, tables filled
    setup_s = time.perf_counter() - t0
    rng = random.Random(0)
    rates: dict[str, list[Rate]] = {"goofspiel8": [], **{k: [] for k in runs}}
    deadline = time.perf_counter() + args.seconds
    while time.perf_counter() < deadline or len(rates["goofspiel8"]) < 3:
        rates["goofspiel8"].append(goofspiel_steps(1.0, rng))
        for name, run in runs.items():
            rates[name].append(run.rate(1.0))
    out: dict[str, Any] = {"envs": args.envs, "setup_s": setup_s, "target": VECTOR_TARGET}
    for col, name in ((0, "wall"), (1, "cpu")):
        ref = statistics.median(r[col] for r in rates["goofspiel8"])
        out[name] = {"goofspiel8_steps_per_s": ref}
        for k in runs:
            med = statistics.median(r[col] for r in rates[k])
            out[name][k] = {"env_steps_per_s": med, "ratio": med / ref}
    steps = sum(r.env.num_envs for r in runs.values())
    out["load_average"] = os.getloadavg()
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"vector API, {args.envs} games (setup {setup_s:.1f} s):")
    for name in ("wall", "cpu"):
        r = out[name]
        cells = ", ".join(
            f"vs {k} {r[k]['env_steps_per_s']:,.0f} env steps/s ({r[k]['ratio']:.1f}x)"
            for k in runs
        )
        print(
            f"[{name}] goofspiel(8) {r['goofspiel8_steps_per_s']:,.0f} steps/s (same run); "
            f"{cells}; target {VECTOR_TARGET:.0f}x"
        )
    sampled = sum(run.sampling for run in runs.values())
    print(f"(the learner's sampler, not counted: {sampled:.2f} s of CPU; {steps} games)")
    print(f"load average {[round(x, 2) for x in out['load_average']]}")


if __name__ == "__main__":
    main()
