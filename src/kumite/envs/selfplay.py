"""Self-play: a learner's snapshots as its opponents, in Gymnasium and PettingZoo
(docs/envs.md, "Self-play").

:class:`SelfPlay` keeps the pool (:class:`~kumite.envs.policy.OpponentPool`: snapshots, and
any fixed baselines) and makes the learner's environments against it — a Gymnasium
:class:`~kumite.envs.gymnasium.KumiteEnv`, or :class:`AECLearnerEnv`, the same loop over a
PettingZoo AEC environment, the others played by policies. The learner's seat is fixed or
drawn per episode; each episode draws its opponents from the pool (uniformly or by PFSP)
and records the learner's result there. :func:`evaluate` plays a policy against opponents
for a number of games, seats alternating, with 95% intervals.

Nothing here knows a learning library: a snapshot is any :class:`~kumite.envs.policy.Policy`
(``examples/selfplay_maskable_ppo.py`` wraps sb3-contrib's MaskablePPO in three lines).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from kumite.agents.base import Agent, decide
from kumite.agents.registry import make_agent
from kumite.core.errors import OptionsError
from kumite.core.rng import derive_seed
from kumite.envs.base import EnvGame
from kumite.envs.gymnasium import SEAT_RANDOM, KumiteEnv, _names
from kumite.envs.policy import (
    Member,
    Opponent,
    OpponentPool,
    Policy,
    check_opponent,
    is_agent,
    score_of,
)


class SelfPlay:
    """A learner's pool of snapshots and the environments that play against it.

    ``baselines`` (agent names, agents or policies) stay in the pool for good; snapshots
    (:meth:`snapshot`) come and go (``max_size``: the newest kept). ``priority`` and
    ``power`` choose how an episode's opponent is drawn (``OpponentPool``)."""

    def __init__(
        self,
        baselines: Mapping[str, Opponent] | Sequence[Opponent] = (),
        priority: str = "uniform",
        power: float = 1.0,
        max_size: int | None = None,
    ) -> None:
        self.pool = OpponentPool(baselines, priority, power, max_size)  # type: ignore[arg-type]

    def snapshot(self, policy: Policy, name: str | None = None) -> str:
        """Freeze a copy of ``policy`` into the pool; returns its name."""
        return self.pool.snapshot(policy, name)

    def gymnasium(
        self,
        game: str,
        options: Mapping[str, Any] | None = None,
        seat: int | str = SEAT_RANDOM,
        **kwargs: Any,
    ) -> KumiteEnv:
        """A Gymnasium environment of the learner against the pool (every other seat draws
        its own member each episode)."""
        return KumiteEnv(game, options, seat=seat, opponents=self.pool, **kwargs)

    def pettingzoo(
        self,
        game: str,
        options: Mapping[str, Any] | None = None,
        seat: int | str = SEAT_RANDOM,
        normalize: bool = False,
    ) -> AECLearnerEnv:
        """The learner's loop over kumite's PettingZoo AEC environment of ``game``."""
        from kumite.envs import pettingzoo as kpz

        return AECLearnerEnv(kpz.env(game, options, normalize=normalize), self.pool, seat)


