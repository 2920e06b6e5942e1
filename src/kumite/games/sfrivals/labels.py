"""Plain-English labels of SF Rivals choices and the cards they name, for the web table.

A label is built only from the typed choice, the public card catalog and the deciding seat's
own view, so it tells that seat nothing it does not already know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kumite.cards.provenance import mark
from kumite.core.choice import Labels, Target
from kumite.core.game import Game
from kumite.games.sfrivals.cards import Card, Catalog
from kumite.games.sfrivals.choice import CODEC, PickCharacter, Play, SetUp, SFRChoice, parse
from kumite.games.sfrivals.game import GAME


def named(card: Card) -> str:
    """A card's name with its mark: ``Hadouken*`` when a value of it is estimated."""
    return card.name + mark(card, "name")


def choice_label(choice: SFRChoice, catalog: Catalog) -> str:
    """One line naming what ``choice`` does: ``Play Hadouken (initiative 5, damage 3)``."""
    match choice:
        case PickCharacter(character=char_id) if char_id in catalog.characters:
            return f"Fight as {catalog.characters[char_id].name}"
        case SetUp(cover=cover, shown=shown) if {cover, shown} <= catalog.cards.keys():
            return (
                f"Cover your life gauge with {named(catalog.cards[cover])} and show "
                f"{named(catalog.cards[shown])}"
            )
        case Play(card=card_id) if card_id in catalog.cards:
            card = catalog.cards[card_id]
            return (
                f"Play {named(card)} (initiative {card.initiative}, "
                f"damage {card.damage}{card.damage_mark})"
            )
    return choice.format()


def target(choice: SFRChoice) -> Target:
    """The board element ``choice`` names: a character, a card of the hand, or the two cards
    of a set-up (the cover first)."""
    match choice:
        case PickCharacter(character=char_id):
            return {"role": char_id}
        case SetUp(cover=cover, shown=shown):
            return {"zone": "hand", "cards": [cover, shown]}
        case Play(card=card_id):
            return {"zone": "hand", "card": card_id}
    raise AssertionError(choice)  # pragma: no cover - every kind is matched


class SFRivalsLabels(Labels):
    """The spec's ``labels`` face of one table's catalog."""

    codec = CODEC

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def __call__(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[str]:
        return [choice_label(parse(c), self.catalog) for c in legal]

    def targets(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[Target | None]:
        return [target(parse(c)) for c in legal]

    def unplayable(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[str]:
        """While the seat plays a card: each card of its hand it may not play now (an Ultra
        or a Super Combo whose time has not come)."""
        seat = view.get("seat")
        playing = any(
            d["seat"] == seat and d["kind"].startswith("play") for d in view.get("pending", ())
        )
        if not playing or not isinstance(seat, int):
            return []
        hand = view["players"][seat].get("hand") or []
        tries = (Play(card).format() for card in dict.fromkeys(hand))
        return [c for c in tries if c not in legal]


def labeler(game: Game[Any], options: Mapping[str, Any]) -> Labels:
    """The spec's ``labels``: the choices of a table with these options, labelled."""
    return SFRivalsLabels(GAME.catalog(options))
