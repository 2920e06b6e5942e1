"""The balance lab's SF Deck-Building Game adapter: Super Heroes, cards played and bought.

Heroes are unique at a table (``entities_distinct``) and cards are shared by everyone
(``cards_per_entity = False``: a card's baseline is every seat). Plays and buys are read
from the game's history of choices (``play:<card>``, ``buy:lineup:<card>``,
``buy:under:<card>``, ``buy:kick``), so quiet simulation states need no events; ``when`` is
the seat's own turn number (its ``end`` choices counted). Face-down Ultra buys name no card
and are not counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kumite.core.game import Game, Outcome, State
from kumite.games.sfdbg.choice import KICK, Buy, End, Play, parse
from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.spec import SPEC
from kumite.sim.adapters import Adapter, GameSummary


class SFDBGAdapter(Adapter):
    limit_rules = frozenset({"sfdbg.ruling.round-limit"})

    def card_names(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
        return {c.id: c.name for c in GAME.catalog(options).cards}

    def fixed_entities(self, options: Mapping[str, Any]) -> bool:
        """Heroes chosen in the options, or hidden by the Secret Heroes variant: either way
        the lab cannot deal them itself."""
        return super().fixed_entities(options) or options.get("variant") == "secret-heroes"

    def with_entities(self, options: Mapping[str, Any], entities: Sequence[str]) -> dict[str, Any]:
        return {**super().with_entities(options, entities), "players": len(entities)}

    def summarize(self, state: State, outcome: Outcome) -> GameSummary:
        heroes = state.heroes  # type: ignore[attr-defined]
        hero_of = state.hero  # type: ignore[attr-defined]
        turns = [1] * state.num_players
        plays: list[tuple[int, str, int, str]] = []
        for step in state.history:
            for seat, choice in step.items():
                match parse(choice):
                    case End():
                        turns[seat] += 1
                    case Play(card=card):
                        plays.append((seat, card, turns[seat], "played"))
                    case Buy(zone="kick"):
                        plays.append((seat, KICK, turns[seat], "bought"))
                    case Buy(card=str(card)):
                        plays.append((seat, card, turns[seat], "bought"))
        entities = [heroes[h].id for h in hero_of]
        return GameSummary.of(outcome, max(turns) - 1, entities, plays)


ADAPTER = SFDBGAdapter(SPEC)
