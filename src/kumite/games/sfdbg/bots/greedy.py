"""A rule-based SF DBG bot that uses only its own seat's view.

Each turn: put a defeated Stage into its hand when Cammy allows (and play it), challenge the
Stage Boss as soon as the Power allows (keeping the rest of the hand to defend against the
Boss's Counter-Attack), play its cards (Weaknesses first, then draws, Locations, Power, Attacks
— holding one Defense back while it attacks a foe who may Counter-Attack), then buy the card
worth most now (Power and draws early, VP late) while it is worth buying. Every forced
decision — defend or not and with what, what to discard or destroy, which foe, what to give or
name — is answered by :class:`~kumite.games.sfdbg.bots.policy.Policy`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kumite.agents.base import LAZY
from kumite.core.game import Decision, Game
from kumite.games.sfdbg.bots.policy import (
    CardValues,
    Policy,
    card_of,
    kind_of,
    lateness,
    next_play,
)
from kumite.games.sfdbg.choice import BUY_ULTRA, CHALLENGE, END, Buy, Play, Take
from kumite.games.sfdbg.game import GAME

#: Don't dilute the deck with cards worth less than this.
BUY_THRESHOLD = 1.2


class GreedySFDBG:
    name = "greedy"
    needs_view = LAZY
    """Most of a turn is decided from the legal choices alone (a Stage to take, Locations,
    the challenge, the play order): the view is built only to buy, to hold a Defense and
    for forced decisions."""

    def __init__(self, values: CardValues, seed: int) -> None:
        self.values = values
        self.policy = Policy(values)
        self.rng = random.Random(seed)
        self.locations = frozenset(
            Play(c.id).format() for c in values.catalog.cards if c.is_location
        )

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        if decision.kind != "turn":
            return self.policy.answer(view, decision.kind, decision.legal)
        return self.turn(view, decision.legal)

    def turn(self, view: Mapping[str, Any], legal: tuple[str, ...]) -> str:
        location = None
        for c in legal:
            if kind_of(c) is Take:
                return c
            if location is None and c in self.locations:
                location = c
        if location is not None:
            return location
        if CHALLENGE in legal:
            return CHALLENGE
        play = next_play(view, legal, self.values)
        if play is not None:
            return play
        buy = self.best_buy(view, legal)
        return buy if buy is not None else END

    def best_buy(self, view: Mapping[str, Any], legal: tuple[str, ...]) -> str | None:
        """The buy worth most now, if it is worth :data:`BUY_THRESHOLD`. A buy's worth is
        linear in how late the game is (0 to 1), so when one buy is clearly best both at the
        start and at the end it is best all along, and the view (how late it is) is read only
        when the answer hangs on it."""
        buys = [c for c in legal if kind_of(c) is Buy]
        if not buys:
            return None
        start = [self.worth(c, 0.0) for c in buys]
        end = [self.worth(c, 1.0) for c in buys]
        first = _clear_best(start)
        if first is not None and first == _clear_best(end):
            low, high = min(start[first], end[first]), max(start[first], end[first])
            if low >= BUY_THRESHOLD + _MARGIN:
                return buys[first]
            if high < BUY_THRESHOLD - _MARGIN:
                return None
        late = lateness(view)
        best = max(buys, key=lambda c: (self.worth(c, late), c))
        return best if self.worth(best, late) >= BUY_THRESHOLD else None

    def worth(self, choice: str, late: float) -> float:
        if choice == BUY_ULTRA:
            return self.values.buy("metsu-hadoken", late)
        card_id = card_of(choice)
        value = self.values.buy(card_id, late)
        if Buy.parse(choice).zone == "under" and self.values.card(card_id).type == "Ultra":
            value += 0.5  # only we can buy it, but it is our Counter-Attack's key
        return value


#: Worths this close are taken as equal by the shortcut of ``best_buy`` (rounding).
_MARGIN = 1e-9


def _clear_best(worths: list[float]) -> int | None:
    """The index of the largest worth if it beats every other by more than the margin."""
    best = max(range(len(worths)), key=worths.__getitem__)
    if any(w > worths[best] - _MARGIN for i, w in enumerate(worths) if i != best):
        return None
    return best


def make(game: Game[Any], options: Mapping[str, Any], seat: int, seed: int) -> GreedySFDBG:

    return GreedySFDBG(CardValues.of(GAME.catalog(options)), seed)
