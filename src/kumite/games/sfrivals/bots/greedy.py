"""A rule-based SF Rivals bot that uses only its own seat's view.

* Character: a seeded random pick.
* Set-up: sets aside its two least valuable cards (value = damage + the estimate model's
  worth of the power), covering the least valuable of the two.
* Each round: scores every legal card against each card the opponent could play (the
  revealed card if the opponent revealed first, else every unseen card the opponent may
  legally play, equally likely), using the game's own round resolution, and plays the best
  average. A KO is worth far more than damage; power effects on the next round count a
  little; among equals it keeps its most valuable cards for later.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kumite.core.game import Decision, Game
from kumite.games.sfrivals.cards import Card, Catalog
from kumite.games.sfrivals.choice import Play, SetUp
from kumite.games.sfrivals.estimate import power_value
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.resolve import Carry, resolve_round

KO = 100.0


def card_value(card: Card) -> float:
    effects = [
        {"op": e.op, "amount": e.amount, "if_opponent_printed": e.if_opponent_printed}
        for e in card.effects
    ]
    worth = float(card.damage + power_value(effects))
    if card.is_super:
        worth += 1.0
    return worth


class GreedySFRivals:
    name = "greedy"

    def __init__(self, catalog: Catalog, seat: int, seed: int) -> None:
        self.catalog = catalog
        self.seat = seat
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        if decision.kind == "character":
            return self.rng.choice(decision.legal)
        if decision.kind == "setup":
            return self._setup(decision)
        return self._play(view, decision)

    def _setup(self, decision: Decision) -> str:
        return min(decision.legal, key=lambda c: (*self._setup_key(c), self.rng.random()))

    def _setup_key(self, choice: str) -> tuple[float, float]:
        setup = SetUp.parse(choice)
        c, s = self.catalog.cards[setup.cover], self.catalog.cards[setup.shown]
        return (card_value(c) + card_value(s), card_value(c))

    def _play(self, view: Mapping[str, Any], decision: Decision) -> str:
        best: tuple[float, float, float] | None = None
        choice = decision.legal[0]
        for option, key in zip(decision.legal, self._play_keys(view, decision), strict=True):
            drawn = (*key, self.rng.random())
            if best is None or drawn > best:
                best, choice = drawn, option
        return choice

    def _play_keys(self, view: Mapping[str, Any], decision: Decision) -> list[tuple[float, float]]:
        """Each legal card's (mean score, -value / 100): the best is played."""
        seat = int(view["seat"])
        me, opp = view["players"][seat], view["players"][1 - seat]
        lives = (me["life"], opp["life"])
        carry = (_carry(me["carry"]), _carry(opp["carry"]))
        if opp["revealed"] is not None:
            candidates = [self.catalog.cards[opp["revealed"]]]
        else:
            candidates = self._opponent_options(view, opp)
        keys = []
        for option in decision.legal:
            card = self.catalog.cards[Play.parse(option).card]
            total = 0.0
            for theirs in candidates:
                total += self._score(card, theirs, carry, lives)
            keys.append((total / len(candidates), -card_value(card) * 0.01))
        return keys

    def probabilities(self, view: Mapping[str, Any], decision: Decision) -> dict[str, float]:
        """What :meth:`choose` plays, as probabilities: its ties are broken by a uniform
        random draw (for exact exploitability, kumite.envs.exploit)."""
        if decision.kind == "character":
            keys: list[Any] = [0] * len(decision.legal)
        elif decision.kind == "setup":
            keys = [tuple(-x for x in self._setup_key(c)) for c in decision.legal]
        else:
            keys = self._play_keys(view, decision)
        best = max(keys)
        tied = [c for c, k in zip(decision.legal, keys, strict=True) if k == best]
        return {c: 1.0 / len(tied) for c in tied}

    def _opponent_options(self, view: Mapping[str, Any], opp: Mapping[str, Any]) -> list[Card]:
        rules = self.catalog.rules
        out = []
        unseen = self.catalog.unseen(opp)
        for card in unseen:
            if card.is_super and view["round"] < rules.super_round_at_least:
                continue
            if card.is_ultra and opp["life"] > rules.ultra_life_at_most:
                continue
            out.append(card)
        return out or unseen

    def _score(
        self, mine: Card, theirs: Card, carry: tuple[Carry, Carry], lives: tuple[int, int]
    ) -> float:
        result = resolve_round((mine, theirs), carry, lives)
        my_life, their_life = result.lives
        if their_life == 0 and my_life > 0:
            return KO
        if my_life == 0 and their_life > 0:
            return -KO
        score = float(result.taken[1] - result.taken[0])
        score += 0.3 * (result.carry[0].bonus - result.carry[1].bonus)
        score += 0.5 * (int(result.reveal_first[1]) - int(result.reveal_first[0]))
        return score


def _carry(raw: Mapping[str, int]) -> Carry:
    return Carry(raw["initiative_next_round"], raw["lasting_initiative"], raw["lasting_damage"])


def make(game: Game[Any], options: Mapping[str, Any], seat: int, seed: int) -> GreedySFRivals:

    return GreedySFRivals(GAME.catalog(options), seat, seed)
