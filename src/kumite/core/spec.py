"""Game specifications: what one game provides, declared once, read by every face.

A game package exports one :class:`GameSpec` and registers it in the entry-point group
``kumite.games`` (see :mod:`kumite.core.registry`). The spec names the game's rules (the
:class:`~kumite.core.game.Game`, built lazily), the seat role, the options, and the faces it
ships — bots, search hooks, terminal and browser front ends, balance-lab summary, web-table
adapter. A face the game does not ship is ``None``: the generic one is used. Faces are
:class:`Ref` strings, imported when first used, so listing the games imports no face.
"""

from __future__ import annotations

import dataclasses
import importlib
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import msgspec

from kumite.core.errors import OptionsError

if TYPE_CHECKING:
    # The faces' types, for annotations only: the layers above core that define them are
    # never imported from here (a spec names its faces by "module:attribute").
    import typer

    from kumite.agents.base import AgentFactory
    from kumite.agents.search import HooksFactory
    from kumite.core.game import Game
    from kumite.core.observation import Encoding
    from kumite.sim.adapters import Adapter
    from kumite.tui.registry import TerminalFrontEnd
    from kumite.web.table import TableAdapter

T = TypeVar("T")


@dataclasses.dataclass(frozen=True, slots=True)
class Ref(Generic[T]):
    """A lazy reference ``"module:attribute"``, imported on first :meth:`load`."""

    target: str

    def load(self) -> T:
        found = _LOADED.get(self.target)
        if found is None:
            module, _, attr = self.target.partition(":")
            found = _LOADED[self.target] = getattr(importlib.import_module(module), attr)
        value: T = found
        return value


_LOADED: dict[str, Any] = {}


def doc(text: str) -> msgspec.Meta:
    """An option's documentation, as the CLI, the lobby and ``kumite games`` show it:
    ``players: Annotated[int, doc("Number of seats.")] = 2``."""
    return msgspec.Meta(description=text)


