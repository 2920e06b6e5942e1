"""Every kumite game with an observation encoding as an OpenSpiel (``pyspiel``) Python game
(docs/envs.md), so OpenSpiel's algorithms — CFR, MCTS, exploitability, its RL agents — run
on it unchanged.

:func:`register` registers ``kumite_<id>`` for each such game; load it as usual,
``pyspiel.load_game("kumite_<id>", {"options": '{"mode": "2v2"}'})`` (parameters: ``options``,
the kumite options as JSON; ``players``, the number of seats for games whose options follow
it; ``seed``, the first game seed of a stochastic game).

What is declared, and why:

* **dynamics**: ``SIMULTANEOUS`` for a game whose decisions may be simultaneous, else
  ``SEQUENTIAL``. A node where one seat decides is a player node (``current_player()`` is
  that seat) in either; at a simultaneous node every seat acts, a seat with nothing to
  decide playing the single **NO-OP** action (id ``num_actions``).
* **chance**: ``DETERMINISTIC`` when the game has no chance; otherwise
  ``SAMPLED_STOCHASTIC``: kumite's engines shuffle inside a step from the game's seeded
  random stream and expose no chance node, so each new initial state is a new seed (the
  ``seed`` parameter, then the following ones) and the shuffles are sampled, not
  enumerated. A state's ``str`` and serialisation carry that seed.
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
  choices) and comes back by replaying it (:func:`kumite.core.record.replay`).

:func:`tree_copy` copies the whole tree of a small (reduced) game into OpenSpiel's native
extensive-form game, where its algorithms run at C++ speed instead of calling the kumite
engine at every node; :func:`policy_from_copy` brings a policy found there back to the
kumite game, where OpenSpiel's ``exploitability`` can check it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import gambit

from kumite.core.errors import IllegalChoiceError, OptionsError
from kumite.core.game import State
from kumite.core.record import GameRecord, replay
from kumite.core.registry import get_spec, specs
from kumite.core.rng import derive_seed
from kumite.envs.base import EnvGame, NoEnvError

PREFIX = "kumite_"
NOOP_NAME = "no-op"
_REGISTERED: dict[str, pyspiel.GameType] = {}
_CREATORS: dict[str, type[KumiteGame]] = {}


def short_name(game_id: str) -> str:
    return PREFIX + game_id


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
            game_type = _game_type(env, env.seats)
            _REGISTERED[name] = game_type
            # A class per game, kept by this module: pyspiel keeps the creator until the
            # interpreter's very end, and freeing a closure then (without the GIL) aborts.
            creator = type(f"KumiteGame_{spec.id}", (KumiteGame,), {"game_id": spec.id})
            _CREATORS[name] = creator
            pyspiel.register_game(game_type, creator)
        out.append(name)
    return out


def _zero_sum(env: EnvGame, seats: int) -> bool:
    """Returns always sum to 0: two seats, or two teams of equal size (a team game)."""
    if seats == 2:
        return True
    teams: Any = getattr(env.game.new_state(0, env.options), "teams", None)
    return bool(teams) and len(teams) == 2 and len(teams[0]) == len(teams[1])


def _game_type(env: EnvGame, seats: int) -> pyspiel.GameType:
    info = env.game.info
    perfect = env.encoding.perfect_recall
    return pyspiel.GameType(
        short_name=short_name(env.spec.id),
        long_name=f"kumite {env.spec.name}",
        dynamics=(
            pyspiel.GameType.Dynamics.SIMULTANEOUS
            if info.simultaneous
            else pyspiel.GameType.Dynamics.SEQUENTIAL
        ),
        chance_mode=(
            pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
            if info.chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
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
        provides_information_state_tensor=perfect,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"options": "{}", "players": 0, "seed": 0},
    )


class KumiteGame(pyspiel.Game):  # type: ignore[misc]
    """One kumite game under one set of options, as a pyspiel game (:func:`register` makes
    a subclass per game, naming its ``game_id``)."""

    game_id: str

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        game_id = self.game_id
        try:
            options = json.loads(params.get("options") or "{}")
        except json.JSONDecodeError as exc:
            raise OptionsError(f"options: not JSON: {exc.msg}") from None
        if not isinstance(options, dict):
            raise OptionsError("options: a JSON object of kumite options")
        players = int(params.get("players") or 0)
        spec = get_spec(game_id)
        if players:
            options = spec.with_seats(options, players)
        self.env = EnvGame.make(game_id, options)
        if players and self.env.seats != players:
            raise OptionsError(f"{spec.name} with these options has {self.env.seats} seats")
        info = self.env.game.info
        self.simultaneous = info.simultaneous
        self.noop = self.env.num_actions
        low, high = info.utility_range
        game_type = _game_type(self.env, self.env.seats)
        zero = game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.env.num_actions + (1 if self.simultaneous else 0),
            max_chance_outcomes=0,
            num_players=self.env.seats,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if zero else None,
            max_game_length=info.max_decisions,
        )
        self.first_seed = int(params.get("seed") or 0)
        super().__init__(
            game_type,
            game_info,
            {"options": params.get("options") or "{}", "players": players, "seed": self.first_seed},
        )
        self.chance = info.chance
        self._count = 0
        self.track = False
        """States keep their trail of views (set by the first information state asked)."""

    def next_seed(self) -> int:
        """The seed of the next new game: ``seed``, then derived ones (sampled chance)."""
        if not self.chance:
            return self.first_seed
        k, self._count = self._count, self._count + 1
        return self.first_seed if k == 0 else derive_seed(self.first_seed, "openspiel", k)

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
    (here: the game record, replayed on loading)."""

    __slots__ = ("env", "state", "trail")

    def __init__(self, env: EnvGame, state: State, trail: Trail = None) -> None:
        self.env = env
        self.state = state
        self.trail = trail
        """Kept once an information state was asked for (``KumiteGame.track``)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Kumite:
        return _Kumite(self.env, self.state.clone(), self.trail)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        record = self.state.to_record().to_json()
        return (_restore, (self.env.spec.id, self.env.options, record))


def _restore(game_id: str, options: dict[str, Any], record: str) -> _Kumite:
    env = EnvGame.make(game_id, options)
    state = replay(GameRecord.from_json(record), env.game, source="serialised state")
    state.quiet = True
    return _Kumite(env, state)


class KumiteState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state holding a kumite state (created on first use, so that pyspiel's
    clone, which makes an initial state to copy into, costs no game of its own)."""

    def __init__(self, game: KumiteGame) -> None:
        super().__init__(game)
        self._k: _Kumite | None = None

    @property
    def kumite(self) -> State:
        """The kumite state underneath."""
        if self._k is None:
            game: KumiteGame = self.get_game()
            self._k = _Kumite(game.env, game.env.new_state(game.next_seed()))
        return self._k.state

    @property
    def _env(self) -> EnvGame:
        return self.get_game().env  # type: ignore[no-any-return]

    def current_player(self) -> int:
        pending = self.kumite.pending()
        if not pending:
            return int(pyspiel.PlayerId.TERMINAL)
        if len(pending) == 1:
            return pending[0].seat
        return int(pyspiel.PlayerId.SIMULTANEOUS)

    def _legal_actions(self, player: int) -> list[int]:
        actions = sorted(self.kumite.legal_actions(player))
        if not actions and self.get_game().simultaneous:
            return [self.get_game().noop]
        return actions

    def _apply_action(self, action: int) -> None:
        seat = self.current_player()
        self._apply({seat: action})

    def _apply_actions(self, actions: list[int]) -> None:
        pending = {d.seat for d in self.kumite.pending()}
        self._apply({s: a for s, a in enumerate(actions) if s in pending})

    def _apply(self, actions: Mapping[int, int]) -> None:
        state = self.kumite
        choices = {}
        for seat, action in actions.items():
            if int(action) not in state.legal_actions(seat):
                raise IllegalChoiceError(seat, int(action), "not a legal action id now")
            choices[seat] = state.action_to_choice(seat, int(action))
        k = self._k
        assert k is not None
        if self.get_game().track and (k.trail is not None or not state.history):
            k.trail = (k.trail, _views(state), choices)
        state.apply_trusted(choices)

    def _action_to_string(self, player: int, action: int) -> str:
        if action == self.get_game().noop and self.get_game().simultaneous:
            return NOOP_NAME
        try:
            return f"{player}:{self.kumite.action_to_choice(player, action)}"
        except (KeyError, IndexError, ValueError):
            return f"{player}:action {action}"

    def is_terminal(self) -> bool:
        return self.kumite.is_terminal

    def returns(self) -> list[float]:
        outcome = self.kumite.outcome
        return [0.0] * self._env.seats if outcome is None else list(outcome.returns)

    def __str__(self) -> str:
        state = self.kumite
        steps = [{str(s): c for s, c in step.items()} for step in state.history]
        return json.dumps({"seed": state.seed, "steps": steps}, sort_keys=True)

    def information_state_history(self, player: int) -> list[str]:
        """Everything ``player`` has observed and done, step by step: its view before each
        step, its own choice there, and its view now."""
        state = self.kumite
        k = self._k
        assert k is not None
        game: KumiteGame = self.get_game()
        game.track = True
        if k.trail is None and state.history:  # tracking started late: replay once
            world = game.env.new_state(state.seed)
            for step in state.history:
                k.trail = (k.trail, _views(world), step)
                world.apply_trusted(dict(step))
        steps = []
        trail = k.trail
        while trail is not None:
            trail, views, choices = trail
            steps.append((views[player], choices.get(player)))
        out = []
        for view, choice in reversed(steps):
            out.append(view)
            if choice is not None:
                out.append(f"you: {choice}")
        out.append(_view_string(state, player))
        return out


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
        if perfect_recall and not encoding.perfect_recall:
            self.tensor: np.ndarray[Any, Any] | None = None
            self.dict: dict[str, np.ndarray[Any, Any]] = {}
        else:
            self.tensor = np.zeros(encoding.size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: KumiteState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = self.encoding.encode(state.kumite.view(player))

    def string_from(self, state: KumiteState, player: int) -> str:
        if not self.perfect_recall or self.encoding.perfect_recall:
            return _view_string(state.kumite, player)
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
