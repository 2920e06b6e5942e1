"""The balance lab's SF Deck-Building Game adapter: Super Heroes, cards played and bought.

Heroes are unique at a table (``entities_distinct``) and cards are shared by everyone
(``cards_per_entity = False``: a card's baseline is every seat). Plays and buys are read
from the game's history of choices (``play:<card>``, ``buy:lineup:<card>``,
``buy:under:<card>``, ``buy:kick``), so quiet simulation states need no events; ``when`` is
the seat's own turn number (its ``end`` choices counted). Face-down Ultra buys name no card
and are not counted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kumite.core.game import Game, Outcome, State
from kumite.games.sfdbg.choice import KICK, Buy, End, Play, parse
from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.spec import SPEC
from kumite.sim.adapters import Adapter, GameSummary, Wording, said_once

WORDS = {1: "a", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
"""How the texts count things (``discards two cards``)."""


Phrase = tuple[Callable[[int], str], Callable[[int], str]]
"""A number's phrase in a text: its pattern, and the phrase, for a number."""


def _phrase(say: Callable[[int], str]) -> Phrase:
    return (lambda n: re.escape(say(n))), say


def _counted(singular: str, plural: str) -> Phrase:
    """``a card``, ``two cards``."""
    return _phrase(lambda n: f"a {singular}" if n == 1 else f"{WORDS[n]} {plural}")


PHRASES: dict[tuple[str, str], tuple[str, Phrase]] = {
    ("power", "amount"): ("", _phrase(lambda n: f"+{n} Power")),
    ("lose_power", "amount"): ("loses? ", _phrase(lambda n: f"{n} Power")),
    ("draw", "amount"): ("[Dd]raws? ", _counted("card", "cards")),
    ("discard", "amount"): ("discards? ", _counted("card", "cards")),
    ("gain_weakness", "amount"): ("gains? ", _counted("Weakness", "Weaknesses")),
    ("mill", "amount"): ("the top ", _phrase(lambda n: "card" if n == 1 else f"{WORDS[n]} cards")),
    ("*", "min_cost"): ("cost ", _phrase(lambda n: f"{n} or greater")),
}
"""Per (effect op, key): the words before the number in a text, and its phrase (what the
pack's reconstructed texts say; a number said otherwise is not moved)."""


class SFDBGAdapter(Adapter):
    limit_rules = frozenset({"sfdbg.ruling.round-limit"})
    effect_texts: Mapping[str, str] = {
        "play": "text",
        "defend": "text",
        "reaction": "text",
        "ongoing": "text",
        "counter": "counter_attack",
    }

    def wording(self, text: str, effect: Mapping[str, Any], key: str) -> Wording | None:
        """The phrase of an effect's number in its text (``+3 Power``, ``discards two
        cards``, ``gains a Weakness``, ``cost 1 or greater``, ``the top two cards``), if
        the text says that phrase exactly once; another number is said alike (1 to 6)."""
        rule = PHRASES.get((str(effect.get("op")), key)) or PHRASES.get(("*", key))
        value = effect.get(key)
        if rule is None or not isinstance(value, int) or value not in WORDS:
            return None
        lead, (pattern, say) = rule
        span = said_once(text, lead, pattern(value))
        if span is None:
            return None
        return *span, lambda n: say(n) if n in WORDS else None

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
