"""Gymnasium environments (docs/envs.md): one learner's seat against kumite agents.

``kumite/<Name>-v<version>`` for every game whose spec declares an observation
(``kumite/SFRivals-v0`` ...), registered by :func:`register_envs` — which importing this
module runs, and which the ``gymnasium.envs`` entry point names for tools that read it
(Gymnasium 1.x itself dropped its plugin loader: ``gymnasium.make("kumite.envs.gymnasium:
kumite/SFRivals-v0")`` imports this module first).

The learner sits at ``seat`` (or, ``seat="random"``, a seat drawn each episode); every other
seat is an opponent (``opponents``: one for all, or one per other seat, in seat order): a
kumite agent by name, seeded from the game's seed as ``kumite play`` seeds them, a kumite
agent object, a policy (``kumite.envs.policy.Policy``: observation and mask to an action
id), or a pool giving one of its members each episode (``OpponentPool``). A step is the
learner's action, then everything the others do until the learner must decide again or
the game ends; in a simultaneous decision the others choose from their own views, blind to
the learner's action. The reward is the learner's
``Outcome.returns`` at the end, else 0. ``info["action_mask"]`` and :meth:`KumiteEnv.
action_masks` (the sb3-contrib convention) give the legal actions. An illegal action ends the
episode with the game's lowest utility (``illegal="lose"``, the default: Gymnasium's checker
and unmasked samplers send any action) or raises kumite's one-line error, changing nothing
(``illegal="raise"``).

:func:`make_vector` is the vector environment: Gymnasium's synchronous vector of single
environments, or — ``batched=True``, for a game that declares a batched vector core (SF
Rivals) — :class:`kumite.envs.vector.BatchedVectorEnv`, the same games stepped at once on
the game's batched engine against random, greedy or a batched policy, with the same
observations, masks, rewards and episode ends as the scalar environment (docs/envs.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from kumite.agents.base import Agent, decide
from kumite.agents.registry import make_agent
from kumite.core.errors import ChoiceError, IllegalChoiceError, OptionsError
from kumite.core.game import Decision, State
from kumite.core.registry import get_spec, specs
from kumite.core.rng import derive_seed
from kumite.envs import vector
from kumite.envs.base import EnvGame, NoEnvError, Snapshots
from kumite.envs.policy import Opponent, OpponentPool, Policy, check_opponent, is_agent, score_of
from kumite.envs.render import RENDER_MODES

ILLEGAL = ("lose", "raise")
NAMESPACE = "kumite"
SEAT_RANDOM = "random"
"""``seat="random"``: the learner's seat is drawn each episode."""


