"""Reference (slow, recursive) of the tighter SF Rivals bounds: the test oracle of the
compiled :mod:`kumite.games.sfrivals.solver.bounds`, written as directly as possible from the
engine's pure functions (the proof is in docs/solver.md, "Tighter bounds").

Seat 0's guarantee against every seat-1 strategy, for a *secret set-up* ``(shown, S)``: the
cover is drawn uniformly from the card types ``S``; while two or more types of ``S`` remain
possible, seat 0 plays only cards it holds whatever the cover (*public* cards), or the
*S-move* — a card drawn uniformly from ``S`` minus its cover — after which that type is
ruled out; or it *switches* to committed play (its cover then taken as known to seat 1).
Seat 1 is committed to a cover of one *class* of its card types (a partition; adaptive
within the class), unknown to seat 0: values are vectors over the classes, and seat 0's
strategy at a position is the maximin strategy against every (class, card) column.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from kumite.games.sfrivals.cards import Card, Catalog, Character
from kumite.games.sfrivals.legal import fight_end, is_stuck, playable_cards, powerless_reason
from kumite.games.sfrivals.options import Options
from kumite.games.sfrivals.resolve import NO_CARRY, Carry, resolve_round
from kumite.solve.matrix_jit import _first_maximin_row, game_solution
from tests.games.sfrivals.solver.reference_fight import _minus, setup_hand

Hand = tuple[int, ...]
Vec = dict[int, float]
"""Class index -> seat 0's guaranteed value against a seat 1 whose cover is of that class."""


