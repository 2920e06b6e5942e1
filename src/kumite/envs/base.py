"""What every research interface shares: a game made ready for arrays, and one table.

:class:`EnvGame` resolves a game id through the registry (no game is named here), checks
that the game declares an observation encoding (its spec's ``observation``), parses the
options and gathers the metadata every environment reports — the pack's identity above
all, since action ids depend on the pack. :class:`Table` holds one kumite state and turns
dense action ids into choices, one seat at a time: a simultaneous decision is buffered
until every pending seat has chosen, then applied at once (so no seat's choice is seen by
another before it chooses).
"""

from __future__ import annotations

import copy
import copyreg
import dataclasses
import functools
import io
import pickle
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kumite.core.errors import IllegalChoiceError, KumiteError, NotPendingError, OptionsError
from kumite.core.game import Game, State
from kumite.core.observation import Encoding, HistoryEncoding, Tensor
from kumite.core.record import GameRecord, replay
from kumite.core.registry import get_spec
from kumite.core.spec import GameSpec
from kumite.envs import render
from kumite.envs.render import RENDER_MODES

Mask = NDArray[np.int8]


class NoEnvError(KumiteError, ValueError):
    """The game has no environment of this kind (no observation encoding, or sequential)."""


@dataclasses.dataclass(frozen=True, eq=False)
class EnvGame:
    """A game, its options and its encoding, as the environments use them."""

    spec: GameSpec
    game: Game[Any]
    options: dict[str, Any]
    """The options in their JSON form (validated), as records store them."""
    encoding: Encoding
    seats: int
    num_actions: int
    version: int
    normalize: bool = False
    """Observations mapped into ``[0, 1]`` field by field (:meth:`Encoding.normalize`)."""
    history: bool = False
    """Observations followed by the seat's public-history memory (the game's
    ``Encoding.history``; nothing where the view is perfect recall already)."""

    @classmethod
    def make(
        cls,
        game_id: str,
        options: Mapping[str, Any] | None = None,
        normalize: bool = False,
        history: bool = False,
    ) -> EnvGame:
        spec = get_spec(game_id)
        if spec.observation is None:
            raise NoEnvError(
                f"{spec.name} ({spec.id}) declares no observation encoding, so it has no "
                "environment (see docs/envs.md)"
            )
        game = spec.load()
        opts = game.options_to_json(game.parse_options(_pack_by_name(game, options)))
        encoding = spec.observation.encoding.load()(game, opts)
        seats = game.new_state(0, opts).num_players
        return cls(
            spec,
            game,
            opts,
            encoding,
            seats,
            game.info.num_actions,
            spec.observation.version,
            bool(normalize),
            bool(history),
        )

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # rebuilt from its id and options: games and catalogs are shared, not copied
        return (_make, (self.spec.id, self.options, self.normalize, self.history))

    def __deepcopy__(self, memo: dict[int, Any]) -> EnvGame:
        return self  # immutable

    @property
    def name(self) -> str:
        """The versioned environment name, ``kumite_<id>_v<version>``."""
        return f"kumite_{self.spec.id}_v{self.version}"

    @property
    def max_decisions(self) -> int:
        """The longest game under these options, in steps: the encoding's bound where it
        declares one for the options (SF DBG: by seats and round limit), else the game's."""
        bound = self.encoding.max_decisions
        return self.game.info.max_decisions if bound is None else bound

    @property
    def memory(self) -> HistoryEncoding | None:
        """The public-history memory the observations carry (``history=True`` and a game
        whose view is not perfect recall), else ``None``."""
        return self.encoding.history if self.history else None

    @property
    def size(self) -> int:
        """The length of an observation (with the memory, if any)."""
        memory = self.memory
        return self.encoding.size + (0 if memory is None else memory.size)

    @property
    def low(self) -> Tensor:
        """The lowest value of each observation entry (0 when normalised)."""
        if self.normalize:
            return np.zeros(self.size, dtype=np.float32)
        memory = self.memory
        low = self.encoding.low
        return low if memory is None else np.concatenate([low, memory.low])

    @property
    def high(self) -> Tensor:
        """The highest value of each observation entry (1 when normalised)."""
        if self.normalize:
            return np.ones(self.size, dtype=np.float32)
        memory = self.memory
        high = self.encoding.high
        return high if memory is None else np.concatenate([high, memory.high])

    def metadata(self) -> dict[str, Any]:
        """What an environment reports about itself (``env.metadata``)."""
        pack = self.game.pack_ref(self.game.parse_options(self.options))
        return {
            "name": self.name,
            "game": self.spec.id,
            "game_name": self.spec.name,
            "rules_version": self.game.info.rules_version,
            "options": {k: v for k, v in self.options.items() if k != "pack"},
            "pack": dict(pack),
            "num_actions": self.num_actions,
            "observation_size": self.size,
            "normalized": self.normalize,
            "history": self.memory is not None,
            "render_modes": list(RENDER_MODES),
        }

    def new_state(self, seed: int) -> State:
        state = self.game.new_state(seed, self.options)
        state.quiet = True  # no events: the environments read views only
        return state

    def observe(self, state: State, seat: int, memory: Tensor | None = None) -> Tensor:
        """``seat``'s observation: the encoding of its view, then (``history=True``) its
        public-history ``memory``, normalised if the environment is."""
        tensor = self.encoding.encode(state.view(seat))
        if self.normalize:
            tensor = self.encoding.normalize(tensor)
        history = self.memory
        if history is None:
            return tensor
        if memory is None:
            raise ValueError("this environment's observations carry a memory: give it")
        tail = history.normalize(memory) if self.normalize else memory
        return np.concatenate([tensor, tail])

    def memories(self, state: State) -> dict[int, Tensor] | None:
        """Each seat's public-history memory, folded with its view of ``state`` (a new
        game), or ``None`` when the observations carry none."""
        history = self.memory
        if history is None:
            return None
        out = {}
        for seat in range(self.seats):
            out[seat] = history.start()
            history.fold(out[seat], state.view(seat))
        return out

    def remember(self, memories: dict[int, Tensor] | None, state: State, seats: Any = None) -> None:
        """Fold each seat's view of ``state`` (after a step) into its memory (``seats``:
        only those)."""
        history = self.memory
        if history is None or memories is None:
            return
        for seat in memories if seats is None else seats:
            history.fold(memories[seat], state.view(seat))

    # Action ids. The environments number actions in the acting seat's frame of reference
    # (Encoding.action_order: the identity but for games whose actions name seats), so
    # every id is translated here, and only here.

    @functools.cached_property
    def _orders(self) -> list[tuple[NDArray[np.intp], NDArray[np.intp]] | None]:
        out: list[tuple[NDArray[np.intp], NDArray[np.intp]] | None] = []
        for seat in range(self.seats):
            order = self.encoding.action_order(seat)
            if order is None:
                out.append(None)
            else:
                inverse = np.empty_like(order)
                inverse[order] = np.arange(len(order))
                out.append((order, inverse))
        return out

    def legal(self, state: State, seat: int) -> list[int]:
        """``seat``'s legal action ids now, in the environments' numbering."""
        ids = state.legal_actions(seat)
        frame = self._orders[seat]
        return ids if frame is None else [int(frame[1][i]) for i in ids]

    def to_game(self, seat: int, action: int) -> int:
        """The game's dense id of ``seat``'s environment action id ``action``."""
        frame = self._orders[seat]
        return action if frame is None else int(frame[0][action])

    def from_game(self, seat: int, action: int) -> int:
        """The environments' id of the game's dense id ``action`` for ``seat``."""
        frame = self._orders[seat]
        return action if frame is None else int(frame[1][action])

    def choice(self, state: State, seat: int, action: Any) -> str:
        """The choice of ``seat``'s environment action id ``action``, if legal now; else
        kumite's one-line error (a ``ChoiceError``)."""
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if not isinstance(action, int | np.integer) or isinstance(action, bool):
            raise IllegalChoiceError(seat, action, "an action is an integer action id")
        action = int(action)
        if not 0 <= action < self.num_actions:
            raise IllegalChoiceError(seat, action, "not a legal action id now")
        game_id = self.to_game(seat, action)
        if game_id not in state.legal_actions(seat):
            raise IllegalChoiceError(seat, action, "not a legal action id now")
        return state.action_to_choice(seat, game_id)

    def mask(self, state: State, seat: int, size: int | None = None) -> Mask:
        out = np.zeros(self.num_actions if size is None else size, dtype=np.int8)
        out[self.legal(state, seat)] = 1
        return out

    def render(self, state: State, seat: int | None = None) -> str:
        """The table as ``seat`` (``None``: a spectator) sees it, drawn by the game's
        terminal front end."""
        return render.text(self.game, self.spec.id, self.options, state.view(seat))

    def picture(self, state: State, seat: int | None = None) -> NDArray[np.uint8]:
        """:meth:`render`'s table painted into an RGB image (``rgb_array``)."""
        return render.picture(self.game, self.spec.id, self.options, state.view(seat))


