"""Gymnasium environments (docs/envs.md): one learner's seat against kumite agents.

``kumite/<Name>-v<version>`` for every game whose spec declares an observation
(``kumite/SFRivals-v0`` ...), registered by :func:`register_envs` — which importing this
module runs, and which the ``gymnasium.envs`` entry point names for tools that read it
(Gymnasium 1.x itself dropped its plugin loader: ``gymnasium.make("kumite.envs.gymnasium:
kumite/SFRivals-v0")`` imports this module first).

The learner sits at ``seat``; every other seat is a kumite agent by name (``opponents``: one
name for all, or one per other seat, in seat order), seeded from the game's seed as ``kumite
play`` seeds them. A step is the learner's action, then everything the others do until the
learner must decide again or the game ends; in a simultaneous decision the others choose
from their own views, blind to the learner's action. The reward is the learner's
``Outcome.returns`` at the end, else 0. ``info["action_mask"]`` and :meth:`KumiteEnv.
action_masks` (the sb3-contrib convention) give the legal actions. An illegal action ends the
episode with the game's lowest utility (``illegal="lose"``, the default: Gymnasium's checker
and unmasked samplers send any action) or raises kumite's one-line error, changing nothing
(``illegal="raise"``).

:func:`make_vector` is the vector environment: Gymnasium's synchronous vector of single
environments, or — ``batched=True``, for a game that declares a batched vector core (SF
Rivals) — :class:`BatchedVectorEnv`, the same games stepped at once on the game's batched
engine against the random opponent: the same observations, masks, rewards and episode ends
as the synchronous vector on the same seeds (docs/envs.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from kumite.agents.base import Agent, decider
from kumite.agents.registry import make_agent
from kumite.core.errors import ChoiceError, IllegalChoiceError, OptionsError
from kumite.core.game import State
from kumite.core.registry import get_spec, specs
from kumite.core.rng import derive_seed
from kumite.envs import vector
from kumite.envs.base import EnvGame, NoEnvError

ILLEGAL = ("lose", "raise")
NAMESPACE = "kumite"


class KumiteEnv(gym.Env[np.ndarray, np.int64]):
    """One seat of a kumite game as a Gymnasium environment (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any] | None = None,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        illegal: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        self.env = EnvGame.make(game, options)
        if render_mode not in (None, "ansi"):
            raise NoEnvError(f"render_mode {render_mode!r} is not supported (only 'ansi')")
        if illegal not in ILLEGAL:
            raise NoEnvError(f"illegal={illegal!r}: one of {', '.join(ILLEGAL)}")
        if not 0 <= seat < self.env.seats:
            raise OptionsError(f"seat {seat} is not a seat of this game (0..{self.env.seats - 1})")
        others = [s for s in range(self.env.seats) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise OptionsError(f"give one opponent per other seat ({len(others)}), got {names}")
        self.seat = seat
        self.opponents = dict(zip(others, names, strict=True))
        for s, name in self.opponents.items():  # an unknown name fails here, not at reset
            make_agent(name, self.env.game, self.env.options, s, 0)
        self.illegal = illegal
        self.render_mode = render_mode
        self.metadata = {
            **self.env.metadata(),
            "render_modes": ["ansi"],
            "render_fps": 4,
            "seat": seat,
            "opponents": names,
        }
        enc = self.env.encoding
        self.observation_space = spaces.Box(enc.low, enc.high, (enc.size,), np.float32)
        self.action_space = spaces.Discrete(self.env.num_actions)
        self.state: State | None = None
        self._agents: dict[int, Any] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """``seed`` is kumite's game seed (as ``kumite play --seed``); without one, the
        game's seed is drawn from the environment's seeded generator."""
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**62))
        state = self.state = self.env.new_state(game_seed)
        self._agents = {
            s: decider(self._agent(name, s, game_seed), state) for s, name in self.opponents.items()
        }
        self._advance({})
        return self._obs(), self._info()

    def _agent(self, name: str, seat: int, game_seed: int) -> Agent:
        seed = derive_seed(game_seed, "agent", seat)
        return make_agent(name, self.env.game, self.env.options, seat, seed)

    def _advance(self, choices: dict[int, str]) -> None:
        """Apply the learner's ``choices`` with the others' of the same decision, then play
        the others until the learner must decide or the game ends."""
        state = self.state
        assert state is not None
        while not state.is_terminal:
            pending = state.pending()
            if not choices and any(d.seat == self.seat for d in pending):
                return
            for d in pending:
                if d.seat != self.seat:
                    choices[d.seat] = self._agents[d.seat](d)
            state.apply(choices)
            choices = {}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None:
            raise NoEnvError("reset() the environment first")
        if state.is_terminal:
            raise NoEnvError("the episode is over: reset() the environment")
        try:
            choice = self._choice(state, action)
        except ChoiceError as exc:
            if self.illegal == "raise":
                raise
            low = self.env.game.info.utility_range[0]
            self.state = None  # the episode is over: step() must not go on
            self._last = (self.env.observe(state, self.seat), self.env.mask(state, self.seat))
            return (
                self._last[0],
                low,
                True,
                False,
                {
                    "action_mask": self._last[1].astype(bool),
                    "illegal_action": str(exc),
                },
            )
        self._advance({self.seat: choice})
        outcome = state.outcome
        reward = 0.0 if outcome is None else float(outcome.returns[self.seat])
        return self._obs(), reward, outcome is not None, False, self._info()

    def _choice(self, state: State, action: Any) -> str:
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if not isinstance(action, int | np.integer) or isinstance(action, bool):
            raise IllegalChoiceError(self.seat, action, "an action is an integer action id")
        if int(action) not in state.legal_actions(self.seat):
            raise IllegalChoiceError(self.seat, int(action), "not a legal action id now")
        return state.action_to_choice(self.seat, int(action))

    def _obs(self) -> np.ndarray:
        assert self.state is not None
        return self.env.observe(self.state, self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now, as booleans (sb3-contrib's MaskablePPO)."""
        if self.state is None:
            return np.zeros(self.env.num_actions, dtype=bool)
        return self.env.mask(self.state, self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        return self.env.render(self.state)


def env_id(game_id: str) -> str:
    """The Gymnasium id of a game: ``kumite/<env_name>-v<version>``."""
    spec = get_spec(game_id)
    if spec.observation is None:
        raise NoEnvError(f"{spec.name} ({spec.id}) declares no observation encoding")
    return f"{NAMESPACE}/{spec.observation.env_name}-v{spec.observation.version}"


def register_envs() -> list[str]:
    """Register every game with an observation encoding; returns the ids."""
    out = []
    for spec in specs().values():
        if spec.observation is None:
            continue
        name = env_id(spec.id)
        if name not in gym.registry:
            gym.register(
                id=name,
                entry_point="kumite.envs.gymnasium:KumiteEnv",
                kwargs={"game": spec.id},
                vector_entry_point="kumite.envs.gymnasium:vector_entry",
            )
        out.append(name)
    return out


def make_vector(
    game: str,
    num_envs: int,
    options: Mapping[str, Any] | None = None,
    seat: int = 0,
    opponents: str | Sequence[str] = "random",
    batched: bool = False,
    **kwargs: Any,
) -> gym.vector.VectorEnv:
    """``num_envs`` games at once: a synchronous vector of :class:`KumiteEnv`, or with
    ``batched=True`` the batched vector environment (:mod:`kumite.envs.vector`)."""
    if batched:
        return vector.make(game, num_envs, options, seat, opponents, **kwargs)

    def one() -> KumiteEnv:
        return KumiteEnv(game, options, seat, opponents, **kwargs)

    return gym.vector.SyncVectorEnv([one] * num_envs)


def vector_entry(num_envs: int, game: str, **kwargs: Any) -> gym.vector.VectorEnv:
    """Gymnasium's ``vector_entry_point``: ``gym.make_vec(id, num_envs,
    vectorization_mode="vector_entry_point")``."""
    return make_vector(game, num_envs, **kwargs)


register_envs()
