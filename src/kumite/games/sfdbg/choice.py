"""SF DBG choices as values: the codec of the game's choice strings.

The turn: ``play:<card>`` (:class:`Play`), ``play-power`` (:class:`PlayPower`),
``buy:lineup:<card>``, ``buy:under:<card>``, ``buy:kick``, ``buy:ultra`` (:class:`Buy`),
``challenge`` (:class:`Challenge`), ``take:<card>`` (:class:`Take`), ``end`` (:class:`End`).

Effects: ``discard:<card>`` (:class:`Discard`), ``destroy:<zone>:<card>`` (:class:`Destroy`),
``bottom:<zone>:<card>`` (:class:`Bottom`), ``under:<zone>:<card>`` (:class:`Under`),
``gain:<card>``, ``gain:under:<card>`` (:class:`Gain`), ``give:<zone>:<card>``
(:class:`Give`) — each of them but ``bottom`` also ``<verb>:none``: nothing — and
``foe:<seat>`` (:class:`Foe`), ``yes`` and ``no`` (:class:`Yes`, :class:`No`).

Attacks: ``defend:<card>`` (:class:`Defend`), ``reveal:<card>`` (:class:`Reveal`),
``no-defense`` (:class:`NoDefense`), ``name:type:<type>`` and ``name:cost:<n>``
(:class:`Name`).

>>> parse("destroy:discard:punch")
Destroy(zone='discard', card='punch')
>>> Destroy().format(), Buy("kick").format(), Gain("hadoken", under=True).format()
('destroy:none', 'buy:kick', 'gain:under:hadoken')
>>> try:
...     parse("destroy:deck:punch")
... except ValueError as exc:
...     print(exc)
'destroy:deck:punch' is not a choice: no zone 'deck' here (hand, discard, play or lineup)
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar, Final, Literal, Self

from kumite.core.choice import Choice, ChoiceSyntaxError, Codec, arity, number
from kumite.games.sfdbg.schema import CARD_TYPES

KICK: Final = "kick"
"""The Kick's card id: ``gain:kick`` gains one, ``buy:kick`` buys the top of their stack."""
NONE: Final = "none"
"""The card part of a choice of nothing (``discard:none``)."""
ZONES: Final = ("hand", "discard", "play", "lineup")
"""Where an effect takes a card from (a pack's ``zones``)."""
UNDER_ZONES: Final = (*ZONES, "main_top")
BUY_FROM: Final = ("lineup", "under", "kick", "ultra")
"""Where a card is bought from: a card of the first two, the top of the other two."""


class DBGChoice(Choice):
    """An SF DBG choice (any kind)."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Self:
        """The choice ``text`` writes, of this kind (any kind, from :class:`DBGChoice`)."""
        return CODEC.parse_as(text, cls)


def _zone(text: str, zone: str, zones: tuple[str, ...]) -> str:
    if zone not in zones:
        listed = zones[0] if len(zones) == 1 else ", ".join(zones[:-1]) + f" or {zones[-1]}"
        raise ChoiceSyntaxError(text, f"no zone {zone!r} here ({listed})")
    return zone


# -- bare words -----------------------------------------------------------------------------


class _Word(DBGChoice):
    """A choice of one word and no parts."""

    __slots__ = ()

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 0)
        return cls()

    def format(self) -> str:
        return self.verb


@dataclasses.dataclass(frozen=True, slots=True)
class End(_Word):
    verb: ClassVar[str] = "end"
    form: ClassVar[str] = "end"


@dataclasses.dataclass(frozen=True, slots=True)
class Challenge(_Word):
    """Challenge the face-up Stage's Boss."""

    verb: ClassVar[str] = "challenge"
    form: ClassVar[str] = "challenge"


@dataclasses.dataclass(frozen=True, slots=True)
class PlayPower(_Word):
    """Play every card of the hand whose whole text is "+N Power", one after the other: a
    shorthand for the same plays one by one (``sfdbg.turn.play-order``)."""

    verb: ClassVar[str] = "play-power"
    form: ClassVar[str] = "play-power"


@dataclasses.dataclass(frozen=True, slots=True)
class NoDefense(_Word):
    verb: ClassVar[str] = "no-defense"
    form: ClassVar[str] = "no-defense"


