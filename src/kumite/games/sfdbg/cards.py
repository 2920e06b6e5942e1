"""SF DBG card data: compiled cards and Super Heroes, the catalog, and the pack loader.

Card abilities are written in the pack as lists of effect primitives (see :mod:`.effects`);
:mod:`.schema` validates them and this module compiles each card type into a frozen
:class:`Card`. Zones
of the game hold card *types* (indices into :attr:`Catalog.cards`): copies of a card are
identical, so a choice names a card by its id (``play:hadoken``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any, Final

from kumite.cards import PackData, Provenance, convert, split_values
from kumite.cards.pack import PackLoader, read_rules
from kumite.core.errors import PackError
from kumite.games.sfdbg.schema import (
    CARD_TYPES,
    HERO_VALUED,
    PILE_COUNTS,
    VALUED_FIELDS,
    CardSpec,
    EffectSpec,
    HeroSpec,
    RuleValues,
    check_card,
    check_effects,
)

__all__ = ["CARD_TYPES", "Card", "Catalog", "Defense", "Effect", "Hero", "Ongoing", "VPRule"]


@dataclasses.dataclass(frozen=True, slots=True)
class Effect:
    """One compiled primitive (see :mod:`.effects` for each ``op``)."""

    op: str
    amount: int = 0
    types: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()
    min_cost: int | None = None
    max_cost: int | None = None
    zones: tuple[str, ...] = ()
    may: bool = False
    up_to: int = 1
    source: str | None = None
    who: str = "me"
    target: str = "each_foe"
    name: str | None = None
    effects: tuple[Effect, ...] = ()
    per_hit: tuple[Effect, ...] = ()
    else_weakness: bool = False
    if_played_types: frozenset[str] = frozenset()
    if_played_names: frozenset[str] = frozenset()
    if_location_in_play: bool = False

    @property
    def conditional(self) -> bool:
        return bool(self.if_played_types or self.if_played_names or self.if_location_in_play)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if v == f.default and f.name != "op":
                continue
            if isinstance(v, frozenset):
                v = sorted(v)
            elif f.name in ("effects", "per_hit"):
                v = [e.to_json() for e in v]
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        return out


@dataclasses.dataclass(frozen=True, slots=True)
class Defense:
    mode: str
    """``discard`` (discard it to avoid it) or ``ultra`` (shuffle it in, Counter-Attack)."""
    effects: tuple[Effect, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Ongoing:
    """A Location's trigger: the first matching card you play each turn."""

    effects: tuple[Effect, ...]
    types: frozenset[str]
    attack: bool
    min_cost: int | None

    def matches(self, card: Card) -> bool:
        if self.types and card.type not in self.types:
            return False
        if self.attack and not card.has_attack:
            return False
        return self.min_cost is None or card.cost >= self.min_cost


@dataclasses.dataclass(frozen=True, slots=True)
class VPRule:
    kind: str
    types: frozenset[str]
    count: int
    amount: int


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A card type (copies are identical)."""

    index: int
    id: str
    name: str
    type: str
    pile: str
    cost: int
    vp: int
    copies: int
    text: str
    aka: str
    owner: str | None
    stage: int | None
    play: tuple[Effect, ...]
    defense: Defense | None
    reaction: tuple[Effect, ...]
    ongoing: Ongoing | None
    vp_rule: VPRule | None
    provenance: Mapping[str, Provenance]
    has_attack: bool = dataclasses.field(init=False)
    """The card has an ``Attack:`` ability (rulebook: Akuma's Gi clarification)."""
    has_defense: bool = dataclasses.field(init=False)
    simple_power: int = dataclasses.field(init=False)
    """Power of a card whose whole text is ``+N Power`` (a fast path), else -1."""
    is_location: bool = dataclasses.field(init=False)
    """A Location (it stays in play)."""

    def __post_init__(self) -> None:
        attack = any(e.op == "attack" for e in self.play)
        object.__setattr__(self, "has_attack", attack)
        object.__setattr__(self, "has_defense", self.defense is not None)
        simple = -1
        if len(self.play) == 1 and self.play[0].op == "power" and not self.play[0].conditional:
            simple = self.play[0].amount
        object.__setattr__(self, "simple_power", simple)
        object.__setattr__(self, "is_location", self.type == "Location")

    def __repr__(self) -> str:
        return f"<Card {self.id}>"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "type": self.type,
            "pile": self.pile,
            "cost": self.cost,
            "vp": self.vp,
            "copies": self.copies,
            "attack": self.has_attack,
            "defense": self.has_defense,
            "text": self.text,
        }
        if self.aka:
            out["aka"] = self.aka
        if self.owner is not None:
            out["owner"] = self.owner
        if self.stage is not None:
            out["stage"] = self.stage
        if self.vp_rule is not None:
            out["vp_rule"] = {
                "kind": self.vp_rule.kind,
                **({"types": sorted(self.vp_rule.types)} if self.vp_rule.types else {}),
                **({"count": self.vp_rule.count} if self.vp_rule.count else {}),
                **({"amount": self.vp_rule.amount} if self.vp_rule.amount else {}),
            }
        out["effects"] = {
            "play": [e.to_json() for e in self.play],
            **(
                {
                    "defense": {
                        "mode": self.defense.mode,
                        "effects": [e.to_json() for e in self.defense.effects],
                    }
                }
                if self.defense
                else {}
            ),
            **({"reaction": [e.to_json() for e in self.reaction]} if self.reaction else {}),
            **(
                {
                    "ongoing": {
                        "types": sorted(self.ongoing.types),
                        "attack": self.ongoing.attack,
                        "min_cost": self.ongoing.min_cost,
                        "effects": [e.to_json() for e in self.ongoing.effects],
                    }
                }
                if self.ongoing
                else {}
            ),
        }
        out["provenance"] = {k: p.to_json() for k, p in self.provenance.items()}
        return out


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Hero:
    """An oversized Super Hero: its Counter-Attack and its Ultra."""

    index: int
    id: str
    name: str
    ultra: str
    """Card id of the Super Hero's Ultra."""
    counter_text: str
    counter: tuple[Effect, ...]
    provenance: Mapping[str, Provenance]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "ultra": self.ultra,
            "counter_attack": self.counter_text,
            "effects": [e.to_json() for e in self.counter],
            "provenance": {k: p.to_json() for k, p in self.provenance.items()},
        }


