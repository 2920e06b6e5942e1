"""A Gymnasium vector loop on SF Rivals' batched engine: thousands of fights at once in one
compiled step, the learner (seat 0, masked random here: put your policy in its place)
against kumite's greedy bot — or against your own batched policy (self-play).

    python examples/gymnasium_vector.py [--steps 200] [--envs 1024] [--self-play]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from kumite.envs.vector import BatchedVectorEnv


def masked_random(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform legal action per game (a game that just ended has none: any action resets
    it)."""
    scores = np.where(masks, rng.random(masks.shape), -1.0)
    return scores.argmax(axis=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--self-play", action="store_true", help="the opponent: a policy")
    args = parser.parse_args()
    rng = np.random.default_rng(0)

    def opponent_policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """A batched policy: called once per step with the opponent's own observations and
        masks of every game where it must decide (your network would go here)."""
        return masked_random(masks, rng)

    opponent = opponent_policy if args.self_play else "greedy"
    # copy=False: the env's own buffers, read-only views updated in place by the next step
    envs = BatchedVectorEnv("sfrivals", args.envs, {}, 0, opponent, copy=False)
    obs, info = envs.reset(seed=0)
    wins = games = 0
    t0 = time.perf_counter()
    for _ in range(args.steps):
        actions = masked_random(info["action_mask"], rng)
        obs, rewards, terminated, _truncated, info = envs.step(actions)
        games += int(terminated.sum())
        wins += int((rewards > 0).sum())
    rate = args.steps * args.envs / (time.perf_counter() - t0)
    print(
        f"{games} fights ended, the learner won {wins}; observations {obs.shape}; "
        f"{rate:,.0f} env steps/s (the random learner's own time included)"
    )


if __name__ == "__main__":
    main()
