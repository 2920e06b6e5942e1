"""Every kumite game with an observation encoding as an OpenSpiel (``pyspiel``) Python game
(docs/envs.md), so OpenSpiel's algorithms — CFR, MCTS, exploitability, its RL agents — run
on it unchanged.

:func:`register` registers ``kumite_<id>`` for each such game; load it as usual,
``pyspiel.load_game("kumite_<id>", {"options": '{"mode": "2v2"}'})`` (parameters: ``options``,
the kumite options as JSON; ``players``, the number of seats for games whose options follow
it; ``chance``, ``explicit`` or ``sampled``; ``seed``, the first game seed when sampled).

What is declared, and why:

* **dynamics**: ``SIMULTANEOUS`` for a game whose decisions may be simultaneous, else
  ``SEQUENTIAL``. A node where one seat decides is a player node (``current_player()`` is
  that seat) in either; at a simultaneous node every seat acts, a seat with nothing to
  decide playing the single **NO-OP** action (id ``num_actions``).
* **chance**: ``DETERMINISTIC`` when the game has no chance. Otherwise, by default,
  ``EXPLICIT_STOCHASTIC``: every draw of the game's random stream is a chance node — the
  first player among the seats, and each step of a shuffle (Fisher-Yates from the last
  position: which of the ``i + 1`` cards still unplaced goes to position ``i``), each
  outcome equally likely. The engine draws inside a step, so the step runs on a
  :class:`~kumite.core.rng.ScriptedRng` that stops it at its first draw not yet chosen
  (:class:`~kumite.core.rng.ChanceNeeded`); once chance has chosen those, the step runs
  again from the position before it. With ``chance="sampled"`` the game is
  ``SAMPLED_STOCHASTIC`` instead — no chance nodes, each new initial state a new seed (the
  ``seed`` parameter, then seeds derived from it) — which is faster for play and learning.
* **utility**: ``ZERO_SUM`` when the game's returns always sum to 0 (two seats; Rivales
  2vs2, a team game: +1 to each seat of the winning team, -1 to the other), else
  ``GENERAL_SUM`` (SF DBG at three seats or more). The declared type follows the
  parameters: ``game.get_type()`` of a 3-seat SF DBG says general-sum.
* **observations**: ``observation_tensor`` is the game's declared encoding of the seat's
  view, ``observation_string`` the view as JSON. ``information_state_string`` has perfect
  recall: every view the seat had and every action it took, from the start; where the
  encoding is itself perfect recall (its view holds the whole history: SF Rivals) the
  information state tensor is that tensor, and otherwise the game provides no information
  state tensor (no fixed-length tensor can hold a whole history of these games).
* **serialisation**: a state pickles as its kumite game record (seed, options, every step's
  choices) and comes back by replaying it (:func:`kumite.core.record.replay`); with
  explicit chance, as its draws and steps, replayed the same way.

:func:`tree_copy` copies the whole tree of a small (reduced) game into OpenSpiel's native
extensive-form game, where its algorithms run at C++ speed instead of calling the kumite
engine at every node; :func:`policy_from_copy` brings a policy found there back to the
kumite game, where OpenSpiel's ``exploitability`` can check it.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, unquote

import numpy as np
import pyspiel
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import gambit

from kumite.core.errors import IllegalChoiceError, OptionsError
from kumite.core.game import State
from kumite.core.record import GameRecord, replay
from kumite.core.registry import get_spec, specs
from kumite.core.rng import ChanceNeeded, ScriptedRng, derive_seed
from kumite.envs.base import EnvGame, NoEnvError

PREFIX = "kumite_"
NOOP_NAME = "no-op"
CHANCE_MODES = ("explicit", "sampled")
_REGISTERED: dict[str, pyspiel.GameType] = {}
_CREATORS: dict[str, type[KumiteGame]] = {}


def short_name(game_id: str) -> str:
    return PREFIX + game_id


def _options_param(options: Mapping[str, Any]) -> str:
    """The ``options`` parameter as the game keeps it: compact JSON with the characters
    OpenSpiel's game-string parser splits on (``,`` ``=`` ``(`` ``)``) and ``%``
    percent-encoded, so that ``serialize_game_and_state`` loads the same game back
    (``options`` is read percent-decoded)."""
    text = json.dumps(dict(options), sort_keys=True, separators=(",", ":"))
    return quote(text, safe="".join(chr(c) for c in range(32, 127) if chr(c) not in "%,=()"))


def register() -> list[str]:
    """Register every game with an observation encoding as ``kumite_<id>``; returns the
    short names (calling it again is harmless)."""
    out = []
    for spec in specs().values():
        if spec.observation is None:
            continue
        name = short_name(spec.id)
        if name not in _REGISTERED:
            env = EnvGame.make(spec.id)
            game_type = _game_type(env, env.seats, "explicit")
            _REGISTERED[name] = game_type
            # A class per game, kept by this module: pyspiel keeps the creator until the
            # interpreter's very end, and freeing a closure then (without the GIL) aborts.
            creator = type(f"KumiteGame_{spec.id}", (KumiteGame,), {"game_id": spec.id})
            _CREATORS[name] = creator
            pyspiel.register_game(game_type, creator)
        out.append(name)
    return out


def _zero_sum(env: EnvGame, seats: int) -> bool:
    """Returns always sum to 0: two sides of equal size, the game's declared teams (two
    seats, or a team game such as Rivales 2vs2)."""
    teams = env.game.new_state(0, env.options).teams
    return len(teams) == 2 and len(teams[0]) == len(teams[1])


def _game_type(env: EnvGame, seats: int, chance: str) -> pyspiel.GameType:
    info = env.game.info
    perfect = env.encoding.perfect_recall
    mode = pyspiel.GameType.ChanceMode
    if not info.chance:
        chance_mode = mode.DETERMINISTIC
    elif chance == "explicit":
        chance_mode = mode.EXPLICIT_STOCHASTIC
    else:
        chance_mode = mode.SAMPLED_STOCHASTIC
    return pyspiel.GameType(
        short_name=short_name(env.spec.id),
        long_name=f"kumite {env.spec.name}",
        dynamics=(
            pyspiel.GameType.Dynamics.SIMULTANEOUS
            if info.simultaneous
            else pyspiel.GameType.Dynamics.SEQUENTIAL
        ),
        chance_mode=chance_mode,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if info.hidden_information
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM
            if _zero_sum(env, seats)
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=perfect or env.encoding.history is not None,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "options": "{}",
            "players": 0,
            "chance": "explicit",
            "seed": 0,
            "normalize": False,
        },
    )


class KumiteGame(pyspiel.Game):  # type: ignore[misc]
    """One kumite game under one set of options, as a pyspiel game (:func:`register` makes
    a subclass per game, naming its ``game_id``)."""

    game_id: str

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        game_id = self.game_id
        try:
            options = json.loads(unquote(params.get("options") or "{}"))
        except json.JSONDecodeError as exc:
            raise OptionsError(f"options: not JSON: {exc.msg}") from None
        if not isinstance(options, dict):
            raise OptionsError("options: a JSON object of kumite options")
        players = int(params.get("players") or 0)
        spec = get_spec(game_id)
        if players:
            options = spec.with_seats(options, players)
        chance = str(params.get("chance") or "explicit")
        if chance not in CHANCE_MODES:
            raise OptionsError(f"chance: one of {', '.join(CHANCE_MODES)}, not {chance!r}")
        normalize = bool(params.get("normalize", False))
        self.env = env = EnvGame.make(game_id, options, normalize)
        if players and env.seats != players:
            raise OptionsError(f"{spec.name} with these options has {env.seats} seats")
        info = env.game.info
        self.simultaneous = info.simultaneous
        self.noop = env.num_actions
        self.explicit = info.chance and chance == "explicit"
        """Every draw a chance node (else sampled from the seed)."""
        self.max_draw = (
            env.game.max_chance_outcomes(env.game.parse_options(env.options))
            if self.explicit
            else 0
        )
        low, high = info.utility_range
        game_type = _game_type(env, env.seats, chance)
        zero = game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
        game_info = pyspiel.GameInfo(
            num_distinct_actions=env.num_actions + (1 if self.simultaneous else 0),
            max_chance_outcomes=self.max_draw,
            num_players=self.env.seats,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if zero else None,
            max_game_length=env.max_decisions,
        )
        self.first_seed = int(params.get("seed") or 0)
        super().__init__(
            game_type,
            game_info,
            {
                "options": _options_param(options),
                "players": players,
                "chance": chance,
                "seed": self.first_seed,
                "normalize": normalize,
            },
        )
        self.chance = info.chance and not self.explicit
        """New games sampled from seeds."""
        self._count = 0
        self._fresh: dict[int, _Kumite] = {}
        self._held: dict[int, weakref.ref[KumiteState]] = {}
        """Seed indices held by states observed before their first use."""
        self.track = False
        """States keep their trail of views (set by the first information state asked)."""

    def seed_at(self, k: int) -> int:
        """The seed of the ``k``-th new game: ``seed``, then derived ones (sampled chance)."""
        if not self.chance or k == 0:
            return self.first_seed
        return derive_seed(self.first_seed, "openspiel", k)

    def next_seed(self) -> int:
        """The seed of the next new game (and counts it)."""
        k, self._count = self._count, self._count + (1 if self.chance else 0)
        return self.seed_at(k)

    def fresh(self, k: int) -> _Kumite:
        """The kumite side of a new game with the ``k``-th seed, never stepped: what a
        state not yet played shows (kept for the last few ``k``; read, never changed)."""
        found = self._fresh.get(k)
        if found is None:
            if self.explicit:
                found = _Kumite.explicit(self.env)
            else:
                found = _Kumite(self.env, self.env.new_state(self.seed_at(k)))
            if len(self._fresh) > 4:
                self._fresh.pop(next(iter(self._fresh)))
            self._fresh[k] = found
        return found

    def new_initial_state(self) -> KumiteState:
        return KumiteState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Observer:
        if params:
            raise ValueError(f"observer parameters are not supported, got {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError("kumite games observe as one seat: public and own private info")
        return Observer(self, recall)


Trail = tuple[Any, tuple[str, ...], dict[int, str]] | None
"""What the seats saw before each step, and its choices: ``(earlier trail, one view string
per seat, the step's choices)``, immutable, so that clones share it."""


class _Kumite:
    """The kumite side of a pyspiel state, in one attribute: pyspiel's clone deep-copies a
    Python state's attributes (here: kumite's own clone) and its serialisation pickles them
    (here: the game record, replayed on loading).

    With explicit chance a step may wait on chance: ``step`` holds its choices (``{}`` for
    the set-up, before ``state`` exists), ``drawn`` the draws chosen for it so far and
    ``need`` the sizes of the draws it still needs; ``state`` stays the position before
    the step, and ``draws`` are every draw the steps before it consumed. A step runs on
    ``state`` itself; one stopped by chance half-way is rebuilt from ``base``, a copy made
    after the last step that drew, and the steps since (draws are rare: cloning before
    every step to be safe cost three times as much)."""

    __slots__ = ("base", "drawn", "draws", "env", "need", "state", "step", "trail")

    def __init__(
        self,
        env: EnvGame,
        state: State | None,
        trail: Trail = None,
        draws: tuple[int, ...] = (),
        step: dict[int, str] | None = None,
        drawn: tuple[int, ...] = (),
        need: tuple[int, ...] = (),
        base: tuple[State, tuple[dict[int, str], ...]] | None = None,
    ) -> None:
        self.env = env
        self.state = state
        self.trail = trail
        """Kept once an information state was asked for (``KumiteGame.track``)."""
        self.draws = draws
        self.step = step
        self.drawn = drawn
        self.need = need
        self.base = base
        """With explicit chance: a copy after the last step that drew, and the steps since."""

    @classmethod
    def explicit(cls, env: EnvGame) -> _Kumite:
        """A new game whose draws are chance nodes: its set-up runs (or waits on chance)."""
        k = cls(env, None, step={})
        k.run()
        return k

    def run(self, track: bool = False) -> None:
        """Run the step under way with the draws chosen for it; if it needs more, ask for
        them (``need``), else it is done: ``state`` moves on."""
        step, more, state = self.step, self.drawn, self.state
        assert step is not None
        if state is None:  # the set-up
            try:
                state = self.env.game.new_state(0, self.env.options, rng=ScriptedRng(more))
            except ChanceNeeded as chance:
                self.need = chance.sizes
                return
            state.quiet = True
            self.state, self.base = state, (state.clone(), ())
        else:
            tracked = track and (self.trail is not None or not state.history)
            views = _views(state) if tracked else ()
            rng = _rng(state)
            assert isinstance(rng, ScriptedRng)
            rng.draws += more
            try:
                state.apply_trusted(step)
            except ChanceNeeded as chance:
                self.need = chance.sizes
                self.state = self._rebuilt()
                return
            if tracked:
                self.trail = (self.trail, views, step)
            assert self.base is not None
            base, since = self.base
            self.base = (state.clone(), ()) if more else (base, (*since, step))
        self.step, self.draws, self.drawn, self.need = None, self.draws + more, (), ()

    def _rebuilt(self) -> State:
        """The position before the step under way, from ``base``."""
        assert self.base is not None
        base, since = self.base
        state = base.clone()
        for step in since:
            state.apply_trusted(step)
        return state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Kumite:
        state = None if self.state is None else self.state.clone()
        step = None if self.step is None else dict(self.step)
        return _Kumite(
            self.env, state, self.trail, self.draws, step, self.drawn, self.need, self.base
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        env = self.env
        if self.state is None or isinstance(_rng(self.state), ScriptedRng):
            saved = {
                "draws": list(self.draws),
                "steps": [] if self.state is None else _steps(self.state),
                "step": None if self.step is None else _step_json(self.step),
                "drawn": list(self.drawn),
            }
            return (_restore_explicit, (env.spec.id, env.options, json.dumps(saved)))
        assert self.state is not None
        record = self.state.to_record().to_json()
        return (_restore, (env.spec.id, env.options, record))


def _rng(state: State | None) -> Any:
    """The random stream of a game with chance (its engine's ``rng``)."""
    return getattr(state, "rng", None)


def _steps(state: State) -> list[dict[str, str]]:
    return [_step_json(step) for step in state.history]


def _step_json(step: dict[int, str]) -> dict[str, str]:
    return {str(s): c for s, c in step.items()}


def _restore(game_id: str, options: dict[str, Any], record: str) -> _Kumite:
    env = EnvGame.make(game_id, options)
    state = replay(GameRecord.from_json(record), env.game, source="serialised state")
    state.quiet = True
    return _Kumite(env, state)


def _restore_explicit(game_id: str, options: dict[str, Any], saved: str) -> _Kumite:
    """A state with explicit chance, from its draws and steps: the set-up and every step
    replayed on a stream that answers with those draws in order."""
    env = EnvGame.make(game_id, options)
    data = json.loads(saved)
    draws = tuple(int(d) for d in data["draws"])
    step = data["step"]
    k = _Kumite(env, None, draws=draws)
    if step != {}:  # the set-up is done
        state = env.game.new_state(0, env.options, rng=ScriptedRng(draws))
        state.quiet = True
        for recorded in data["steps"]:
            state.apply_trusted({int(s): c for s, c in recorded.items()})
        k.state, k.base = state, (state.clone(), ())
    if step is not None:
        k.step = {int(s): c for s, c in step.items()}
        k.drawn = tuple(int(d) for d in data["drawn"])
        k.run()
    return k


class KumiteState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state holding a kumite state (created on first use, so that pyspiel's
    clone, which makes an initial state to copy into, costs no game of its own).

    Observing a state never used (``observation_tensor`` of a new state; pyspiel also
    makes a new state and observes it to learn the tensor's shape, at every
    ``observation_tensor`` call) does not create its game: it reads a shared copy of the
    new game it will be (:meth:`KumiteGame.fresh`), and with sampled chance the state
    keeps that game's seed for when it is used. So reading observations neither costs a
    game set-up each time nor uses up seeds: the ``k``-th state played gets the ``k``-th
    seed however many observations were read."""

    def __init__(self, game: KumiteGame) -> None:
        super().__init__(game)
        self._k: _Kumite | None = None
        self._seed_index: int | None = None
        """The seed a never-used state was observed with (sampled chance)."""

    def _index(self, claim: bool) -> int:
        """The seed index of this state: the one it was observed with, else the first one
        not held by another live state observed before being used; ``claim``: it is
        being used now (later states get later seeds)."""
        game: KumiteGame = self.get_game()
        held = game._held
        k = self._seed_index
        if k is None:
            k = game._count
            while k in held and held[k]() is not None:
                k += 1
            self._seed_index = k
            if game.chance:
                held[k] = weakref.ref(self)
        if claim and game.chance:
            held.pop(k, None)
            game._count = max(game._count, k + 1)
            for old in [i for i in held if i < game._count]:
                del held[old]
        return k

    @property
    def _core(self) -> _Kumite:
        if self._k is None:
            game: KumiteGame = self.get_game()
            if game.explicit:
                self._k = _Kumite.explicit(game.env)
            else:
                self._k = _Kumite(game.env, game.env.new_state(game.seed_at(self._index(True))))
        return self._k

    def _observed(self) -> _Kumite:
        """What observing this state reads: its own kumite side, or (never used yet) the
        new game it will be."""
        if self._k is not None:
            return self._k
        return self.get_game().fresh(self._index(False))  # type: ignore[no-any-return]

    @property
    def kumite(self) -> State:
        """The kumite state underneath (while a step waits on chance, the position before
        it; not during a set-up that waits on chance)."""
        state = self._core.state
        if state is None:
            raise ValueError("the game is being set up: a chance node, no kumite state yet")
        return state

    @property
    def setting_up(self) -> bool:
        """The set-up waits on chance: no kumite state exists yet."""
        return self._core.state is None

    @property
    def _env(self) -> EnvGame:
        return self.get_game().env  # type: ignore[no-any-return]

    def current_player(self) -> int:
        if self._core.need:
            return int(pyspiel.PlayerId.CHANCE)
        pending = self.kumite.pending()
        if not pending:
            return int(pyspiel.PlayerId.TERMINAL)
        if len(pending) == 1:
            return pending[0].seat
        return int(pyspiel.PlayerId.SIMULTANEOUS)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next draw: each of its ``n`` outcomes with probability ``1 / n``."""
        need = self._core.need
        if not need:
            return []
        n = need[0]
        return [(i, 1.0 / n) for i in range(n)]

    def _legal_actions(self, player: int) -> list[int]:
        actions = sorted(self._env.legal(self.kumite, player))
        if not actions and self.get_game().simultaneous:
            return [self.get_game().noop]
        return actions

    def _apply_action(self, action: int) -> None:
        k = self._core
        if k.need:
            if not 0 <= action < k.need[0]:
                raise IllegalChoiceError(-1, int(action), f"not among {k.need[0]} outcomes")
            k.drawn += (int(action),)
            k.need = k.need[1:]
            if not k.need:
                k.run(self.get_game().track)
            return
        seat = self.current_player()
        self._apply({seat: action})

    def _apply_actions(self, actions: list[int]) -> None:
        pending = {d.seat for d in self.kumite.pending()}
        self._apply({s: a for s, a in enumerate(actions) if s in pending})

    def _apply(self, actions: Mapping[int, int]) -> None:
        state = self.kumite
        env = self._env
        choices = {seat: env.choice(state, seat, int(action)) for seat, action in actions.items()}
        k = self._k
        assert k is not None
        track = self.get_game().track
        if self.get_game().explicit:
            k.step = choices
            k.run(track)
            return
        if track and (k.trail is not None or not state.history):
            k.trail = (k.trail, _views(state), choices)
        state.apply_trusted(choices)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"chance: draw {action}"
        if action == self.get_game().noop and self.get_game().simultaneous:
            return NOOP_NAME
        try:
            game_id = self._env.to_game(player, action)
            return f"{player}:{self.kumite.action_to_choice(player, game_id)}"
        except (KeyError, IndexError, ValueError):
            return f"{player}:action {action}"

    def is_terminal(self) -> bool:
        return not self._core.need and self.kumite.is_terminal

    def returns(self) -> list[float]:
        state = self._core.state
        outcome = None if state is None or self._core.need else state.outcome
        return [0.0] * self._env.seats if outcome is None else list(outcome.returns)

    def __str__(self) -> str:
        k = self._core
        if not self.get_game().explicit:
            state = self.kumite
            return json.dumps({"seed": state.seed, "steps": _steps(state)}, sort_keys=True)
        out: dict[str, Any] = {
            "draws": list(k.draws),
            "steps": [] if k.state is None else _steps(k.state),
        }
        if k.step is not None:
            out["step"] = _step_json(k.step)
            out["drawn"] = list(k.drawn)
        return json.dumps(out, sort_keys=True)

    def information_state_history(self, player: int) -> list[str]:
        """Everything ``player`` has observed and done, step by step: its view before each
        step, its own choice there, and its view now."""
        out = []
        for view, choice in self._seen(player):
            out.append(view)
            if choice is not None:
                out.append(f"you: {choice}")
        out.append(_view_string(self.kumite, player))
        return out

    def public_memory(self, player: int) -> np.ndarray[Any, Any]:
        """``player``'s public-history memory (the game's ``Encoding.history``): every view
        it had, folded in order, its view now last."""
        history = self._env.encoding.history
        assert history is not None
        memory = history.start()
        for view, _ in self._seen(player):
            history.fold(memory, json.loads(view))
        history.fold(memory, self.kumite.view(player))
        return memory

    def _seen(self, player: int) -> list[tuple[str, str | None]]:
        """``player``'s view (a string) before each step so far and its choice there."""
        state = self.kumite
        k = self._k
        assert k is not None
        game: KumiteGame = self.get_game()
        game.track = True
        if k.trail is None and state.history:  # tracking started late: replay once
            if game.explicit:
                world = game.env.game.new_state(0, game.env.options, rng=ScriptedRng(k.draws))
                world.quiet = True
            else:
                world = game.env.new_state(state.seed)
            for step in state.history:
                k.trail = (k.trail, _views(world), step)
                world.apply_trusted(dict(step))
        steps = []
        trail = k.trail
        while trail is not None:
            trail, views, choices = trail
            steps.append((views[player], choices.get(player)))
        steps.reverse()
        return steps


def _views(state: State) -> tuple[str, ...]:
    return tuple(_view_string(state, s) for s in state.players)


def _view_string(state: State, seat: int) -> str:
    return json.dumps(state.view(seat), sort_keys=True, separators=(",", ":"))


class Observer:
    """pyspiel's Python observer: the encoding of a seat's view (``tensor``, ``dict``) and
    the view as a string; with ``perfect_recall``, the information state."""

    def __init__(self, game: KumiteGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        encoding = game.env.encoding
        self.encoding = encoding
        self.history = None if encoding.perfect_recall or not perfect_recall else encoding.history
        """The public-history memory the tensor carries after the observation."""
        if perfect_recall and not encoding.perfect_recall and self.history is None:
            self.tensor: np.ndarray[Any, Any] | None = None
            self.dict: dict[str, np.ndarray[Any, Any]] = {}
        else:
            extra = 0 if self.history is None else self.history.size
            self.tensor = np.zeros(encoding.size + extra, np.float32)
            self._fresh: dict[tuple[int, int], np.ndarray[Any, Any]] = {}
            self.dict = {"observation": self.tensor[: encoding.size]}
            if self.history is not None:
                self.dict["history"] = self.tensor[encoding.size :]

    # While the set-up still waits on its draws there is no table yet: a seat has seen
    # nothing (zeros, an empty string).

    def set_from(self, state: KumiteState, player: int) -> None:
        if self.tensor is None:
            return
        if state._k is None:
            # a state never used; pyspiel observes a new one at every observation_tensor
            # call to learn the tensor's shape: the new game's tensors are kept
            key = (state._index(False), player)
            found = self._fresh.get(key)
            if found is None:
                self._write(state, player)
                self._fresh = {key: self.tensor.copy()}
            else:
                self.tensor[:] = found
            return
        self._write(state, player)

    def _write(self, state: KumiteState, player: int) -> None:
        assert self.tensor is not None
        seen = state._observed()
        if seen.state is None:
            self.tensor[:] = 0.0
            return
        env = self.game.env
        size = self.encoding.size
        self.tensor[:size] = env.observe(seen.state, player)
        if self.history is not None:
            if state._k is None:  # never used: its first view is all it has seen
                memory = self.history.start()
                self.history.fold(memory, seen.state.view(player))
            else:
                memory = state.public_memory(player)
            self.tensor[size:] = self.history.normalize(memory) if env.normalize else memory

    def string_from(self, state: KumiteState, player: int) -> str:
        seen = state._observed()
        if seen.state is None:
            return ""
        if not self.perfect_recall or self.encoding.perfect_recall or state._k is None:
            return _view_string(seen.state, player)
        return "\n".join(state.information_state_history(player))


def load(game_id: str, options: Mapping[str, Any] | None = None, **params: Any) -> KumiteGame:
    """``pyspiel.load_game("kumite_<id>", ...)`` with kumite options as a dict."""
    register()
    spec = get_spec(game_id)
    if spec.observation is None:
        raise NoEnvError(f"{spec.name} ({spec.id}) declares no observation encoding")
    loaded: KumiteGame = pyspiel.load_game(
        short_name(game_id), {"options": json.dumps(dict(options or {})), **params}
    )
    return loaded


def tree_copy(game: pyspiel.Game) -> pyspiel.Game:
    """A small sequential game's whole tree as OpenSpiel's native ``efg_game``, through
    OpenSpiel's own Gambit export: the same histories, actions in the same order, chance
    probabilities, returns and information sets (one per information-state string)."""
    text = gambit.export_gambit(game)
    # The export names the tree after the game's full name, whose quoted options the
    # Gambit parser cannot read; the name is a label only.
    _, body = text.split("\n", 1)
    players = " ".join(f'"Pl{p}"' for p in range(game.num_players()))
    copied: pyspiel.Game = pyspiel.load_efg_game(f'EFG 2 R "kumite" {{ {players} }}\n{body}')
    return copied


def policy_from_copy(
    game: pyspiel.Game, copy: pyspiel.Game, policy: Any
) -> os_policy.TabularPolicy:
    """``policy`` (of :func:`tree_copy`'s ``copy``; anything with ``action_probabilities``)
    as a tabular policy of ``game``, found by walking both trees side by side."""
    out = os_policy.TabularPolicy(game)
    done: set[str] = set()

    def walk(state: pyspiel.State, twin: pyspiel.State) -> None:
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes = zip(state.chance_outcomes(), twin.chance_outcomes(), strict=True)
            for (action, _), (twin_action, _) in outcomes:
                walk(state.child(action), twin.child(twin_action))
            return
        pairs = list(zip(state.legal_actions(), twin.legal_actions(), strict=True))
        key = state.information_state_string()
        if key not in done:
            done.add(key)
            probs = policy.action_probabilities(twin)
            row = out.policy_for_key(key)
            row[:] = 0.0
            for action, twin_action in pairs:
                row[action] = probs.get(twin_action, 0.0)
        for action, twin_action in pairs:
            walk(state.child(action), twin.child(twin_action))

    walk(game.new_initial_state(), copy.new_initial_state())
    return out


register()  # pyspiel.load_game("kumite_<id>") works right after importing this module

__all__ = [
    "KumiteGame",
    "KumiteState",
    "Observer",
    "load",
    "policy_from_copy",
    "register",
    "short_name",
    "tree_copy",
]
