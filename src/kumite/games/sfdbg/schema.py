"""The SF DBG pack schema: what a card, a Super Hero and an effect look like in TOML.

The loader (:mod:`.cards`) converts each table with these msgspec structs, then checks it
with :func:`check_card`; errors name the pack file, the card and the field.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

import msgspec

from kumite.core.errors import PackError

CardType = Literal[
    "", "Starter", "Hero", "Villain", "Super Power", "Equipment", "Location", "Ultra"
]
#: Card types a player may name (Psycho Punisher): all but "" (Weakness has no type).
CARD_TYPES: tuple[str, ...] = get_args(CardType)[1:]
Pile = Literal["starter", "kick", "weakness", "main", "ultra", "stage"]
Zone = Literal["hand", "discard", "play", "lineup"]
Op = Literal[
    "power",
    "power_per_played",
    "draw",
    "discard",
    "discard_hand",
    "discard_named",
    "mill",
    "destroy",
    "destroy_trigger",
    "to_main_bottom",
    "gain",
    "under_hero",
    "give_under",
    "receive_gift",
    "gain_weakness",
    "lose_power",
    "cannot_buy",
    "cannot_avoid",
    "deck_to_discard",
    "under_discount",
    "stage_to_hand",
    "return_to_hand",
    "topdeck_at_end",
    "return_to_stack",
    "foe",
    "attack",
]
#: Primitives that need a positive ``amount``.
AMOUNT_OPS = frozenset(
    {
        "power",
        "power_per_played",
        "draw",
        "discard",
        "mill",
        "gain_weakness",
        "lose_power",
        "under_discount",
    }
)
#: Primitives that pick cards from ``zones``.
ZONE_OPS = frozenset({"destroy", "to_main_bottom", "give_under"})
#: Primitives that only make sense on a foe hit by an Attack.
VICTIM_OPS = frozenset({"receive_gift", "discard_named"})
VALUED_FIELDS = (
    "name",
    "type",
    "cost",
    "vp",
    "copies",
    "text",
    "attack",
    "defense",
    "vp_rule",
    "owner",
    "stage",
)
HERO_VALUED = ("name", "counter_attack", "ultra")
PILE_COUNTS = {"ultra": 14, "stage": 8}


class EffectSpec(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    op: Op
    amount: int = 0
    types: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    min_cost: int | None = None
    max_cost: int | None = None
    zones: tuple[Zone, ...] = ()
    may: bool = False
    up_to: int = 1
    source: Literal["kick", "lineup", "main_top"] | None = None
    who: Literal["me", "attacker"] = "me"
    target: Literal["each_foe", "chosen_foe", "give"] = "each_foe"
    name: Literal["type", "cost"] | None = None
    effects: tuple[EffectSpec, ...] = ()
    per_hit: tuple[EffectSpec, ...] = ()
    else_weakness: bool = False
    if_played_types: tuple[str, ...] = ()
    if_played_names: tuple[str, ...] = ()
    if_location_in_play: bool = False


class DefenseSpec(msgspec.Struct, forbid_unknown_fields=True):
    mode: Literal["discard", "ultra"]
    effects: list[EffectSpec] = msgspec.field(default_factory=list)


class OngoingSpec(msgspec.Struct, forbid_unknown_fields=True):
    effects: list[EffectSpec]
    types: list[str] = msgspec.field(default_factory=list)
    attack: bool = False
    min_cost: int | None = None


class VPRuleSpec(msgspec.Struct, forbid_unknown_fields=True):
    kind: Literal["squared", "per_different_attack", "per_different_defense", "different_at_least"]
    types: list[str] = msgspec.field(default_factory=list)
    count: int = 0
    amount: int = 0


class CardSpec(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: str
    type: CardType
    pile: Pile
    cost: int
    vp: int
    copies: int
    text: str
    aka: str = ""
    attack: bool = False
    defense: bool = False
    owner: str | None = None
    stage: int | None = None
    play: list[EffectSpec] = msgspec.field(default_factory=list)
    defend: DefenseSpec | None = None
    reaction: list[EffectSpec] = msgspec.field(default_factory=list)
    ongoing: OngoingSpec | None = None
    vp_rule: VPRuleSpec | None = None


class HeroSpec(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: str
    ultra: str
    counter_attack: str
    counter: list[EffectSpec]


class RuleValues(msgspec.Struct, forbid_unknown_fields=True):
    hand_size: int = 5
    line_up: int = 5
    starting_punches: int = 7
    starting_vulnerabilities: int = 3
    main_deck: int = 111
    total_cards: int = 221


def check_effects(
    effects: list[EffectSpec] | tuple[EffectSpec, ...],
    bad: Any,
    field: str,
    ids: set[str],
    *,
    victim: bool = False,
) -> None:
    for pos, e in enumerate(effects, start=1):
        where = f"{field} #{pos} ({e.op})"
        if e.op in AMOUNT_OPS and e.amount <= 0:
            raise bad(field, f"{where} needs a positive amount")
        if e.op in ZONE_OPS and not e.zones:
            raise bad(field, f"{where} needs zones")
        if e.op in ("gain", "under_hero") and e.source is None:
            raise bad(field, f"{where} needs a source (kick, lineup or main_top)")
        if e.op in ("attack", "foe") and not e.effects:
            raise bad(field, f"{where} needs effects")
        if e.op == "attack" and victim:
            raise bad(field, f"{where}: an Attack cannot be nested in an Attack")
        if e.op in VICTIM_OPS and not victim:
            raise bad(field, f"{where} only works on a foe hit by an Attack")
        if e.op == "discard_named" and not victim:
            raise bad(field, f"{where} needs an Attack that names a type or cost")
        if e.up_to < 1:
            raise bad(field, f"{where}: up_to must be at least 1")
        for t in (*e.types, *e.if_played_types):
            if t not in CARD_TYPES:
                raise bad(field, f"{where}: unknown card type {t!r}")
        for n in (*e.names, *e.if_played_names):
            if n not in ids:
                raise bad(field, f"{where}: unknown card {n!r}")
        if e.op == "attack":
            check_effects(e.effects, bad, field, ids, victim=True)
            check_effects(e.per_hit, bad, field, ids)
            if e.name is not None and not any(x.op == "discard_named" for x in e.effects):
                raise bad(field, f"{where}: naming a {e.name} needs a discard_named effect")
        elif e.op == "foe":
            check_effects(e.effects, bad, field, ids)


def check_card(spec: CardSpec, name: str, ids: set[str], hero_ids: set[str]) -> None:
    def bad(field: str, message: str) -> PackError:
        return PackError(name, message, card=spec.id, field=field)

    if spec.copies < 1:
        raise bad("copies", "must be at least 1")
    if spec.cost < 0:
        raise bad("cost", "must be 0 or more")
    if (spec.pile == "ultra") != (spec.type == "Ultra"):
        raise bad("pile", "Ultra cards (and only they) belong to the 'ultra' pile")
    if spec.pile == "ultra" and spec.owner not in hero_ids:
        raise bad("owner", f"an Ultra needs the id of its Super Hero, got {spec.owner!r}")
    if (spec.pile == "stage") != (spec.stage is not None):
        raise bad("stage", "Stage cards (and only they) have a stage number")
    if spec.pile == "stage" and spec.type != "Location":
        raise bad("type", "a Stage is a Location")
    if spec.ongoing is not None and spec.type != "Location":
        raise bad("ongoing", "only Locations have Ongoing abilities")
    check_effects(spec.play, bad, "play", ids)
    check_effects(spec.reaction, bad, "reaction", ids)
    if spec.defend is not None:
        check_effects(spec.defend.effects, bad, "defend", ids)
    if spec.ongoing is not None:
        check_effects(spec.ongoing.effects, bad, "ongoing", ids)
    attack = any(e.op == "attack" for e in spec.play)
    if attack != spec.attack:
        raise bad("attack", f"the card is flagged attack={spec.attack} but its text disagrees")
    if (spec.defend is not None) != spec.defense:
        raise bad("defense", f"the card is flagged defense={spec.defense} but has no Defense")
