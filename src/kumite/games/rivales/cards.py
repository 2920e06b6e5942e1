"""Rivales card data: the pack schema, compiled fighters and cards, and the catalog.

A fighter's deck is the four shared basic cards, five unique cards and one ultra
(rulebook, Components). Card effects are written in the pack as lists of primitives from a
closed vocabulary (see :mod:`.effects`); this module validates them and compiles every card
and fighter into frozen objects.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Final, Literal

import msgspec

from kumite.cards import (
    PackData,
    Provenance,
    convert,
    split_values,
)
from kumite.cards.pack import PackLoader, read_rules
from kumite.core.errors import PackError
from kumite.games.rivales.choice import PickFighter

# the records, compiled in a module of their own, are part of this module's API
from kumite.games.rivales.records import (
    BASIC,
    NO_REQUIREMENT,
    Card,
    Effect,
    Fighter,
    Requires,
)

When = Literal["immediate", "end", "passive", "damaged"]
Op = Literal[
    "bonus",
    "win_speed_ties",
    "dodge",
    "flip_own_down",
    "flip_energy_up",
    "flip_previous_up",
    "exchange_with_basic",
    "show_hand",
    "no_basic_next_clash",
    "next_card_bonus",
    "refresh",
    "flip_self_down",
]
Count = Literal[
    "face_down",
    "face_up",
    "rival_face_up",
    "exhausted",
    "energy",
    "combo_links",
    "basic_in_hand",
    "basic_face_up",
]
Stat = Literal["speed", "damage", "guard"]
CardType = Literal["basic", "unique", "ultra"]

#: When each primitive may act (``docs/packs.md``).
ALLOWED_WHEN: dict[str, frozenset[str]] = {
    "bonus": frozenset({"immediate", "passive"}),
    "win_speed_ties": frozenset({"immediate"}),
    "dodge": frozenset({"immediate"}),
    "flip_own_down": frozenset({"immediate"}),
    "flip_energy_up": frozenset({"immediate", "end"}),
    "flip_previous_up": frozenset({"immediate"}),
    "exchange_with_basic": frozenset({"immediate"}),
    "show_hand": frozenset({"immediate"}),
    "no_basic_next_clash": frozenset({"end"}),
    "next_card_bonus": frozenset({"end", "damaged"}),
    "refresh": frozenset({"immediate", "end"}),
    "flip_self_down": frozenset({"end"}),
}
CARD_WHEN = frozenset({"immediate", "end"})
PASSIVE_WHEN = frozenset({"passive", "damaged", "end"})
NEEDS_STAT = frozenset({"bonus", "next_card_bonus"})
NEEDS_AMOUNT = frozenset({"bonus", "next_card_bonus", "refresh", "flip_energy_up"})
#: Priority of card types: ultra, then basic, then unique (lower resolves first).
CARD_VALUED = ("name", "type", "speed", "damage", "guard", "link", "text")
FIGHTER_VALUED = ("name", "life", "ultra_at", "combo", "passive_name", "passive")


class RequiresSpec(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    previous: Literal["face_up", "face_down"] | None = None
    rival_type: CardType | None = None
    card_type: CardType | None = None
    min_energy: int | None = None
    min_exhausted: int | None = None
    more_damage_than_rival: bool = False
    persona: Literal["hansel", "gretel"] | None = None
    dealt_damage: bool = False


class EffectSpec(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    when: When
    op: Op
    stat: Stat | None = None
    amount: int = 0
    count: Count | None = None
    every: int = 1
    max: int | None = None
    scope: Literal["team", "own"] = "team"
    choose: bool = True
    beneficiary: Literal["self", "team"] = "self"
    requires: RequiresSpec = RequiresSpec()


class ComboStep(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    speed: int = 0
    damage: int = 0
    guard: int = 0


class CardSpec(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    fighter: str
    name: str
    type: CardType
    speed: int
    damage: int
    guard: int = 0
    link: bool = False
    text: str = ""
    effects: list[EffectSpec] = msgspec.field(default_factory=list)


class FighterSpec(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: str
    life: int
    ultra_at: int
    combo: list[ComboStep]
    passive_name: str
    passive: str
    passive_effects: list[EffectSpec] = msgspec.field(default_factory=list)
    persona: bool = False
    note: str = ""


class RuleValues(msgspec.Struct, forbid_unknown_fields=True):
    basic_cards: int = 4
    unique_cards: int = 5
    ultra_cards: int = 1
    draw_at_setup: int = 5
    clashes_per_round: int = 7
    rounds_to_win: int = 2
    boost_damage_cost: int = 1
    boost_speed_cost: int = 2
    boost_both_cost: int = 3
    exchange_damage: int = 1


@dataclasses.dataclass(frozen=True)
class Catalog:
    """All fighters and cards of a (merged) pack."""

    pack: PackData
    fighters: Mapping[str, Fighter]
    cards: Mapping[str, Card]
    basics: tuple[Card, ...]
    rules: RuleValues
    rule_provenance: Mapping[str, Provenance]
    fighter_choices: tuple[str, ...] = dataclasses.field(init=False)
    """``fighter:<id>`` of every fighter, in pack order."""
    by_choice: dict[str, Card] = dataclasses.field(init=False)
    """The card each ``marker:``, ``play:`` and ``pick:`` choice names."""

    def __post_init__(self) -> None:
        choices = tuple(PickFighter(f).format() for f in self.fighters)
        object.__setattr__(self, "fighter_choices", choices)
        by_choice = {s: c for c in self.cards.values() for s in (c.mark, c.play, *c.picks)}
        object.__setattr__(self, "by_choice", by_choice)


def _effect(spec: EffectSpec) -> Effect:
    r = spec.requires
    req = Requires(
        r.previous,
        r.rival_type,
        r.card_type,
        r.min_energy,
        r.min_exhausted,
        r.more_damage_than_rival,
        r.persona,
        r.dealt_damage,
    )
    return Effect(
        spec.when,
        spec.op,
        spec.stat,
        spec.amount,
        spec.count,
        spec.every,
        spec.max,
        spec.scope,
        spec.choose,
        spec.beneficiary,
        NO_REQUIREMENT if req == NO_REQUIREMENT else req,
    )


def _check_effects(
    effects: list[EffectSpec], name: str, card: str, field: str, *, passive: bool
) -> None:
    for pos, e in enumerate(effects, start=1):

        def bad(message: str, pos: int = pos, op: str = e.op) -> PackError:
            return PackError(name, f"effect #{pos} ({op}): {message}", card=card, field=field)

        if e.when not in ALLOWED_WHEN[e.op]:
            allowed = ", ".join(sorted(ALLOWED_WHEN[e.op]))
            raise bad(f"cannot act {e.when!r} (allowed: {allowed})")
        if e.when not in (PASSIVE_WHEN if passive else CARD_WHEN):
            where = "a fighter's passive" if passive else "a card"
            raise bad(f"{e.when!r} effects do not belong on {where}")
        if e.op in NEEDS_STAT and e.stat is None:
            raise bad("needs a 'stat' (speed, damage or guard)")
        if e.op in NEEDS_AMOUNT and e.amount <= 0:
            raise bad("needs a positive 'amount'")
        if e.every < 1:
            raise bad("'every' must be at least 1")
        if e.max is not None and e.max < 0:
            raise bad("'max' must not be negative")
        if e.count is not None and e.op != "bonus":
            raise bad("only 'bonus' can count")
        if e.beneficiary == "team" and not passive:
            raise bad("only a fighter's passive can benefit the team")


def _fill(
    prov: dict[str, Provenance], fields: tuple[str, ...], defaults: Mapping[str, str]
) -> dict[str, Provenance]:
    """Fields left at their schema default (no guard, no link) still carry the pack's
    default provenance: every value of a card says where it comes from."""
    for field in fields:
        if field not in prov and field in defaults:
            prov[field] = Provenance.parse(defaults[field])
    return prov


def _compile(pack: PackData) -> Catalog:
    name = pack.name
    defaults = pack.defaults
    rules, rule_prov = read_rules(pack, RuleValues)
    fighter_specs: list[tuple[FighterSpec, dict[str, Provenance]]] = []
    for entry in pack.data.get("fighters", []):
        fid = str(entry.get("id"))
        values, prov = split_values(
            entry, pack=name, card=fid, valued=FIGHTER_VALUED, defaults=defaults
        )
        spec = convert(values, FighterSpec, pack=name, card=fid)
        _check_fighter(spec, name)
        fighter_specs.append((spec, _fill(prov, FIGHTER_VALUED, defaults)))
    if not fighter_specs:
        raise PackError(name, "no [[fighters]]")
    known = {s.id for s, _ in fighter_specs}
    by_fighter: dict[str, list[CardSpec]] = {f: [] for f in known}
    basic_specs: list[tuple[CardSpec, dict[str, Provenance]]] = []
    card_prov: dict[str, dict[str, Provenance]] = {}
    for entry in pack.data.get("cards", []):
        cid = str(entry.get("id"))
        values, prov = split_values(
            entry, pack=name, card=cid, valued=CARD_VALUED, defaults=defaults
        )
        cspec = convert(values, CardSpec, pack=name, card=cid)
        _check_card(cspec, name, known)
        card_prov[cid] = _fill(prov, CARD_VALUED, defaults)
        if cspec.fighter == BASIC:
            basic_specs.append((cspec, prov))
        else:
            by_fighter[cspec.fighter].append(cspec)
    if len(basic_specs) != rules.basic_cards:
        raise PackError(name, f"{len(basic_specs)} basic cards; the game needs {rules.basic_cards}")
    cards: dict[str, Card] = {}

    def make(cspec: CardSpec, index: int) -> Card:
        card = Card(
            id=cspec.id,
            fighter=cspec.fighter,
            name=cspec.name,
            type=cspec.type,
            speed=cspec.speed,
            damage=cspec.damage,
            guard=cspec.guard,
            link=cspec.link,
            text=cspec.text,
            effects=tuple(_effect(e) for e in cspec.effects),
            provenance=card_prov[cspec.id],
            index=index,
        )
        cards[card.id] = card
        return card

    basics = tuple(make(c, i) for i, (c, _) in enumerate(basic_specs))
    fighters: dict[str, Fighter] = {}
    for spec, prov in fighter_specs:
        own = by_fighter[spec.id]
        uniques = [c for c in own if c.type == "unique"]
        ultras = [c for c in own if c.type == "ultra"]
        if len(uniques) != rules.unique_cards or len(ultras) != rules.ultra_cards:
            raise PackError(
                name,
                f"fighter {spec.id!r} has {len(uniques)} unique and {len(ultras)} ultra cards; "
                f"it needs {rules.unique_cards} and {rules.ultra_cards}",
            )
        deck = basics + tuple(make(c, len(basics) + i) for i, c in enumerate(uniques + ultras))
        fighters[spec.id] = Fighter(
            id=spec.id,
            name=spec.name,
            life=spec.life,
            ultra_at=spec.ultra_at,
            combo=tuple(spec.combo),
            passive_name=spec.passive_name,
            passive=spec.passive,
            passives=tuple(_effect(e) for e in spec.passive_effects),
            persona=spec.persona,
            note=spec.note,
            cards=deck,
            provenance=prov,
        )
    return Catalog(pack, fighters, cards, basics, rules, rule_prov)


def _check_fighter(spec: FighterSpec, name: str) -> None:
    def bad(field: str, message: str) -> PackError:
        return PackError(name, message, card=spec.id, field=field)

    if spec.id == BASIC:
        raise bad("id", "'basic' names the shared basic cards, not a fighter")
    if not 1 <= spec.life <= 30:
        raise bad("life", f"{spec.life} is outside 1..30")
    if not 1 <= spec.ultra_at < spec.life:
        raise bad("ultra_at", f"the ultra icon must lie inside the life bar (1..{spec.life - 1})")
    if not 1 <= len(spec.combo) <= 6:
        raise bad("combo", "a fighter card lists 1 to 6 link bonuses")
    _check_effects(spec.passive_effects, name, spec.id, "passive_effects", passive=True)


def _check_card(spec: CardSpec, name: str, fighters: set[str]) -> None:
    def bad(field: str, message: str) -> PackError:
        return PackError(name, message, card=spec.id, field=field)

    if spec.fighter != BASIC and spec.fighter not in fighters:
        raise bad("fighter", f"unknown fighter {spec.fighter!r}")
    if not spec.id.startswith(spec.fighter + "."):
        raise bad("id", f"card ids are '<fighter>.<name>', e.g. '{spec.fighter}.golpe'")
    if (spec.fighter == BASIC) != (spec.type == BASIC):
        raise bad("type", "basic cards (and only they) belong to 'basic'")
    for field, val, hi in (("speed", spec.speed, 15), ("damage", spec.damage, 15)):
        if not 0 <= val <= hi:
            raise bad(field, f"{val} is outside 0..{hi}")
    if not 0 <= spec.guard <= 15:
        raise bad("guard", f"{spec.guard} is outside 0..15")
    _check_effects(spec.effects, name, spec.id, "effects", passive=False)


PACKS: Final = PackLoader(
    "kumite.games.rivales",
    _compile,
    (*CARD_VALUED, *FIGHTER_VALUED),
    {"cards": CardSpec, "fighters": FighterSpec},
)
base_pack = PACKS.base
load_catalog = PACKS.load
"""``load_catalog(overlay_text=None, name="overlay")``: the base catalog, or the base merged
with a user's overlay pack given as TOML text (cached)."""
read_overlay = PACKS.read_overlay
