"""Stable-Baselines3's ``VecEnv`` over kumite's batched vector environment (docs/envs.md,
"The batched vector env"). This module imports Stable-Baselines3: kumite itself never needs
it, so only code that has it installed imports this module.

    from kumite.envs.sb3 import make_vec_env
    from sb3_contrib import MaskablePPO

    env = make_vec_env(GAME_ID, 64, opponent="greedy")  # a game with a batched engine
    MaskablePPO("MlpPolicy", env).learn(100_000)

Stable-Baselines3's conventions: the environment resets a game as soon as it ends (the new
game's observation is returned, the last one is ``infos[i]["terminal_observation"]``);
``dones`` are terminations (a game never truncates); ``env_method("action_masks")`` gives
each game's legal actions, which sb3-contrib's ``MaskablePPO`` reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from kumite.envs.vector import BatchedPolicy, BatchedVectorEnv


class KumiteVecEnv(VecEnv):
    """A :class:`~kumite.envs.vector.BatchedVectorEnv` (same-step autoreset) as SB3's
    ``VecEnv``: the games are stepped at once, not one environment object each."""

    def __init__(self, env: BatchedVectorEnv) -> None:
        if env.metadata["autoreset_mode"].name != "SAME_STEP":
            raise ValueError("SB3 resets at once: make the env with autoreset='same-step'")
        self.env = env
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
        self.metadata = env.metadata
        self._actions: np.ndarray | None = None
        self._seed: int | None = None

    def reset(self) -> np.ndarray:
        seed = self._seed
        self._seed = None
        obs, _ = self.env.reset(seed=seed)
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        assert self._actions is not None, "step_async first"
        obs, rewards, terminated, truncated, info = self.env.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final = info["final_obs"]
            for i in np.flatnonzero(dones).tolist():
                infos[i]["terminal_observation"] = final[i]
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        if "_illegal_action" in info:
            for i in np.flatnonzero(info["_illegal_action"]).tolist():
                infos[i]["illegal_action"] = info["illegal_action"][i]
        return obs, rewards.astype(np.float32), dones, infos

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """The seed of the next :meth:`reset` (game ``i`` plays seed ``seed + i``)."""
        self._seed = seed
        return [None if seed is None else seed + i for i in range(self.num_envs)]

    def close(self) -> None:
        self.env.close()

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()

    # -- SB3's per-environment accessors: the games share one object ------------------------
    def _count(self, indices: VecEnvIndices) -> int:
        return len(list(self._get_indices(indices)))

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self.env, attr_name)
        return [value] * self._count(indices)

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self.env, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            return list(self.env.action_masks()[rows])
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result] * len(rows)

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [isinstance(self.env, wrapper_class)] * self._count(indices)

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs

    def _get_indices(self, indices: VecEnvIndices) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return indices


def make_vec_env(
    game: str,
    num_envs: int,
    options: Mapping[str, Any] | None = None,
    seat: int = 0,
    opponent: str | BatchedPolicy = "random",
    **kwargs: Any,
) -> KumiteVecEnv:
    """``num_envs`` games of ``game`` on its batched engine as an SB3 ``VecEnv``."""
    env = BatchedVectorEnv(game, num_envs, options, seat, opponent, autoreset="same-step", **kwargs)
    return KumiteVecEnv(env)
