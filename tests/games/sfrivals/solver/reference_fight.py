"""Reference (slow, recursive) solver of SF Rivals fights: the test oracle of the vectorised
:mod:`kumite.games.sfrivals.solver.fight`, written as directly as possible from the engine.

Exact values of SF Rivals fights once both set-ups are known.

After set-up, if both players' hands are known the fight is a simultaneous-move game of
perfect information: every round both choose a card at once (or one after the other when a
"reveal first" power applies), the round resolves deterministically, and the fight ends by
KO, when the cards run out, or when a player may play none of their cards. Its value (win
+1, draw 0, loss -1, for seat 0) is found by backward induction: a zero-sum matrix game at
every simultaneous round (:func:`kumite.solve.matrix.solve_matrix`: saddle point, 2x2
closed form or LP), max/min where one seat reveals first, memoised on the canonical state.

A seat may also be **adaptive**: it holds all its *unseen* cards (hand and life-gauge cover
together) and decides only at the end which one was the cover. Any committed player is one
strategy of the adaptive player, so an adaptive opponent is at least as strong as the real,
committed one: a value against an adaptive opponent is a *guarantee* for the other seat in
the real game, where it knows less. :mod:`kumite.games.sfrivals.solver.setup` builds the set-up
stage and its sound bounds from these values.

Every rule comes from the engine: :func:`~kumite.games.sfrivals.resolve.resolve_round`
resolves a round, :mod:`kumite.games.sfrivals.legal` says which cards may be played and
when the fight ends.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from kumite.games.sfrivals.cards import Card, Catalog, Character
from kumite.games.sfrivals.legal import fight_end, is_stuck, playable_cards, powerless_reason
from kumite.games.sfrivals.options import Options
from kumite.games.sfrivals.resolve import NO_CARRY, Carry, resolve_round
from kumite.solve.matrix import FloatArray, solve_matrix

Hand = tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Position:
    """A fight position at the start of a round (both seats about to choose)."""

    hands: tuple[Hand, Hand]
    """Copies per card type; for an adaptive seat, its unseen cards (hand + cover)."""
    lives: tuple[int, int] = (10, 10)
    round: int = 1
    carry: tuple[Carry, Carry] = (NO_CARRY, NO_CARRY)
    reveal_first: tuple[bool, bool] = (False, False)
    adaptive: tuple[bool, bool] = (False, False)

    def key(self) -> tuple[object, ...]:
        return (
            self.round,
            self.hands,
            self.lives,
            self.carry,
            self.reveal_first,
            self.adaptive,
        )


@dataclasses.dataclass(frozen=True, slots=True)
class NodeSolution:
    """The game of one round: both seats' cards, the payoff matrix of continuation values
    (seat 0's view), and optimal strategies."""

    cards: tuple[tuple[Card, ...], tuple[Card, ...]]
    matrix: FloatArray
    value: float
    strategies: tuple[FloatArray, FloatArray]
    """Optimal mixed strategy per seat over its ``cards`` (pure for a seat revealing first)."""
    stop_value: float | None = None
    """Value of the adaptive seat ending the fight now (``no_legal_card=end-fight``) if it may."""


class ReferenceSolver:
    """Backward induction over fight positions of one pairing of characters."""

    def __init__(
        self, catalog: Catalog, options: Options, characters: tuple[Character, Character]
    ) -> None:
        self.catalog = catalog
        self.rules = catalog.rules
        self.options = options
        self.chars = characters
        self.rounds = catalog.rules.hand
        self.swap_printed = options.swap == "printed"
        self.end_fight = options.no_legal_card == "end-fight"
        self.memo: dict[tuple[object, ...], float] = {}
        self.matrix_games = 0
        self.lp_games = 0

    # -- public ---------------------------------------------------------------------------
    def value(self, pos: Position) -> float:
        """Seat 0's value of ``pos`` (win +1, draw 0, loss -1) under optimal play."""
        if sum(pos.adaptive) > 1:
            raise ValueError("at most one seat may be adaptive")
        return self._value(
            pos.round, pos.hands, pos.lives, pos.carry, pos.reveal_first, pos.adaptive
        )

    def solve_node(self, pos: Position) -> NodeSolution:
        """The round game at ``pos`` with optimal strategies (for agents and hints)."""
        h0, h1 = pos.hands
        cards0 = self._legal(0, h0, pos.lives[0], pos.round, pos.adaptive[0])
        cards1 = self._legal(1, h1, pos.lives[1], pos.round, pos.adaptive[1])
        m = np.array(
            [
                [
                    self._child(pos.round, h0, h1, pos.lives, pos.carry, pos.adaptive, a, b)
                    for b in cards1
                ]
                for a in cards0
            ],
            dtype=np.float64,
        ).reshape(len(cards0), len(cards1))
        first0, first1 = pos.reveal_first
        if first0 or first1:
            if first0:
                worst = m.min(axis=1)
                i = int(worst.argmax())
                x = np.zeros(len(cards0))
                x[i] = 1.0
                y = np.zeros(len(cards1))
                y[int(m[i].argmin())] = 1.0
                value = float(worst[i])
            else:
                best = m.max(axis=0)
                j = int(best.argmin())
                y = np.zeros(len(cards1))
                y[j] = 1.0
                x = np.zeros(len(cards0))
                x[int(m[:, j].argmax())] = 1.0
                value = float(best[j])
            strategies = (x, y)
        else:
            sol = solve_matrix(m)
            value, strategies = sol.value, (sol.row, sol.col)
        stop = self._stop_value(h0, h1, pos.lives, pos.round, pos.adaptive)
        return NodeSolution((cards0, cards1), m, value, strategies, stop)

    def response(self, pos: Position, seat: int, opponent_card: Card) -> list[tuple[Card, float]]:
        """Continuation value (seat 0's view) of each card ``seat`` may play after the
        opponent revealed ``opponent_card`` first."""
        h0, h1 = pos.hands
        mine = self._legal(seat, pos.hands[seat], pos.lives[seat], pos.round, pos.adaptive[seat])
        out = []
        for c in mine:
            a, b = (c, opponent_card) if seat == 0 else (opponent_card, c)
            out.append(
                (c, self._child(pos.round, h0, h1, pos.lives, pos.carry, pos.adaptive, a, b))
            )
        return out

    # -- recursion ------------------------------------------------------------------------
    def _legal(
        self, seat: int, hand: Hand, life: int, round: int, adaptive: bool
    ) -> tuple[Card, ...]:
        char = self.chars[seat]
        if not adaptive:
            return playable_cards(char, hand, life, round, self.rules, self.options)
        # An adaptive seat may play whatever some choice of cover would let it play.
        found: dict[int, Card] = {}
        for cover in char.cards:
            if hand[cover.index]:
                for c in playable_cards(
                    char, _minus(hand, cover.index), life, round, self.rules, self.options
                ):
                    found[c.index] = c
        return tuple(found[i] for i in sorted(found))

    def _stop_value(
        self, h0: Hand, h1: Hand, lives: tuple[int, int], round: int, adaptive: tuple[bool, bool]
    ) -> float | None:
        """An adaptive seat whose cover could leave it holding only unplayable cards may end
        the fight now, as the committed player holding them would."""
        if not self.end_fight:
            return None
        for seat in (0, 1):
            if adaptive[seat]:
                hand = (h0, h1)[seat]
                char = self.chars[seat]
                for cover in char.cards:
                    if hand[cover.index] and is_stuck(
                        char,
                        _minus(hand, cover.index),
                        lives[seat],
                        round,
                        self.rules,
                        self.options,
                    ):
                        a, b = lives
                        return 0.0 if a == b else (1.0 if a > b else -1.0)
        return None

    def _value(
        self,
        round: int,
        hands: tuple[Hand, Hand],
        lives: tuple[int, int],
        carry: tuple[Carry, Carry],
        reveal: tuple[bool, bool],
        adaptive: tuple[bool, bool],
    ) -> float:
        key = (round, hands, lives, carry, reveal, adaptive)
        v = self.memo.get(key)
        if v is not None:
            return v
        h0, h1 = hands
        cards0 = self._legal(0, h0, lives[0], round, adaptive[0])
        cards1 = self._legal(1, h1, lives[1], round, adaptive[1])
        rows = [
            [self._child(round, h0, h1, lives, carry, adaptive, a, b) for b in cards1]
            for a in cards0
        ]
        if reveal[0]:
            v = max(min(r) for r in rows)
        elif reveal[1]:
            v = min(max(r[j] for r in rows) for j in range(len(cards1)))
        else:
            v = self._matrix_value(rows)
        stop = self._stop_value(h0, h1, lives, round, adaptive)
        if stop is not None:
            v = max(v, stop) if adaptive[0] else min(v, stop)
        self.memo[key] = v
        return v

    def _matrix_value(self, rows: Sequence[Sequence[float]]) -> float:
        self.matrix_games += 1
        row_min = max(min(r) for r in rows)
        col_max = min(max(r[j] for r in rows) for j in range(len(rows[0])))
        if row_min == col_max:
            return row_min
        self.lp_games += 1
        return solve_matrix(np.array(rows, dtype=np.float64)).value

    def _child(
        self,
        round: int,
        h0: Hand,
        h1: Hand,
        lives: tuple[int, int],
        carry: tuple[Carry, Carry],
        adaptive: tuple[bool, bool],
        a: Card,
        b: Card,
    ) -> float:
        rules, options = self.rules, self.options
        res = resolve_round(
            (a, b),
            carry,
            lives,
            powerless=(
                powerless_reason(a, lives[0], rules, options) if a.is_ultra else None,
                powerless_reason(b, lives[1], rules, options) if b.is_ultra else None,
            ),
            swap_printed=self.swap_printed,
        )
        n0, n1 = _minus(h0, a.index), _minus(h1, b.index)
        nxt = round + 1
        new_lives = res.lives
        end = fight_end(
            new_lives, nxt, self.rounds, lambda: self._stuck(n0, n1, new_lives, nxt, adaptive)
        )
        if end is not None:
            return 0.0 if end.winner is None else (1.0 if end.winner == 0 else -1.0)
        return self._value(nxt, (n0, n1), new_lives, res.carry, res.reveal_first, adaptive)

    def _stuck(
        self, h0: Hand, h1: Hand, lives: tuple[int, int], round: int, adaptive: tuple[bool, bool]
    ) -> bool:
        if not self.end_fight:
            return False
        c0, c1 = self.chars
        return (
            not adaptive[0] and is_stuck(c0, h0, lives[0], round, self.rules, self.options)
        ) or (not adaptive[1] and is_stuck(c1, h1, lives[1], round, self.rules, self.options))


def _minus(hand: Hand, index: int) -> Hand:
    out = list(hand)
    out[index] -= 1
    return tuple(out)


def setup_hand(char: Character, cover: Card | None, shown: Card) -> Hand:
    """The cards a set-up keeps: all ten but the shown card and the cover (None: keep the
    cover too — the unseen cards of an adaptive seat)."""
    hand = [c.copies for c in char.cards]
    hand[shown.index] -= 1
    if cover is not None:
        hand[cover.index] -= 1
    return tuple(hand)