class AECLearnerEnv(gym.Env[np.ndarray, np.int64]):
    """One agent of a PettingZoo AEC environment as a Gymnasium environment: the others
    are played by opponents (one for all, or one per other agent: a
    :class:`~kumite.envs.policy.Policy`, or a pool drawn from each episode — and, at
    kumite's own environments, kumite agents by name or object, seeded as the Gymnasium
    environment seeds them), the learner's agent is fixed (``seat``: its index in
    ``possible_agents``) or drawn each episode (``"random"``).

    The environment's observations are PettingZoo's classic ``{"observation",
    "action_mask"}``; a policy gets the observation and the mask as booleans. Where the
    environment reports ``num_actions`` in its metadata (kumite's do: its action space
    has one more id, the NO-OP, never legal in AEC), actions and masks are cut to that
    many, so the spaces and policies are those of the Gymnasium environments. The reward
    is the learner's, summed over the opponents' moves; ``info["action_mask"]`` and
    :meth:`action_masks` give its legal actions (sb3-contrib's MaskablePPO)."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        env: Any,
        opponents: Opponent | Sequence[Opponent],
        seat: int | str = SEAT_RANDOM,
    ) -> None:
        self.aec = env
        agents = list(env.possible_agents)
        self.possible_agents = agents
        if seat != SEAT_RANDOM and not (isinstance(seat, int) and 0 <= seat < len(agents)):
            raise OptionsError(f"seat {seat!r}: 0..{len(agents) - 1}, or {SEAT_RANDOM!r}")
        self.seat_choice = seat
        specs: list[Any]
        if isinstance(opponents, str | OpponentPool) or not isinstance(opponents, Sequence):
            specs = [opponents] * (len(agents) - 1)
        else:
            specs = list(opponents)
        if len(specs) != len(agents) - 1:
            raise OptionsError(f"give one opponent per other agent ({len(agents) - 1})")
        inner = getattr(env, "unwrapped", env)
        self.kumite: EnvGame | None = getattr(inner, "env", None)
        """The kumite game underneath, if the environment is kumite's (its tables can then
        seat kumite agents too)."""
        if not isinstance(self.kumite, EnvGame):
            self.kumite = None
        for spec in specs:
            check_opponent(spec)
            named = _names(spec) if isinstance(spec, OpponentPool) else []
            if self.kumite is None and (isinstance(spec, str) or is_agent(spec) or named):
                raise OptionsError(
                    "this PettingZoo environment's opponents are policies (kumite agents "
                    "sit at kumite's own environments)"
                )
            if self.kumite is not None:
                for name in [spec] if isinstance(spec, str) else named:
                    make_agent(name, self.kumite.game, self.kumite.options, 1, 0)
        self.specs = specs
        first = agents[0]
        full = env.observation_space(first)["observation"]
        self.observation_space = full
        n = env.metadata.get("num_actions") or env.action_space(first).n
        self.num_actions = int(n)
        self.action_space = spaces.Discrete(self.num_actions)
        self.metadata = {**env.metadata, "render_modes": []}
        self.learner = first
        self._players: dict[str, Any] = {}
        self._drawn: list[tuple[OpponentPool, str]] = []
        self._mask = np.zeros(self.num_actions, dtype=bool)
        self._done = True

    def _last(self) -> tuple[np.ndarray, np.ndarray, float, bool]:
        obs, reward, term, trunc, _ = self.aec.last()
        mask = np.asarray(obs["action_mask"][: self.num_actions], dtype=bool)
        return obs["observation"], mask, float(reward), bool(term or trunc)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """``seed`` seeds the environment's reset (kumite's: the game seed) and the draws
        of the learner's seat and of pool members."""
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**62))
        self.aec.reset(seed=game_seed)
        agents = self.possible_agents
        if self.seat_choice == SEAT_RANDOM:
            self.learner = agents[int(self.np_random.integers(len(agents)))]
        else:
            self.learner = agents[int(self.seat_choice)]
        others = [a for a in agents if a != self.learner]
        self._players, self._drawn = {}, []
        for agent, spec in zip(others, self.specs, strict=True):
            if isinstance(spec, OpponentPool):
                member: Member = spec.sample(self.np_random)
                self._drawn.append((spec, member.name))
                spec = member.opponent
            if isinstance(spec, str):
                # seeded as KumiteEnv seeds its opponents (kumite play's seeding)
                assert self.kumite is not None
                seat = agents.index(agent)
                made = derive_seed(game_seed, "agent", seat)
                spec = make_agent(spec, self.kumite.game, self.kumite.options, seat, made)
            self._players[agent] = spec
        self._done = False
        obs, _, _ = self._advance()
        return obs, {"action_mask": self._mask.copy(), "learner": self.learner}

    def _advance(self) -> tuple[np.ndarray, float, bool]:
        """Play the others until the learner must act or the game ends; the learner's
        observation, its reward meanwhile and whether the game ended."""
        total = 0.0
        for agent in self.aec.agent_iter():
            obs, mask, reward, done = self._last()
            if agent == self.learner:
                total += reward
                self._mask = np.zeros_like(mask) if done else mask
                if done:
                    self._done = True
                return obs, total, done
            if done:
                self.aec.step(None)
            else:
                player = self._players[agent]
                if is_agent(player):
                    self.aec.step(self._agent_action(player, self.possible_agents.index(agent)))
                else:
                    self.aec.step(int(player(obs, mask)))
        raise RuntimeError("the game ended without the learner's last observation")

    def _agent_action(self, agent: Agent, seat: int) -> int:
        """A kumite agent's choice at a kumite table, as the environment's action id."""
        env = self.kumite
        assert env is not None
        state = self.aec.unwrapped.table.state
        decision = next(d for d in state.pending() if d.seat == seat)
        choice = decide(agent, state, decision)
        return next(a for a in env.legal(state, seat) if env.choice(state, seat, a) == choice)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise OptionsError("the episode is over: reset() the environment")
        self.aec.step(int(action))
        obs, reward, done = self._advance()
        if done:
            low, high = _utility_range(self.aec)
            for pool, name in self._drawn:
                pool.record(name, score_of(reward, low, high))
        info = {"action_mask": self._mask.copy()}
        return obs, reward, done, False, info

    def action_masks(self) -> np.ndarray:
        return self._mask.copy()


