"""PettingZoo environments of every kumite game (docs/envs.md): AEC, and Parallel where the
game decides simultaneously.

``env(game_id, options=None, render_mode=None)`` is the AEC environment (wrapped in
PettingZoo's order enforcing wrapper), ``raw_env`` the bare one and ``parallel_env`` the
Parallel one. Agents are ``player_0`` ... ``player_<n-1>`` (kumite's seats). An observation is
``{"observation": float32 tensor, "action_mask": int8 mask}`` (PettingZoo's classic
convention); the action space is ``Discrete(num_actions + 1)``: kumite's dense action ids,
then one **NO-OP** id, ``num_actions``, legal only in the Parallel environment and only for a
seat with nothing to decide in that step. Rewards come at the end: each seat's
``Outcome.returns``. An illegal action raises kumite's one-line ``ChoiceError`` and
changes nothing (``illegal="raise"``, the default), or (``illegal="lose"``) ends the game:
the offending seat gets the game's lowest utility, the others 0, and its info the error
under ``"illegal_action"`` (PettingZoo's own convention for illegal moves; what
``parallel_seed_test`` needs, since it samples actions without their masks).

In the AEC environment only seats with a decision are selected, one at a time; the seats of
a simultaneous decision are selected in seat order and their choices applied together once
the last has chosen, so none sees another's choice first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from kumite.core.errors import ChoiceError, IllegalChoiceError
from kumite.envs.base import EnvGame, NoEnvError, Table
from kumite.envs.render import RENDER_MODES

ObsDict = dict[str, np.ndarray[Any, Any]]
ILLEGAL = ("raise", "lose")


def _spaces(env: EnvGame) -> tuple[spaces.Dict, spaces.Discrete]:
    obs = spaces.Dict(
        {
            "observation": spaces.Box(env.low, env.high, (env.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (env.num_actions + 1,), np.int8),
        }
    )
    return obs, spaces.Discrete(env.num_actions + 1)


class _Base:
    """What both kinds of environment share: the game, the agents, seeding, rendering."""

    env: EnvGame
    render_mode: str | None

    def _setup(
        self,
        game_id: str,
        options: Mapping[str, Any] | None,
        render_mode: str | None,
        illegal: str,
        normalize: bool,
        parallel: bool,
        history: bool = False,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise NoEnvError(
                f"render_mode {render_mode!r}: one of {', '.join(RENDER_MODES)} (or None)"
            )
        if illegal not in ILLEGAL:
            raise NoEnvError(f"illegal={illegal!r}: one of {', '.join(ILLEGAL)}")
        self.illegal = illegal
        self.env = EnvGame.make(game_id, options, normalize, history)
        # PettingZoo's aec_to_parallel needs every live agent to act once per cycle; the AEC
        # environment selects only the seats with a decision, so it cannot be converted:
        # parallel_env() is the Parallel environment of a simultaneous game.
        self.metadata = {**self.env.metadata(), "is_parallelizable": parallel, "render_fps": 4}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.env.seats)]
        self.agent_seat = {a: s for s, a in enumerate(self.possible_agents)}
        obs, act = _spaces(self.env)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs)
        self.action_spaces = dict.fromkeys(self.possible_agents, act)
        self._seeds = np.random.default_rng()
        self.noop = self.env.num_actions

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _game_seed(self, seed: int | None) -> int:
        """``reset(seed=s)`` plays kumite's game ``s`` (as ``kumite play --seed s``); later
        resets without a seed draw theirs from a stream seeded by ``s``."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            return int(seed)
        return int(self._seeds.integers(2**62))

    def _observation(self, table: Table, seat: int, noop: bool) -> ObsDict:
        mask = self.env.mask(table.state, seat, self.env.num_actions + 1)
        if noop and not mask.any():
            mask[self.noop] = 1
        return {"observation": table.observe(seat), "action_mask": mask}

    def _returns(self, table: Table) -> list[float]:
        outcome = table.state.outcome
        return [0.0] * self.env.seats if outcome is None else list(outcome.returns)

    def _forfeit(self, seat: int) -> list[float]:
        """The rewards of a game ended by ``seat``'s illegal action (``illegal="lose"``)."""
        out = [0.0] * self.env.seats
        out[seat] = self.env.game.info.utility_range[0]
        return out

    def _render(self, table: Table | None) -> Any:
        """The table as a spectator sees it: text (``ansi``), printed (``human``), or an RGB
        image (``rgb_array``)."""
        if self.render_mode is None or table is None:
            return None
        if self.render_mode == "rgb_array":
            return self.env.picture(table.state)
        text = self.env.render(table.state)
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text