def _make(game_id: str, options: Mapping[str, Any], normalize: bool, history: bool) -> EnvGame:
    return EnvGame.make(game_id, options, normalize, history)


def _pack_by_name(game: Game[Any], options: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The options with a ``pack`` given by name (``"mini"``: a pack the game ships) or by
    path (a file) replaced by the pack's text, as kumite's ``--pack`` reads it; TOML text
    (it has a line break or an ``=``) is kept as it is."""
    if options is None or "pack" not in options:
        return options
    pack = options["pack"]
    if isinstance(pack, Path):
        pack = str(pack)
    if not isinstance(pack, str) or "\n" in pack or "=" in pack:
        return options
    read = getattr(game, "read_overlay", None)
    loader = getattr(game, "packs", None)
    if read is None or loader is None:
        return options
    shipped = sorted(
        f.name.removesuffix(".toml")
        for f in (resources.files(loader.package) / "packs").iterdir()
        if f.name.endswith(".toml") and f.name != "base.toml"
    )
    if not Path(pack).exists() and pack not in shipped:
        raise OptionsError(
            f"pack {pack!r}: no such file, and {game.info.name} ships no pack of that name "
            f"(its packs: {', '.join(shipped) or 'none'})"
        )
    return {**options, "pack": read(pack)}


class SavedState:
    """A kumite state in a form that pickles: its game record (seed, options and every
    step's choices), replayed on loading (:func:`kumite.core.record.replay`)."""

    __slots__ = ("game_id", "options", "record")

    def __init__(self, state: State, env: EnvGame) -> None:
        self.game_id = env.spec.id
        self.options = env.options
        self.record = state.to_record().to_json()

    def restore(self, env: EnvGame) -> State:
        state = replay(GameRecord.from_json(self.record), env.game, source="pickled environment")
        state.quiet = True
        return state

    def __getstate__(self) -> tuple[str, dict[str, Any], str]:
        return (self.game_id, self.options, self.record)

    def __setstate__(self, saved: tuple[str, dict[str, Any], str]) -> None:
        self.game_id, self.options, self.record = saved


def _mappingproxy(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(items)


def _dumps(obj: Any) -> bytes:
    """``pickle.dumps`` that also takes read-only mappings (``MappingProxyType``, which
    kumite's engines and bots use for shared tables, and which pickle refuses): each is
    saved as a copy of its items. Local to this pickler, not registered globally."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {
        **copyreg.dispatch_table,
        MappingProxyType: lambda m: (_mappingproxy, (dict(m),)),
    }
    pickler.dump(obj)
    return out.getvalue()


class Snapshots:
    """Pickle and ``deepcopy`` for an environment holding kumite states: in a pickle every
    state attribute is its game record (:class:`SavedState`, replayed on loading) and the
    rest is pickled as usual (read-only mappings as copies); a deep copy clones the states
    (``State.clone``) and copies the rest through the same pickle. A subclass may keep
    objects out of both (:meth:`_portable`) and rebuild them afterwards (:meth:`_revive`)."""

    env: EnvGame

    def _portable(self) -> dict[str, Any]:
        """The attributes as they are saved."""
        return dict(self.__dict__)

    def _revive(self) -> None:
        """Rebuild what :meth:`_portable` left out (the states are back)."""

    def __getstate__(self) -> dict[str, Any]:
        saved = {
            k: SavedState(v, self.env) if isinstance(v, State) else v
            for k, v in self._portable().items()
        }
        return {"pickled": _dumps(saved)}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        items = pickle.loads(saved["pickled"])
        env = items["env"]
        self.__dict__.update(
            {k: v.restore(env) if isinstance(v, SavedState) else v for k, v in items.items()}
        )
        self._revive()

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        cls = type(self)
        other = cls.__new__(cls)
        memo[id(self)] = other
        items = self._portable()
        states = {k: v for k, v in items.items() if isinstance(v, State)}
        rest = pickle.loads(_dumps({k: v for k, v in items.items() if k not in states}))
        other.__dict__.update(rest)
        other.__dict__.update({k: v.clone() for k, v in states.items()})
        other._revive()
        return other


class Table(Snapshots):
    """One game played one seat's action at a time (what AEC and OpenSpiel need)."""

    def __init__(self, env: EnvGame, state: State) -> None:
        self.env = env
        self.state = state
        self.chosen: dict[int, str] = {}
        """Choices of the current (simultaneous) decision made so far, not yet applied."""
        self.memories = env.memories(state)
        """Each seat's public-history memory (``history=True``), folded at every step."""

    def clone(self) -> Table:
        other = copy.copy(self)
        other.state = self.state.clone()
        other.chosen = dict(self.chosen)
        if self.memories is not None:
            other.memories = {s: m.copy() for s, m in self.memories.items()}
        return other

    def observe(self, seat: int) -> Tensor:
        """``seat``'s observation now (with its memory, if the environment keeps one)."""
        memory = None if self.memories is None else self.memories[seat]
        return self.env.observe(self.state, seat, memory)

    def apply(self, choices: dict[int, str]) -> None:
        """Apply one decision's (legal) choices, and fold the result into the memories."""
        self.state.apply_trusted(choices)
        self.env.remember(self.memories, self.state)

    def waiting(self) -> list[int]:
        """Pending seats that have not chosen yet, in seat order."""
        return sorted(d.seat for d in self.state.pending() if d.seat not in self.chosen)

    def choice(self, seat: int, action: int) -> str:
        """The choice of ``action`` for ``seat``, if legal now; else a one-line error."""
        decision = next((d for d in self.state.pending() if d.seat == seat), None)
        if decision is None or seat in self.chosen:
            raise NotPendingError(seat, action, "no decision is pending for this seat")
        return self.env.choice(self.state, seat, action)

    def act(self, seat: int, action: int) -> bool:
        """Record ``seat``'s action; apply the decision once every pending seat has chosen.
        Returns whether the state moved on. Raises (changing nothing) if illegal."""
        self.chosen[seat] = self.choice(seat, action)
        if self.waiting():
            return False
        choices, self.chosen = self.chosen, {}
        self.apply(choices)
        return True
