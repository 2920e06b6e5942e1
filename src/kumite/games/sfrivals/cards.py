"""SF Rivals card data: the pack schema, compiled cards and the catalog.

Powers are written in the pack as lists of effect primitives (see :mod:`.effects`);
this module validates them and compiles each card into a frozen :class:`Card`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Final, Literal

import msgspec

from kumite.cards import (
    PackData,
    Provenance,
    convert,
    split_values,
)
from kumite.cards.pack import PackLoader, read_rules
from kumite.core.errors import PackError
from kumite.games.sfrivals.choice import PickCharacter, Play, SetUp

Op = Literal[
    "reduce_damage",
    "no_damage",
    "next_round_initiative",
    "opponent_reveals_first",
    "swap_initiative",
    "cancel_opponent_power",
    "cancel_opponent_technique",
    "deal_damage",
    "force_initiative_draw",
    "lasting_initiative",
    "lasting_damage",
]
#: Primitives that need a positive ``amount``.
AMOUNT_OPS = frozenset(
    {
        "reduce_damage",
        "next_round_initiative",
        "deal_damage",
        "lasting_initiative",
        "lasting_damage",
    }
)
CARDS_PER_CHARACTER = 10
#: Cards in hand: the ten less the one covering the life gauge and the one shown
#: (``sfr.setup.keep-eight``), so at most that many rounds (``[rules] hand``).
HAND = CARDS_PER_CHARACTER - 2
#: The highest starting life: the solver (``games.sfrivals.solver``) packs a life into 5 bits.
MAX_LIFE = 31
VALUED_FIELDS = ("name", "initiative", "damage", "kind", "copies", "text")


class EffectSpec(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    op: Op
    amount: int = 0
    if_opponent_printed: int | None = None


class CardSpec(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    character: str
    name: str
    initiative: int
    damage: int
    kind: Literal["normal", "ultra", "super"] = "normal"
    copies: int = 1
    text: str = ""
    aka: str = ""
    effects: list[EffectSpec] = msgspec.field(default_factory=list)
    power_cancelled_if_opponent_printed: list[int] = msgspec.field(default_factory=list)


class CharacterSpec(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: str


class RuleValues(msgspec.Struct, forbid_unknown_fields=True):
    """The ``[rules]`` table; ranges checked by :func:`_check_rules`."""

    life: int = 10
    """Starting life, 1..31."""
    hand: int = 8
    """Rounds of the fight, 1..8 (each player holds 8 cards; fewer rounds is a short fight)."""
    ultra_life_at_most: int = 5
    """An Ultra Combo needs its owner's life at most this, 1..31 (at or above life: always)."""
    super_round_at_least: int = 5
    """A Super Combo may be played from this round on, 1..8."""


#: Schemas of an overlay's new entries (an incomplete one is taken for a typo of an id).
SCHEMAS: Mapping[str, type[Any]] = {"cards": CardSpec, "characters": CharacterSpec}


