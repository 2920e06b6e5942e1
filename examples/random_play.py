"""Random play through PettingZoo: one AEC game of each kumite game, masked random actions.

python examples/random_play.py [--seed 1]
"""

from __future__ import annotations

import argparse

import numpy as np

from kumite.envs import pettingzoo as kpz


def play(game: str, options: dict[str, object], seed: int) -> dict[str, float]:
    env = kpz.env(game, options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        returns[agent] += reward
        action = None
        if not (termination or truncation):
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    return returns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game, options in [
        ("sfrivals", {}),
        ("rivales", {"mode": "2v2"}),
        ("sfdbg", {"players": 3}),
    ]:
        print(game, options, play(game, options, args.seed))


if __name__ == "__main__":
    main()
