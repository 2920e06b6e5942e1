"""Leduc hold'em (Southey et al. 2005), as in OpenSpiel's ``leduc_poker``.

Six cards (J, Q, K in two suits); ante 1; a private card each, a betting round (raise 2),
a public card, a second betting round (raise 4); at most two raises per round. A pair with
the public card wins, else the higher private card; equal cards split the pot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from kumite.solve.efg import CHANCE, TERMINAL

DECK = ("J1", "J2", "Q1", "Q2", "K1", "K2")
RANK = {"J": 0, "Q": 1, "K": 2}


class History(NamedTuple):
    cards: tuple[str, ...]
    """Private card of player 0, of player 1, then the public card."""
    rounds: tuple[tuple[str, ...], ...]
    """Betting actions (``f``, ``c``, ``r``) of each round so far."""


def _round_over(bets: tuple[str, ...]) -> bool:
    return bool(bets) and (bets[-1] == "f" or (bets[-1] == "c" and len(bets) >= 2))


class LeducPoker:
    name = "leduc-poker"

    def root(self) -> History:
        return History((), ((),))

    def player(self, h: History) -> int:
        bets = h.rounds[-1]
        if bets and bets[-1] == "f":
            return TERMINAL
        if len(h.cards) < 2:
            return CHANCE
        if _round_over(bets):
            return TERMINAL if len(h.rounds) == 2 else CHANCE
        return len(bets) % 2

    def actions(self, h: History) -> Sequence[str]:
        bets = h.rounds[-1]
        facing = bets.count("r") > 0 and bets[-1] == "r"
        out = ["f"] if facing else []
        out.append("c")
        if bets.count("r") < 2:
            out.append("r")
        return out

    def chance(self, h: History) -> Sequence[tuple[str, float]]:
        left = [c for c in DECK if c not in h.cards]
        return [(c, 1.0 / len(left)) for c in left]

    def child(self, h: History, action: str) -> History:
        if self.player(h) == CHANCE:
            cards = (*h.cards, action)
            rounds = h.rounds if len(cards) <= 2 else (*h.rounds, ())
            return History(cards, rounds)
        return History(h.cards, (*h.rounds[:-1], (*h.rounds[-1], action)))

    def _contributions(self, h: History) -> list[float]:
        put = [1.0, 1.0]
        for n, bets in enumerate(h.rounds):
            size = 2.0 if n == 0 else 4.0
            for k, a in enumerate(bets):
                p = k % 2
                if a == "c":
                    put[p] = put[1 - p]
                elif a == "r":
                    put[p] = put[1 - p] + size
        return put

    def returns(self, h: History) -> float:
        put = self._contributions(h)
        bets = h.rounds[-1]
        if bets and bets[-1] == "f":
            folder = (len(bets) - 1) % 2
            return -put[0] if folder == 0 else put[1]
        a, b, pub = (RANK[c[0]] for c in h.cards)
        s0 = (1, a) if a == pub else (0, a)
        s1 = (1, b) if b == pub else (0, b)
        if s0 == s1:
            return 0.0
        return put[1] if s0 > s1 else -put[0]

    def infoset(self, h: History) -> str:
        p = self.player(h)
        own = h.cards[p][0]
        pub = h.cards[2][0] if len(h.cards) > 2 else ""
        return f"{own}{pub}:" + "/".join("".join(r) for r in h.rounds)