class Labeler(Protocol):
    """A label for each legal choice of a seat, built from that seat's view only."""

    def __call__(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[str]: ...


Names = Callable[["Game[Any]", Mapping[str, Any]], Mapping[str, str]]
"""``names(game, options)``: id -> display name of everything a seat may play as."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Role:
    """What each seat plays as (a character, fighter, hero), fixed through one option."""

    option: str
    """The option holding one id per seat (``None``: chosen at the table or dealt); also
    the command line's flag (``--characters``), an alias of ``--pick``."""
    label: str
    """Its name for people: ``Character``."""
    names: Ref[Names]
    distinct: bool = False
    """Seats must play different ones."""
    unset: str = "chosen at the table"
    """What a seat left unset means."""


@dataclasses.dataclass(frozen=True, slots=True)
class Bot:
    """A bot a game ships: its name, what it does, and ``factory(game, options, seat, seed)``."""

    name: str
    about: str
    factory: Ref[AgentFactory]
    rated: bool = True
    """Compared in the default strength table (``False``: a variant, or needs set-up)."""
    info: Ref[Callable[[Mapping[str, Any]], Mapping[str, Any]]] | None = None
    """``info(options)``: what a listing shows beside ``about`` for a game with these
    options (e.g. a certified exploitability), from what is at hand — never by solving."""
    level: str = "Casual"
    """Its level as players are shown it (``Beginner``, ``Casual``, ``Strong``, ``Expert``,
    or a game's own, such as ``Solver``); the bot's name stays the technical one."""
    extra: str | None = None
    """The extra whose packages it needs (:mod:`kumite.core.extras`): without them it is not
    offered, and asking for it by name is a one-line error naming the extra."""


@dataclasses.dataclass(frozen=True, slots=True)
class OptionField:
    """One game option as data (from the options type): for forms, flags and documents."""

    name: str
    kind: str
    """``int``, ``bool``, ``str``, ``choice`` or ``other`` (set by its own flag or face)."""
    default: Any
    doc: str
    choices: tuple[Any, ...] = ()

    def parse(self, text: str) -> Any:
        """The value of ``--option NAME=TEXT``."""
        if self.kind == "int":
            try:
                return int(text)
            except ValueError:
                raise OptionsError(f"option {self.name} needs a number, got {text!r}") from None
        if self.kind == "bool":
            if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise OptionsError(f"option {self.name} needs true or false, got {text!r}")
            return text.lower() in ("true", "1", "yes")
        return text

    def to_json(self) -> dict[str, Any]:
        out = {"name": self.name, "type": self.kind, "default": self.default, "doc": self.doc}
        if self.choices:
            out["choices"] = list(self.choices)
        return out


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Observation:
    """A game's research interface (docs/envs.md): its observation encoding, the name its
    environments carry, and optionally a batched engine."""

    encoding: Ref[Callable[[Game[Any], Mapping[str, Any]], Encoding]]
    """``encoding(game, options)`` -> :class:`~kumite.core.observation.Encoding`."""
    env_name: str
    """The Gymnasium id is ``kumite/<env_name>-v<version>`` (``SFRivals``)."""
    version: int = 0
    """Raised when the encoding or the action ids change meaning."""
    batch: Ref[Callable[[Game[Any], Mapping[str, Any]], Any]] | None = None
    """``batch(game, options)`` -> a batched engine (N games stepped at once on arrays;
    docs/envs.md). The lab reaches it through its own face (``Adapter.batch_random``)."""
    vector: Ref[Callable[..., Any]] | None = None
    """``vector(game, options, num_envs, seat, opponent, normalize)`` -> the vector core of
    ``num_envs`` games of one seat on the batched engine against ``opponent`` (a name or a
    batched policy): :class:`kumite.envs.vector.BatchedVectorEnv` drives it."""
    exploit: Ref[Callable[..., Any]] | None = None
    """``exploit(game, options, policy, normalize)`` -> a summary dict: the exact worst cases
    and exploitability of a policy (:mod:`kumite.envs.exploit`)."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class GameSpec:
    """Everything kumite knows about one game, and where its optional faces live."""

    id: str
    name: str
    game: Ref[Game[Any]]
    options: Ref[type] | None = None
    """The options type: a msgspec struct whose fields carry their docs
    (``Annotated[..., msgspec.Meta(description=...)]``)."""
    order: int = 100
    """Where the game is listed (lower first); the first is the commands' default game."""
    role: Role | None = None
    flags: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Command-line shorthands: ``--FLAG V`` is ``--option OPTION=V`` (flag -> option)."""
    seats: Ref[Callable[[Mapping[str, Any], int], dict[str, Any]]] | None = None
    """``seats(options, n)``: the options of a game of ``n`` seats (a player count, a
    mode); raises :class:`~kumite.core.errors.OptionsError` if ``n`` does not fit."""
    labels: Ref[Callable[[Game[Any], Mapping[str, Any]], Labeler]] | None = None
    """``labels(game, options)`` -> ``labeler(view, legal) -> list[str]``: a readable label
    for each legal choice, from the deciding seat's view only; a
    :class:`~kumite.core.choice.Labels` also names each choice's verb and target, and the
    seat's unplayable choices (the web table's decision message)."""
    bots: tuple[Bot, ...] = ()
    search: Ref[HooksFactory] | None = None
    """``hooks(game, options)`` -> :class:`~kumite.agents.search.SearchHooks`."""
    tui: Ref[TerminalFrontEnd] | None = None
    """The terminal front end (a :class:`~kumite.tui.registry.TerminalFrontEnd`)."""
    web: str | None = None
    """The package holding the browser front end (``table.js``, its CSS), served as is at
    ``/static/games/<id>/``."""
    guide: str | None = None
    """The package holding the beginner's guide (``guide.md`` and its pictures of the
    table), served at ``/learn/<id>``."""
    lab: Ref[Adapter] | None = None
    """The balance lab's summary of a finished game (a :class:`~kumite.sim.adapters.Adapter`)."""
    table: Ref[TableAdapter] | None = None
    """The web table's adapter (a :class:`~kumite.web.table.TableAdapter`)."""
    solver: Ref[typer.Typer] | None = None
    """``kumite solve GAME``: a Typer app of one command, the game's own flags. The command
    line adds the flags every game shares (the picks, ``--option``, ``--pack``, ``--json``)
    and hands what they say to the command as a :class:`SolveRequest` (``ctx.find_object``)."""
    observation: Observation | None = None
    """The observation encoding of the research interfaces (:mod:`kumite.envs`); a game
    without one has no environment."""

    def load(self) -> Game[Any]:
        return self.game.load()

    def faces(self) -> list[str]:
        """The names of the optional faces this spec names (the others are generic)."""
        named = {
            "tui": self.tui,
            "web": self.web,
            "lab": self.lab,
            "table": self.table,
            "search": self.search,
            "solver": self.solver,
        }
        return [name for name, face in named.items() if face is not None]

    def option_fields(self, skip: tuple[str, ...] = ()) -> list[OptionField]:
        """The options as data, the role's and ``skip`` left out."""
        if self.options is None:
            return []
        role = () if self.role is None else (self.role.option,)
        return [f for f in option_fields(self.options.load()) if f.name not in (*role, *skip)]

    def with_seats(self, options: Mapping[str, Any], seats: int) -> dict[str, Any]:
        return dict(options) if self.seats is None else self.seats.load()(options, seats)


@dataclasses.dataclass(frozen=True, slots=True)
class SolveRequest:
    """What ``kumite solve GAME`` read from the flags every game shares, for the game's own
    solver command (:attr:`GameSpec.solver`)."""

    picks: list[str]
    """Each seat's role (``--pick`` or the role's flag); empty if not given."""
    options: dict[str, Any]
    """The game's options (``--option``, the spec's shorthands, ``--pack``), JSON-able, the
    role left out."""
    json: bool
    """``--json``: print JSON instead of tables."""


def option_fields(options_type: type) -> list[OptionField]:
    """The fields of a msgspec options struct as :class:`OptionField` records."""
    info = msgspec.inspect.type_info(options_type)
    assert isinstance(info, msgspec.inspect.StructType)
    hints = typing.get_type_hints(options_type)
    out = []
    for field in info.fields:
        kind, choices = _kind(field.type, hints[field.name])
        meta = field.type if isinstance(field.type, msgspec.inspect.Metadata) else None
        doc = str((meta.extra_json_schema or {}).get("description", "")) if meta else ""
        doc = " ".join(doc.replace("``", "").split())
        out.append(OptionField(field.name, kind, field.default, doc, choices))
    return out


def _kind(t: msgspec.inspect.Type, hint: Any) -> tuple[str, tuple[Any, ...]]:
    if isinstance(t, msgspec.inspect.Metadata):
        t = t.type
    if isinstance(t, msgspec.inspect.LiteralType):
        return "choice", typing.get_args(hint)  # as declared (msgspec sorts them)
    if hint == int | None:  # a whole number, or unset
        return "int", ()
    if isinstance(t, msgspec.inspect.IntType) and hint is int:
        return "int", ()
    if isinstance(t, msgspec.inspect.BoolType):
        return "bool", ()
    if isinstance(t, msgspec.inspect.StrType) and hint is str:
        return "str", ()
    return "other", ()