@dataclasses.dataclass(frozen=True)
class Catalog:
    """All cards and Super Heroes of a (merged) pack."""

    pack: PackData
    cards: tuple[Card, ...]
    heroes: tuple[Hero, ...]
    rules: RuleValues
    rule_provenance: Mapping[str, Provenance]
    by_id: Mapping[str, Card] = dataclasses.field(init=False)
    hero_by_id: Mapping[str, Hero] = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_id", {c.id: c for c in self.cards})
        object.__setattr__(self, "hero_by_id", {h.id: h for h in self.heroes})

    def pile(self, pile: str) -> tuple[Card, ...]:
        found = self._piles.get(pile)
        if found is None:
            found = self._piles[pile] = tuple(c for c in self.cards if c.pile == pile)
        return found

    @functools.cached_property
    def _piles(self) -> dict[str, tuple[Card, ...]]:
        """Memo of :meth:`pile` (every new game asks for its piles)."""
        return {}

    @functools.cached_property
    def kick(self) -> int:
        return self.by_id["kick"].index

    @functools.cached_property
    def weakness(self) -> int:
        return self.by_id["weakness"].index

    @functools.cached_property
    def stages(self) -> tuple[Card, ...]:
        """Stage cards in stack order: Stage 1 first."""
        return tuple(sorted(self.pile("stage"), key=lambda c: (c.stage or 0, c.index)))

    @functools.cached_property
    def ultra_of(self) -> Mapping[str, int]:
        """Hero id -> index of its Ultra card."""
        return {h.id: self.by_id[h.ultra].index for h in self.heroes}


# -- compilation -------------------------------------------------------------------------------


def _effect(spec: EffectSpec) -> Effect:
    return Effect(
        op=spec.op,
        amount=spec.amount,
        types=frozenset(spec.types),
        names=frozenset(spec.names),
        min_cost=spec.min_cost,
        max_cost=spec.max_cost,
        zones=tuple(spec.zones),
        may=spec.may,
        up_to=spec.up_to,
        source=spec.source,
        who=spec.who,
        target=spec.target,
        name=spec.name,
        effects=tuple(_effect(e) for e in spec.effects),
        per_hit=tuple(_effect(e) for e in spec.per_hit),
        else_weakness=spec.else_weakness,
        if_played_types=frozenset(spec.if_played_types),
        if_played_names=frozenset(spec.if_played_names),
        if_location_in_play=spec.if_location_in_play,
    )


