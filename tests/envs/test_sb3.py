"""Stable-Baselines3 on the batched vector environment (kumite.envs.sb3): the adapter is an
SB3 ``VecEnv`` (same-step resets, terminal observations, masks for sb3-contrib), and
``MaskablePPO`` learns on it."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
sb3_contrib = pytest.importorskip("sb3_contrib")

from stable_baselines3.common.vec_env import VecEnv, VecMonitor  # noqa: E402

from kumite.envs.sb3 import make_vec_env  # noqa: E402

OPTIONS = {"characters": ["ryu", "ken"]}


def win_rate(model: object, episodes: int, seed: int) -> float:
    """The learner's mean result over ``episodes`` fights against the env's opponent."""
    env = make_vec_env("sfrivals", 64, OPTIONS, opponent="random")
    env.seed(seed)
    obs = env.reset()
    results: list[float] = []
    while len(results) < episodes:
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)  # type: ignore[attr-defined]
        obs, rewards, dones, _ = env.step(action)
        results += rewards[dones].tolist()
    return float(np.mean(results[:episodes]))


def test_the_adapter_is_an_sb3_vec_env_with_masks_and_terminal_observations() -> None:
    env = make_vec_env("sfrivals", 4, OPTIONS)
    assert isinstance(env, VecEnv)
    env.seed(1)
    obs = env.reset()
    assert obs.shape == (4, env.observation_space.shape[0])
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(30):
        masks = np.stack(env.env_method("action_masks"))
        assert masks.any(axis=1).all()
        obs, rewards, dones, infos = env.step(np.argmax(masks * rng.random(masks.shape), axis=1))
        for i in np.flatnonzero(dones):
            ended += 1
            assert infos[i]["terminal_observation"].shape == obs[i].shape
            assert rewards[i] in (-1.0, 0.0, 1.0)
    assert ended >= 4


@pytest.mark.slow
def test_maskable_ppo_learns_on_the_batched_env() -> None:
    import torch

    torch.set_num_threads(1)  # a small network: threads only contend on a shared machine
    env = VecMonitor(make_vec_env("sfrivals", 64, OPTIONS, opponent="random"))
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", env, n_steps=32, batch_size=512, n_epochs=4, seed=0, device="cpu"
    )
    before = win_rate(model, 512, seed=10**6)
    model.learn(total_timesteps=6 * 64 * 32)
    after = win_rate(model, 512, seed=10**6)
    assert after > before + 0.1, (before, after)
