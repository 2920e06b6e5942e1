"""Exact values of SF Rivals fights once both set-ups are known.

After set-up, if both players' hands are known the fight is a simultaneous-move game of
perfect information: every round both choose a card at once (or one after the other when a
"reveal first" power applies), the round resolves deterministically, and the fight ends by
KO, when the cards run out, or when a player may play none of their cards. Its value (win
+1, draw 0, loss -1, for seat 0) is found by backward induction — a zero-sum matrix game
at every simultaneous round, max/min where a seat reveals first — memoised on the
canonical state (round, hands, lives, carried bonuses, reveal-first flags).

The induction goes round by round over numpy arrays of packed integer keys; its inner
loops are compiled (:mod:`.kernels`): a forward pass finds every state reachable from the
roots and records where each state's children are, a backward pass values them, deepest
round first, solving each state's matrix game on the spot (games whose compiled solution
fails its check go to the numpy twin :meth:`FightSolver._evaluate` and the LP). Large
rounds use all of Numba's threads (``NUMBA_NUM_THREADS``); the values never depend on it.
The kernels only read tables built *by calling the engine's pure functions*
(:func:`~kumite.games.sfrivals.resolve.resolve_round`,
:func:`~kumite.games.sfrivals.legal.playable_cards`, :func:`~.legal.is_stuck`,
:func:`~.legal.fight_end`, :func:`~.legal.powerless_reason`), filled on demand, so no rule
is written twice.

A seat may also be **adaptive**: it holds all its *unseen* cards (hand and cover together)
and decides only at the end which one was the cover. Every committed player is one strategy
of the adaptive player, so a value against an adaptive opponent is a *guarantee* for the
other seat in the real game, where it knows less (see :mod:`kumite.games.sfrivals.solver.setup`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray

from kumite.games.sfrivals.cards import Card, Catalog, Character
from kumite.games.sfrivals.legal import fight_end, is_stuck, playable_cards, powerless_reason
from kumite.games.sfrivals.options import Options
from kumite.games.sfrivals.resolve import NO_CARRY, Carry, resolve_round
from kumite.games.sfrivals.solver import background, kernels
from kumite.games.sfrivals.solver.resident import array_bytes
from kumite.solve.matrix import FloatArray, solve_matrix, solve_matrix_batch
from kumite.solve.matrix_jit import game_solution

Hand = tuple[int, ...]
I64 = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

# Packed state key: round | hand0 | hand1 | life0 | life1 | carry pair | reveal | adaptive;
# above the round, a committed opponent's cover (card index + 1) in :mod:`.certify`'s states
_AD, _RF, _CP, _L1, _L0, _H1, _H0, _R, _COVER = 0, 2, 4, 14, 19, 24, 36, 48, 52
_MAX_PAIRS = 1 << 10
_CHUNK = 60_000
_PARALLEL_FROM = 20_000
"""States in a round from which its passes use all of Numba's threads: a parallel loop
waits for every thread to be scheduled, which on a busy machine costs more than a small
round's work."""
_POWERLESS = ("", "")


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


@dataclasses.dataclass(frozen=True, slots=True)
class NodeSolution:
    """The game of one round: both seats' playable cards, the matrix of continuation
    values (seat 0's view) and optimal strategies."""

    cards: tuple[tuple[Card, ...], tuple[Card, ...]]
    matrix: FloatArray
    value: float
    strategies: tuple[FloatArray, FloatArray]
    """Optimal mixed strategy per seat over its ``cards`` (pure for a seat revealing first;
    for the seat answering it, its best answer to the first seat's optimal card)."""
    stop_value: float | None = None
    """Value of the adaptive seat ending the fight now, if it may (see module doc)."""


@dataclasses.dataclass(frozen=True, slots=True)
class _Round:
    """One round of an induction between its forward and backward passes."""

    states: I64
    """Every state of the round met: the last round's children (in their order), then
    roots; the last round's cells point into this."""
    known: BoolArray | None
    """Which of ``states`` an earlier call solved (None: none)."""
    todo: I64
    """The others: expanded, and valued by the backward pass."""
    cells: NDArray[np.int32]
    """The round game of each of ``todo``, from :func:`.kernels.expand`."""
    starts: I64


