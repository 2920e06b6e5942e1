"""Rivales choices as values: the codec of the game's choice strings.

========================  ==========================================================
``fighter:<id>``          :class:`PickFighter`: the fighter a seat fights as
``marker:<card>``         :class:`Marker`: the drawn card that becomes the life marker
``play:<card>``           :class:`Play`: a card of the hand, played face down
``zone:<1|2>``            :class:`CallZone`: 2vs2, the zone the caller plays (the partner
                          takes the other)
``order:<1|2>``           :class:`ZoneOrder`: 2vs2, the zone boosted and resolved first
``persona:<name>``        :class:`Persona`: HANSEL or GRETEL, called out loud
``boost:<level>``         :class:`Boost`: none, damage, speed or both, before the reveal
``guard:<n>``             :class:`Guard`: energy exhausted for +1 Guard each
``pick:<seat>:<card>``    :class:`Pick`: an effect's card (of ``seat``'s, in a line or, for a
                          dodge, in the hand)
``count:<n>``             :class:`Count`: how many energy cards an effect flips face up
``pass``                  :class:`Pass`: an effect's choice left unmade
========================  ==========================================================

Zones are numbered 1 and 2 in choices, as on the table (0 and 1 in views).

>>> parse("pick:2:curie.presion")
Pick(seat=2, card='curie.presion')
>>> Boost("both").format(), Guard(2).format(), Pass().format()
('boost:both', 'guard:2', 'pass')
>>> try:
...     Guard.parse("guard:02")
... except ValueError as exc:
...     print(exc)
'guard:02' is not a choice: '02' is not a whole number (write it guard:<n>)
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar, Final, Literal, Self

from kumite.core.choice import Choice, ChoiceSyntaxError, Codec, arity, number

PersonaName = Literal["hansel", "gretel"]
BoostLevel = Literal["none", "damage", "speed", "both"]
PERSONA_NAMES: Final[tuple[PersonaName, ...]] = ("hansel", "gretel")
BOOST_LEVELS: Final[tuple[BoostLevel, ...]] = ("none", "damage", "speed", "both")


class RivalesChoice(Choice):
    """A Rivales choice (any kind)."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Self:
        """The choice ``text`` writes, of this kind (any kind, from :class:`RivalesChoice`)."""
        return CODEC.parse_as(text, cls)


@dataclasses.dataclass(frozen=True, slots=True)
class PickFighter(RivalesChoice):
    verb: ClassVar[str] = "fighter"
    form: ClassVar[str] = "fighter:<id>"
    fighter: str

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 1)
        return cls(args[0])

    def format(self) -> str:
        return f"fighter:{self.fighter}"


@dataclasses.dataclass(frozen=True, slots=True)
class Marker(RivalesChoice):
    verb: ClassVar[str] = "marker"
    form: ClassVar[str] = "marker:<card>"
    card: str

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 1)
        return cls(args[0])

    def format(self) -> str:
        return f"marker:{self.card}"


@dataclasses.dataclass(frozen=True, slots=True)
class Play(RivalesChoice):
    verb: ClassVar[str] = "play"
    form: ClassVar[str] = "play:<card>"
    card: str

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 1)
        return cls(args[0])

    def format(self) -> str:
        return f"play:{self.card}"


def _zone(text: str, args: list[str], form: str) -> int:
    arity(text, args, form, 1)
    if args[0] not in ("1", "2"):
        raise ChoiceSyntaxError(text, f"no zone {args[0]!r} (zones are 1 and 2)")
    return int(args[0])


@dataclasses.dataclass(frozen=True, slots=True)
class CallZone(RivalesChoice):
    verb: ClassVar[str] = "zone"
    form: ClassVar[str] = "zone:<1|2>"
    zone: int
    """The zone the caller plays, 1 or 2."""

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        return cls(_zone(text, args, cls.form))

    def format(self) -> str:
        return f"zone:{self.zone}"


@dataclasses.dataclass(frozen=True, slots=True)
class ZoneOrder(RivalesChoice):
    verb: ClassVar[str] = "order"
    form: ClassVar[str] = "order:<1|2>"
    first: int
    """The zone boosted and resolved first, 1 or 2."""

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        return cls(_zone(text, args, cls.form))

    def format(self) -> str:
        return f"order:{self.first}"


@dataclasses.dataclass(frozen=True, slots=True)
class Persona(RivalesChoice):
    verb: ClassVar[str] = "persona"
    form: ClassVar[str] = "persona:<hansel|gretel>"
    persona: PersonaName

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 1)
        for name in PERSONA_NAMES:
            if args[0] == name:
                return cls(name)
        raise ChoiceSyntaxError(text, f"no persona {args[0]!r} (hansel or gretel)")

    def format(self) -> str:
        return f"persona:{self.persona}"


@dataclasses.dataclass(frozen=True, slots=True)
class Boost(RivalesChoice):
    verb: ClassVar[str] = "boost"
    form: ClassVar[str] = "boost:<none|damage|speed|both>"
    level: BoostLevel

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 1)
        for level in BOOST_LEVELS:
            if args[0] == level:
                return cls(level)
        raise ChoiceSyntaxError(text, f"no boost level {args[0]!r} (none, damage, speed or both)")

    def format(self) -> str:
        return f"boost:{self.level}"


@dataclasses.dataclass(frozen=True, slots=True)
class Guard(RivalesChoice):
    verb: ClassVar[str] = "guard"
    form: ClassVar[str] = "guard:<n>"
    energy: int
    """Energy cards exhausted, +1 Guard each."""

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 1)
        return cls(number(text, args[0], cls.form))

    def format(self) -> str:
        return f"guard:{self.energy}"


@dataclasses.dataclass(frozen=True, slots=True)
class Pick(RivalesChoice):
    verb: ClassVar[str] = "pick"
    form: ClassVar[str] = "pick:<seat>:<card>"
    seat: int
    """Whose card it is."""
    card: str

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 2)
        return cls(number(text, args[0], cls.form), args[1])

    def format(self) -> str:
        return f"pick:{self.seat}:{self.card}"


@dataclasses.dataclass(frozen=True, slots=True)
class Count(RivalesChoice):
    verb: ClassVar[str] = "count"
    form: ClassVar[str] = "count:<n>"
    n: int

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 1)
        return cls(number(text, args[0], cls.form))

    def format(self) -> str:
        return f"count:{self.n}"


@dataclasses.dataclass(frozen=True, slots=True)
class Pass(RivalesChoice):
    verb: ClassVar[str] = "pass"
    form: ClassVar[str] = "pass"

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 0)
        return cls()

    def format(self) -> str:
        return "pass"


CODEC: Codec[RivalesChoice] = Codec(
    [PickFighter, Marker, Play, CallZone, ZoneOrder, Persona, Boost, Guard, Pick, Count, Pass]
)
parse = CODEC.parse
PASS: Final = "pass"
"""``Pass().format()``, written out: the compiled engine reads it as a constant."""
