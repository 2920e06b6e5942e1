"""Plain-English labels of SF DBG choices, and what each targets on the table: shared by the
terminal and the web table.

A label is built only from the typed choice, the public card catalog and the deciding
seat's own view, so it tells that seat nothing it does not already know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kumite.core.choice import Labels, Target
from kumite.core.game import Game
from kumite.games.sfdbg.cards import Card, Catalog
from kumite.games.sfdbg.choice import (
    CODEC,
    KICK,
    Bottom,
    Buy,
    Challenge,
    DBGChoice,
    Defend,
    Destroy,
    Discard,
    End,
    Foe,
    Gain,
    Give,
    Name,
    No,
    NoDefense,
    Play,
    PlayPower,
    Reveal,
    Take,
    Under,
    Yes,
    parse,
)
from kumite.games.sfdbg.game import GAME

#: Where a ``<verb>:<zone>:<card>`` choice takes its card from, as seen by the chooser.
ZONES = {
    "hand": "from your hand",
    "discard": "from your discard pile",
    "play": "in play",
    "lineup": "from the Line-Up",
    "main_top": "from the top of the main deck",
    "under": "from under your Super Hero",
}

_NONE = {
    "discard": "Discard nothing",
    "destroy": "Destroy nothing",
    "under": "Put nothing under a Super Hero",
    "gain": "Gain nothing",
    "give": "Give nothing",
}

_FIXED: dict[type[DBGChoice], str] = {
    End: "End your turn",
    PlayPower: "Play every card in your hand that only gives Power",
    NoDefense: "Don't avoid the Attack",
    Yes: "Yes",
    No: "No",
}


def _defense_gives(card: Any) -> str:
    """What avoiding an Attack with ``card`` gives besides (its Defense's "If you do, …"),
    as the end of its label: ``, then draw a card``."""
    text = getattr(card, "text", "") or ""
    found = text.find("If you do, ")
    if found < 0:
        return ""
    gives = text[found + len("If you do, ") :].split(". ")[0].rstrip(".")
    return f", then {gives}" if gives else ""


def choice_label(choice: str, catalog: Catalog, view: Mapping[str, Any]) -> str:
    """One line naming what ``choice`` does, e.g. ``Buy Hadoken from the Line-Up (cost 6)``.
    A card taken from where several copies are is followed by their number: ``Play Punch
    (×3)`` when the hand holds three."""
    typed = parse(choice)
    fixed = _FIXED.get(type(typed))
    if fixed is not None:
        return fixed
    by_id = catalog.by_id

    def name(card_id: str, zone: str = "hand") -> str:
        card = by_id.get(card_id)
        if card is None:
            return card_id
        n = copies(view, zone, card_id)
        return f"{card.name} (×{n})" if n > 1 else card.name

    match typed:
        case Play(card=card_id):
            return f"Play {name(card_id)}"
        case Buy():
            return _buy(typed, catalog, view)
        case Challenge():
            top = view["stages"]["top"]
            if top is None or top not in by_id:
                return "Challenge the Stage Boss"
            stage = by_id[top]
            return (
                f"Challenge the Stage Boss of {stage_name(stage)} "
                f"(cost {stage.cost}, {stage.vp} VP)"
            )
        case Take(card=card_id):
            return f"Put {name(card_id, 'discard')} from your discard pile into your hand"
        case Defend(card=card_id):
            return f"Avoid the Attack with {name(card_id)}{_defense_gives(by_id.get(card_id))}"
        case Reveal(card=card_id):
            return f"Reveal {name(card_id)} (not a Defense)"
        case Foe(seat=seat):
            return _player(seat, view)
        case Name(kind=kind, value=value):
            return f"Name the {kind} {value}"
        case Discard(card=None) | Destroy(card=None) | Under(card=None) | Gain(card=None):
            return _NONE[typed.verb]
        case Give(card=None):
            return _NONE[typed.verb]
        case Gain(card=card_id, under=under) if card_id is not None:
            if under:
                return _join("Gain", name(card_id, "under"), ZONES["under"])
            if card_id == KICK:
                return "Gain a Kick"
            return _join("Gain", name(card_id, "lineup"), ZONES["lineup"])
        case Discard(card=card_id) if card_id is not None:
            return f"Discard {name(card_id)}"
        case Destroy(zone=str(zone), card=str(card_id)):
            return _join("Destroy", name(card_id, zone), ZONES.get(zone, ""))
        case Bottom(zone=zone, card=card_id):
            where = ZONES.get(zone, "")
            return _join("Put", name(card_id, zone), where, "on the bottom of the main deck")
        case Under(zone=str(zone), card=str(card_id)):
            where = ZONES.get(zone, "")
            return _join("Put", name(card_id, zone), where, "under the Super Hero")
        case Give(zone=str(zone), card=str(card_id)):
            return _join("Give", name(card_id, zone), ZONES.get(zone, ""))
    return choice


def target(choice: DBGChoice) -> Target | None:
    """The board element ``choice`` names: a card of a zone (the deciding seat's own zones,
    the Line-Up, the top of the main deck), a stack, the Stage, a foe; ``None`` for a choice
    made by a button only."""
    match choice:
        case Play(card=card_id) | Defend(card=card_id) | Reveal(card=card_id):
            return {"zone": "hand", "card": card_id}
        case Discard(card=str(card_id)):
            return {"zone": "hand", "card": card_id}
        case Take(card=card_id):
            return {"zone": "discard", "card": card_id}
        case Buy(zone=zone, card=None):
            return {"zone": zone}  # the top of the Kick stack, or of the seat's Ultra stack
        case Buy(zone=zone, card=str(card_id)):
            return {"zone": zone, "card": card_id}
        case Challenge():
            return {"zone": "stage"}
        case Gain(card=str(card_id), under=under):
            if under:
                return {"zone": "under", "card": card_id}
            return {"zone": "kick"} if card_id == KICK else {"zone": "lineup", "card": card_id}
        case Destroy(zone=str(zone), card=str(card_id)) | Under(zone=str(zone), card=str(card_id)):
            return {"zone": zone, "card": card_id}
        case Bottom(zone=zone, card=card_id) | Give(zone=str(zone), card=str(card_id)):
            return {"zone": zone, "card": card_id}
        case Foe(seat=seat):
            return {"seat": seat}
    return None


def stage_name(card: Card) -> str:
    """``Stage 1: USA``; the number carries its provenance mark (Stages 2-8 are estimated)."""
    if card.stage is None:
        return card.name
    prov = card.provenance.get("stage")
    return f"Stage {card.stage}{prov.mark if prov else ''}: {card.name}"


def copies(view: Mapping[str, Any], zone: str, card_id: str) -> int:
    """How many copies of ``card_id`` are in ``zone`` of the deciding seat (its own hand,
    discard pile, cards in play or under its Super Hero) or in the Line-Up."""
    if zone == "lineup":
        return sum(1 for c in view.get("line_up", ()) if c == card_id)
    seat = view.get("seat")
    me = next((p for p in view.get("players", ()) if p.get("seat") == seat), None)
    if me is None:
        return 0
    if zone == "play":
        return [*me.get("in_play", ()), *me.get("locations", ())].count(card_id)
    field = {"hand": "hand", "discard": "discard", "under": "under"}.get(zone)
    return list(me.get(field, ())).count(card_id) if field else 0


def choice_labels(choices: Sequence[str], catalog: Catalog, view: Mapping[str, Any]) -> list[str]:
    return [choice_label(c, catalog, view) for c in choices]


def _buy(buy: Buy, catalog: Catalog, view: Mapping[str, Any]) -> str:
    where, card_id = buy.zone, buy.card
    if where == "kick":
        return f"Buy a Kick (cost {catalog.by_id[KICK].cost})"
    if where == "ultra":
        return "Buy the top card of your face-down Ultra stack"
    card = None if card_id is None else catalog.by_id.get(card_id)
    if card is None or card_id is None:
        return f"Buy {card_id}"
    n = copies(view, where, card_id)
    named = f"{card.name} (×{n})" if n > 1 else card.name
    if where == "under":
        discount = int(view.get("this_turn", {}).get("under_discount", 0))
        return f"Buy {named} from under your Super Hero (cost {max(0, card.cost - discount)})"
    return f"Buy {named} from the Line-Up (cost {card.cost})"


def _player(seat: int, view: Mapping[str, Any]) -> str:
    players = view.get("players", [])
    hero = players[seat].get("hero_name") if seat < len(players) else None
    return f"Player {seat + 1}" + (f" ({hero})" if hero else "")


def _join(*parts: str) -> str:
    return " ".join(p for p in parts if p)


class SFDBGLabels(Labels):
    """The spec's ``labels`` face of one table's catalog."""

    codec = CODEC

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def __call__(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[str]:
        return choice_labels(legal, self.catalog, view)

    def targets(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[Target | None]:
        return [target(parse(c)) for c in legal]


def labeler(game: Game[Any], options: Mapping[str, Any]) -> Labels:
    """The spec's ``labels``: the choices of a table with these options, labelled."""
    return SFDBGLabels(GAME.catalog(options))
