"""A Gymnasium vector loop: 8 SF Rivals fights at once, the learner (seat 0, masked random
here: put a policy in its place) against kumite's greedy bot.

    python examples/gymnasium_vector.py [--steps 200]
"""

from __future__ import annotations

import argparse

import gymnasium as gym
import numpy as np

import kumite.envs.gymnasium  # noqa: F401  (registers kumite/SFRivals-v0 ...)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--envs", type=int, default=8)
    args = parser.parse_args()
    envs = gym.make_vec(
        "kumite/SFRivals-v0",
        num_envs=args.envs,
        vectorization_mode="vector_entry_point",
        opponents="greedy",
    )
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    wins = games = 0
    for _ in range(args.steps):
        # an env that just ended has no legal action: its next step resets it
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]]
        )
        obs, rewards, terminated, _truncated, info = envs.step(actions)
        games += int(terminated.sum())
        wins += int((rewards > 0).sum())
    print(f"{games} fights ended, the learner won {wins}; observations {obs.shape}")


if __name__ == "__main__":
    main()
