"""Rivales at the web table: the 1vs1 duel (2 seats) and the 2vs2 team mode (4 seats,
seats 1-2 against 3-4), a fighter per seat (chosen at the table, fixed, or drawn at random
when the table is made); a private chat per team in 2vs2 with the companion's communication
limits, plain table talk in 1vs1; the card data the browser draws (``table.js`` beside)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import msgspec

from kumite.cards.provenance import LEGEND
from kumite.core.game import Game
from kumite.core.spec import GameSpec
from kumite.games.rivales.cards import load_catalog
from kumite.games.rivales.game import GAME
from kumite.games.rivales.talk import COMMUNICATION, ENFORCED, TABLE_TALK, team_message_refusal
from kumite.web.table import TableAdapter

RANDOM = "random"


class RivalesTable(TableAdapter):
    set_by_table = ("mode",)

    def lobby(self, spec: GameSpec, game: Game[Any]) -> dict[str, Any]:
        out = super().lobby(spec, game)
        # The seats of each mode's teams are the game's declaration (the lobby's "teams").
        out["modes"] = [
            {"id": "1v1", "name": "1vs1 duel", "seats": 2},
            {"id": "2v2", "name": "2vs2 teams", "seats": 4},
        ]
        out["mode_option"] = "mode"
        field = out["seat_field"]
        field["choices"] = [{"id": RANDOM, "name": "Random fighter"}, *field["choices"]]
        return out

    def cards(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, Any]:
        catalog = GAME.catalog(options)
        cards = {}
        for card in catalog.cards.values():
            data = card.to_json()
            del data["effects"]  # the engine's encoding; the browser shows the text
            data["requirements"] = list(
                dict.fromkeys(e.requires.describe() for e in card.effects if not e.requires.empty)
            )
            data["immediate"] = bool(card.immediate)
            cards[card.id] = data
        fighters = {}
        for fighter in catalog.fighters.values():
            data = fighter.to_json()
            del data["passive_effects"]
            fighters[fighter.id] = data
        return {
            "cards": cards,
            "fighters": fighters,
            "basics": [c.id for c in catalog.basics],
            "rules": msgspec.to_builtins(catalog.rules),
            "legend": LEGEND,
            "pack": catalog.pack.ref(),
        }

    def table_options(
        self, spec: GameSpec, options: Mapping[str, Any], seats: int
    ) -> dict[str, Any]:
        """The mode follows the seats; fighters drawn at random now, so that the table's
        options (and its record) name them."""
        out = super().table_options(spec, options, seats)
        fighters = list(out.get("fighters") or ())
        if not fighters:
            return out
        pool = list(load_catalog(out.get("pack")).fighters)
        draw = random.SystemRandom()
        for index, fid in enumerate(fighters):
            if fid == RANDOM:
                mates = {fighters[m] for m in range(len(fighters)) if m // 2 == index // 2}
                mates = mates if out["mode"] == "2v2" else set()
                fighters[index] = draw.choice([f for f in pool if f not in mates])
        out["fighters"] = fighters
        return out

    @staticmethod
    def _teams(options: Mapping[str, Any]) -> bool:
        return options.get("mode") == "2v2"

    def chat_channel(self, options: Mapping[str, Any], seat: int) -> str | None:
        """2vs2: a private channel per team (teammates only); 1vs1: table talk."""
        return f"team-{'ab'[seat // 2]}" if self._teams(options) else "table"

    def chat_rules(self, options: Mapping[str, Any], seat: int) -> str | None:
        return f"{COMMUNICATION} {ENFORCED}" if self._teams(options) else TABLE_TALK

    def chat_refusal(
        self, game: Game[Any], options: Mapping[str, Any], view: Mapping[str, Any], text: str
    ) -> str | None:
        if not self._teams(options):
            return None
        return team_message_refusal(text, view, GAME.catalog(options))


ADAPTER = RivalesTable()
