"""The game contract: :class:`Game` (static metadata) and :class:`State` (one position).

Modelled on OpenSpiel's Game/State split. A state says who must decide now
(:meth:`State.pending`), takes one choice per pending seat (:meth:`State.apply`), and
returns the events it caused. Choices are strings from the decision's ``legal`` tuple; each
game also maps them to dense integer action ids for array-based code.
"""

from __future__ import annotations

import abc
import dataclasses
import functools
import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar

import msgspec

from kumite.core.decision import Decision as Decision  # re-exported: part of the contract
from kumite.core.errors import (
    GameOverError,
    IllegalChoiceError,
    MalformedChoiceError,
    MissingChoiceError,
    NotPendingError,
    OptionsError,
)
from kumite.core.events import Event
from kumite.core.rng import Rng

if TYPE_CHECKING:
    from kumite.core.record import GameRecord


@dataclasses.dataclass(frozen=True, slots=True)
class GameInfo:
    """Static metadata of a game, as OpenSpiel declares it."""

    id: str
    name: str
    min_players: int
    max_players: int
    simultaneous: bool
    hidden_information: bool
    chance: bool
    max_decisions: int
    """Upper bound on the number of :meth:`State.apply` steps in one game."""
    utility_range: tuple[float, float]
    rules_version: str
    num_actions: int
    """Size of the dense action-id space (see :meth:`State.legal_actions`)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended. ``returns`` is each seat's utility (win 1, draw 0, loss -1 in
    two-player games)."""

    winners: tuple[int, ...]
    draw: bool
    returns: tuple[float, ...]
    reason: str
    rule: str
    detail: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "draw": self.draw,
            "returns": list(self.returns),
            "reason": self.reason,
            "rule": self.rule,
            **{k: _jsonable(v) for k, v in self.detail.items()},
        }


OptionsT = TypeVar("OptionsT")


class Game(abc.ABC, Generic[OptionsT]):
    """A game: metadata, option parsing and a factory of initial states."""

    info: GameInfo
    options_type: type[OptionsT]
    """A msgspec struct: the options, with their defaults and documentation."""

    def parse_options(self, raw: Mapping[str, Any] | None) -> OptionsT:
        """Validate raw options (or pass parsed ones through :meth:`check`); raise
        :class:`~kumite.core.errors.OptionsError` if bad."""
        if not raw:
            return self.default_options
        options: OptionsT
        if isinstance(raw, self.options_type):
            options = raw
        else:
            try:
                options = msgspec.convert(dict(raw or {}), self.options_type)
            except msgspec.ValidationError as exc:
                raise OptionsError(f"{self.info.id} options: {exc}") from None
        self.check(options)
        return options

    def check(self, options: OptionsT) -> None:
        """Raise :class:`~kumite.core.errors.OptionsError` if ``options`` do not fit."""

    @functools.cached_property
    def default_options(self) -> OptionsT:
        return self.options_type()

    def options_to_json(self, options: OptionsT) -> dict[str, Any]:
        """Plain JSON form of options, as stored in game records: the options struct's
        fields (msgspec), unset (``None``) ones left out."""
        out: dict[str, Any] = msgspec.to_builtins(options)
        return {k: v for k, v in out.items() if v is not None}

    @abc.abstractmethod
    def new_state(
        self, seed: int = 0, options: Mapping[str, Any] | None = None, *, rng: Rng | None = None
    ) -> State:
        """The initial state of a game with this seed and these options. ``rng``, if given,
        is the game's random stream instead of ``Rng(seed)`` (a ``ScriptedRng`` makes
        every draw an explicit choice of the caller's; a game without chance ignores it)."""

    @property
    def rules(self) -> Mapping[str, str]:
        """Rule index: reference -> the clause (or ruling) it names."""
        return {}

    def max_chance_outcomes(self, options: OptionsT) -> int:
        """The most outcomes one draw of the game's random stream can have under ``options``
        (0: the game has no chance); an upper bound, as OpenSpiel declares it."""
        return 0

    def pack_ref(self, options: OptionsT) -> dict[str, str]:
        """Identity of the card data used (id, version, sha256); ``{}`` if none."""
        return {}


