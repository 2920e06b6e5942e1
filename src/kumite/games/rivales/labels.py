"""Plain-English labels of Rivales choices, and what each targets on the table: shared by the
terminal and the web table.

A label is built only from the typed choice, the public card catalog and the deciding seat's
own view (its decision kind is in the view's ``pending`` list), so it tells that seat nothing
it does not already know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kumite.cards.provenance import mark
from kumite.core.choice import Labels, Target
from kumite.core.game import Game
from kumite.games.rivales.cards import Card, Catalog, Fighter
from kumite.games.rivales.choice import (
    CODEC,
    Boost,
    CallZone,
    Count,
    Guard,
    Marker,
    Pass,
    Persona,
    Pick,
    PickFighter,
    Play,
    RivalesChoice,
    ZoneOrder,
    parse,
)
from kumite.games.rivales.game import GAME

PERSONAS = {
    "hansel": "HANSEL (candy cane): +1 Guard",
    "gretel": "GRETEL (cookie): +1 Damage",
}
_PASS = {
    "flip-own-down": "Flip nothing",
    "exchange-with-basic": "Keep this card (no exchange)",
}


def named(obj: Card | Fighter) -> str:
    """A card's or fighter's name with its mark: ``Estocada†`` (reconstructed)."""
    return obj.name + mark(obj, "name")


def copies(card: Card, catalog: Catalog, seat_fighter: str | None) -> int:
    """Copies of ``card`` in the seat's fighter's deck (a Rivales deck holds one of each)."""
    fighter = catalog.fighters.get(seat_fighter or "")
    found = sum(1 for c in fighter.cards if c is card) if fighter else 0
    return found or 1


def stats(card: Card) -> str:
    """``Speed 4, Damage 2, Guard 1, link``: the printed values of a card."""
    out = f"Speed {card.speed}, Damage {card.damage}"
    if card.guard:
        out += f", Guard {card.guard}"
    return out + (", link" if card.link else "")


def my_kind(view: Mapping[str, Any]) -> str:
    """The kind of the viewing seat's pending decision ("" if none)."""
    seat = view.get("seat")
    return next((d["kind"] for d in view.get("pending", ()) if d["seat"] == seat), "")


def boost_label(level: str, catalog: Catalog) -> str:
    rules = catalog.rules
    if level == "damage":
        return f"+1 Damage (spend {rules.boost_damage_cost} energy)"
    if level == "speed":
        return f"+1 Speed (spend {rules.boost_speed_cost} energy)"
    if level == "both":
        return f"+1 Speed and +1 Damage (spend {rules.boost_both_cost} energy)"
    return "No boost"


def choice_label(
    choice: str, catalog: Catalog, view: Mapping[str, Any], kind: str | None = None
) -> str:
    """One line naming what ``choice`` does, e.g. ``Play Golpe (Speed 4, Damage 2, link)``."""
    kind = my_kind(view) if kind is None else kind
    cards = catalog.cards
    match parse(choice):
        case PickFighter(fighter=fighter_id) if fighter_id in catalog.fighters:
            f = catalog.fighters[fighter_id]
            return (
                f"Fight as {named(f)} (life {f.life}{mark(f, 'life')}, maximum combo "
                f"{f.max_combo}{mark(f, 'combo')}; {f.passive_name}{mark(f, 'passive_name')})"
            )
        case Marker(card=card_id) if card_id in cards:
            return (
                f"Cover your life bar with {_card(cards[card_id], catalog, view)} "
                "(your hand keeps the other 4)"
            )
        case Play(card=card_id) if card_id in cards:
            card = cards[card_id]
            return f"Play {_card(card, catalog, view)} face down ({stats(card)})"
        case CallZone(zone=zone):
            return f"Play in Zone {zone} (your partner takes Zone {3 - zone})"
        case ZoneOrder(first=first):
            return _order(first - 1)
        case Persona(persona=persona):
            return PERSONAS[persona]
        case Boost(level=level):
            return boost_label(level, catalog)
        case Guard(energy=n):
            return _guard(n, view)
        case Count(n=n):
            return _count(n, catalog, view)
        case Pass():
            return _PASS.get(kind, "Pass")
        case Pick(seat=owner, card=card_id) if card_id in cards:
            return _pick(kind, owner, cards[card_id], view)
    return choice