@dataclasses.dataclass(frozen=True, slots=True)
class Yes(_Word):
    verb: ClassVar[str] = "yes"
    form: ClassVar[str] = "yes"


@dataclasses.dataclass(frozen=True, slots=True)
class No(_Word):
    verb: ClassVar[str] = "no"
    form: ClassVar[str] = "no"


# -- one card -------------------------------------------------------------------------------


class _Card(DBGChoice):
    """``<verb>:<card>``."""

    __slots__ = ()
    card: str

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 1)
        return cls(args[0])  # type: ignore[call-arg]  # each kind is a dataclass of ``card``

    def format(self) -> str:
        return f"{self.verb}:{self.card}"


@dataclasses.dataclass(frozen=True, slots=True)
class Play(_Card):
    """Play a card of the hand."""

    verb: ClassVar[str] = "play"
    form: ClassVar[str] = "play:<card>"
    card: str


@dataclasses.dataclass(frozen=True, slots=True)
class Take(_Card):
    """Put a card of the discard pile into the hand (Cammy's Delta Red)."""

    verb: ClassVar[str] = "take"
    form: ClassVar[str] = "take:<card>"
    card: str


@dataclasses.dataclass(frozen=True, slots=True)
class Defend(_Card):
    """Avoid an Attack with a Defense of the hand."""

    verb: ClassVar[str] = "defend"
    form: ClassVar[str] = "defend:<card>"
    card: str


@dataclasses.dataclass(frozen=True, slots=True)
class Reveal(_Card):
    """Reveal a card of the hand against an Attack (not a Defense)."""

    verb: ClassVar[str] = "reveal"
    form: ClassVar[str] = "reveal:<card>"
    card: str


@dataclasses.dataclass(frozen=True, slots=True)
class Discard(DBGChoice):
    """Discard a card of the hand; ``card`` ``None``: nothing (``discard:none``)."""

    verb: ClassVar[str] = "discard"
    form: ClassVar[str] = "discard:<card> or discard:none"
    card: str | None = None

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 1)
        return cls(None if args[0] == NONE else args[0])

    def format(self) -> str:
        return f"discard:{self.card or NONE}"


# -- a card from a zone ---------------------------------------------------------------------


class _Moved(DBGChoice):
    """``<verb>:<zone>:<card>``, or ``<verb>:none`` (zone and card ``None``): nothing."""

    __slots__ = ()
    zone: str | None
    card: str | None
    zones: ClassVar[tuple[str, ...]] = ZONES

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        if args == [NONE]:
            return cls()
        arity(text, args, cls.form, 2)
        # each kind is a dataclass of (zone, card)
        return cls(_zone(text, args[0], cls.zones), args[1])  # type: ignore[call-arg]

    def format(self) -> str:
        if self.card is None:
            return f"{self.verb}:{NONE}"
        return f"{self.verb}:{self.zone}:{self.card}"


@dataclasses.dataclass(frozen=True, slots=True)
class Destroy(_Moved):
    verb: ClassVar[str] = "destroy"
    form: ClassVar[str] = "destroy:<zone>:<card> or destroy:none"
    zone: str | None = None
    card: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Bottom(DBGChoice):
    """Put a card on the bottom of the main deck (Dhalsim)."""

    verb: ClassVar[str] = "bottom"
    form: ClassVar[str] = "bottom:<zone>:<card>"
    zones: ClassVar[tuple[str, ...]] = ZONES
    zone: str
    card: str

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 2)
        return cls(_zone(text, args[0], ZONES), args[1])

    def format(self) -> str:
        return f"bottom:{self.zone}:{self.card}"