class ReferenceBounds:
    def __init__(
        self,
        catalog: Catalog,
        options: Options,
        characters: tuple[Character, Character],
        classes: Sequence[frozenset[int]],
    ) -> None:
        self.rules = catalog.rules
        self.options = options
        self.chars = characters
        self.classes = [frozenset(k) for k in classes]
        self.rounds = catalog.rules.hand
        self.end_fight = options.no_legal_card == "end-fight"
        self.memo: dict[tuple[object, ...], Vec] = {}

    # -- seat 1, adaptive within a class ------------------------------------------------
    def _covers(self, k: int, u1: Hand) -> list[int]:
        return [c for c in sorted(self.classes[k]) if u1[c] >= 1]

    def _legal1(self, k: int, u1: Hand, life: int, round: int) -> list[Card]:
        char = self.chars[1]
        found: dict[int, Card] = {}
        for c in self._covers(k, u1):
            for card in playable_cards(char, _minus(u1, c), life, round, self.rules, self.options):
                found[card.index] = card
        return [found[i] for i in sorted(found)]

    def _stop1(self, k: int, u1: Hand, lives: tuple[int, int], round: int) -> float | None:
        if not self.end_fight:
            return None
        char = self.chars[1]
        for c in self._covers(k, u1):
            if is_stuck(char, _minus(u1, c), lives[1], round, self.rules, self.options):
                return _by_life(lives)
        return None

    # -- the round ------------------------------------------------------------------------
    def _resolve(
        self, a: Card, b: Card, lives: tuple[int, int], carry: tuple[Carry, Carry]
    ) -> tuple[tuple[int, int], tuple[Carry, Carry], tuple[bool, bool]]:
        res = resolve_round(
            (a, b),
            carry,
            lives,
            powerless=(
                powerless_reason(a, lives[0], self.rules, self.options) if a.is_ultra else None,
                powerless_reason(b, lives[1], self.rules, self.options) if b.is_ultra else None,
            ),
            swap_printed=self.options.swap == "printed",
        )
        return res.lives, res.carry, res.reveal_first

    def _allowed(self, card: Card, life: int, round: int) -> bool:
        hand = tuple(int(c.index == card.index) for c in self.chars[0].cards)
        strict = Options(no_legal_card="end-fight", ultra_rule=self.options.ultra_rule)
        return bool(playable_cards(self.chars[0], hand, life, round, self.rules, strict))

    # -- committed seat 0 ---------------------------------------------------------------------
    def committed(
        self,
        h0: Hand,
        u1: Hand,
        lives: tuple[int, int],
        round: int = 1,
        carry: tuple[Carry, Carry] = (NO_CARRY, NO_CARRY),
        reveal: tuple[bool, bool] = (False, False),
    ) -> Vec:
        key = ("c", h0, u1, lives, round, carry, reveal)
        v = self.memo.get(key)
        if v is None:
            rows = [("card", c.index) for c in self._legal0(h0, lives[0], round)]
            v = self.memo[key] = self._node(
                rows,
                lambda r, b: self._committed_child(h0, u1, lives, round, carry, r[1], b),
                u1,
                lives,
                round,
                reveal,
                None,
            )
        return v

    def _legal0(self, h0: Hand, life: int, round: int) -> tuple[Card, ...]:
        return playable_cards(self.chars[0], h0, life, round, self.rules, self.options)

    def _committed_child(
        self,
        h0: Hand,
        u1: Hand,
        lives: tuple[int, int],
        round: int,
        carry: tuple[Carry, Carry],
        x: int,
        b: Card,
    ) -> Vec:
        a = self.chars[0].cards[x]
        nl, nc, nr = self._resolve(a, b, lives, carry)
        n0, n1 = _minus(h0, x), _minus(u1, b.index)
        nxt = round + 1
        stuck0 = self.end_fight and is_stuck(
            self.chars[0], n0, nl[0], nxt, self.rules, self.options
        )
        end = fight_end(nl, nxt, self.rounds, lambda: stuck0)
        if end is not None:
            return dict.fromkeys(range(len(self.classes)), _score(end.winner))
        return self.committed(n0, n1, nl, nxt, nc, nr)

    # -- secret seat 0 ------------------------------------------------------------------------
    def secret(
        self,
        u0: Hand,
        s: frozenset[int],
        u1: Hand,
        lives: tuple[int, int],
        round: int = 1,
        carry: tuple[Carry, Carry] = (NO_CARRY, NO_CARRY),
        reveal: tuple[bool, bool] = (False, False),
    ) -> Vec:
        if len(s) == 1:
            (c,) = s
            return self.committed(_minus(u0, c), u1, lives, round, carry, reveal)
        key = ("s", u0, s, u1, lives, round, carry, reveal)
        v = self.memo.get(key)
        if v is not None:
            return v
        char = self.chars[0]
        switch_parts = [
            self.committed(_minus(u0, c), u1, lives, round, carry, reveal) for c in sorted(s)
        ]
        switch = _mean(switch_parts)
        rows: list[tuple[str, int]] = [
            ("card", c.index)
            for c in char.cards
            if u0[c.index] >= 1 + (c.index in s) and self._allowed(c, lives[0], round)
        ]
        if all(self._allowed(char.cards[x], lives[0], round) for x in s):
            rows.append(("s", -1))
        if not rows:
            v = self.memo[key] = switch
            return v

        def child(r: tuple[str, int], b: Card) -> Vec:
            if r[0] == "card":
                return self._secret_child(u0, s, s, u1, lives, round, carry, r[1], b)
            parts = [
                self._secret_child(u0, s, s - {x}, u1, lives, round, carry, x, b) for x in sorted(s)
            ]
            return _mean(parts)

        def revealed(r: tuple[str, int], k: int, cards: list[Card]) -> float:
            """Seat 0 revealed the row's card first; class k's seat 1 answers it."""
            xs = [r[1]] if r[0] == "card" else sorted(s)
            out = []
            for x in xs:
                s2 = s if r[0] == "card" else s - {x}
                out.append(
                    min(
                        (
                            self._secret_child(u0, s, s2, u1, lives, round, carry, x, b)[k]
                            for b in cards
                        ),
                        default=np.inf,
                    )
                )
            return _avg(out)

        game = self._node(rows, child, u1, lives, round, reveal, revealed)
        v = (
            switch
            if _better(
                _worst(switch), _avg(list(switch.values())), _worst(game), _avg(list(game.values()))
            )
            else game
        )
        self.memo[key] = v
        return v

    def _secret_child(
        self,
        u0: Hand,
        s: frozenset[int],
        s2: frozenset[int],
        u1: Hand,
        lives: tuple[int, int],
        round: int,
        carry: tuple[Carry, Carry],
        x: int,
        b: Card,
    ) -> Vec:
        """Seat 0 plays type ``x`` (``s2``: the types still possible after it)."""
        if len(s2) == 1 or not self._regular(_minus(u0, x), s2, lives, round, carry, x, b):
            parts = [
                self._committed_child(_minus(u0, c), u1, lives, round, carry, x, b)
                for c in sorted(s2)
            ]
            return _mean(parts)
        a = self.chars[0].cards[x]
        nl, nc, nr = self._resolve(a, b, lives, carry)
        end = fight_end(nl, round + 1, self.rounds, lambda: False)
        if end is not None:
            return dict.fromkeys(range(len(self.classes)), _score(end.winner))
        return self.secret(_minus(u0, x), s2, _minus(u1, b.index), nl, round + 1, nc, nr)

    def _regular(
        self,
        n0: Hand,
        s2: frozenset[int],
        lives: tuple[int, int],
        round: int,
        carry: tuple[Carry, Carry],
        x: int,
        b: Card,
    ) -> bool:
        """After the round, seat 0 holds an allowed card whatever its cover."""
        a = self.chars[0].cards[x]
        nl, _, _ = self._resolve(a, b, lives, carry)
        nxt = round + 1
        char = self.chars[0]
        public = any(
            n0[c.index] >= 1 + (c.index in s2) and self._allowed(c, nl[0], nxt) for c in char.cards
        )
        return public or all(self._allowed(char.cards[y], nl[0], nxt) for y in s2)

    # -- one node: seat 0's rows against every (class, card) column ---------------------------
    def _node(self, rows, child, u1, lives, round, reveal, revealed) -> Vec:  # type: ignore[no-untyped-def]
        classes = [k for k in range(len(self.classes)) if self._covers(k, u1)]
        cols: list[tuple[int, Card | None]] = []
        for k in classes:
            for b in self._legal1(k, u1, lives[1], round):
                cols.append((k, b))
        stops = {k: self._stop1(k, u1, lives, round) for k in classes}
        cache: dict[tuple[int, int], Vec] = {}

        def entry(i: int, j: int) -> float:
            k, b = cols[j]
            assert b is not None
            got = cache.get((i, b.index))
            if got is None:
                got = cache[(i, b.index)] = child(rows[i], b)
            return got[k]

        m = np.array([[entry(i, j) for j in range(len(cols))] for i in range(len(rows))])
        m = m.reshape(len(rows), len(cols))
        out: Vec = {}
        if reveal[0]:
            per_row = []
            for i, r in enumerate(rows):
                vec = {}
                for k in classes:
                    cards = [b for kk, b in cols if kk == k]
                    if revealed is not None and r[0] == "s":
                        v = revealed(r, k, cards)
                    else:
                        v = min(
                            (m[i, j] for j in range(len(cols)) if cols[j][0] == k), default=np.inf
                        )
                    stop = stops[k]
                    vec[k] = v if stop is None else min(v, stop)
                per_row.append(vec)
            best = 0
            for i in range(1, len(rows)):
                if _better(
                    _worst(per_row[i]),
                    _avg(list(per_row[i].values())),
                    _worst(per_row[best]),
                    _avg(list(per_row[best].values())),
                ):
                    best = i
            out = dict(per_row[best])
        elif reveal[1]:
            for k in classes:
                out[k] = np.inf
            for j, (k, b) in enumerate(cols):
                assert b is not None
                js = [q for q, (_, bb) in enumerate(cols) if bb is not None and bb.index == b.index]
                arg = 0
                for i in range(1, len(rows)):
                    if _better(
                        min(m[i, q] for q in js),
                        _avg([m[i, q] for q in js]),
                        min(m[arg, q] for q in js),
                        _avg([m[arg, q] for q in js]),
                    ):
                        arg = i
                out[k] = min(out[k], float(m[arg, j]))
        else:
            found = game_solution(m)
            if found is None:
                sigma = np.zeros(len(rows))
                sigma[_first_maximin_row(m)] = 1.0
            else:
                sigma = found[1]
            for k in classes:
                out[k] = np.inf
            for j, (k, _) in enumerate(cols):
                pay = 0.0
                for i in range(len(rows)):
                    pay += sigma[i] * m[i, j]
                out[k] = min(out[k], pay)
        for k in classes:
            stop = stops[k]
            if stop is not None:
                out[k] = min(out[k], stop)
        return out