def target(choice: RivalesChoice, kind: str) -> Target | None:
    """The board element ``choice`` names, for the seat deciding a ``kind`` decision: a
    fighter, a card of its hand, one of the two zones, or a card in a zone's line (of the
    seat that played it); ``None`` for a choice made by a button only."""
    match choice:
        case PickFighter(fighter=fighter_id):
            return {"role": fighter_id}
        case Marker(card=card_id) | Play(card=card_id):
            return {"zone": "hand", "card": card_id}
        case CallZone(zone=zone) | ZoneOrder(first=zone):
            return {"zone": "arena", "index": zone - 1}
        case Pick(seat=owner, card=card_id):
            if kind == "dodge":  # a card of the hand, left face up for the next clash
                return {"zone": "hand", "card": card_id}
            return {"zone": "line", "seat": owner, "card": card_id}
    return None


def _card(card: Card, catalog: Catalog, view: Mapping[str, Any]) -> str:
    """The card's marked name, with its copies in the deck when there are several."""
    seat = view.get("seat")
    players = view.get("players", [])
    fighter = players[seat]["fighter"] if isinstance(seat, int) and seat < len(players) else None
    n = copies(card, catalog, fighter)
    return named(card) + (f" ×{n}" if n > 1 else "")


def choice_labels(choices: Sequence[str], catalog: Catalog, view: Mapping[str, Any]) -> list[str]:
    kind = my_kind(view)
    return [choice_label(c, catalog, view, kind) for c in choices]


def _whose(owner: int, view: Mapping[str, Any]) -> str:
    if owner == view.get("seat"):
        return "your"
    players = view.get("players", [])
    who = players[owner]["who"] if owner < len(players) else f"P{owner + 1}"
    return f"{who}'s"


def _pick(kind: str, owner: int, card: Card, view: Mapping[str, Any]) -> str:
    if kind == "dodge":
        return f"Leave {named(card)} face up: your card of the next clash"
    whose = _whose(owner, view)
    if kind == "exchange-with-basic":
        return f"Exchange with {whose} face-up {named(card)}"
    if kind == "flip-own-down":
        return f"Flip {whose} {named(card)} face down (it becomes energy)"
    return f"Choose {whose} {named(card)}"


def _my_card(catalog: Catalog, view: Mapping[str, Any]) -> Card | None:
    """The card the viewing seat plays this clash, once it is on the table."""
    seat = view.get("seat")
    for fight in view.get("fights", ()):
        if seat in fight["seats"]:
            t = fight["seats"].index(seat)
            line = view["zones"][fight["zone"]]["lines"][t]
            if line and line[-1]["owner"] == seat and line[-1]["card"] in catalog.cards:
                return catalog.cards[line[-1]["card"]]
    return None


def _order(first: int) -> str:
    """``Zone 2 first, then Zone 1``: short, as the button sits in the zone's own panel,
    which (like the terminal's zone lines) already shows who fights there."""
    return f"Zone {first + 1} first, then Zone {2 - first}"


def _count(n: int, catalog: Catalog, view: Mapping[str, Any]) -> str:
    head = f"Flip {n} energy card{'' if n == 1 else 's'} face up"
    card = _my_card(catalog, view)
    stat = next((e.stat for e in card.effects if e.op == "flip_energy_up"), None) if card else None
    return f"{head} (+{n} {stat.capitalize()})" if n and stat else head


def _guard(n: int, view: Mapping[str, Any]) -> str:
    """``Exhaust 1 energy: Guard 2 against Damage 4 (you take 2)``."""
    seat = view.get("seat")
    fight = next(
        (
            f
            for f in view.get("fights", ())
            if seat in f["seats"] and f["stats"] and f["attacker"] is not None
        ),
        None,
    )
    head = "No Guard boost" if n == 0 else f"Exhaust {n} energy: +{n} Guard"
    if fight is None:
        return head
    me = fight["seats"].index(seat)
    damage = fight["stats"][1 - me][1]
    guard = fight["stats"][me][2] + n
    taken = max(0, damage - guard)
    return f"{head} — Guard {guard} against Damage {damage}: " + (
        "no Damage" if taken == 0 else f"you take {taken}"
    )


class RivalesLabels(Labels):
    """The spec's ``labels`` face of one table's catalog."""

    codec = CODEC

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def __call__(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[str]:
        return choice_labels(legal, self.catalog, view)

    def targets(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[Target | None]:
        kind = my_kind(view)
        return [target(parse(c), kind) for c in legal]

    def unplayable(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[str]:
        """While the seat plays a card: each card of its hand it may not play now (a basic
        card, when Pinzas de Mantis binds it)."""
        seat = view.get("seat")
        if my_kind(view) != "play" or not isinstance(seat, int):
            return []
        hand = view["players"][seat].get("hand") or []
        tries = (Play(card).format() for card in dict.fromkeys(hand))
        return [c for c in tries if c not in legal]


def labeler(game: Game[Any], options: Mapping[str, Any]) -> Labels:
    """The spec's ``labels``: the choices of a table with these options, labelled."""
    return RivalesLabels(GAME.catalog(options))