@dataclasses.dataclass(frozen=True, slots=True)
class Under(_Moved):
    """Put a card under a Super Hero (``main_top``: the revealed top of the main deck)."""

    verb: ClassVar[str] = "under"
    form: ClassVar[str] = "under:<zone>:<card> or under:none"
    zones: ClassVar[tuple[str, ...]] = UNDER_ZONES
    zone: str | None = None
    card: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Give(_Moved):
    """Give a card to a foe (Ultimate Atomic Buster)."""

    verb: ClassVar[str] = "give"
    form: ClassVar[str] = "give:<zone>:<card> or give:none"
    zone: str | None = None
    card: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Buy(DBGChoice):
    """Buy a card of the Line-Up or from under the Super Hero (``card``), or the top card of
    the Kick stack or of the seat's Ultra stack (``card`` ``None``)."""

    verb: ClassVar[str] = "buy"
    form: ClassVar[str] = "buy:lineup:<card>, buy:under:<card>, buy:kick or buy:ultra"
    zone: str
    card: str | None = None

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 1, 2)
        zone = _zone(text, args[0], BUY_FROM)
        if (len(args) == 2) != (zone in ("lineup", "under")):
            raise ChoiceSyntaxError(text, f"write it {cls.form}")
        return cls(zone, args[1] if len(args) == 2 else None)

    def format(self) -> str:
        return f"buy:{self.zone}" if self.card is None else f"buy:{self.zone}:{self.card}"


@dataclasses.dataclass(frozen=True, slots=True)
class Gain(DBGChoice):
    """Gain a card of the Line-Up or the Kick stack (``under``: from under the Super Hero);
    ``card`` ``None``: nothing."""

    verb: ClassVar[str] = "gain"
    form: ClassVar[str] = "gain:<card>, gain:under:<card> or gain:none"
    card: str | None = None
    under: bool = False

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 1, 2)
        if len(args) == 2:
            _zone(text, args[0], ("under",))
            return cls(args[1], under=True)
        return cls(None if args[0] == NONE else args[0])

    def format(self) -> str:
        if self.card is None:
            return f"gain:{NONE}"
        return f"gain:under:{self.card}" if self.under else f"gain:{self.card}"


@dataclasses.dataclass(frozen=True, slots=True)
class Foe(DBGChoice):
    """Choose a foe (by seat)."""

    verb: ClassVar[str] = "foe"
    form: ClassVar[str] = "foe:<seat>"
    seat: int

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 1)
        return cls(number(text, args[0], cls.form))

    def format(self) -> str:
        return f"foe:{self.seat}"


@dataclasses.dataclass(frozen=True, slots=True)
class Name(DBGChoice):
    """Name a card type or a cost (Psycho Punisher)."""

    verb: ClassVar[str] = "name"
    form: ClassVar[str] = "name:type:<type> or name:cost:<n>"
    kind: Literal["type", "cost"]
    value: str

    @classmethod
    def of(cls, text: str, args: list[str]) -> Self:
        arity(text, args, cls.form, 2)
        kind, value = args
        if kind == "type":
            if value not in CARD_TYPES:
                raise ChoiceSyntaxError(text, f"no card type {value!r} ({', '.join(CARD_TYPES)})")
            return cls("type", value)
        if kind == "cost":
            return cls("cost", str(number(text, value, cls.form)))
        raise ChoiceSyntaxError(text, f"write it {cls.form}")

    def format(self) -> str:
        return f"name:{self.kind}:{self.value}"


Moved = Destroy | Bottom | Under | Give
"""A card taken from a zone: ``<verb>:<zone>:<card>``."""
MOVED: Final[tuple[type[Moved], ...]] = (Destroy, Bottom, Under, Give)

CODEC: Codec[DBGChoice] = Codec(
    [
        End,
        Challenge,
        PlayPower,
        NoDefense,
        Yes,
        No,
        Play,
        Take,
        Defend,
        Reveal,
        Discard,
        Destroy,
        Bottom,
        Under,
        Give,
        Buy,
        Gain,
        Foe,
        Name,
    ]
)
parse = CODEC.parse

# The choices of one fixed string, for the engine's tables and comparisons: written out, so
# that the compiled engine reads them as constants (tests/games/sfdbg/test_choice.py checks
# that each is its kind's format).
END: Final = "end"
CHALLENGE: Final = "challenge"
PLAY_POWER: Final = "play-power"
NO_DEFENSE: Final = "no-defense"
YES: Final = "yes"
NO: Final = "no"
BUY_KICK: Final = "buy:kick"
BUY_ULTRA: Final = "buy:ultra"
DISCARD_NONE: Final = "discard:none"
DESTROY_NONE: Final = "destroy:none"
UNDER_NONE: Final = "under:none"
GAIN_NONE: Final = "gain:none"
GIVE_NONE: Final = "give:none"
