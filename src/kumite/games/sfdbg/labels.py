"""Plain-English labels of SF DBG choice strings, shared by the terminal and the web table.

A label is built only from the choice string, the public card catalog and the deciding
seat's own view, so it tells that seat nothing it does not already know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kumite.core.game import Game
from kumite.core.spec import Labeler
from kumite.games.sfdbg.cards import Card, Catalog
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
    "discard:none": "Discard nothing",
    "destroy:none": "Destroy nothing",
    "under:none": "Put nothing under a Super Hero",
    "gain:none": "Gain nothing",
    "give:none": "Give nothing",
}

_FIXED = {
    "end": "End your turn",
    "play-power": "Play every card in your hand that only gives Power",
    "buy:ultra": "Buy the top card of your face-down Ultra stack",
    "no-defense": "Don't avoid the Attack",
    "yes": "Yes",
    "no": "No",
}


def choice_label(choice: str, catalog: Catalog, view: Mapping[str, Any]) -> str:
    """One line naming what ``choice`` does, e.g. ``Buy Hadoken from the Line-Up (cost 6)``.
    A card taken from where several copies are is followed by their number: ``Play Punch
    (×3)`` when the hand holds three."""
    if choice in _FIXED:
        return _FIXED[choice]
    if choice in _NONE:
        return _NONE[choice]
    verb, _, rest = choice.partition(":")
    by_id = catalog.by_id

    def name(card_id: str, zone: str = "hand") -> str:
        card = by_id.get(card_id)
        if card is None:
            return card_id
        n = copies(view, zone, card_id)
        return f"{card.name} (×{n})" if n > 1 else card.name

    if verb == "play":
        return f"Play {name(rest)}"
    if verb == "buy":
        return _buy(rest, catalog, view)
    if choice == "challenge":
        top = view["stages"]["top"]
        if top is None or top not in by_id:
            return "Challenge the Stage Boss"
        stage = by_id[top]
        return f"Challenge the Stage Boss of {stage_name(stage)} (cost {stage.cost}, {stage.vp} VP)"
    if verb == "take":
        return f"Put {name(rest, 'discard')} from your discard pile into your hand"
    if verb == "defend":
        return f"Avoid the Attack with {name(rest)}"
    if verb == "reveal":
        return f"Reveal {name(rest)} (not a Defense)"
    if verb == "foe":
        return _player(int(rest), view) if rest.isdigit() else choice
    if verb == "name":
        kind, _, what = rest.partition(":")
        return f"Name the {kind} {what}"
    zone, _, card_id = rest.rpartition(":")
    where = ZONES.get(zone, "")
    if verb == "gain":
        if card_id == "kick" and not zone:
            return "Gain a Kick"
        return _join("Gain", name(card_id, zone or "lineup"), where or ZONES["lineup"])
    if verb == "discard":
        return f"Discard {name(card_id)}"
    if verb == "destroy":
        return _join("Destroy", name(card_id, zone), where)
    if verb == "bottom":
        return _join("Put", name(card_id, zone), where, "on the bottom of the main deck")
    if verb == "under":
        return _join("Put", name(card_id, zone), where, "under the Super Hero")
    if verb == "give":
        return _join("Give", name(card_id, zone), where)
    return choice


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


def _buy(rest: str, catalog: Catalog, view: Mapping[str, Any]) -> str:
    where, _, card_id = rest.partition(":")
    if where == "kick":
        return f"Buy a Kick (cost {catalog.by_id['kick'].cost})"
    card = catalog.by_id.get(card_id)
    if card is None:
        return f"Buy {rest}"
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


def labeler(game: Game[Any], options: Mapping[str, Any]) -> Labeler:
    """The spec's ``labels``: the choices of a table with these options, labelled."""
    catalog = GAME.catalog(options)
    return lambda view, legal: choice_labels(legal, catalog, view)