class CharacterTables:
    """One character's rule tables that do not depend on the opponent, filled from the
    engine's pure functions (``playable_cards``, ``is_stuck``) on demand, in the layout the
    kernels read: ``legal[round, hand code, life, adaptive]`` and ``stuck[round, hand code,
    life]`` (:mod:`.kernels`). Fight solvers of the same character and options may share one
    (the batched engine does: every pairing with the character reads the same entries)."""

    def __init__(self, catalog: Catalog, options: Options, char: Character) -> None:
        self.char = char
        self.rules = catalog.rules
        self.options = options
        self.rounds = catalog.rules.hand
        self.life_max = catalog.rules.life
        self.radix = _radix(char)
        codes = int(np.prod([c.copies + 1 for c in char.cards]))
        self.legal = np.zeros((self.rounds + 2, codes, self.life_max + 1, 2), dtype=np.int32)
        self.stuck = np.full((self.rounds + 2, codes, self.life_max + 1), kernels.UNKNOWN, np.int8)
        self._legal_cache: dict[tuple[int, int, int, int], tuple[BoolArray, bool]] = {}
        self._stuck_cache: dict[tuple[int, int, int], bool] = {}

    def resident_bytes(self) -> int:
        """What the tables and their memos hold, about (:mod:`.resident`)."""
        return (
            array_bytes(self.legal, self.stuck)
            + 400 * len(self._legal_cache)
            + 150 * len(self._stuck_cache)
        )

    def release(self) -> None:
        """Drop the memos of the engine's answers (the tables keep the entries filled)."""
        self._legal_cache.clear()
        self._stuck_cache.clear()

    def legal_entry(
        self, code: int, life: int, round: int, adaptive: int
    ) -> tuple[BoolArray, bool]:
        """The playable card types of hand ``code`` (a mask), and whether an adaptive seat
        may end the fight there."""
        key = (code, life, round, adaptive)
        hit = self._legal_cache.get(key)
        if hit is not None:
            return hit
        char = self.char
        hand = _decode(code, self.radix, char)
        mask = np.zeros(len(char.cards), dtype=bool)
        stop = False
        if not adaptive:
            for c in playable_cards(char, hand, life, round, self.rules, self.options):
                mask[c.index] = True
        else:
            # An adaptive seat may play whatever some choice of cover would let it play,
            # and end the fight where some choice of cover would leave it stuck.
            for cover in char.cards:
                if hand[cover.index]:
                    rest = _minus(hand, cover.index)
                    for c in playable_cards(char, rest, life, round, self.rules, self.options):
                        mask[c.index] = True
                    if self.options.no_legal_card == "end-fight" and is_stuck(
                        char, rest, life, round, self.rules, self.options
                    ):
                        stop = True
        self._legal_cache[key] = (mask, stop)
        return mask, stop

    def is_stuck(self, code: int, life: int, round: int) -> bool:
        key = (code, life, round)
        hit = self._stuck_cache.get(key)
        if hit is None:
            hand = _decode(code, self.radix, self.char)
            hit = self._stuck_cache[key] = is_stuck(
                self.char, hand, life, round, self.rules, self.options
            )
        return hit

    def set_legal(self, round: int, code: int, life: int, adaptive: int) -> None:
        mask, stop = self.legal_entry(code, life, round, adaptive)
        bits = sum(1 << c for c, ok in enumerate(mask.tolist()) if ok)
        self.legal[round, code, life, adaptive] = (
            kernels.LEGAL_DONE | bits | (kernels.LEGAL_STOP if stop else 0)
        )

    def fill_wanted(self, round: int) -> None:
        """The legal entries of ``round`` marked :data:`.kernels.LEGAL_WANTED`."""
        tab = self.legal[round]
        for code, life, adaptive in zip(*np.nonzero(tab == kernels.LEGAL_WANTED), strict=True):
            self.set_legal(round, int(code), int(life), int(adaptive))

    def fill_stuck(self, round: int) -> None:
        """The stuck entries of ``round`` marked :data:`.kernels.WANTED`."""
        tab = self.stuck[round]
        codes, lives = np.nonzero(tab == kernels.WANTED)
        for code, life in zip(codes.tolist(), lives.tolist(), strict=True):
            tab[code, life] = self.is_stuck(code, life, round)

    def fill_committed(self) -> None:
        """Every entry a committed seat can meet: each hand at the round its size implies
        (``hand - round + 1`` cards), every life above 0 — so that simulations never stop
        for one (the batched engine). About 10^4 engine calls per character."""
        copies = [c.copies for c in self.char.cards]
        end_fight = self.options.no_legal_card == "end-fight"
        for code in range(self.legal.shape[1]):
            size = sum((code // r) % (n + 1) for r, n in zip(self.radix, copies, strict=True))
            r = self.rounds - size + 1
            if not 1 <= r <= self.rounds:
                continue
            for life in range(1, self.life_max + 1):
                if self.legal[r, code, life, 0] & kernels.LEGAL_DONE == 0:
                    self.set_legal(r, code, life, 0)
                if end_fight and self.stuck[r, code, life] < 0:
                    self.stuck[r, code, life] = self.is_stuck(code, life, r)


class FightSolver:
    """Backward induction over the fight positions of one pairing of characters.

    Solved states are kept (per round, sorted keys and values), so later calls reuse them.
    """

    def __init__(
        self,
        catalog: Catalog,
        options: Options,
        characters: tuple[Character, Character],
        *,
        uniform_seat: int | None = None,
        seat_tables: tuple[CharacterTables, CharacterTables] | None = None,
    ) -> None:
        """``uniform_seat``: instead of optimal play, that seat plays uniformly at random
        among its legal cards and the other seat best-responds (knowing everything) — the
        exact best response to the ``random`` agent. ``seat_tables``: both characters'
        :class:`CharacterTables` (of these options), shared with other solvers; by default
        the solver makes its own."""
        self.uniform_seat = uniform_seat
        self.catalog = catalog
        self.rules = catalog.rules
        self.options = options
        self.chars = characters
        self.rounds = catalog.rules.hand
        self.life_max = catalog.rules.life
        if self.life_max > 31:
            raise ValueError("life above 31 does not fit the packed state")
        if self.rounds > 14:
            raise ValueError("more than 14 rounds do not fit the packed state")
        self.swap_printed = options.swap == "printed"
        self.end_fight = options.no_legal_card == "end-fight"
        self.types = tuple(len(c.cards) for c in characters)
        self.width = max(self.types)
        self.radix = tuple(_radix(c) for c in characters)
        self.powerless = tuple(self._powerless_table(c) for c in characters)
        self.ultra = tuple(np.array([c.is_ultra for c in ch.cards]) for ch in characters)
        self._pairs: dict[tuple[Carry, Carry], int] = {}
        self._pair_list: list[tuple[Carry, Carry]] = []
        shape = (_MAX_PAIRS, self.types[0], self.types[1], 2, 2)
        self._taken0 = np.zeros(shape, dtype=np.int16)
        self._taken1 = np.zeros(shape, dtype=np.int16)
        self._next_pair = np.zeros(shape, dtype=np.int16)
        self._reveal = np.zeros(shape, dtype=np.int8)
        self._pair_done = np.zeros(_MAX_PAIRS, dtype=bool)
        self._end_table = self._build_end_table()
        # dense tables the compiled kernels read, filled on demand from the engine
        if seat_tables is None:
            seat_tables = (
                CharacterTables(catalog, options, characters[0]),
                CharacterTables(catalog, options, characters[1]),
            )
        if tuple(t.char for t in seat_tables) != tuple(characters):
            raise ValueError("seat tables of other characters")
        self.seat_tables = seat_tables
        self._legal_tab = (seat_tables[0].legal, seat_tables[1].legal)
        self._stuck_tab = (seat_tables[0].stuck, seat_tables[1].stuck)
        self._radix_arr = tuple(np.asarray(r, dtype=np.int64) for r in self.radix)
        self._copies = tuple(
            np.asarray([c.copies for c in ch.cards], dtype=np.int64) for ch in characters
        )
        self.tables = kernels.Tables(
            legal0=self._legal_tab[0],
            legal1=self._legal_tab[1],
            stuck0=self._stuck_tab[0],
            stuck1=self._stuck_tab[1],
            radix0=self._radix_arr[0],
            radix1=self._radix_arr[1],
            copies0=self._copies[0],
            copies1=self._copies[1],
            powerless0=self.powerless[0],
            powerless1=self.powerless[1],
            taken0=self._taken0,
            taken1=self._taken1,
            next_pair=self._next_pair,
            reveal=self._reveal,
            end_table=self._end_table,
            rounds=self.rounds,
            end_fight=self.end_fight,
        )
        """The rule tables, as the compiled kernels take them (filled in place)."""
        self.levels: dict[int, tuple[I64, FloatArray]] = {}
        self.states_solved = 0

    # -- public ---------------------------------------------------------------------------
    def key(self, pos: Position) -> int:
        if sum(pos.adaptive) > 1:
            raise ValueError("at most one seat may be adaptive")
        if not all(0 <= life <= self.life_max for life in pos.lives):
            raise ValueError(f"lives {pos.lives} outside 0..{self.life_max}")
        pair = self._pair_code(pos.carry)
        return int(
            _pack(
                pos.round,
                _encode(pos.hands[0], self.radix[0]),
                _encode(pos.hands[1], self.radix[1]),
                pos.lives[0],
                pos.lives[1],
                pair,
                int(pos.reveal_first[0]) + 2 * int(pos.reveal_first[1]),
                int(pos.adaptive[0]) + 2 * int(pos.adaptive[1]),
            )
        )

    def values(self, positions: Sequence[Position]) -> FloatArray:
        """Seat 0's value of each position (win +1, draw 0, loss -1) under optimal play."""
        keys = np.array([self.key(p) for p in positions], dtype=np.int64)
        rounds = np.array([p.round for p in positions], dtype=np.int64)
        missing = [
            int(r) for r in np.unique(rounds) if not self._all_known(int(r), keys[rounds == r])
        ]
        if missing:
            background.may_solve(min(missing))
            # blocks of states handed out one by one: a thread the OS holds back delays no one
            with numba.parallel_chunksize(1):
                self._solve(keys, rounds)
        out = np.empty(len(positions))
        for r in np.unique(rounds):
            sel = rounds == r
            out[sel] = self._lookup(int(r), keys[sel])
        return out

    def value(self, pos: Position) -> float:
        return float(self.values([pos])[0])

    def key_values(self, keys: I64) -> FloatArray:
        """:meth:`values` of packed committed states (``pack_keys``; not over): for
        simulators and the exploitability tool, which hold keys, not positions."""
        keys = np.asarray(keys, dtype=np.int64)
        if not len(keys):
            return np.zeros(0)
        rounds = (keys >> _R) & 15
        with numba.parallel_chunksize(1):
            self._solve(keys, rounds)
        out = np.empty(len(keys))
        for r in np.unique(rounds):
            sel = rounds == r
            out[sel] = self._lookup(int(r), keys[sel])
        return out

    def solve_node(self, pos: Position) -> NodeSolution:
        """The round game at ``pos``, with optimal strategies (for agents and hints)."""
        key = self.key(pos)
        v = self.value(pos)
        keys = np.array([key], dtype=np.int64)
        legal0, legal1, stop = self._legal_masks(keys)
        _, i, j, child, term = self._children(keys, legal0, legal1)
        vals = self._child_values(pos.round, child, term)
        cards0 = tuple(c for c in self.chars[0].cards if legal0[0, c.index])
        cards1 = tuple(c for c in self.chars[1].cards if legal1[0, c.index])
        pos0 = {c.index: k for k, c in enumerate(cards0)}
        pos1 = {c.index: k for k, c in enumerate(cards1)}
        m = np.zeros((len(cards0), len(cards1)))
        for a, b, x in zip(i, j, vals, strict=True):
            m[pos0[int(a)], pos1[int(b)]] = x
        first0, first1 = pos.reveal_first
        if first0:
            worst = m.min(axis=1)
            k = int(worst.argmax())
            strategies = (_unit(len(cards0), k), _unit(len(cards1), int(m[k].argmin())))
        elif first1:
            best = m.max(axis=0)
            k = int(best.argmin())
            strategies = (_unit(len(cards0), int(m[:, k].argmax())), _unit(len(cards1), k))
        else:
            # the compiled solution (what :mod:`.certify` assumes), else the LP
            background.may_compute()
            found = game_solution(m)
            if found is None:
                sol = solve_matrix(m)
                strategies = (sol.row, sol.col)
            else:
                strategies = (found[1], found[2])
        stop_value = self._stop_value(pos.lives) if stop[0] else None
        return NodeSolution((cards0, cards1), m, v, strategies, stop_value)

    # -- the rule tables, for simulators (docs/solver.md, "The rule tables for simulators")
    def prepare(self, round: int, states: I64) -> None:
        """Fill every table entry the states ``states`` of round ``round`` need to be
        stepped (:func:`.kernels.round_ready` is then true for them)."""
        self._prepare(round, states)

    def fill_committed(self) -> None:
        """Fill, up front, every entry committed play can meet: both characters' legal and
        stuck entries (:meth:`CharacterTables.fill_committed`) and the transitions of every
        carried-bonus pair reachable within the fight's rounds."""
        for tables in self._distinct_tables():
            tables.fill_committed()
        self._pair_code((NO_CARRY, NO_CARRY))
        for _ in range(self.rounds):  # a pair met after round r carries into round r + 1
            self._ensure_pairs(np.arange(len(self._pair_list), dtype=np.int64))

    @property
    def pairs_filled(self) -> BoolArray:
        """Per carried-bonus pair code: its transitions are in the tables (kernels read it)."""
        return self._pair_done

    def pair_code(self, carry: tuple[Carry, Carry]) -> int:
        """The code of both seats' carried bonuses in packed states (made if new)."""
        return self._pair_code(carry)

    def carry_pair(self, code: int) -> tuple[Carry, Carry]:
        """The carried bonuses of pair ``code``."""
        return self._pair_list[code]

    # -- tables built from the engine --------------------------------------------------------
    def _powerless_table(self, char: Character) -> BoolArray:
        out = np.zeros((len(char.cards), self.life_max + 1), dtype=bool)
        for c in char.cards:
            for life in range(self.life_max + 1):
                out[c.index, life] = powerless_reason(c, life, self.rules, self.options) is not None
        return out

    def _build_end_table(self) -> FloatArray:
        """Value of the end of a fight by (life0, life1, cards run out, seat stuck); NaN
        where the fight goes on."""
        return _end_table(self.life_max, self.rounds).copy()

    def _stop_value(self, lives: tuple[int, int]) -> float:
        return float(self._end_table[lives[0], lives[1], 0, 1])

    def _pair_code(self, pair: tuple[Carry, Carry]) -> int:
        code = self._pairs.get(pair)
        if code is None:
            code = len(self._pair_list)
            if code >= _MAX_PAIRS:
                raise RuntimeError("too many distinct carried bonuses")
            self._pairs[pair] = code
            self._pair_list.append(pair)
        return code

    def _ensure_pairs(self, codes: I64) -> None:
        for p in np.unique(codes):
            if self._pair_done[p]:
                continue
            carry = self._pair_list[int(p)]
            for a in self.chars[0].cards:
                for b in self.chars[1].cards:
                    for pl0 in (0, 1) if a.is_ultra else (0,):
                        for pl1 in (0, 1) if b.is_ultra else (0,):
                            res = resolve_round(
                                (a, b),
                                carry,
                                (99, 99),
                                powerless=(
                                    _POWERLESS if pl0 else None,
                                    _POWERLESS if pl1 else None,
                                ),
                                swap_printed=self.swap_printed,
                            )
                            idx = (int(p), a.index, b.index, pl0, pl1)
                            self._taken0[idx] = res.taken[0]
                            self._taken1[idx] = res.taken[1]
                            self._next_pair[idx] = self._pair_code(res.carry)
                            self._reveal[idx] = int(res.reveal_first[0]) + 2 * int(
                                res.reveal_first[1]
                            )
            self._pair_done[p] = True

    def _legal_masks(self, keys: I64) -> tuple[BoolArray, BoolArray, BoolArray]:
        """Legal cards of each seat, and whether an adaptive seat may end the fight now."""
        r, h0, h1, l0, l1, _, _, ad = _unpack(keys)
        out = []
        stop = np.zeros(len(keys), dtype=bool)
        for seat, hand, life in ((0, h0, l0), (1, h1, l1)):
            adaptive = (ad >> seat) & 1
            combo = (((hand * 32 + life) * 32 + r) * 2) + adaptive
            uniq, inv = np.unique(combo, return_inverse=True)
            masks = np.zeros((len(uniq), self.types[seat]), dtype=bool)
            stops = np.zeros(len(uniq), dtype=bool)
            for u, c in enumerate(uniq.tolist()):
                masks[u], stops[u] = self._legal(seat, c >> 11, (c >> 6) & 31, (c >> 1) & 31, c & 1)
            out.append(masks[inv])
            stop |= stops[inv]
        return out[0], out[1], stop

    def _legal(
        self, seat: int, code: int, life: int, round: int, adaptive: int
    ) -> tuple[BoolArray, bool]:
        return self.seat_tables[seat].legal_entry(code, life, round, adaptive)

    def _stuck(self, seat: int, hand: I64, life: I64, round: int) -> BoolArray:
        combo = hand * 32 + life
        uniq, inv = np.unique(combo, return_inverse=True)
        res = np.zeros(len(uniq), dtype=bool)
        tables = self.seat_tables[seat]
        for u, c in enumerate(uniq.tolist()):
            res[u] = tables.is_stuck(c >> 5, c & 31, round)
        return res[inv]

    # -- the induction --------------------------------------------------------------------
    def _children(
        self, keys: I64, legal0: BoolArray, legal1: BoolArray
    ) -> tuple[I64, I64, I64, I64, FloatArray]:
        """Every (state, card0, card1) with its child key (-1 if the fight ends) and the
        terminal value (NaN if it goes on)."""
        r, h0, h1, l0, l1, cp, _, ad = _unpack(keys)
        self._ensure_pairs(cp)
        parent, i, j = np.nonzero(legal0[:, :, None] & legal1[:, None, :])
        l0p, l1p, cpp = l0[parent], l1[parent], cp[parent]
        pl0 = self.powerless[0][i, l0p].astype(np.int64)
        pl1 = self.powerless[1][j, l1p].astype(np.int64)
        t0, t1 = self.types
        idx = (((cpp * t0 + i) * t1 + j) * 2 + pl0) * 2 + pl1
        nl0 = np.maximum(l0p - self._taken0.ravel().take(idx), 0)
        nl1 = np.maximum(l1p - self._taken1.ravel().take(idx), 0)
        nh0 = h0[parent] - np.asarray(self.radix[0])[i]
        nh1 = h1[parent] - np.asarray(self.radix[1])[j]
        rnd = int(r[0])
        nxt = rnd + 1
        over = int(nxt > self.rounds)
        stuck = np.zeros(len(parent), dtype=np.int64)
        alive = (nl0 > 0) & (nl1 > 0)
        adp = ad[parent]
        if self.end_fight and not over:
            for seat, nh, nl in ((0, nh0, nl0), (1, nh1, nl1)):
                sel = np.flatnonzero(alive & (((adp >> seat) & 1) == 0))
                if len(sel):
                    stuck[sel] |= self._stuck(seat, nh[sel], nl[sel], nxt)
        term = self._end_table[nl0, nl1, over, stuck]
        child = _pack(
            nxt,
            nh0,
            nh1,
            nl0,
            nl1,
            self._next_pair.ravel().take(idx).astype(np.int64),
            self._reveal.ravel().take(idx).astype(np.int64),
            adp,
        )
        child = np.where(np.isnan(term), child, -1)
        return parent, i, j, child, term

    def _solve(self, keys: I64, rounds: I64) -> None:
        # forward: every new state reachable from the roots, round by round, each state's
        # round game recorded as cells (positions of its children in the next round)
        roots = {int(r): np.unique(keys[rounds == r]) for r in np.unique(rounds)}
        last = max(roots)
        plan: dict[int, _Round] = {}
        kids = np.zeros(0, dtype=np.int64)
        r = min(roots)
        while r <= self.rounds and (len(kids) or r <= last):
            states = kids  # first, so that the cells of round r - 1 point into it
            extra = roots.get(r)
            if extra is not None:
                states = np.concatenate([states, extra[~np.isin(extra, states)]])
            known = self._known(r, states)
            todo = states if known is None else states[~known]
            self._prepare(r, todo)
            kids, cells, starts = self._expand(r, todo)
            plan[r] = _Round(states, known, todo, cells, starts)
            r += 1
        if len(kids):  # pragma: no cover - the fight always ends after the last round
            raise RuntimeError("children beyond the last round")
        # backward: values round by round, deepest first
        uniform = -1 if self.uniform_seat is None else self.uniform_seat
        done: dict[int, FloatArray] = {}  # values of every state of a round, in order
        for r in sorted(plan, reverse=True):
            step = plan.pop(r)
            next_vals = done.pop(r + 1, np.zeros(0))  # none: no child of round r lives on
            with _num_threads(_threads(len(step.todo))):
                vals = kernels.evaluate(
                    step.todo, step.cells, step.starts, next_vals, self.tables, uniform
                )
            hard = np.flatnonzero(np.isnan(vals))
            for lo in range(0, len(hard), _CHUNK):
                part = hard[lo : lo + _CHUNK]
                vals[part] = self._evaluate(r, step.todo[part])
            self._store(r, step.todo, vals)
            self.states_solved += len(step.todo)
            done[r] = vals if step.known is None else self._lookup(r, step.states)

    def _expand(self, r: int, todo: I64) -> tuple[I64, Any, Any]:
        """The children of round ``r``'s states ``todo`` (their rule tables prepared), sorted,
        and each state's cells renumbered into that order; stuck children are filled as met."""
        threads = _threads(len(todo))
        while True:
            with _num_threads(threads):
                kids, cells, starts, wanted = kernels.expand(todo, self.tables, threads)
            if not wanted:
                break
            self._fill_stuck(r + 1)
        # sorted, siblings (which share children) are expanded together: cache-friendly
        order = np.argsort(kids)
        kids = kids[order]
        rank = np.empty(len(order), dtype=np.int32)
        rank[order] = np.arange(len(order), dtype=np.int32)
        kernels.renumber(cells, rank)
        return kids, cells, starts

    def _prepare(self, r: int, states: I64) -> None:
        """Carried-bonus transitions and legal cards for the states of round ``r``."""
        self._ensure_pairs(np.flatnonzero(np.bincount((states >> _CP) & 0x3FF)))
        if kernels.mark_legal(states, self.tables):
            for tables in self._distinct_tables():
                tables.fill_wanted(r)
        # what the children will need, so that one expansion does (expand marks any miss)
        if self.end_fight and kernels.mark_stuck(states, self.tables):
            self._fill_stuck(r + 1)

    def _fill_stuck(self, r: int) -> None:
        """The stuck entries of round ``r`` the last expansion asked for."""
        for tables in self._distinct_tables():
            tables.fill_stuck(r)

    def _distinct_tables(self) -> tuple[CharacterTables, ...]:
        a, b = self.seat_tables
        return (a,) if a is b else (a, b)

    def _all_known(self, r: int, states: I64) -> bool:
        known = self._known(r, states)
        return len(states) == 0 or (known is not None and bool(known.all()))

    def resident_bytes(self) -> int:
        """Solved positions and rule tables, about (:mod:`.resident`; shared seat tables
        count in full)."""
        levels = sum(k.nbytes + v.nbytes for k, v in self.levels.values())
        pairs = array_bytes(self._taken0, self._taken1, self._next_pair, self._reveal)
        return levels + pairs + sum(t.resident_bytes() for t in self._distinct_tables())

    def release(self) -> None:
        """Drop the solved positions and the engine's answers kept for the rule tables
        (memos: worked out again when asked; the tables' arrays stay usable)."""
        self.levels.clear()
        for tables in self._distinct_tables():
            tables.release()

    def _known(self, r: int, states: I64) -> BoolArray | None:
        """Which ``states`` of round ``r`` an earlier call solved (None: none)."""
        level = self.levels.get(r)
        if level is None or len(states) == 0:
            return None
        pos = np.minimum(np.searchsorted(level[0], states), len(level[0]) - 1)
        known: BoolArray = level[0][pos] == states
        return known if known.any() else None

    def _store(self, r: int, states: I64, vals: FloatArray) -> None:
        """Add the newly solved ``states`` (none of them stored yet) to round ``r``'s sorted
        level: only they are sorted, then merged in, so that a call that solved nothing new
        (an agent's look-up) costs nothing here."""
        if len(states) == 0:
            return
        order = np.argsort(states, kind="stable")
        states, vals = states[order], vals[order]
        level = self.levels.get(r)
        if level is not None:
            at = np.searchsorted(level[0], states)
            states = np.insert(level[0], at, states)
            vals = np.insert(level[1], at, vals)
        self.levels[r] = (states, vals)

    def _lookup(self, r: int, keys: I64) -> FloatArray:
        level = self.levels[r]
        pos = np.searchsorted(level[0], keys)
        if (pos >= len(level[0])).any() or (
            level[0][np.minimum(pos, len(level[0]) - 1)] != keys
        ).any():
            raise KeyError("state not solved")
        out: FloatArray = level[1][pos]
        return out

    def _child_values(self, r: int, child: I64, term: FloatArray) -> FloatArray:
        vals = term.copy()
        live = child >= 0
        if live.any():
            vals[live] = self._lookup(r + 1, child[live])
        return vals

    def _evaluate(self, r: int, states: I64) -> FloatArray:
        """The numpy twin of :func:`.kernels.evaluate`, with the LP: for the games the
        kernel leaves unsolved."""
        legal0, legal1, stop = self._legal_masks(states)
        parent, i, j, child, term = self._children(states, legal0, legal1)
        vals = self._child_values(r, child, term)
        n = len(states)
        m = np.zeros((n, self.types[0], self.types[1]))
        m[parent, i, j] = vals
        _, _, _, l0, l1, _, rf, ad = _unpack(states)
        if self.uniform_seat is not None:
            return self._evaluate_uniform(m, legal0, legal1, rf)
        out = np.empty(n)
        first0 = rf == 1
        first1 = rf == 2
        simul = ~(first0 | first1)
        if first0.any():
            row_min = np.where(legal1[first0][:, None, :], m[first0], np.inf).min(axis=2)
            out[first0] = np.where(legal0[first0], row_min, -np.inf).max(axis=1)
        if first1.any():
            col_max = np.where(legal0[first1][:, :, None], m[first1], -np.inf).max(axis=1)
            out[first1] = np.where(legal1[first1], col_max, np.inf).min(axis=1)
        if simul.any():
            out[simul] = solve_matrix_batch(m[simul], legal0[simul], legal1[simul])
        if stop.any():
            sv = self._end_table[l0, l1, 0, 1]
            out = np.where(stop & (ad == 1), np.maximum(out, sv), out)
            out = np.where(stop & (ad == 2), np.minimum(out, sv), out)
        return out

    def _evaluate_uniform(
        self, m: FloatArray, legal0: BoolArray, legal1: BoolArray, rf: I64
    ) -> FloatArray:
        """Best response of one seat to the other's uniformly random card."""
        if self.uniform_seat == 1:  # seat 0 best-responds: mirror the game
            return -self._uniform_rows(-np.swapaxes(m, 1, 2), legal1, legal0, rf == 2)
        return self._uniform_rows(m, legal0, legal1, rf == 1)

    @staticmethod
    def _uniform_rows(
        m: FloatArray, rows: BoolArray, cols: BoolArray, rows_first: BoolArray
    ) -> FloatArray:
        # rows play uniformly; cols minimise. If rows reveal first, cols answer each card.
        count = rows.sum(axis=1)
        mean_rows = np.where(rows[:, :, None], m, 0.0).sum(axis=1) / count[:, None]
        blind = np.where(cols, mean_rows, np.inf).min(axis=1)
        answer = np.where(cols[:, None, :], m, np.inf).min(axis=2)
        seen = np.where(rows, answer, 0.0).sum(axis=1) / count
        out: FloatArray = np.where(rows_first, seen, blind)
        return out


@functools.cache
def _end_table(life_max: int, rounds: int) -> FloatArray:
    """:meth:`FightSolver._build_end_table`, made once per life and rounds (the batched
    engine makes 64 solvers: 37,000 calls of ``fight_end`` each time otherwise)."""
    size = life_max + 1
    out = np.full((size, size, 2, 2), np.nan)
    for a in range(size):
        for b in range(size):
            for over in (0, 1):
                for stuck in (0, 1):
                    end = fight_end((a, b), rounds + over, rounds, _const(bool(stuck)))
                    if end is not None:
                        out[a, b, over, stuck] = _score(end.winner)
    return out


def _threads(states: int) -> int:
    return numba.get_num_threads() if states >= _PARALLEL_FROM else 1


@contextlib.contextmanager
def _num_threads(n: int) -> Iterator[None]:
    """Numba's parallel loops run on ``n`` threads inside (the results never depend on it)."""
    before = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def _radix(char: Character) -> tuple[int, ...]:
    out, base = [], 1
    for c in char.cards:
        out.append(base)
        base *= c.copies + 1
    if base > 1 << 12:
        raise ValueError(f"{char.id}: too many card types for the packed state")
    return tuple(out)


def _encode(hand: Hand, radix: tuple[int, ...]) -> int:
    return sum(n * r for n, r in zip(hand, radix, strict=True))


def _decode(code: int, radix: tuple[int, ...], char: Character) -> Hand:
    return tuple((code // r) % (c.copies + 1) for r, c in zip(radix, char.cards, strict=True))


def pack_keys(round: Any, h0: Any, h1: Any, l0: Any, l1: Any, cp: Any, rf: Any, ad: Any) -> Any:
    """Pack state fields (ints or int64 arrays) into keys: round, both hand codes, both
    lives, carried-bonus pair code, reveal-first flags, adaptive flags (for simulators)."""
    return _pack(round, h0, h1, l0, l1, cp, rf, ad)


def key_fields(keys: I64) -> tuple[I64, I64, I64, I64, I64, I64, I64, I64]:
    """The fields of packed keys, as :func:`pack_keys` takes them (for simulators)."""
    return _unpack(keys)


_pack = kernels.pack_fields

SECRET_SHIFT = 52
"""Where a bound solver's state key keeps its secret-cover mask: above the fight's fields."""


def secret_root_key(
    life_max: int,
    radix: Sequence[tuple[int, ...]],
    pair_code: Callable[[tuple[Carry, Carry]], int],
    hand0: Sequence[int],
    secret: Sequence[int],
    unseen1: Sequence[int],
    lives: tuple[int, int] | None,
    round: int,
    carry: tuple[Carry, Carry],
    reveal: tuple[bool, bool],
) -> int:
    """The key of a state of the bound solver's game (what :class:`.bounds.BoundSolver` and
    a book side look nodes up by): ``hand0`` is seat 0's hand if ``secret`` is empty, else
    its unseen cards (cover included) with the cover among the card types ``secret``; seat
    1's unseen cards ``unseen1``; an adaptive flag of 2 (the seat-0 frame)."""
    l0, l1 = (life_max, life_max) if lives is None else lives
    mask = sum(1 << c for c in secret) if len(secret) >= 2 else 0
    h0 = list(hand0)
    if len(secret) == 1:
        h0[secret[0]] -= 1
    key = _pack(
        round,
        sum(n * r for n, r in zip(h0, radix[0], strict=True)),
        sum(n * r for n, r in zip(unseen1, radix[1], strict=True)),
        l0,
        l1,
        pair_code(carry),
        int(reveal[0]) + 2 * int(reveal[1]),
        2,
    )
    return int(key | (mask << SECRET_SHIFT))


def _unpack(keys: I64) -> tuple[I64, I64, I64, I64, I64, I64, I64, I64]:
    return (
        (keys >> _R) & 15,
        (keys >> _H0) & 0xFFF,
        (keys >> _H1) & 0xFFF,
        (keys >> _L0) & 31,
        (keys >> _L1) & 31,
        (keys >> _CP) & 0x3FF,
        (keys >> _RF) & 3,
        (keys >> _AD) & 3,
    )


def _minus(hand: Hand, index: int) -> Hand:
    out = list(hand)
    out[index] -= 1
    return tuple(out)


def _const(value: bool) -> Callable[[], bool]:
    return lambda: value


def _score(winner: int | None) -> float:
    return 0.0 if winner is None else (1.0 if winner == 0 else -1.0)


def _unit(n: int, i: int) -> FloatArray:
    out = np.zeros(n)
    out[i] = 1.0
    return out


def setup_hand(char: Character, cover: Card | None, shown: Card) -> Hand:
    """The cards a set-up keeps: all ten but the shown card and the cover (None: keep the
    cover too — the unseen cards of an adaptive seat)."""
    hand = [c.copies for c in char.cards]
    hand[shown.index] -= 1
    if cover is not None:
        hand[cover.index] -= 1
    return tuple(hand)
