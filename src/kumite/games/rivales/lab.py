"""The balance lab's Rivales adapter: fighters, and the cards each seat played.

Fighters may meet their mirror (only teammates must differ, in 2vs2), so matchup designs
take every ordered assignment the game allows. Plays are read from the history of choices
(``play:<card>``); ``when`` is the seat's own clash number over the whole fight. The four
basic cards are shared by every fighter, so a card's baseline is every seat
(``cards_per_entity = False``).

``kumite balance`` may move a number inside a card's effects (``--vary 'curie.*:effects.*.max'``)
where the card's text, written by kumite, says that number once in one of the phrases of
:data:`PHRASES`; the text is then said anew with the new number.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from kumite.core.game import Game, Outcome, State
from kumite.games.rivales.choice import Play, parse
from kumite.games.rivales.game import GAME
from kumite.games.rivales.spec import SPEC
from kumite.sim.adapters import Adapter, GameSummary, Wording, said_once

PHRASES: dict[tuple[str, str], tuple[str, str, str]] = {
    ("bonus", "amount"): ("", "+{n}", " {stat}"),
    ("next_card_bonus", "amount"): ("", "+{n}", " {stat}"),
    ("flip_energy_up", "amount"): ("[Uu]p to ", "{n}", " of your energy"),
    ("refresh", "amount"): ("[Uu]p to ", "{n}", " of your exhausted"),
    ("*", "max"): ("at most ", "+{n}", r"\)"),
    ("*", "every"): ("every ", "{n}", " of "),
    ("*", "min_energy"): ("", "{n}", " or more energy"),
    ("*", "min_exhausted"): ("", "{n}", " or more exhausted"),
}
"""Per (effect op, key): what comes before a number in a card's text, the number's phrase and
what follows it (``+1 Damage``, ``(at most +2)``, ``2 or more energy cards``, ``up to 2 of
your energy cards``) — how the pack's reconstructed texts say them; a number said otherwise
(``one of your exhausted cards``) is not moved."""
SAYABLE = range(1, 7)
"""The numbers a phrase says (a bonus of +0 or a cap of +0 is no card text)."""


class RivalesAdapter(Adapter):
    turn = "clash"
    limit_rules = frozenset({"rv.ruling.final-round"})
    effect_texts: Mapping[str, str] = {"effects": "text"}
    """A card's effects and its text; a fighter's passive is its character, never moved."""

    def wording(self, text: str, effect: Mapping[str, Any], key: str) -> Wording | None:
        """The phrase of an effect's number in its card's text (``+1 Damage``, ``at most +2``,
        ``2 or more energy``), if the text says it exactly once; another number (1 to 6)
        is said alike."""
        rule = PHRASES.get((str(effect.get("op")), key)) or PHRASES.get(("*", key))
        value = effect.get(key)
        if rule is None or not isinstance(value, int) or value not in SAYABLE:
            return None
        before, phrase, after = rule
        stat = str(effect.get("stat", "")).capitalize()
        span = said_once(text, before, re.escape(phrase.format(n=value)), after.format(stat=stat))
        if span is None:
            return None
        return *span, lambda n: phrase.format(n=n) if n in SAYABLE else None

    def card_names(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
        return {c.id: c.name for c in GAME.catalog(options).cards.values()}

    def card_labels(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
        catalog = GAME.catalog(options)
        owner = {c.id: f.name for f in catalog.fighters.values() for c in f.cards}
        basic = {c.id for c in catalog.basics}
        return {
            c.id: c.name if c.id in basic else f"{owner.get(c.id, '?')}: {c.name}"
            for c in catalog.cards.values()
        }

    def card_owners(self, game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
        """A fighter's unique cards and ultra are its own; the basic cards are everyone's."""
        catalog = GAME.catalog(options)
        basic = {c.id for c in catalog.basics}
        return {c.id: f.id for f in catalog.fighters.values() for c in f.cards if c.id not in basic}

    def admissible(self, options: Mapping[str, Any], entities: Sequence[str]) -> bool:
        """rv.2v2.different-fighters: teammates (the game's declared teams) play different
        fighters."""
        return all(
            len({entities[s] for s in team}) == len(team)
            for team in _teams(options.get("mode", "1v1"))
        )

    def summarize(self, state: State, outcome: Outcome) -> GameSummary:
        fighters = state.fighters  # type: ignore[attr-defined]
        clashes = [0] * state.num_players
        plays: list[tuple[int, str, int, str]] = []
        for step in state.history:
            for seat, choice in step.items():
                typed = parse(choice)
                if isinstance(typed, Play):
                    clashes[seat] += 1
                    plays.append((seat, typed.card, clashes[seat], "played"))
        entities = [f.id if f is not None else None for f in fighters]
        return GameSummary.of(outcome, max(clashes), entities, plays)


@functools.cache
def _teams(mode: str) -> tuple[tuple[int, ...], ...]:
    return GAME.new_state(0, {"mode": mode}).teams


ADAPTER = RivalesAdapter(SPEC)