@dataclasses.dataclass(frozen=True, slots=True)
class Effect:
    """One primitive of a card's power, optionally conditioned on the opponent's
    *printed* initiative (rulebook: "Points to Be Aware of with Special Powers")."""

    op: str
    amount: int = 0
    if_opponent_printed: int | None = None

    def applies(self, opponent_printed: int) -> bool:
        return self.if_opponent_printed is None or self.if_opponent_printed == opponent_printed


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A technique card type (copies of it are identical)."""

    id: str
    character: str
    name: str
    initiative: int
    damage: int
    kind: str
    copies: int
    text: str
    aka: str
    effects: tuple[Effect, ...]
    power_cancelled_if_opponent_printed: frozenset[int]
    provenance: Mapping[str, Provenance]
    index: int
    """Position among its character's card types (0-based, in pack order)."""
    # Derived once at load time; the engine's hot loops read them.
    has_power: bool = dataclasses.field(init=False)
    is_ultra: bool = dataclasses.field(init=False)
    is_super: bool = dataclasses.field(init=False)
    choice: str = dataclasses.field(init=False)
    """The choice string that plays this card."""
    damage_mark: str = dataclasses.field(init=False)
    """Provenance mark of the damage value (``*`` for an estimate)."""

    def __post_init__(self) -> None:
        prov = self.provenance.get("damage")
        object.__setattr__(self, "damage_mark", prov.mark if prov is not None else "")
        object.__setattr__(self, "has_power", bool(self.effects))
        object.__setattr__(self, "is_ultra", self.kind == "ultra")
        object.__setattr__(self, "is_super", self.kind == "super")
        object.__setattr__(self, "choice", Play(self.id).format())

    def __repr__(self) -> str:
        return f"<Card {self.id} i{self.initiative} d{self.damage}>"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "character": self.character,
            "name": self.name,
            "aka": self.aka,
            "kind": self.kind,
            "copies": self.copies,
            "initiative": self.initiative,
            "damage": self.damage,
            "power": self.text,
            "effects": [
                {k: v for k, v in dataclasses.asdict(e).items() if v not in (None, 0)}
                for e in self.effects
            ],
            "power_cancelled_if_opponent_printed": sorted(self.power_cancelled_if_opponent_printed),
            "provenance": {k: p.to_json() for k, p in self.provenance.items()},
        }


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Character:
    id: str
    name: str
    cards: tuple[Card, ...]
    """Card types in pack order; ``sum(c.copies) == 10``."""
    setup_choices: tuple[str, ...] = dataclasses.field(init=False)
    """Every set-up choice ``setup:<cover>:<shown>`` (two copies of a card may be both)."""
    restricted_copies: int = dataclasses.field(init=False)
    """Copies of Ultra and Super Combo cards (the only cards that may be unplayable)."""
    by_id: Mapping[str, Card] = dataclasses.field(init=False)
    by_choice: Mapping[str, Card] = dataclasses.field(init=False)
    """Card by its ``play:<card>`` choice (:attr:`Card.choice`)."""
    setups: Mapping[str, tuple[Card, Card]] = dataclasses.field(init=False)
    """``(cover, shown)`` by set-up choice, in the order of :attr:`setup_choices`."""

    def __post_init__(self) -> None:
        setups = {
            SetUp(c.id, s.id).format(): (c, s)
            for c in self.cards
            for s in self.cards
            if c is not s or c.copies >= 2
        }
        object.__setattr__(self, "setups", setups)
        object.__setattr__(self, "setup_choices", tuple(setups))
        restricted = sum(c.copies for c in self.cards if c.is_ultra or c.is_super)
        object.__setattr__(self, "restricted_copies", restricted)
        object.__setattr__(self, "by_id", {c.id: c for c in self.cards})
        object.__setattr__(self, "by_choice", {c.choice: c for c in self.cards})

    def card(self, card_id: str) -> Card:
        return self.by_id[card_id]

    @property
    def deck(self) -> tuple[Card, ...]:
        """All ten cards, copies repeated."""
        return tuple(c for c in self.cards for _ in range(c.copies))


@dataclasses.dataclass(frozen=True)
class Catalog:
    """All characters and cards of a (merged) pack."""

    pack: PackData
    characters: Mapping[str, Character]
    cards: Mapping[str, Card]
    rules: RuleValues
    rule_provenance: Mapping[str, Provenance]
    character_choices: tuple[str, ...] = dataclasses.field(init=False)
    """``character:<id>`` of every character, in pack order."""

    def __post_init__(self) -> None:
        choices = tuple(PickCharacter(c).format() for c in self.characters)
        object.__setattr__(self, "character_choices", choices)

    def unseen(self, player: Mapping[str, Any]) -> list[Card]:
        """From one player's public view entry, the cards its opponent has not seen: its hand
        and its hidden cover together (deck minus the shown card and every played card)."""
        char_id = player.get("character")
        if char_id is None or player.get("shown") is None:
            return []
        left = {c.id: c.copies for c in self.characters[char_id].cards}
        for card_id in [player["shown"], *player.get("played", [])]:
            left[card_id] -= 1
        if player.get("revealed"):
            left[player["revealed"]] -= 1
        return [self.cards[i] for i, n in left.items() for _ in range(n)]


