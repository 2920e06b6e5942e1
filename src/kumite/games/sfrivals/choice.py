"""SF Rivals choices as values: the codec of the game's choice strings.

=====================  ===============================================================
``character:<id>``     :class:`PickCharacter`: the character a seat fights as
``setup:<cover>:<shown>``  :class:`SetUp`: the card covering the life gauge, the card shown
``play:<card>``        :class:`Play`: a card of the hand, played face down
=====================  ===============================================================

>>> parse("setup:ryu.hadouken:ryu.jab")
SetUp(cover='ryu.hadouken', shown='ryu.jab')
>>> Play("ken.shoryuken").format()
'play:ken.shoryuken'
>>> try:
...     Play.parse("character:ryu")
... except ValueError as exc:
...     print(exc)
'character:ryu' is not a choice: not a play choice (play:<card>)
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar, Self

from kumite.core.choice import Choice, Codec, arity


class SFRChoice(Choice):
    """An SF Rivals choice (any kind)."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Self:
        """The choice ``text`` writes, of this kind (any kind, from :class:`SFRChoice`)."""
        return CODEC.parse_as(text, cls)


@dataclasses.dataclass(frozen=True, slots=True)
class PickCharacter(SFRChoice):
    verb: ClassVar[str] = "character"
    form: ClassVar[str] = "character:<id>"
    character: str

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 1)
        return cls(args[0])

    def format(self) -> str:
        return f"character:{self.character}"


@dataclasses.dataclass(frozen=True, slots=True)
class SetUp(SFRChoice):
    verb: ClassVar[str] = "setup"
    form: ClassVar[str] = "setup:<cover>:<shown>"
    cover: str
    """The card face down on the life gauge (hidden from the opponent)."""
    shown: str
    """The card set aside face up."""

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 2)
        return cls(args[0], args[1])

    def format(self) -> str:
        return f"setup:{self.cover}:{self.shown}"


@dataclasses.dataclass(frozen=True, slots=True)
class Play(SFRChoice):
    verb: ClassVar[str] = "play"
    form: ClassVar[str] = "play:<card>"
    card: str

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 1)
        return cls(args[0])

    def format(self) -> str:
        return f"play:{self.card}"


CODEC: Codec[SFRChoice] = Codec([PickCharacter, SetUp, Play])
parse = CODEC.parse
