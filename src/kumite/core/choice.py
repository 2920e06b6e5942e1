"""Typed choices: a game's choice as a value, parsed from and formatted to its wire string.

A choice travels as a string (``"play:ryu.jab"``: in decisions, records, the web protocol),
and the strings stay exactly what they are. Everywhere else a game reads it as a value of
its own choice type, a family of frozen, slotted dataclasses deriving from :class:`Choice`,
one per verb (the string's first part), as python-chess reads a move with
``Move.from_uci`` and writes it with ``Move.uci()``. The game's :class:`Codec` is the one
place that cuts and joins the strings (``games/<id>/choice.py``).

The web table sends each legal choice with its label and the board element it targets
(:class:`Labels`, a game's labels face), so that no front end parses a choice string.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar

from kumite.core.errors import KumiteError
from kumite.core.memo import Memo

if TYPE_CHECKING:
    from kumite.core.spec import Labeler

Target = dict[str, Any]
"""The board element a choice names, in the web protocol's small vocabulary
(docs/protocol.md, "Choices"): ``{"zone": "hand", "card": "ryu.jab"}``, ``{"seat": 2}``,
``{"role": "ryu"}``..."""


class ChoiceSyntaxError(KumiteError, ValueError):
    """A text that is no choice of the game at all (unknown verb, missing or extra parts,
    a number that is not one). ``reason`` says what is wrong, in one line."""

    def __init__(self, text: object, reason: str) -> None:
        self.text = text
        self.reason = reason
        shown = repr(text)
        if len(shown) > 60:
            shown = shown[:59] + "…"
        super().__init__(f"{shown} is not a choice: {reason}")


class Choice:
    """Base of a game's typed choices. Each kind is a frozen, slotted dataclass with its
    ``verb`` and its wire ``form``, read by :meth:`of` and written by :meth:`format`."""

    __slots__ = ()

    verb: ClassVar[str]
    """The first part of the wire string (``play``), or the whole of a bare word (``end``)."""
    form: ClassVar[str]
    """The wire form, for error messages and docs: ``play:<card>``."""

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        """The choice of this kind whose parts after the verb are ``args`` (``text`` is the
        whole string, for errors); :class:`ChoiceSyntaxError` if they do not fit."""
        raise NotImplementedError

    def format(self) -> str:
        """The wire string (``parse(c.format()) == c``)."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.format()


C = TypeVar("C", bound=Choice)
K = TypeVar("K", bound=Choice)


class Codec(Generic[C]):
    """A game's choice codec: the kinds of its choice, by verb.

    :meth:`parse` is memoised (a bounded table: choices are immutable values and a game
    meets the same strings over and over), so reading a choice again is a dict look-up. An
    engine's step reads its most frequent choices by tables of the codec's strings instead
    (docs/speed.md)."""

    def __init__(self, kinds: Iterable[type[C]], limit: int = 8_192) -> None:
        self.kinds: dict[str, type[C]] = {k.verb: k for k in kinds}
        self._parsed: Memo[str, C] = Memo(limit)

    def parse(self, text: str) -> C:
        """The choice ``text`` writes; :class:`ChoiceSyntaxError` if it is none of this
        game's (whether it is *legal* now is the state's business)."""
        found = self._parsed.get(text)
        if found is None:
            found = self._parsed.put(text, self._parse(text))
        return found

    def parse_as(self, text: str, kind: type[K]) -> K:
        """:meth:`parse`, of one kind only (``Play``): a choice of another kind is refused."""
        found = self._parsed.get(text)
        if found is None:
            found = self.parse(text)
        if not isinstance(found, kind):
            raise ChoiceSyntaxError(text, f"not a {kind.verb} choice ({kind.form})")
        return found

    def _parse(self, text: str) -> C:
        if not isinstance(text, str):
            raise ChoiceSyntaxError(text, "a choice is a string")
        verb, args = split(text)
        kind = self.kinds.get(verb)
        if kind is None:
            raise ChoiceSyntaxError(
                text, f"unknown verb {verb!r} (one of: {', '.join(self.kinds)})"
            )
        found = kind.of(text, args)
        assert isinstance(found, kind)
        return found


def split(text: str) -> tuple[str, list[str]]:
    """A choice string's verb and arguments, by the grammar every codec shares
    (``verb:arg:arg``); whether they make a choice is the codec's business."""
    verb, colon, rest = text.partition(":")
    return verb, rest.split(":") if colon else []


def arity(text: str, args: list[str], form: str, *sizes: int) -> None:
    """Refuse ``args`` unless there are as many as one of ``sizes``, none of them empty."""
    if len(args) not in sizes:
        raise ChoiceSyntaxError(text, f"write it {form}")
    if any(not a for a in args):
        raise ChoiceSyntaxError(text, f"an empty part (write it {form})")


def number(text: str, arg: str, form: str) -> int:
    """A whole number written plainly (``0``, ``12``: no sign, no leading zero), so that
    every number has one string."""
    if not arg.isdecimal() or not arg.isascii() or (arg[0] == "0" and arg != "0"):
        raise ChoiceSyntaxError(text, f"{arg!r} is not a whole number (write it {form})")
    return int(arg)


class Labels:
    """A game's labels face (its spec's ``labels`` returns one): for the deciding seat, from
    its own view only, a label, a verb and a board target for each legal choice, and the
    choices on its own board elements that it may not make now (the web table asks the state
    why: :meth:`~kumite.core.game.State.explain_illegal`). This base labels a choice by its
    string, targets nothing and names no unplayable choice; a game overrides what it can."""

    codec: Codec[Any] | None = None
    """The game's codec, which gives each choice's :meth:`verbs`."""

    def __call__(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[str]:
        return list(legal)

    def verbs(self, legal: Sequence[str]) -> list[str | None]:
        """Each choice's kind (its typed choice's ``verb``: ``play``, ``end``), by which a
        front end may group or style choices; ``None`` without a codec."""
        codec = self.codec
        return [None if codec is None else codec.parse(c).verb for c in legal]

    def targets(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[Target | None]:
        """What on the board each choice names (``None``: nothing; a button only)."""
        return [None] * len(legal)

    def unplayable(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[str]:
        """Choices the seat might try on its board now that are not legal (a card of its
        hand it may not play): each is shown with why not."""
        return []


class _Plain(Labels):
    """A plain labeler function (``(view, legal) -> labels``) as a :class:`Labels`."""

    def __init__(self, labeler: Labeler) -> None:
        self.labeler = labeler

    def __call__(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[str]:
        return self.labeler(view, legal)


def labels_of(labeler: Labeler | None) -> Labels:
    """What a spec's ``labels`` made (a :class:`Labels`, a plain labeler, or none) as a
    :class:`Labels`."""
    if labeler is None:
        return Labels()
    return labeler if isinstance(labeler, Labels) else _Plain(labeler)