class RawEnv(_Base, AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """The AEC environment of one kumite game (see the module docstring)."""

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        illegal: str = "raise",
        normalize: bool = False,
        history: bool = False,
    ) -> None:
        super().__init__()
        self._setup(game, options, render_mode, illegal, normalize, False, history)
        self.table: Table | None = None

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table = Table(self.env, self.env.new_state(self._game_seed(seed)))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()
        if self.render_mode == "human":
            self.render()

    def _select(self) -> None:
        assert self.table is not None
        waiting = self.table.waiting()
        if waiting:
            self.agent_selection = self.possible_agents[waiting[0]]

    def observe(self, agent: str) -> ObsDict:
        assert self.table is not None, "reset() the environment first"
        return self._observation(self.table, self.agent_seat[agent], noop=False)

    def action_mask(self, agent: str) -> np.ndarray[Any, Any]:
        """``agent``'s legal actions now (int8, with the NO-OP), without building its
        observation: with ``env.last(observe=False)``, a step costs no encoding."""
        assert self.table is not None, "reset() the environment first"
        return self.env.mask(self.table.state, self.agent_seat[agent], self.env.num_actions + 1)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.table is not None
        if action is None:
            raise IllegalChoiceError(self.agent_seat[agent], None, "a live agent must act")
        self._cumulative_rewards[agent] = 0.0
        seat = self.agent_seat[agent]
        returns: list[float] | None = None
        try:
            moved = self.table.act(seat, action)
        except ChoiceError as exc:
            if self.illegal == "raise":
                raise
            moved, returns = False, self._forfeit(seat)
            self.infos[agent] = {"illegal_action": str(exc)}
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if returns is None and moved and self.table.state.is_terminal:
            returns = self._returns(self.table)
        if returns is not None:
            for a in self.agents:
                self.rewards[a] = returns[self.agent_seat[a]]
                self.terminations[a] = True
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        return self._render(self.table)

    def close(self) -> None:
        pass


class KumiteParallelEnv(_Base, ParallelEnv[str, ObsDict, int]):  # type: ignore[misc]
    """The Parallel environment of a simultaneous kumite game: every live agent acts at every
    step; a seat with nothing to decide plays the NO-OP (its only legal action)."""

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        illegal: str = "raise",
        normalize: bool = False,
        history: bool = False,
    ) -> None:
        self._setup(game, options, render_mode, illegal, normalize, True, history)
        if not self.env.game.info.simultaneous:
            raise NoEnvError(
                f"{self.env.spec.name} is played one decision at a time: it has an AEC "
                "environment (kumite.envs.pettingzoo.env), no Parallel one"
            )
        self.table: Table | None = None
        self.agents: list[str] = []

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, ObsDict], dict[str, dict[str, Any]]]:
        self.table = Table(self.env, self.env.new_state(self._game_seed(seed)))
        self.agents = list(self.possible_agents)
        if self.render_mode == "human":
            self.render()
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, ObsDict]:
        assert self.table is not None
        return {
            a: self._observation(self.table, self.agent_seat[a], noop=True) for a in self.agents
        }

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, ObsDict],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        table = self.table
        assert table is not None, "reset() the environment first"
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        try:
            choices = self._choices(table, actions)
        except ChoiceError as exc:
            if self.illegal == "raise":
                raise
            seat = exc.seat if exc.seat is not None else 0
            returns = self._forfeit(seat)
            infos[self.possible_agents[seat]] = {"illegal_action": str(exc)}
            over = True
        else:
            table.apply(choices)
            over = table.state.is_terminal
            returns = self._returns(table)
        rewards = {a: returns[self.agent_seat[a]] for a in self.agents}
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        observations = self._observations()
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _choices(self, table: Table, actions: Mapping[str, int]) -> dict[int, str]:
        """Every pending seat's choice; a one-line error if any action is wrong."""
        pending = set(table.waiting())
        choices: dict[int, str] = {}
        for agent in self.agents:
            seat = self.agent_seat[agent]
            action = actions.get(agent)
            if seat in pending:
                if action is None:
                    raise IllegalChoiceError(seat, None, "this seat must choose now")
                choices[seat] = table.choice(seat, action)
            elif action is not None and action != self.noop:
                raise IllegalChoiceError(seat, action, "nothing to decide: play the NO-OP")
        return choices

    def render(self) -> Any:
        return self._render(self.table)

    def close(self) -> None:
        pass

    def state(self) -> np.ndarray[Any, Any]:
        raise NotImplementedError("a kumite game has no global observation (hidden information)")


def raw_env(
    game: str,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    illegal: str = "raise",
    normalize: bool = False,
    history: bool = False,
) -> RawEnv:
    """The bare AEC environment of ``game`` (a kumite game id)."""
    return RawEnv(game, options, render_mode, illegal, normalize, history)


def env(
    game: str,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    illegal: str = "raise",
    normalize: bool = False,
    history: bool = False,
) -> AECEnv[str, ObsDict, int]:
    """The AEC environment of ``game``, in PettingZoo's order enforcing wrapper."""
    raw = raw_env(game, options, render_mode, illegal, normalize, history)
    return wrappers.OrderEnforcingWrapper(raw)


def parallel_env(
    game: str,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    illegal: str = "raise",
    normalize: bool = False,
    history: bool = False,
) -> KumiteParallelEnv:
    """The Parallel environment of ``game`` (simultaneous games only)."""
    return KumiteParallelEnv(game, options, render_mode, illegal, normalize, history)
