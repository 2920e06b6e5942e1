"""Environment steps per second of every research interface and game (issues 17 and 31),
beside OpenSpiel's goofspiel(8) stepped through pyspiel and PettingZoo's classic
leduc_holdem in the same run.

A step is one ``step()`` call with a masked random action: PettingZoo AEC (one seat's
action), PettingZoo Parallel (every seat's), Gymnasium (the learner's action and the random
opponents' answers), a Gymnasium vector of 8 (8 environments' actions), SF Rivals' batched
vector environment of 8 and of 256 (env steps: one per environment) and OpenSpiel (one
``apply_action``/``apply_actions`` of the players; the chance nodes' draws between them are
applied but not counted), with explicit chance (the default) and sampled. Each is timed for
``--seconds``, one core.

With and without observations (issue 31): the PettingZoo AEC step with the acting seat's
observation read (``env.last()``) and without it (``env.last(observe=False)`` and the mask
alone), and OpenSpiel's sampled-chance step with and without ``observation_tensor`` of the
player to act; PettingZoo's ``leduc_holdem_v4`` (RLCard's Leduc hold'em, the classic
card game PettingZoo ships) the same two ways. ``--obs-only`` times just those.

    python benchmarks/env_steps.py [--seconds 3] [--game sfrivals] [--obs-only] [--cpu] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

MODES: list[tuple[str, dict[str, Any]]] = [
    ("sfrivals", {}),
    ("rivales", {}),
    ("rivales", {"mode": "2v2"}),
    ("sfdbg", {}),
    ("sfdbg", {"players": 4}),
]


CLOCK = {"clock": time.perf_counter}
"""Wall time, or (``--cpu``) this thread's CPU time: fairer on a loaded shared machine,
where a process the OS holds back loses wall time."""


def timed(step: Callable[[], int], seconds: float) -> float:
    clock = CLOCK["clock"]
    steps = 0
    t0 = clock()
    while clock() - t0 < seconds:
        steps += step()
    return steps / (clock() - t0)


def aec(game: str, options: dict[str, Any], observe: bool = True) -> Callable[[], int]:
    from kumite.envs import pettingzoo as kpz

    env = kpz.env(game, options)
    raw = env.unwrapped
    rng = np.random.default_rng(0)
    env.reset(seed=0)

    def step() -> int:
        obs, _, term, trunc, _ = env.last(observe=observe)
        if term or trunc:
            env.reset()
            return 0
        mask = obs["action_mask"] if observe else raw.action_mask(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(mask))))
        return 1

    return step


def leduc(observe: bool = True) -> Callable[[], int]:
    """PettingZoo's classic leduc_holdem (RLCard), stepped as ``aec`` steps kumite's."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pettingzoo.classic import leduc_holdem_v4

    env = leduc_holdem_v4.env()
    raw = env.unwrapped
    rng = np.random.default_rng(0)
    env.reset(seed=0)

    def step() -> int:
        obs, _, term, trunc, _ = env.last(observe=observe)
        if term or trunc:
            if not env.agents or all(env.terminations.values()):
                env.reset()
                return 0
            env.step(None)
            return 0
        legal = np.flatnonzero(obs["action_mask"]) if observe else list(raw.next_legal_moves)
        env.step(int(rng.choice(legal)))
        return 1

    return step


def parallel(game: str, options: dict[str, Any]) -> Callable[[], int]:
    from kumite.envs import pettingzoo as kpz

    env = kpz.parallel_env(game, options)
    rng = np.random.default_rng(0)
    box = {"obs": env.reset(seed=0)[0]}

    def step() -> int:
        if not env.agents:
            box["obs"] = env.reset()[0]
        obs = box["obs"]
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
        box["obs"] = env.step(actions)[0]
        return 1

    return step


def gym_single(game: str, options: dict[str, Any]) -> Callable[[], int]:
    from kumite.envs.gymnasium import KumiteEnv

    env = KumiteEnv(game, options)
    rng = np.random.default_rng(0)
    box = {"info": env.reset(seed=0)[1]}

    def step() -> int:
        _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(box["info"]["action_mask"]))))
        box["info"] = env.reset()[1] if done else info
        return 1

    return step


