"""SF Rivals at the web table: the card data the browser draws (``table.js`` beside)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kumite.core.game import Game
from kumite.games.sfrivals.game import GAME
from kumite.web.table import TableAdapter


class SFRivalsTable(TableAdapter):
    def cards(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, Any]:
        catalog = GAME.catalog(options)
        return {
            "characters": {c.id: {"name": c.name} for c in catalog.characters.values()},
            "cards": {card.id: card.to_json() for card in catalog.cards.values()},
            "life": catalog.rules.life,
        }


ADAPTER = SFRivalsTable()