def _compile(pack: PackData) -> Catalog:
    name = pack.name
    defaults = pack.defaults
    rules, rule_prov = read_rules(pack, RuleValues)
    tables = pack.data.get("cards", [])
    ids = {str(t.get("id")) for t in tables}
    specs: list[tuple[CardSpec, dict[str, Provenance]]] = []
    for table in tables:
        card_id = str(table.get("id"))
        values, prov = split_values(
            table, pack=name, card=card_id, valued=VALUED_FIELDS, defaults=defaults
        )
        spec = convert(values, CardSpec, pack=name, card=card_id)
        for field in ("attack", "defense"):
            if field not in prov and field in defaults:
                prov[field] = Provenance.parse(defaults[field])
        specs.append((spec, prov))
    hero_ids = {str(h.get("id")) for h in pack.data.get("heroes", [])}
    cards: list[Card] = []
    for spec, prov in specs:
        check_card(spec, name, ids, hero_ids)
        cards.append(
            Card(
                index=len(cards),
                id=spec.id,
                name=spec.name,
                type=spec.type,
                pile=spec.pile,
                cost=spec.cost,
                vp=spec.vp,
                copies=spec.copies,
                text=spec.text,
                aka=spec.aka,
                owner=spec.owner,
                stage=spec.stage,
                play=tuple(_effect(e) for e in spec.play),
                defense=(
                    Defense(spec.defend.mode, tuple(_effect(e) for e in spec.defend.effects))
                    if spec.defend
                    else None
                ),
                reaction=tuple(_effect(e) for e in spec.reaction),
                ongoing=(
                    Ongoing(
                        tuple(_effect(e) for e in spec.ongoing.effects),
                        frozenset(spec.ongoing.types),
                        spec.ongoing.attack,
                        spec.ongoing.min_cost,
                    )
                    if spec.ongoing
                    else None
                ),
                vp_rule=(
                    VPRule(
                        spec.vp_rule.kind,
                        frozenset(spec.vp_rule.types),
                        spec.vp_rule.count,
                        spec.vp_rule.amount,
                    )
                    if spec.vp_rule
                    else None
                ),
                provenance=prov,
            )
        )
    heroes = _heroes(pack, defaults, ids)
    _check_totals(name, cards, heroes, rules)
    return Catalog(pack, tuple(cards), tuple(heroes), rules, rule_prov)


def _heroes(pack: PackData, defaults: Mapping[str, str], ids: set[str]) -> list[Hero]:
    name = pack.name
    heroes: list[Hero] = []
    for table in pack.data.get("heroes", []):
        hero_id = str(table.get("id"))
        values, prov = split_values(
            table, pack=name, card=hero_id, valued=HERO_VALUED, defaults=defaults
        )
        spec = convert(values, HeroSpec, pack=name, card=hero_id)

        def bad(field: str, message: str, hid: str = hero_id) -> PackError:
            return PackError(name, message, card=hid, field=field)

        if spec.ultra not in ids:
            raise bad("ultra", f"unknown card {spec.ultra!r}")
        # A Counter-Attack is an Attack on the attacker: its effects are victim effects.
        check_effects(spec.counter, bad, "counter", ids, victim=True)
        heroes.append(
            Hero(
                index=len(heroes),
                id=spec.id,
                name=spec.name,
                ultra=spec.ultra,
                counter_text=spec.counter_attack,
                counter=tuple(_effect(e) for e in spec.counter),
                provenance=prov,
            )
        )
    return heroes


#: The basic cards and the pile each must start in (``sfdbg.setup.main-deck``: none of them
#: is ever in the main deck); no other card may start in these piles.
BASIC_PILES = {
    "punch": "starter",
    "vulnerability": "starter",
    "kick": "kick",
    "weakness": "weakness",
}


def _check_totals(name: str, cards: list[Card], heroes: list[Hero], rules: RuleValues) -> None:
    for required in BASIC_PILES:
        if not any(c.id == required for c in cards):
            raise PackError(name, f"missing the {required!r} card")
    for card in cards:
        basic = BASIC_PILES.get(card.id)
        if basic is not None and card.pile != basic:
            raise PackError(name, f"must be in the {basic!r} pile", card=card.id, field="pile")
        if basic is None and card.pile in BASIC_PILES.values():
            raise PackError(
                name,
                f"only the basic cards start in the {card.pile!r} pile",
                card=card.id,
                field="pile",
            )
    total = sum(c.copies for c in cards)
    if total != rules.total_cards:
        raise PackError(name, f"the pack has {total} cards; the game has {rules.total_cards}")
    main = sum(c.copies for c in cards if c.pile == "main")
    if main != rules.main_deck:
        raise PackError(name, f"the main deck has {main} cards; it needs {rules.main_deck}")
    for pile, count in PILE_COUNTS.items():
        got = sum(c.copies for c in cards if c.pile == pile)
        if got != count:
            raise PackError(name, f"{got} cards in the {pile} pile; the game has {count}")
    stages = sorted(c.stage or 0 for c in cards if c.pile == "stage")
    if stages != list(range(1, len(stages) + 1)):
        raise PackError(name, f"Stages must be numbered 1..{len(stages)}, got {stages}")
    if len(heroes) < 2:
        raise PackError(name, "the game needs at least two Super Heroes")
    owners = {c.owner for c in cards if c.pile == "ultra"}
    for hero in heroes:
        ultra = next(c for c in cards if c.id == hero.ultra)
        if ultra.pile != "ultra":
            raise PackError(name, f"{ultra.id!r} is not an Ultra", card=hero.id, field="ultra")
        if hero.id not in owners:
            raise PackError(name, "no Ultra names this Super Hero as owner", card=hero.id)


PACKS: Final = PackLoader(
    "kumite.games.sfdbg",
    _compile,
    VALUED_FIELDS + HERO_VALUED,
    {"cards": CardSpec, "heroes": HeroSpec},
)
base_pack = PACKS.base
load_catalog = PACKS.load
"""``load_catalog(overlay_text=None, name="overlay")``: the base catalog, or the base merged
with a user's overlay pack given as TOML text (cached)."""
read_overlay = PACKS.read_overlay
