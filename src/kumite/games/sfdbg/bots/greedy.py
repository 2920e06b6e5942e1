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

from kumite.core.game import Decision, Game
from kumite.games.sfdbg.bots.policy import CardValues, Policy, card_of, lateness, next_play
from kumite.games.sfdbg.game import GAME

#: Don't dilute the deck with cards worth less than this.
BUY_THRESHOLD = 1.2


class GreedySFDBG:
    name = "greedy"

    def __init__(self, values: CardValues, seed: int) -> None:
        self.values = values
        self.policy = Policy(values)
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        if decision.kind != "turn":
            return self.policy.answer(view, decision.kind, decision.legal)
        return self.turn(view, decision.legal)

    def turn(self, view: Mapping[str, Any], legal: tuple[str, ...]) -> str:
        takes = [c for c in legal if c.startswith("take:")]
        if takes:
            return takes[0]
        locations = [
            c for c in legal if c.startswith("play:") and self.values.card(c[5:]).is_location
        ]
        if locations:
            return locations[0]
        if "challenge" in legal:
            return "challenge"
        play = next_play(view, legal, self.values)
        if play is not None:
            return play
        buy = self.best_buy(view, legal)
        return buy if buy is not None else "end"

    def best_buy(self, view: Mapping[str, Any], legal: tuple[str, ...]) -> str | None:
        late = lateness(view)
        buys = [c for c in legal if c.startswith("buy:")]
        if not buys:
            return None

        def worth(choice: str) -> float:
            if choice == "buy:ultra":
                return self.values.buy("metsu-hadoken", late)
            card_id = card_of(choice)
            value = self.values.buy(card_id, late)
            if choice.startswith("buy:under:") and self.values.card(card_id).type == "Ultra":
                value += 0.5  # only we can buy it, but it is our Counter-Attack's key
            return value

        best = max(buys, key=lambda c: (worth(c), c))
        return best if worth(best) >= BUY_THRESHOLD else None


def make(game: Game[Any], options: Mapping[str, Any], seat: int, seed: int) -> GreedySFDBG:

    return GreedySFDBG(CardValues.of(GAME.catalog(options)), seed)