class State(abc.ABC):
    """One position of a game. Subclasses implement the ``_``-prefixed hooks."""

    game: Game[Any]
    seed: int
    opts: Any
    """The parsed options of this game."""
    history: list[dict[int, str]]
    quiet: bool = False
    """A quiet state builds no events (simulation and search); :meth:`apply` then
    returns an empty list. Everything else is identical."""

    # -- to implement -------------------------------------------------------------------
    @abc.abstractmethod
    def pending(self) -> tuple[Decision, ...]:
        """Decisions to make now: one, or several at once for a simultaneous decision.
        Empty when the game is over."""

    @property
    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """``None`` until the game has ended."""

    @abc.abstractmethod
    def _apply(self, choices: dict[int, str]) -> list[Event]:
        """Apply already-validated choices; must not raise on legal input."""

    @abc.abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @abc.abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know, as plain JSON-able data; ``None`` is a spectator."""

    @property
    def options_json(self) -> dict[str, Any]:
        """This state's options (``opts``) as stored in its record."""
        return self.game.options_to_json(self.opts)

    def legal_actions(self, seat: int) -> list[int]:
        """Dense action ids of ``seat``'s legal choices (empty if none pending)."""
        return [self.choice_to_action(seat, c) for c in self.legal(seat)]

    actions: tuple[str, ...] = ()
    """Every choice of the game, if it has a fixed vocabulary: the action ids index it."""

    def action_to_choice(self, seat: int, action: int) -> str:
        """The choice string for a dense action id."""
        if type(action) is not int or not 0 <= action < len(self.actions):
            raise MalformedChoiceError(seat, action, "unknown action id")
        return self.actions[action]

    def choice_to_action(self, seat: int, choice: str) -> int:
        """The dense action id of a choice string."""
        if choice not in self.actions:
            raise MalformedChoiceError(seat, choice, "unknown choice")
        return self.actions.index(choice)

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A copy in which everything ``seat`` cannot see (other hands, deck orders, hidden
        cards) is resampled at random, consistently with ``seat``'s view. Used by search
        (information-set MCTS). Games with hidden information override this."""
        if self.game.info.hidden_information:
            raise NotImplementedError(f"{self.game.info.id} does not determinize yet")
        return self.clone()

    def explain_illegal(self, seat: int, choice: str) -> str:
        """Why ``choice`` is not legal for ``seat`` now (must not leak hidden information)."""
        return "not among the legal choices"

    # -- provided -----------------------------------------------------------------------
    @property
    def is_terminal(self) -> bool:
        return self.outcome is not None

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    @abc.abstractmethod
    def players(self) -> tuple[int, ...]:
        """The seats of this game."""

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The seats that play together, one tuple per team, every seat in exactly one: a
        team wins, draws or loses as one (its seats share the outcome), and resigns as one.
        By default each seat plays alone; a team game (Rivales 2vs2) declares its teams.

        The server's resignations and ratings, the lobby's seat groups, the balance lab's
        pairings and the research interfaces' zero-sum test read this, never a guess."""
        return tuple((seat,) for seat in self.players)

    def team(self, seat: int) -> tuple[int, ...]:
        """The seats of ``seat``'s team (``seat`` included)."""
        for members in self.teams:
            if seat in members:
                return members
        raise ValueError(f"seat {seat} is not a seat of this game")

    def legal(self, seat: int) -> tuple[str, ...]:
        """Legal choices of ``seat`` now (empty if it has nothing to decide)."""
        for d in self.pending():
            if d.seat == seat:
                return d.legal
        return ()

    def validate(self, choices: Mapping[int, str]) -> dict[int, str]:
        """Check ``choices`` against the pending decisions; raise a precise
        :class:`~kumite.core.errors.ChoiceError` or return them as a plain dict."""
        # ``type() is dict`` first: the ABC check alone is a measurable cost per step
        if type(choices) is not dict and not isinstance(choices, Mapping):
            raise MalformedChoiceError(None, choices, "choices must map seats to choices")
        pending = self.pending()
        if not pending:
            seat, choice = next(iter(choices.items()), (None, None))
            raise GameOverError(seat, choice, "the game is over")
        valid = dict(choices)
        for seat, choice in valid.items():
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise MalformedChoiceError(None, choice, f"seat {seat!r} is not a seat number")
            decision = next((d for d in pending if d.seat == seat), None)
            if decision is None:
                raise NotPendingError(seat, choice, "no decision is pending for this seat")
            if not isinstance(choice, str):
                raise MalformedChoiceError(seat, choice, "a choice must be a string")
            if choice not in decision.legal:
                raise IllegalChoiceError(seat, choice, self.explain_illegal(seat, choice))
        missing = next((d.seat for d in pending if d.seat not in valid), None)
        if missing is not None:
            raise MissingChoiceError(missing, None, "this seat must also choose now")
        return valid

    def apply(self, choices: Mapping[int, str]) -> list[Event]:
        """Apply one choice per pending seat and return the events caused.

        Raises a :class:`~kumite.core.errors.ChoiceError` subclass, leaving the state
        untouched, if any choice is missing, out of turn, malformed or illegal. Games never
        override this (nor :meth:`validate`): their fast path is :meth:`apply_trusted`.
        """
        pending = self.pending()
        if type(choices) is dict and pending and len(choices) == len(pending):
            for d in pending:  # the common case, checked here: every pending seat, legal
                got = choices.get(d.seat)
                if type(got) is not str or got not in d.legal:  # None is no str either
                    break
            else:
                return self.apply_trusted(choices.copy())
        return self.apply_trusted(self.validate(choices))

    def apply_trusted(self, choices: dict[int, str]) -> list[Event]:
        """Apply choices known to be legal — a plain dict of one choice per pending seat,
        each taken from its decision's ``legal`` — unchecked, and keep the dict in the
        history. Search and simulation call it for the choices they draw from
        :meth:`pending`; :meth:`apply` calls it once it has validated. The one hook a game
        may override for speed (it must then do what this does)."""
        events = self._apply(choices)
        self.history.append(choices)
        return events

    def apply_action(self, actions: Mapping[int, int]) -> list[Event]:
        """:meth:`apply` with dense action ids."""
        try:
            choices = {s: self.action_to_choice(s, a) for s, a in actions.items()}
        except (KeyError, IndexError, TypeError) as exc:
            raise MalformedChoiceError(None, dict(actions), "unknown action id") from exc
        return self.apply(choices)

    def to_record(self, players: Sequence[str] = (), **meta: Any) -> GameRecord:
        """The game record (seed, options, choices, outcome) of this state."""
        from kumite.core.record import GameRecord

        outcome = self.outcome
        return GameRecord(
            game=self.game.info.id,
            rules_version=self.game.info.rules_version,
            pack=self.game.pack_ref(self.game.parse_options(self.options_json)),
            seed=self.seed,
            options=self.options_json,
            players=list(players),
            steps=[{str(s): c for s, c in step.items()} for step in self.history],
            outcome=None if outcome is None else outcome.to_json(),
            meta=dict(meta),
        )


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value