class KumiteEnv(Snapshots, gym.Env[np.ndarray, np.int64]):
    """One seat of a kumite game as a Gymnasium environment (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any] | None = None,
        seat: int | str = 0,
        opponents: Opponent | Sequence[Opponent] = "random",
        illegal: str = "lose",
        render_mode: str | None = None,
        normalize: bool = False,
        history: bool = False,
    ) -> None:
        self.env = EnvGame.make(game, options, normalize, history)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise NoEnvError(
                f"render_mode {render_mode!r}: one of {', '.join(RENDER_MODES)} (or None)"
            )
        if illegal not in ILLEGAL:
            raise NoEnvError(f"illegal={illegal!r}: one of {', '.join(ILLEGAL)}")
        if seat != SEAT_RANDOM and not (
            isinstance(seat, int | np.integer) and 0 <= seat < self.env.seats
        ):
            raise OptionsError(
                f"seat {seat!r} is not a seat of this game (0..{self.env.seats - 1}, "
                f"or {SEAT_RANDOM!r}: drawn each episode)"
            )
        self.seat_choice: int | str = seat if seat == SEAT_RANDOM else int(seat)
        self.seat = 0 if seat == SEAT_RANDOM else int(seat)
        """The learner's seat (this episode's, when drawn per episode)."""
        specs: list[Opponent]
        if isinstance(opponents, str | OpponentPool) or not isinstance(opponents, Sequence):
            specs = [opponents] * (self.env.seats - 1)
        else:
            specs = list(opponents)
        if len(specs) != self.env.seats - 1:
            raise OptionsError(
                f"give one opponent per other seat ({self.env.seats - 1}), got {len(specs)}"
            )
        for spec in specs:
            check_opponent(spec)
            for name in _names(spec):  # an unknown name fails here, not at reset
                make_agent(name, self.env.game, self.env.options, 1, 0)
        self.opponent_specs = specs
        """One opponent per other seat, in seat order."""
        self.illegal = illegal
        self.render_mode = render_mode
        self.metadata = {
            **self.env.metadata(),
            "render_fps": 4,
            "seat": self.seat_choice,
            "opponents": [_describe(o) for o in specs],
        }
        self.observation_space = spaces.Box(
            self.env.low, self.env.high, (self.env.size,), np.float32
        )
        self.action_space = spaces.Discrete(self.env.num_actions)
        self.state: State | None = None
        self._memories: dict[int, np.ndarray] | None = None
        self._players: dict[int, _Player] = {}
        self._drawn: list[tuple[int, OpponentPool, str]] = []

    @property
    def opponents(self) -> dict[int, Opponent]:
        """Who sits where this episode (before the first reset: where the seat is fixed)."""
        others = [s for s in range(self.env.seats) if s != self.seat]
        return dict(zip(others, self.opponent_specs, strict=True))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """``seed`` is kumite's game seed (as ``kumite play --seed``); without one, the
        game's seed is drawn from the environment's seeded generator — and so are the
        learner's seat (``seat="random"``) and the members of opponent pools."""
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**62))
        if self.seat_choice == SEAT_RANDOM:
            self.seat = int(self.np_random.integers(self.env.seats))
        self.state = self.env.new_state(game_seed)
        self._memories = self.env.memories(self.state)
        self._players, self._drawn = {}, []
        for s, spec in self.opponents.items():
            if isinstance(spec, OpponentPool):
                member = spec.sample(self.np_random)
                self._drawn.append((s, spec, member.name))
                spec = member.opponent
            self._players[s] = self._player(spec, s, game_seed)
        self._advance({})
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info(start=True)

    def _player(self, spec: Any, seat: int, game_seed: int) -> _Player:
        if isinstance(spec, str):
            seed = derive_seed(game_seed, "agent", seat)
            agent = make_agent(spec, self.env.game, self.env.options, seat, seed)
            return _AgentPlayer(agent, (spec, seat, seed))
        if is_agent(spec):
            return _AgentPlayer(spec)
        return _PolicyPlayer(spec, seat)

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
                    choices[d.seat] = self._players[d.seat].choose(self, state, d)
            state.apply(choices)
            self.env.remember(self._memories, state)
            choices = {}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None:
            raise NoEnvError("reset() the environment first")
        if state.is_terminal:
            raise NoEnvError("the episode is over: reset() the environment")
        try:
            choice = self.env.choice(state, self.seat, action)
        except ChoiceError as exc:
            if self.illegal == "raise":
                raise
            low = self.env.game.info.utility_range[0]
            self.state = None  # the episode is over: step() must not go on
            self._record(low)
            info = self._info(end=True)
            info.update(
                action_mask=self.env.mask(state, self.seat).astype(bool),
                illegal_action=str(exc),
            )
            return self._observe(state, self.seat), low, True, False, info
        self._advance({self.seat: choice})
        outcome = state.outcome
        reward = 0.0 if outcome is None else float(outcome.returns[self.seat])
        if outcome is not None:
            self._record(reward)
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, outcome is not None, False, self._info(end=outcome is not None)

    # Pickle and deepcopy (Snapshots): an agent made by name is not copied — a bot's caches
    # may hold engine objects that are only valid beside the catalog they came from — but
    # made again and asked every decision it took this episode, in order, on a replay of
    # the game, so it is back in the very state it was in (its random stream included).

    def _portable(self) -> dict[str, Any]:
        items = dict(self.__dict__)
        items["_players"] = {
            s: _Rebuild(p.made) if isinstance(p, _AgentPlayer) and p.made else p
            for s, p in self._players.items()
        }
        return items

    def _revive(self) -> None:
        rebuild = {s: p.made for s, p in self._players.items() if isinstance(p, _Rebuild)}
        if not rebuild:
            return
        game, options = self.env.game, self.env.options
        players = {
            s: _AgentPlayer(make_agent(name, game, options, s, seed), (name, s, seed))
            for s, (name, _, seed) in rebuild.items()
        }
        self._players.update(players)
        if self.state is None:
            return
        world = self.env.new_state(self.state.seed)
        for step in self.state.history:
            for d in world.pending():
                if d.seat in players:
                    players[d.seat].choose(self, world, d)
            world.apply_trusted(dict(step))

    def _record(self, reward: float) -> None:
        """The learner's result against each opponent drawn from a pool this episode."""
        low, high = self.env.game.info.utility_range
        for _, pool, name in self._drawn:
            pool.record(name, score_of(reward, low, high))

    def _obs(self) -> np.ndarray:
        assert self.state is not None
        return self._observe(self.state, self.seat)

    def _observe(self, state: State, seat: int) -> np.ndarray:
        memory = None if self._memories is None else self._memories[seat]
        return self.env.observe(state, seat, memory)

    def _info(self, start: bool = False, end: bool = False) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if start or end:
            info["seat"] = self.seat
            info["opponents"] = {s: _describe(spec) for s, spec in self.opponents.items()} | {
                s: name for s, _, name in self._drawn
            }
        return info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now, as booleans (sb3-contrib's MaskablePPO)."""
        if self.state is None:
            return np.zeros(self.env.num_actions, dtype=bool)
        return self.env.mask(self.state, self.seat).astype(bool)

    def render(self) -> Any:
        """The table as the learner's seat sees it: text (``ansi``), printed (``human``) or
        an RGB image (``rgb_array``); ``None`` before the first reset."""
        if self.render_mode is None or self.state is None:
            return None
        if self.render_mode == "rgb_array":
            return self.env.picture(self.state, self.seat)
        text = self.env.render(self.state, self.seat)
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text


class _Player:
    """An opponent at one seat for one episode."""

    def choose(self, env: KumiteEnv, state: State, decision: Decision) -> str:
        raise NotImplementedError


class _AgentPlayer(_Player):
    """A kumite agent: it decides from its seat's view (and search agents from samples)."""

    def __init__(self, agent: Agent, made: tuple[str, int, int] | None = None) -> None:
        self.agent = agent
        self.made = made
        """``(name, seat, seed)`` of an agent made by name."""

    def choose(self, env: KumiteEnv, state: State, decision: Decision) -> str:
        return decide(self.agent, state, decision)


class _PolicyPlayer(_Player):
    """A policy: it decides from its seat's observation and mask."""

    def __init__(self, policy: Policy, seat: int) -> None:
        self.policy = policy
        self.seat = seat

    def choose(self, env: KumiteEnv, state: State, decision: Decision) -> str:
        seat = decision.seat
        mask = env.env.mask(state, seat).astype(bool)
        action = self.policy(env._observe(state, seat), mask)
        try:
            return env.env.choice(state, seat, action)
        except ChoiceError as exc:
            raise IllegalChoiceError(
                seat, action, f"the opponent policy at seat {seat} chose it: {exc}"
            ) from None


class _Rebuild:
    """An agent made by name, saved as how to make it again (see KumiteEnv._portable)."""

    def __init__(self, made: tuple[str, int, int]) -> None:
        self.made = made


def _names(opponent: Any) -> list[str]:
    """The agent names an opponent spec uses (a pool's string members)."""
    if isinstance(opponent, str):
        return [opponent]
    if isinstance(opponent, OpponentPool):
        return [m.opponent for m in opponent if isinstance(m.opponent, str)]
    return []


def _describe(opponent: Any) -> str:
    """A short label of an opponent, for metadata and infos."""
    if isinstance(opponent, str):
        return opponent
    if isinstance(opponent, OpponentPool):
        return "pool(" + ", ".join(opponent.names) + ")"
    if is_agent(opponent):
        return f"agent:{opponent.name}"
    return f"policy:{getattr(opponent, '__qualname__', type(opponent).__qualname__)}"


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
    opponents: Opponent | Sequence[Opponent] = "random",
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
