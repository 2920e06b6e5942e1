"""The compiled records of Rivales card data: requirements, effects, cards and fighters.

Frozen value types made once per pack by :mod:`.cards` (which re-exports them). They live in
their own module so that the compiled build (docs/speed.md) makes them native classes: the
engine reads a card's Speed, Damage, link or effects thousands of times per clash looked
ahead, and a native class's field is a struct read where an interpreted class's is an
attribute look-up.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

import msgspec

from kumite.cards import Provenance
from kumite.games.rivales.choice import Marker, Pick, Play

if TYPE_CHECKING:
    from kumite.games.rivales.cards import ComboStep

PRIORITY: Final = {"ultra": 0, "basic": 1, "unique": 2}
BASIC: Final = "basic"


@dataclasses.dataclass(frozen=True, slots=True)
class Requires:
    """A requirement (red text) that must hold for an effect to act."""

    previous: str | None = None
    rival_type: str | None = None
    card_type: str | None = None
    min_energy: int | None = None
    min_exhausted: int | None = None
    more_damage_than_rival: bool = False
    persona: str | None = None
    dealt_damage: bool = False

    @property
    def empty(self) -> bool:
        # every effect shares the one empty requirement (see ``_effect``)
        return self is _NO_REQUIREMENT

    def describe(self) -> str:
        parts = []
        if self.previous:
            parts.append(f"the previous card is {self.previous.replace('_', ' ')}")
        if self.rival_type:
            parts.append(f"the rival's card is {self.rival_type}")
        if self.card_type:
            parts.append(f"the card is {self.card_type}")
        if self.min_energy is not None:
            parts.append(f"at least {self.min_energy} energy")
        if self.min_exhausted is not None:
            parts.append(f"at least {self.min_exhausted} exhausted cards")
        if self.more_damage_than_rival:
            parts.append("more Damage received than the rival")
        if self.persona:
            parts.append(f"you chose {self.persona.upper()}")
        if self.dealt_damage:
            parts.append("this card dealt Damage")
        return " and ".join(parts)


_NO_REQUIREMENT: Final = Requires()
NO_REQUIREMENT: Final = _NO_REQUIREMENT


@dataclasses.dataclass(frozen=True, slots=True)
class Effect:
    """One primitive of a card's or fighter's effect."""

    when: str
    op: str
    stat: str | None = None
    amount: int = 0
    count: str | None = None
    every: int = 1
    max: int | None = None
    scope: str = "team"
    choose: bool = True
    beneficiary: str = "self"
    requires: Requires = _NO_REQUIREMENT

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"when": self.when, "op": self.op}
        for key in ("stat", "amount", "count", "max"):
            val = getattr(self, key)
            if val not in (None, 0):
                out[key] = val
        if self.every != 1:
            out["every"] = self.every
        if self.scope != "team":
            out["scope"] = self.scope
        if not self.choose:
            out["choose"] = False
        if self.beneficiary != "self":
            out["beneficiary"] = self.beneficiary
        req = {k: v for k, v in dataclasses.asdict(self.requires).items() if v not in (None, False)}
        if req:
            out["requires"] = req
        return out


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A movement card. Basic cards are shared by every fighter's deck."""

    id: str
    fighter: str
    name: str
    type: str
    speed: int
    damage: int
    guard: int
    link: bool
    text: str
    effects: tuple[Effect, ...]
    provenance: Mapping[str, Provenance]
    index: int
    """Position in a deck: basic 0-3, unique 4-8, ultra 9."""
    priority: int = dataclasses.field(init=False)
    immediate: tuple[Effect, ...] = dataclasses.field(init=False)
    end: tuple[Effect, ...] = dataclasses.field(init=False)
    play: str = dataclasses.field(init=False)
    """The choice string that plays this card."""
    mark: str = dataclasses.field(init=False)
    """The choice string that makes this card the life marker."""
    picks: tuple[str, ...] = dataclasses.field(init=False)
    """The choice string that picks this card for an effect, by the seat holding it (a table
    has 4 seats at most: 2vs2)."""
    is_basic: bool = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "priority", PRIORITY[self.type])
        object.__setattr__(
            self, "immediate", tuple(e for e in self.effects if e.when == "immediate")
        )
        object.__setattr__(self, "end", tuple(e for e in self.effects if e.when == "end"))
        object.__setattr__(self, "play", Play(self.id).format())
        object.__setattr__(self, "mark", Marker(self.id).format())
        object.__setattr__(self, "picks", tuple(Pick(s, self.id).format() for s in range(4)))
        object.__setattr__(self, "is_basic", self.type == BASIC)

    def __repr__(self) -> str:
        return f"<Card {self.id} s{self.speed} d{self.damage} g{self.guard}>"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "fighter": self.fighter,
            "name": self.name,
            "type": self.type,
            "speed": self.speed,
            "damage": self.damage,
            "guard": self.guard,
            "link": self.link,
            "text": self.text,
            "effects": [e.to_json() for e in self.effects],
            "provenance": {k: p.to_json() for k, p in self.provenance.items()},
        }


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Fighter:
    """A fighter card and its deck of ten movement cards."""

    id: str
    name: str
    life: int
    ultra_at: int
    """The ultra icon is uncovered once this much Damage has been received."""
    combo: tuple[ComboStep, ...]
    """Bonus of the 1st, 2nd, ... link; the maximum combo is ``len(combo)`` links."""
    passive_name: str
    passive: str
    passives: tuple[Effect, ...]
    persona: bool
    note: str
    cards: tuple[Card, ...]
    """Basic 0-3, unique 4-8, ultra 9."""
    provenance: Mapping[str, Provenance]
    # dicts, never changed after __post_init__ (typed dict: compiled, a look-up in a dict is
    # a direct call, in a Mapping a method call through Python)
    by_id: dict[str, Card] = dataclasses.field(init=False)
    by_play: dict[str, Card] = dataclasses.field(init=False)
    """Card by its ``play:<id>`` choice."""
    by_mark: dict[str, Card] = dataclasses.field(init=False)
    """Card by its ``marker:<id>`` choice."""
    ultra: Card = dataclasses.field(init=False)
    static: tuple[Effect, ...] = dataclasses.field(init=False)
    end_passives: tuple[Effect, ...] = dataclasses.field(init=False)
    damaged: tuple[Effect, ...] = dataclasses.field(init=False)
    team_static: tuple[Effect, ...] = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_id", {c.id: c for c in self.cards})
        object.__setattr__(self, "by_play", {c.play: c for c in self.cards})
        object.__setattr__(self, "by_mark", {c.mark: c for c in self.cards})
        object.__setattr__(self, "ultra", self.cards[-1])
        own = tuple(e for e in self.passives if e.when == "passive")
        object.__setattr__(self, "static", tuple(e for e in own if e.beneficiary == "self"))
        object.__setattr__(self, "team_static", tuple(e for e in own if e.beneficiary == "team"))
        object.__setattr__(self, "end_passives", tuple(e for e in self.passives if e.when == "end"))
        object.__setattr__(self, "damaged", tuple(e for e in self.passives if e.when == "damaged"))

    @property
    def max_combo(self) -> int:
        return len(self.combo)

    @property
    def deck(self) -> tuple[Card, ...]:
        """The nine cards shuffled into the deck (all but the ultra)."""
        return self.cards[:-1]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "life": self.life,
            "ultra_at": self.ultra_at,
            "combo": [msgspec.to_builtins(c) for c in self.combo],
            "max_combo": self.max_combo,
            "passive_name": self.passive_name,
            "passive": self.passive,
            "passive_effects": [e.to_json() for e in self.passives],
            "persona": self.persona,
            "note": self.note,
            "cards": [c.id for c in self.cards],
            "provenance": {k: p.to_json() for k, p in self.provenance.items()},
        }
