"""The batched vector environment (docs/envs.md, "The batched vector env"): ``num_envs``
games of one learner seat, stepped at once on a game's batched engine — the game's declared
vector core (``GameSpec.observation.vector``; SF Rivals has one) — as a Gymnasium
``VectorEnv``. Generic: no game is named here.

The opponent acts in batch too: a name the core knows (``"random"``, ``"greedy"``) or a
batched policy ``policy(observations[k, size], masks[k, actions]) -> actions[k]`` (the
learner's own, for self-play; :mod:`kumite.envs.policy`'s convention), called once per wave
with the opponent's own observations and masks of every game where it must decide.

A step is the learner's action in every game, then the opponents' answers until the learner
must decide again or the game ends; then every game's observation and mask — one compiled
pass of the core, the policy being the only Python. Autoreset is Gymnasium's next-step mode
(a game that just ended has an empty mask, and its next action only resets it), or same-step
(``autoreset="same-step"``: the new game's observation at once, the last one in
``infos["final_obs"]``; what Stable-Baselines3 expects, :mod:`kumite.envs.sb3`).

Seeding: ``reset(seed=s)`` plays game seed ``s + i`` in environment ``i``, whose later games
take their seeds from a stream seeded by ``s + i``; without a seed, from fresh entropy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from kumite.core.errors import OptionsError
from kumite.envs.base import EnvGame, NoEnvError

ILLEGAL = ("lose", "raise")
AUTORESET = {"next-step": AutoresetMode.NEXT_STEP, "same-step": AutoresetMode.SAME_STEP}
BatchedPolicy = Callable[[np.ndarray, np.ndarray], Any]
"""``policy(observations[k, size], masks[k, actions]) -> actions[k]``."""


class BatchedVectorEnv(gym.vector.VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` games of ``seat`` against ``opponent``, stepped at once on the game's
    batched engine (see the module docstring). ``normalize``: every observation value
    divided by its field's bound (in ``[0, 1]``). ``copy=False`` returns the environment's
    own observation buffer (overwritten by the next step) instead of a copy."""

    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": [],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        game: str,
        num_envs: int,
        options: Mapping[str, Any] | None = None,
        seat: int = 0,
        opponent: str | BatchedPolicy = "random",
        *,
        illegal: str = "lose",
        autoreset: str = "next-step",
        normalize: bool = False,
        copy: bool = True,
    ) -> None:
        self.env = EnvGame.make(game, options)
        obs = self.env.spec.observation
        if obs is None or obs.vector is None:
            raise NoEnvError(f"{self.env.spec.name} has no batched engine: use batched=False")
        if illegal not in ILLEGAL:
            raise NoEnvError(f"illegal={illegal!r}: one of {', '.join(ILLEGAL)}")
        if autoreset not in AUTORESET:
            raise NoEnvError(f"autoreset={autoreset!r}: one of {', '.join(AUTORESET)}")
        if not 0 <= seat < self.env.seats:
            raise OptionsError(f"seat {seat} is not a seat of this game (0..{self.env.seats - 1})")
        if num_envs < 1:
            raise OptionsError(f"num_envs must be at least 1, got {num_envs}")
        self.seat, self.illegal, self.num_envs = seat, illegal, num_envs
        self.autoreset_mode = AUTORESET[autoreset]
        self.copy = copy
        self.core: Any = obs.vector.load()(
            self.env.game, self.env.options, num_envs, seat, opponent, normalize
        )
        enc = self.env.encoding
        high = np.ones(enc.size, np.float32) if normalize else enc.high
        low = np.minimum(enc.low, 0) / np.where(normalize, np.maximum(enc.high, 1e-12), 1)
        self.single_observation_space = spaces.Box(low, high, (enc.size,), np.float32)
        self.single_action_space = spaces.Discrete(self.env.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.metadata = {**type(self).metadata, **self.env.metadata(), "seat": seat}
        self.metadata["render_modes"] = []
        self.metadata["autoreset_mode"] = self.autoreset_mode
        self.metadata["opponents"] = [opponent if isinstance(opponent, str) else "policy"]
        self.metadata["normalized"] = normalize
        n = num_envs
        self._autoreset = np.zeros(n, dtype=bool)
        self._started = False
        self._all = np.ones(n, dtype=bool)
        self._zeros = np.zeros(n, dtype=bool)
        self._loss = float(self.env.game.info.utility_range[0])
        self._same_step = self.autoreset_mode == AutoresetMode.SAME_STEP

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is None:
            seeds = np.random.SeedSequence().generate_state(self.num_envs, np.uint64) >> 2
            seeds = seeds.astype(np.int64)
        elif isinstance(seed, int | np.integer):
            seeds = int(seed) + np.arange(self.num_envs, dtype=np.int64)
        else:
            fresh = np.random.SeedSequence().generate_state(self.num_envs, np.uint64) >> 2
            seeds = np.array(
                [int(f) if s is None else int(s) for s, f in zip(seed, fresh, strict=True)],
                dtype=np.int64,
            )
        self.core.seed(seeds)
        self.core.reset(self._all, seeds)
        self._autoreset = np.zeros(self.num_envs, dtype=bool)
        self._started = True
        return self._out(self.core.obs), self._infos()

    def _out(self, a: np.ndarray) -> np.ndarray:
        """A copy, or (``copy=False``) a read-only view of the core's buffer: the core
        updates it in place, so it must not be written."""
        if self.copy:
            return a.copy()
        view = a.view()
        view.flags.writeable = False
        return view

    def _infos(self, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
        infos: dict[str, Any] = {
            "action_mask": self._out(self.core.mask),
            "_action_mask": self._all,
        }
        infos.update(extra or {})
        return infos

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise NoEnvError("reset() the environment first")
        n = self.num_envs
        actions = np.asarray(actions, dtype=np.int64).reshape(n)
        same = self._same_step
        rewards, terminated, illegal = self.core.step(
            actions,
            self._autoreset,
            strict=self.illegal == "raise",
            same_step=same,
            loss=self._loss,
        )
        extra: dict[str, Any] = {}
        if illegal.any():
            messages = np.full(n, None, dtype=object)
            for i in np.flatnonzero(illegal).tolist():
                messages[i] = f"seat {self.seat}: {int(actions[i])!r} is not a legal action id now"
            extra = {"illegal_action": messages, "_illegal_action": illegal.copy()}
        ended = terminated.any()
        if same and ended:
            extra["final_obs"] = np.where(terminated[:, None], self.core.final, 0).astype(
                np.float32
            )
            extra["_final_obs"] = terminated.copy()
            extra["final_info"] = {"action_mask": self.core.mask & ~terminated[:, None]}
        if not same:
            self._autoreset = terminated.copy() if ended else self._zeros
        return (
            self._out(self.core.obs),
            rewards.copy(),
            terminated.copy(),
            self._zeros.copy(),
            self._infos(extra),
        )

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game (sb3-contrib's MaskablePPO)."""
        return np.array(self.core.mask)


def make(
    game: str,
    num_envs: int,
    options: Mapping[str, Any] | None = None,
    seat: int = 0,
    opponents: object = "random",
    **kwargs: Any,
) -> BatchedVectorEnv:
    """:class:`BatchedVectorEnv`, with ``opponents`` as :func:`kumite.envs.gymnasium.
    make_vector` takes it (a name, a one-name list, or a batched policy); a scalar agent or
    policy object has no batched form and is refused."""
    if isinstance(opponents, Sequence) and not isinstance(opponents, str):
        if len(opponents) != 1:
            raise NoEnvError("the batched vector environment has one opponent (two seats)")
        opponents = opponents[0]
    if isinstance(opponents, str):
        return BatchedVectorEnv(game, num_envs, options, seat, opponents, **kwargs)
    if callable(opponents) and not hasattr(opponents, "choose"):
        return BatchedVectorEnv(game, num_envs, options, seat, opponents, **kwargs)
    raise NoEnvError(
        "the batched vector environment takes an opponent by name or a batched policy "
        "(observations, masks) -> actions"
    )