def _utility_range(env: Any) -> tuple[float, float]:
    """The range of a game's returns (kumite's environments know it; else ``[-1, 1]``)."""
    inner = getattr(env, "unwrapped", env)
    game = getattr(getattr(inner, "env", None), "game", None)
    info = getattr(game, "info", None)
    if info is None:
        return (-1.0, 1.0)
    low, high = info.utility_range
    return (float(low), float(high))


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """A policy's results over ``games`` games: wins, draws, losses, its mean return with a
    95% interval (normal approximation), and its win rate with a 95% Wilson interval."""

    games: int
    wins: int
    draws: int
    losses: int
    mean: float
    mean_low: float
    mean_high: float
    win_rate: float
    win_low: float
    win_high: float

    def __str__(self) -> str:
        return (
            f"{self.games} games: {self.wins} won, {self.draws} drawn, {self.losses} lost; "
            f"win rate {self.win_rate:.3f} [{self.win_low:.3f}, {self.win_high:.3f}], "
            f"mean return {self.mean:+.3f} [{self.mean_low:+.3f}, {self.mean_high:+.3f}] (95%)"
        )


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def evaluate(
    policy: Policy,
    game: str,
    opponents: Opponent | Sequence[Opponent],
    games: int,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    seats: Sequence[int] | None = None,
    normalize: bool = False,
) -> Evaluation:
    """``policy``'s results against ``opponents`` over ``games`` games, game ``i`` played
    at seat ``seats[i % len(seats)]`` (every seat in turn by default) with kumite's game
    seed ``seed + i``: reproducible, and fair to both sides of a seat advantage."""
    probe = KumiteEnv(game, options, opponents=opponents, normalize=normalize)
    order = list(range(probe.env.seats)) if seats is None else list(seats)
    envs = {s: KumiteEnv(game, options, s, opponents, normalize=normalize) for s in set(order)}
    returns = []
    for i in range(games):
        env = envs[order[i % len(order)]]
        obs, info = env.reset(seed=seed + i)
        done, reward = False, 0.0
        while not done:
            obs, reward, done, _, info = env.step(policy(obs, info["action_mask"]))
        returns.append(float(reward))
    values = np.array(returns)
    wins, losses = int((values > 0).sum()), int((values < 0).sum())
    mean = float(values.mean()) if games else 0.0
    half = 1.959964 * float(values.std(ddof=1)) / math.sqrt(games) if games > 1 else math.inf
    low, high = wilson(wins, games)
    return Evaluation(
        games,
        wins,
        games - wins - losses,
        losses,
        mean,
        mean - half,
        mean + half,
        wins / games if games else 0.0,
        low,
        high,
    )


__all__ = ["AECLearnerEnv", "Evaluation", "SelfPlay", "evaluate", "wilson"]
