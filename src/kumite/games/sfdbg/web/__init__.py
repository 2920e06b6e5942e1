"""SF DBG at the web table: 2-5 seats, a Super Hero per seat (dealt at random unless
chosen), the variants as a rule option; the card data the browser draws (``table.js``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kumite.cards.provenance import LEGEND
from kumite.core.game import Game
from kumite.games.sfdbg.game import GAME
from kumite.web.table import TableAdapter


class SFDBGTable(TableAdapter):
    set_by_table = ("players", "first_player")

    def cards(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, Any]:
        catalog = GAME.catalog(options)
        cards = {}
        for card in catalog.cards:
            data = card.to_json()
            del data["effects"]  # the engine's encoding; the browser shows the text
            cards[card.id] = data
        return {
            "cards": cards,
            "heroes": {h.id: h.to_json() for h in catalog.heroes},
            "kick_cost": catalog.by_id["kick"].cost,
            "legend": LEGEND,
            "pack": catalog.pack.ref(),
        }


ADAPTER = SFDBGTable()