def _compile(pack: PackData) -> Catalog:
    name = pack.name
    defaults = pack.defaults
    rules, rule_prov = read_rules(pack, RuleValues)
    _check_rules(rules, name)
    chars_raw = pack.data.get("characters", [])
    specs_c = []
    for c in chars_raw:
        # an overlay's merge gives the name a provenance, as for a card's name
        values, _ = split_values(
            c, pack=name, card=c.get("id"), valued=("name",), defaults={"name": "rulebook"}
        )
        specs_c.append(convert(values, CharacterSpec, pack=name, card=c.get("id")))
    if not specs_c:
        raise PackError(name, "no [[characters]]")
    by_char: dict[str, list[Card]] = {c.id: [] for c in specs_c}
    cards: dict[str, Card] = {}
    for table in pack.data.get("cards", []):
        card_id = str(table.get("id"))
        values, prov = split_values(
            table, pack=name, card=card_id, valued=VALUED_FIELDS, defaults=defaults
        )
        spec = convert(values, CardSpec, pack=name, card=card_id)
        _check_card(spec, name, by_char)
        for field in VALUED_FIELDS:  # a field left at its default still has a provenance
            if field not in prov and field in defaults:
                prov[field] = Provenance.parse(defaults[field])
        card = Card(
            id=spec.id,
            character=spec.character,
            name=spec.name,
            initiative=spec.initiative,
            damage=spec.damage,
            kind=spec.kind,
            copies=spec.copies,
            text=spec.text,
            aka=spec.aka,
            effects=tuple(Effect(e.op, e.amount, e.if_opponent_printed) for e in spec.effects),
            power_cancelled_if_opponent_printed=frozenset(spec.power_cancelled_if_opponent_printed),
            provenance=prov,
            index=len(by_char[spec.character]),
        )
        by_char[spec.character].append(card)
        cards[card.id] = card
    characters: dict[str, Character] = {}
    for c in specs_c:
        deck = by_char[c.id]
        total = sum(card.copies for card in deck)
        if total != CARDS_PER_CHARACTER:
            raise PackError(
                name, f"character {c.id!r} has {total} cards; it needs {CARDS_PER_CHARACTER}"
            )
        characters[c.id] = Character(c.id, c.name, tuple(deck))
    return Catalog(pack, characters, cards, rules, rule_prov)


def _check_rules(rules: RuleValues, name: str) -> None:
    """Each ``[rules]`` value within what the rulebook and the engine allow (docs/packs.md)."""

    def check(field: str, high: int, why: str) -> None:
        value = getattr(rules, field)
        if not 1 <= value <= high:
            raise PackError(name, f"{value} is outside 1..{high}: {why}", field=f"rules.{field}")

    check("life", MAX_LIFE, f"life 0 is a KO; the solver holds at most {MAX_LIFE}")
    check("hand", HAND, f"the number of rounds: a player keeps {HAND} of their 10 cards")
    check("ultra_life_at_most", MAX_LIFE, "at life 0 the fight is over: the Ultra would be dead")
    check("super_round_at_least", HAND, f"a fight has at most {HAND} rounds")


def _check_card(spec: CardSpec, name: str, by_char: Mapping[str, list[Card]]) -> None:
    def bad(field: str, message: str) -> PackError:
        return PackError(name, message, card=spec.id, field=field)

    if spec.character not in by_char:
        raise bad("character", f"unknown character {spec.character!r}")
    if not spec.id.startswith(spec.character + "."):
        raise bad("id", f"card ids are '<character>.<name>', e.g. '{spec.character}.jab'")
    if not 0 <= spec.initiative <= 9:
        raise bad("initiative", f"{spec.initiative} is outside 0..9")
    if not 0 <= spec.damage <= 10:
        raise bad("damage", f"{spec.damage} is outside 0..10")
    if spec.copies < 1:
        raise bad("copies", "must be at least 1")
    for position, effect in enumerate(spec.effects, start=1):
        if effect.op in AMOUNT_OPS and effect.amount <= 0:
            raise bad("effects", f"effect #{position} ({effect.op}) needs a positive amount")


PACKS: Final = PackLoader("kumite.games.sfrivals", _compile, VALUED_FIELDS, SCHEMAS)
base_pack = PACKS.base
load_catalog = PACKS.load
"""``load_catalog(overlay_text=None, name="overlay")``: the base catalog, or the base merged
with a user's overlay pack given as TOML text (cached)."""
read_overlay = PACKS.read_overlay