def _mean(parts: Sequence[Vec]) -> Vec:
    """The average of value vectors, over the classes all of them hold (summed in order,
    as the compiled code does, so that the floats are the same)."""
    common = set(parts[0]).intersection(*parts[1:])
    share = 1.0 / len(parts)
    out: Vec = {}
    for k in sorted(common):
        acc = 0.0
        for p in parts:
            acc += share * p[k]
        out[k] = acc
    return out


_TIE = 1e-9


def _better(worst: float, mean: float, best_worst: float, best_mean: float) -> bool:
    """The compiled code's choice rule: the larger worst case, ties (within 1e-9) broken
    by the larger mean over the classes."""
    if worst > best_worst + _TIE:
        return True
    return worst >= best_worst - _TIE and mean > best_mean + _TIE


def _avg(values: Sequence[float]) -> float:
    acc = 0.0
    for v in values:
        acc += v
    return acc / len(values)


def _worst(v: Vec) -> float:
    return min(v.values())


def _by_life(lives: tuple[int, int]) -> float:
    a, b = lives
    return 0.0 if a == b else (1.0 if a > b else -1.0)


def _score(winner: int | None) -> float:
    return 0.0 if winner is None else (1.0 if winner == 0 else -1.0)


def lower_matrix(
    ref: ReferenceBounds, sets: Sequence[tuple[int, frozenset[int]]]
) -> tuple[list[tuple[int, int]], np.ndarray]:
    """L[(shown, S), (class, shown of seat 1)] for the given secret set-ups."""
    a, b = ref.chars
    life = ref.rules.life
    cols = [
        (k, s1.index)
        for s1 in b.cards
        for k in range(len(ref.classes))
        if ref._covers(k, setup_hand(b, None, s1))
    ]
    out = []
    for shown, s in sets:
        u0 = setup_hand(a, None, a.cards[shown])
        row = {}
        for s1 in b.cards:
            vec = ref.secret(u0, s, setup_hand(b, None, s1), (life, life))
            for k, v in vec.items():
                row[(k, s1.index)] = v
        out.append([row[c] for c in cols])
    return cols, np.array(out)


def all_sets(char: Character, sizes: Sequence[int]) -> list[tuple[int, frozenset[int]]]:
    """Every secret set-up with |S| in ``sizes``: (shown, S) with S types still unseen."""
    out = []
    for shown in char.cards:
        u0 = setup_hand(char, None, shown)
        types = [c.index for c in char.cards if u0[c.index] >= 1]
        for n in sizes:
            for s in itertools.combinations(types, n):
                out.append((shown.index, frozenset(s)))
    return out