def gym_vector(
    game: str, options: dict[str, Any], n: int = 8, batched: bool = False
) -> Callable[[], int]:
    from kumite.envs.gymnasium import make_vector

    env = make_vector(game, n, options, batched=batched)
    rng = np.random.default_rng(0)
    box = {"info": env.reset(seed=0)[1]}

    def step() -> int:
        masks = box["info"]["action_mask"]
        # a uniform legal action per environment (none legal: action 0, ignored on autoreset)
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        box["info"] = env.step(actions)[4]
        return n

    if batched:
        # the rule tables fill as fights meet new positions (not timed): random fights of
        # the same engine fill most of them
        core: Any = env.unwrapped.core  # type: ignore[attr-defined]
        for start in range(0, 2_000_000, 200_000):
            core.engine.random_fights(np.arange(start, start + 200_000))
        for _ in range(20_000 // n):
            step()
    return step


def spiel(game: Any, observe: bool = False) -> Callable[[], int]:
    rng = random.Random(0)
    players = range(game.num_players())
    box = {"state": game.new_initial_state()}

    def step() -> int:
        state = box["state"]
        if state.is_terminal():
            box["state"] = game.new_initial_state()
            return 0
        if observe and not state.is_chance_node():
            player = state.current_player()
            for p in players if player < 0 else (player,):
                state.observation_tensor(p)
        if state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in players])
        elif state.is_chance_node():  # a draw, not a step of the game: not counted
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            return 0
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        return 1

    return step


def main() -> None:
    import pyspiel

    from kumite.envs import openspiel as kos

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--obs-only", action="store_true", help="only with/without observations")
    parser.add_argument("--cpu", action="store_true", help="time by this thread's CPU time")
    args = parser.parse_args()
    if args.cpu:
        CLOCK["clock"] = time.thread_time
    rows = []
    reference = timed(spiel(pyspiel.load_game("goofspiel(num_cards=8)")), args.seconds)
    leduc_rows = {
        "pettingzoo_aec": timed(leduc(observe=True), args.seconds),
        "pettingzoo_aec_no_obs": timed(leduc(observe=False), args.seconds),
    }
    for game, options in MODES:
        if args.game and game not in args.game:
            continue
        row: dict[str, Any] = {"game": game, "options": options}
        row["pettingzoo_aec"] = timed(aec(game, options), args.seconds)
        row["pettingzoo_aec_no_obs"] = timed(aec(game, options, observe=False), args.seconds)
        sampled = kos.load(game, options, chance="sampled")
        row["openspiel_sampled_obs"] = timed(spiel(sampled, observe=True), args.seconds)
        row["openspiel_sampled"] = timed(spiel(sampled), args.seconds)
        if args.obs_only:
            rows.append(row)
            continue
        if game != "sfdbg":
            row["pettingzoo_parallel"] = timed(parallel(game, options), args.seconds)
        row["gymnasium"] = timed(gym_single(game, options), args.seconds)
        row["gymnasium_vector_8"] = timed(gym_vector(game, options), args.seconds)
        if game == "sfrivals":
            for n in (8, 256):
                vector = gym_vector(game, options, n, batched=True)
                row[f"batched_vector_{n}"] = timed(vector, args.seconds)
        row["openspiel"] = timed(spiel(kos.load(game, options)), args.seconds)
        rows.append(row)
    if args.json:
        out = {"goofspiel8_steps_per_s": reference, "leduc_holdem": leduc_rows, "rows": rows}
        print(json.dumps(out, indent=1))
        return
    print(f"reference, goofspiel(8) through pyspiel: {reference:,.0f} steps/s (same run)")
    print(
        f"reference, PettingZoo leduc_holdem_v4 AEC: {leduc_rows['pettingzoo_aec']:,.0f} "
        f"steps/s with observations, {leduc_rows['pettingzoo_aec_no_obs']:,.0f} without"
    )
    cols = ["pettingzoo_aec", "pettingzoo_aec_no_obs", "openspiel_sampled_obs"]
    cols += ["openspiel_sampled"]
    if not args.obs_only:
        cols += ["pettingzoo_parallel", "gymnasium", "gymnasium_vector_8", "batched_vector_8"]
        cols += ["batched_vector_256", "openspiel"]
    print("| game | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    for row in rows:
        name = row["game"] + "".join(f" {k}={v}" for k, v in row["options"].items())
        cells = [f"{row[c]:,.0f}" if c in row else "—" for c in cols]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
