"""Kuhn poker (Kuhn 1950): three cards, one each, ante 1, one bet of 1. Value -1/18."""

from __future__ import annotations

from collections.abc import Sequence

from kumite.solve.efg import CHANCE, TERMINAL

CARDS = ("J", "Q", "K")
History = tuple[str, ...]
"""Dealt cards then betting actions: ``("K", "J", "pass", "bet", "bet")``."""


class KuhnPoker:
    name = "kuhn-poker"

    def root(self) -> History:
        return ()

    def player(self, h: History) -> int:
        if len(h) < 2:
            return CHANCE
        bets = h[2:]
        if bets in (
            ("pass", "pass"),
            ("bet", "bet"),
            ("bet", "pass"),
            ("pass", "bet", "pass"),
            ("pass", "bet", "bet"),
        ):
            return TERMINAL
        return len(bets) % 2

    def actions(self, h: History) -> Sequence[str]:
        return ("pass", "bet")

    def chance(self, h: History) -> Sequence[tuple[str, float]]:
        left = [c for c in CARDS if c not in h]
        return [(c, 1.0 / len(left)) for c in left]

    def child(self, h: History, action: str) -> History:
        return (*h, action)

    def returns(self, h: History) -> float:
        bets = h[2:]
        if bets == ("bet", "pass"):
            return 1.0
        if bets == ("pass", "bet", "pass"):
            return -1.0
        stake = 2.0 if "bet" in bets else 1.0
        return stake if CARDS.index(h[0]) > CARDS.index(h[1]) else -stake

    def infoset(self, h: History) -> str:
        p = self.player(h)
        return h[p] + ":" + ",".join(h[2:])
