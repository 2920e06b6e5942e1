"""Compiled (Numba) inner loops of the SF Rivals fight solver.

:mod:`.fight` builds every rule table by calling the engine's pure functions; these kernels
only *read* the tables, so they hold no rule of their own. One round of the induction is
two passes over its states (packed 64-bit keys, layout in :mod:`.fight`):

* :func:`expand` — every child state of the round (a hash set, so each once), and the
  "stuck" entries of the next round the tables still lack (marked for :mod:`.fight` to fill);
* :func:`evaluate` — each state's value: its matrix of continuation values is built from
  the next round's solved values and solved on the spot — max-min where a seat reveals
  first, else a pure saddle point, iterated weak dominance, then a small dense simplex
  whose strategies are certified against the whole game. A game whose certificate fails
  is left NaN for the LP (HiGHS) in :mod:`.fight`.

Tables (all dense numpy arrays, indexed by round, hand code, life, adaptive flag):
``legal[round, code, life, adaptive]`` is a bit mask of playable card types with
:data:`LEGAL_STOP` (an adaptive seat may end the fight) and :data:`LEGAL_DONE` (the entry
is filled); ``stuck[round, code, life]`` is 1/0, or :data:`UNKNOWN`/:data:`WANTED`.
Compiled once and cached on disk (``cache=True``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

F = TypeVar("F", bound=Callable[..., Any])


def _jit(func: F) -> F:
    """``numba.njit(cache=True)``, keeping the Python signature for the type checker."""
    return cast(F, njit(cache=True)(func))


# packed key layout, as in .fight; bits from _COVER up: the committed opponent's cover
# (card index + 1) in the states of :mod:`.certify` (0 elsewhere), carried to children
_AD, _RF, _CP, _L1, _L0, _H1, _H0, _R, _COVER = 0, 2, 4, 14, 19, 24, 36, 48, 52
_COVER_BITS = np.int64(31) << _COVER

LEGAL_DONE = 1 << 30
LEGAL_WANTED = 1 << 29
LEGAL_STOP = 1 << 28
LEGAL_CARDS = (1 << 28) - 1
UNKNOWN = -1
WANTED = -2
_EMPTY = -1
_GOLDEN = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit integer
_TOL = 1e-7
_NEG = -1e-9
_MAX_PIVOTS = 200
"""Simplex pivots per game before leaving it to the LP (Bland's rule never cycles)."""
_PIVOT_EPS = 1e-12

Array = Any


@_jit
def mark_legal(states: Array, legal0: Array, legal1: Array) -> int:
    """Mark the legal-table entries ``states`` need and lack; returns how many."""
    wanted = 0
    for n in range(len(states)):
        k = states[n]
        r = (k >> _R) & 15
        ad = (k >> _AD) & 3
        e0 = legal0[r, (k >> _H0) & 0xFFF, (k >> _L0) & 31, ad & 1]
        if e0 & (LEGAL_DONE | LEGAL_WANTED) == 0:
            legal0[r, (k >> _H0) & 0xFFF, (k >> _L0) & 31, ad & 1] = LEGAL_WANTED
            wanted += 1
        e1 = legal1[r, (k >> _H1) & 0xFFF, (k >> _L1) & 31, (ad >> 1) & 1]
        if e1 & (LEGAL_DONE | LEGAL_WANTED) == 0:
            legal1[r, (k >> _H1) & 0xFFF, (k >> _L1) & 31, (ad >> 1) & 1] = LEGAL_WANTED
            wanted += 1
    return wanted


@_jit
def _hash_slot(key: int, mask: int) -> int:
    # Fibonacci hashing; int64 multiplication wraps around in compiled code
    return ((key * _GOLDEN) >> 29) & mask


@_jit
def _grow(table: Array) -> Array:
    bigger = np.full(2 * len(table), _EMPTY, dtype=np.int64)
    mask = len(bigger) - 1
    for key in table:
        if key != _EMPTY:
            s = _hash_slot(key, mask)
            while bigger[s] != _EMPTY:
                s = (s + 1) & mask
            bigger[s] = key
    return bigger


@_jit
def build_index(keys: Array) -> Array:
    """An open-addressing hash index of ``keys``: slots hold positions in ``keys``."""
    size = 1 << 10
    while size < 2 * len(keys):
        size *= 2
    slots = np.full(size, -1, dtype=np.int64)
    mask = size - 1
    for n in range(len(keys)):
        s = _hash_slot(keys[n], mask)
        while slots[s] >= 0:
            s = (s + 1) & mask
        slots[s] = n
    return slots


@_jit
def _find(slots: Array, keys: Array, key: int) -> int:
    mask = len(slots) - 1
    s = _hash_slot(key, mask)
    while slots[s] >= 0:
        if keys[slots[s]] == key:
            return int(slots[s])
        s = (s + 1) & mask
    return -1


@_jit
def mark_stuck(
    states: Array,
    stuck0: Array,
    stuck1: Array,
    radix0: Array,
    radix1: Array,
    copies0: Array,
    copies1: Array,
    rounds: int,
) -> int:
    """Mark the stuck entries of the next round that any child of ``states`` may need (every
    card a seat holds, every life up to its current one) and the tables lack."""
    wanted = 0
    seen0 = np.zeros((stuck0.shape[1], 32), dtype=np.bool_)
    seen1 = np.zeros((stuck1.shape[1], 32), dtype=np.bool_)
    for n in range(len(states)):
        k = states[n]
        nxt = ((k >> _R) & 15) + 1
        if nxt > rounds:
            continue
        ad = (k >> _AD) & 3
        for seat in range(2):
            if (ad >> seat) & 1:
                continue
            if seat == 0:
                h, life, radix, copies, tab, seen = (
                    (k >> _H0) & 0xFFF,
                    (k >> _L0) & 31,
                    radix0,
                    copies0,
                    stuck0,
                    seen0,
                )
            else:
                h, life, radix, copies, tab, seen = (
                    (k >> _H1) & 0xFFF,
                    (k >> _L1) & 31,
                    radix1,
                    copies1,
                    stuck1,
                    seen1,
                )
            if seen[h, life]:
                continue
            seen[h, life] = True
            for i in range(len(radix)):
                if (h // radix[i]) % (copies[i] + 1) == 0:
                    continue
                nh = h - radix[i]
                if tab[nxt, nh, life] != UNKNOWN:
                    continue  # this hand at this life was seen: so were lower lives
                for nl in range(1, life + 1):
                    if tab[nxt, nh, nl] == UNKNOWN:
                        tab[nxt, nh, nl] = WANTED
                        wanted += 1
    return wanted


@_jit
def expand(
    states: Array,
    legal0: Array,
    legal1: Array,
    stuck0: Array,
    stuck1: Array,
    radix0: Array,
    radix1: Array,
    powerless0: Array,
    powerless1: Array,
    taken0: Array,
    taken1: Array,
    next_pair: Array,
    reveal: Array,
    end_table: Array,
    rounds: int,
    end_fight: bool,
) -> tuple[Array, int]:
    """The distinct live children of ``states`` (one round), unsorted, and how many stuck
    entries were missing (marked :data:`WANTED`; the children are then incomplete)."""
    size = 1 << 16
    while size < 4 * len(states):  # a round has at most a few times its states as children
        size *= 2
    table = np.full(size, _EMPTY, dtype=np.int64)
    count = 0
    wanted = 0
    for n in range(len(states)):
        k = states[n]
        r = (k >> _R) & 15
        h0 = (k >> _H0) & 0xFFF
        h1 = (k >> _H1) & 0xFFF
        l0 = (k >> _L0) & 31
        l1 = (k >> _L1) & 31
        cp = (k >> _CP) & 0x3FF
        ad = (k >> _AD) & 3
        m0 = legal0[r, h0, l0, ad & 1] & LEGAL_CARDS
        m1 = legal1[r, h1, l1, (ad >> 1) & 1] & LEGAL_CARDS
        nxt = r + 1
        over = 1 if nxt > rounds else 0
        for i in range(len(radix0)):
            if not (m0 >> i) & 1:
                continue
            pl0 = 1 if powerless0[i, l0] else 0
            nh0 = h0 - radix0[i]
            for j in range(len(radix1)):
                if not (m1 >> j) & 1:
                    continue
                pl1 = 1 if powerless1[j, l1] else 0
                nl0 = max(l0 - taken0[cp, i, j, pl0, pl1], 0)
                nl1 = max(l1 - taken1[cp, i, j, pl0, pl1], 0)
                nh1 = h1 - radix1[j]
                stuck = 0
                if end_fight and over == 0 and nl0 > 0 and nl1 > 0:
                    if ad & 1 == 0:
                        st = stuck0[nxt, nh0, nl0]
                        if st < 0:
                            if st == UNKNOWN:
                                stuck0[nxt, nh0, nl0] = WANTED
                                wanted += 1
                        elif st == 1:
                            stuck = 1
                    if (ad >> 1) & 1 == 0:
                        st = stuck1[nxt, nh1, nl1]
                        if st < 0:
                            if st == UNKNOWN:
                                stuck1[nxt, nh1, nl1] = WANTED
                                wanted += 1
                        elif st == 1:
                            stuck = 1
                if not np.isnan(end_table[nl0, nl1, over, stuck]):
                    continue
                child = (
                    (nxt << _R)
                    | (nh0 << _H0)
                    | (nh1 << _H1)
                    | (nl0 << _L0)
                    | (nl1 << _L1)
                    | (np.int64(next_pair[cp, i, j, pl0, pl1]) << _CP)
                    | (np.int64(reveal[cp, i, j, pl0, pl1]) << _RF)
                    | (ad << _AD)
                    | (k & _COVER_BITS)
                )
                hmask = len(table) - 1
                slot = _hash_slot(child, hmask)
                while table[slot] != _EMPTY and table[slot] != child:
                    slot = (slot + 1) & hmask
                if table[slot] == _EMPTY:
                    table[slot] = child
                    count += 1
                    if 2 * count > len(table):
                        table = _grow(table)
    out = np.empty(count, dtype=np.int64)
    c = 0
    for key in table:
        if key != _EMPTY:
            out[c] = key
            c += 1
    return out, wanted


@_jit
def _node_matrix(
    k: int,
    legal0: Array,
    legal1: Array,
    stuck0: Array,
    stuck1: Array,
    radix0: Array,
    radix1: Array,
    powerless0: Array,
    powerless1: Array,
    taken0: Array,
    taken1: Array,
    next_pair: Array,
    reveal: Array,
    end_table: Array,
    rounds: int,
    end_fight: bool,
    next_keys: Array,
    next_vals: Array,
    next_slots: Array,
    a: Array,
    rows: Array,
    cols: Array,
) -> tuple[int, int]:
    """The round game at state ``k``: writes the legal cards of seat 0 (``rows``) and seat
    1 (``cols``) and the continuation values (``a``, seat 0's view: the end of the fight,
    or the next round's solved value); returns their numbers."""
    t0 = len(radix0)
    t1 = len(radix1)
    r = (k >> _R) & 15
    h0 = (k >> _H0) & 0xFFF
    h1 = (k >> _H1) & 0xFFF
    l0 = (k >> _L0) & 31
    l1 = (k >> _L1) & 31
    cp = (k >> _CP) & 0x3FF
    ad = (k >> _AD) & 3
    e0 = legal0[r, h0, l0, ad & 1]
    e1 = legal1[r, h1, l1, (ad >> 1) & 1]
    nr = 0
    for i in range(t0):
        if (e0 >> i) & 1:
            rows[nr] = i
            nr += 1
    nc = 0
    for j in range(t1):
        if (e1 >> j) & 1:
            cols[nc] = j
            nc += 1
    nxt = r + 1
    over = 1 if nxt > rounds else 0
    for p in range(nr):
        i = rows[p]
        pl0 = 1 if powerless0[i, l0] else 0
        nh0 = h0 - radix0[i]
        for q in range(nc):
            j = cols[q]
            pl1 = 1 if powerless1[j, l1] else 0
            nl0 = max(l0 - taken0[cp, i, j, pl0, pl1], 0)
            nl1 = max(l1 - taken1[cp, i, j, pl0, pl1], 0)
            nh1 = h1 - radix1[j]
            stuck = 0
            if end_fight and over == 0 and nl0 > 0 and nl1 > 0:
                if ad & 1 == 0 and stuck0[nxt, nh0, nl0] == 1:
                    stuck = 1
                if (ad >> 1) & 1 == 0 and stuck1[nxt, nh1, nl1] == 1:
                    stuck = 1
            term = end_table[nl0, nl1, over, stuck]
            if not np.isnan(term):
                a[p, q] = term
                continue
            child = (
                (nxt << _R)
                | (nh0 << _H0)
                | (nh1 << _H1)
                | (nl0 << _L0)
                | (nl1 << _L1)
                | (np.int64(next_pair[cp, i, j, pl0, pl1]) << _CP)
                | (np.int64(reveal[cp, i, j, pl0, pl1]) << _RF)
                | (ad << _AD)
                | (k & _COVER_BITS)
            )
            pos = _find(next_slots, next_keys, child)
            if pos < 0:  # pragma: no cover - the forward pass reached every child
                raise KeyError("child state not solved")
            a[p, q] = next_vals[pos]
    return nr, nc


@_jit
def evaluate(
    states: Array,
    legal0: Array,
    legal1: Array,
    stuck0: Array,
    stuck1: Array,
    radix0: Array,
    radix1: Array,
    powerless0: Array,
    powerless1: Array,
    taken0: Array,
    taken1: Array,
    next_pair: Array,
    reveal: Array,
    end_table: Array,
    rounds: int,
    end_fight: bool,
    next_keys: Array,
    next_vals: Array,
    next_slots: Array,
    uniform_seat: int,
) -> Array:
    """Seat 0's value of each state (NaN: left to the LP); ``next_keys`` and ``next_vals``
    are the solved states of the next round, ``next_slots`` their :func:`build_index`.
    ``uniform_seat`` (-1: none) plays uniformly at random and the other seat
    best-responds."""
    t0 = len(radix0)
    t1 = len(radix1)
    out = np.empty(len(states))
    a = np.empty((t0, t1))
    rows = np.empty(t0, dtype=np.int64)
    cols = np.empty(t1, dtype=np.int64)
    ws = _workspace(t0, t1)
    for n in range(len(states)):
        k = states[n]
        nr, nc = _node_matrix(
            k,
            legal0,
            legal1,
            stuck0,
            stuck1,
            radix0,
            radix1,
            powerless0,
            powerless1,
            taken0,
            taken1,
            next_pair,
            reveal,
            end_table,
            rounds,
            end_fight,
            next_keys,
            next_vals,
            next_slots,
            a,
            rows,
            cols,
        )
        r = (k >> _R) & 15
        l0 = (k >> _L0) & 31
        l1 = (k >> _L1) & 31
        rf = (k >> _RF) & 3
        ad = (k >> _AD) & 3
        e0 = legal0[r, (k >> _H0) & 0xFFF, l0, ad & 1]
        e1 = legal1[r, (k >> _H1) & 0xFFF, l1, (ad >> 1) & 1]
        g = a[:nr, :nc]
        if uniform_seat == 0:
            v = _uniform_rows(g, rf == 1)
        elif uniform_seat == 1:
            v = _uniform_cols(g, rf == 2)
        else:
            if rf == 1:
                v = _maximin_pure(g)
            elif rf == 2:
                v = _minimax_pure(g)
            else:
                v = _game_value(g, *ws)
            if (e0 | e1) & LEGAL_STOP and not np.isnan(v):
                sv = end_table[l0, l1, 0, 1]
                if ad == 1:
                    v = max(v, sv)
                elif ad == 2:
                    v = min(v, sv)
        out[n] = v
    return out


@_jit
def _maximin_pure(a: Array) -> float:
    best = -np.inf
    for i in range(a.shape[0]):
        worst = np.inf
        for j in range(a.shape[1]):
            worst = min(worst, a[i, j])
        best = max(best, worst)
    return best


@_jit
def _minimax_pure(a: Array) -> float:
    best = np.inf
    for j in range(a.shape[1]):
        top = -np.inf
        for i in range(a.shape[0]):
            top = max(top, a[i, j])
        best = min(best, top)
    return best


@_jit
def _uniform_cols(a: Array, cols_first: bool) -> float:
    """Columns play uniformly, rows maximise (answering each column if columns reveal
    first): :func:`_uniform_rows` mirrored."""
    nr, nc = a.shape
    if cols_first:
        total = 0.0
        for j in range(nc):
            best = -np.inf
            for i in range(nr):
                best = max(best, a[i, j])
            total += best
        return float(total / nc)
    best = -np.inf
    for i in range(nr):
        total = 0.0
        for j in range(nc):
            total += a[i, j]
        best = max(best, total / nc)
    return float(best)


@_jit
def _uniform_rows(a: Array, rows_first: bool) -> float:
    """Rows play uniformly, columns minimise (answering each row if rows reveal first)."""
    nr, nc = a.shape
    if rows_first:
        total = 0.0
        for i in range(nr):
            worst = np.inf
            for j in range(nc):
                worst = min(worst, a[i, j])
            total += worst
        return float(total / nr)
    best = np.inf
    for j in range(nc):
        total = 0.0
        for i in range(nr):
            total += a[i, j]
        best = min(best, total / nr)
    return best


def game_value(a: Array) -> float:
    """Value of the zero-sum game ``a`` (row maximises): pure saddle point, iterated weak
    dominance, then the simplex (:func:`_simplex_value`); NaN if its check fails."""
    nr, nc = a.shape
    buf = np.zeros((nr + 1, nc + 1))
    buf[:nr, :nc] = a
    view = buf[:nr, :nc]  # the strided layout the solver passes: one compiled version
    return float(_game_value(view, *_workspace(nr, nc)))


@_jit
def _workspace(nr: int, nc: int) -> tuple[Array, Array, Array, Array, Array, Array, Array, Array]:
    """Scratch arrays for :func:`_game_value` (allocated once per batch of games)."""
    return (
        np.empty(nr, dtype=np.bool_),
        np.empty(nc, dtype=np.bool_),
        np.empty(nr, dtype=np.int64),
        np.empty(nc, dtype=np.int64),
        np.empty((nr + 1, nc + nr + 1)),
        np.empty(nr, dtype=np.int64),
        np.empty(nr),
        np.empty(nc),
    )


@_jit
def _game_value(
    a: Array,
    row_ok: Array,
    col_ok: Array,
    rs: Array,
    cs: Array,
    tab: Array,
    basis: Array,
    x: Array,
    y: Array,
) -> float:
    nr, nc = a.shape
    lo = _maximin_pure(a)
    if lo == _minimax_pure(a):
        return lo
    row_ok[:nr] = True
    col_ok[:nc] = True
    changed = True
    while changed:
        changed = _drop_dominated(a, row_ok, col_ok, True)
        changed = _drop_dominated(a, col_ok, row_ok, False) or changed
    nr2 = 0
    for i in range(nr):
        if row_ok[i]:
            rs[nr2] = i
            nr2 += 1
    nc2 = 0
    for j in range(nc):
        if col_ok[j]:
            cs[nc2] = j
            nc2 += 1
    lo = -np.inf
    for p in range(nr2):
        worst = np.inf
        for q in range(nc2):
            worst = min(worst, a[rs[p], cs[q]])
        lo = max(lo, worst)
    hi = np.inf
    for q in range(nc2):
        top = -np.inf
        for p in range(nr2):
            top = max(top, a[rs[p], cs[q]])
        hi = min(hi, top)
    if lo == hi:
        return lo
    return _simplex_value(a, rs, nr2, cs, nc2, tab, basis, x, y)


@_jit
def _drop_dominated(a: Array, live: Array, other: Array, rows: bool) -> bool:
    """Remove the rows (``rows``) or columns weakly dominated by another live one (of two
    equal ones, the later goes); removal keeps the value. Rows maximise, columns minimise."""
    changed = False
    n = a.shape[0] if rows else a.shape[1]
    m = a.shape[1] if rows else a.shape[0]
    for k in range(n):
        if not live[k]:
            continue
        for d in range(n):
            if d == k or not live[d]:
                continue
            ge = True
            gt = False
            for j in range(m):
                if other[j]:
                    # how much better d is than k for its owner
                    diff = a[d, j] - a[k, j] if rows else a[j, k] - a[j, d]
                    if diff < 0:
                        ge = False
                        break
                    if diff > 0:
                        gt = True
            if ge and (gt or d < k):
                live[k] = False
                changed = True
                break
    return changed


@_jit
def _simplex_value(
    a: Array, rs: Array, nr: int, cs: Array, nc: int, tab: Array, basis: Array, x: Array, y: Array
) -> float:
    """The minimax LP of the reduced game ``B`` (rows ``rs[:nr]``, columns ``cs[:nc]`` of
    ``a``), by a dense tableau simplex with Bland's rule (no cycling): with ``B' = B - s > 0``,
    maximise ``1'w`` subject to ``B'w <= 1, w >= 0`` (the slack basis is feasible, so there
    is no phase one); then ``v = 1 / 1'w + s``, ``y = w / 1'w`` and ``x`` from the duals.
    The strategies are then checked against every row and column of the whole game ``a``
    (to 1e-7); NaN if the check fails."""
    shift = np.inf
    for p in range(nr):
        for q in range(nc):
            shift = min(shift, a[rs[p], cs[q]])
    shift -= 1.0
    width = nc + nr + 1
    rhs = nc + nr
    for p in range(nr + 1):
        for q in range(width):
            tab[p, q] = 0.0
    for p in range(nr):
        for q in range(nc):
            tab[p, q] = a[rs[p], cs[q]] - shift
        tab[p, nc + p] = 1.0
        tab[p, rhs] = 1.0
        basis[p] = nc + p
    for q in range(nc):
        tab[nr, q] = -1.0
    for _ in range(_MAX_PIVOTS):
        enter = -1
        for q in range(rhs):
            if tab[nr, q] < -_PIVOT_EPS:
                enter = q
                break
        if enter < 0:
            break
        leave = -1
        best = np.inf
        for p in range(nr):
            if tab[p, enter] > _PIVOT_EPS:
                ratio = tab[p, rhs] / tab[p, enter]
                if ratio < best - 1e-12 or (
                    abs(ratio - best) <= 1e-12 and leave >= 0 and basis[p] < basis[leave]
                ):
                    best = ratio
                    leave = p
        if leave < 0:  # pragma: no cover - bounded: B' > 0 and w >= 0
            return np.nan
        piv = tab[leave, enter]
        for q in range(width):
            tab[leave, q] /= piv
        for p in range(nr + 1):
            if p != leave:
                f = tab[p, enter]
                if f != 0.0:
                    for q in range(width):
                        tab[p, q] -= f * tab[leave, q]
        basis[leave] = enter
    else:
        return np.nan
    total = tab[nr, rhs]
    if total <= 0.0:  # pragma: no cover - some w > 0 always improves on w = 0
        return np.nan
    v = 1.0 / total + shift
    for q in range(nc):
        y[q] = 0.0
    for p in range(nr):
        if basis[p] < nc:
            y[basis[p]] = tab[p, rhs] / total
    dual = 0.0
    for p in range(nr):
        x[p] = max(tab[nr, nc + p], 0.0)
        dual += x[p]
    if dual <= 0.0:  # pragma: no cover
        return np.nan
    for p in range(nr):
        x[p] /= dual
    # certify against the whole game
    for j in range(a.shape[1]):
        pay = 0.0
        for p in range(nr):
            pay += x[p] * a[rs[p], j]
        if pay < v - _TOL:
            return np.nan
    for i in range(a.shape[0]):
        pay = 0.0
        for q in range(nc):
            pay += a[i, cs[q]] * y[q]
        if pay > v + _TOL:
            return np.nan
    return float(v)


@_jit
def _game_strategy(
    a: Array,
    row_ok: Array,
    col_ok: Array,
    rs: Array,
    cs: Array,
    tab: Array,
    basis: Array,
    x: Array,
    y: Array,
    row: Array,
    col: Array,
) -> float:
    """:func:`_game_value` with optimal strategies written to ``row`` and ``col`` (over the
    rows and columns of ``a``): at a pure saddle point the first maximin row and the first
    minimax column, else those of the reduced game's saddle point or simplex. NaN (and
    strategies undefined) if the simplex's check fails."""
    nr, nc = a.shape
    row[:nr] = 0.0
    col[:nc] = 0.0
    v = _game_value(a, row_ok, col_ok, rs, cs, tab, basis, x, y)
    if np.isnan(v):
        return v
    # which path gave v: a saddle of the whole game, of the reduced game, or the simplex
    lo = _maximin_pure(a)
    if lo == _minimax_pure(a):
        row[_first_maximin_row(a)] = 1.0
        col[_first_minimax_col(a)] = 1.0
        return v
    nr2 = 0
    for i in range(nr):
        if row_ok[i]:
            nr2 += 1
    nc2 = 0
    for j in range(nc):
        if col_ok[j]:
            nc2 += 1
    sub = np.empty((nr2, nc2))
    for p in range(nr2):
        for q in range(nc2):
            sub[p, q] = a[rs[p], cs[q]]
    if _maximin_pure(sub) == _minimax_pure(sub):
        row[rs[_first_maximin_row(sub)]] = 1.0
        col[cs[_first_minimax_col(sub)]] = 1.0
        return v
    for p in range(nr2):
        row[rs[p]] = x[p]
    for q in range(nc2):
        col[cs[q]] = y[q]
    return v


@_jit
def _first_maximin_row(a: Array) -> int:
    best = -np.inf
    arg = 0
    for i in range(a.shape[0]):
        worst = np.inf
        for j in range(a.shape[1]):
            worst = min(worst, a[i, j])
        if worst > best:
            best = worst
            arg = i
    return arg


@_jit
def _first_minimax_col(a: Array) -> int:
    best = np.inf
    arg = 0
    for j in range(a.shape[1]):
        top = -np.inf
        for i in range(a.shape[0]):
            top = max(top, a[i, j])
        if top < best:
            best = top
            arg = j
    return arg


def game_solution(a: Array) -> tuple[float, Array, Array] | None:
    """Value and optimal strategies of the zero-sum game ``a`` as the solver's compiled
    code computes them (what the ``equilibrium`` agent plays and :mod:`.certify`
    assumes), or None if the simplex's check fails."""
    nr, nc = a.shape
    buf = np.zeros((nr + 1, nc + 1))
    buf[:nr, :nc] = a
    row = np.zeros(nr)
    col = np.zeros(nc)
    v = float(_game_strategy(buf[:nr, :nc], *_workspace(nr, nc), row, col))
    if np.isnan(v):
        return None
    return v, row, col


@_jit
def best_response(
    states: Array,
    legal0: Array,
    legal1: Array,
    stuck0: Array,
    stuck1: Array,
    radix0: Array,
    radix1: Array,
    powerless0: Array,
    powerless1: Array,
    taken0: Array,
    taken1: Array,
    next_pair: Array,
    reveal: Array,
    end_table: Array,
    rounds: int,
    end_fight: bool,
    me: int,
    next_keys: Array,
    next_vals: Array,
    next_slots: Array,
    twin_next_keys: Array,
    twin_next_vals: Array,
    twin_next_slots: Array,
    twin_keys: Array,
    twin_vals: Array,
    twin_slots: Array,
) -> tuple[Array, int]:
    """Seat 0's value of each committed state (both seats committed, the opponent's cover in
    the key) when seat ``me`` plays its bound strategy and the opponent, knowing everything,
    best-responds. The bound strategy at a state is the one of its *twin* (the opponent
    adaptive over its hand plus cover): ``twin_next_*`` are the twins' next round, solved,
    ``twin_*`` this round's (where the twin's strategy is not certified, the twin's value —
    what the bound strategy guarantees from there — is used; their number is returned).
    ``next_*``: the committed states of the next round, solved."""
    t0 = len(radix0)
    t1 = len(radix1)
    out = np.empty(len(states))
    a = np.empty((t0, t1))
    rows = np.empty(t0, dtype=np.int64)
    cols = np.empty(t1, dtype=np.int64)
    w = np.empty((t0, t1))
    wrows = np.empty(t0, dtype=np.int64)
    wcols = np.empty(t1, dtype=np.int64)
    ws = _workspace(t0, t1)
    row = np.empty(t0)
    col = np.empty(t1)
    uncertified = 0
    opp = 1 - me
    for n in range(len(states)):
        k = states[n]
        cover = ((k >> _COVER) & 31) - 1
        twin = k & ~_COVER_BITS & ~np.int64(3 << _AD)
        if opp == 0:
            twin += radix0[cover] << _H0
        else:
            twin += radix1[cover] << _H1
        twin |= np.int64(1 << opp) << _AD
        nr, nc = _node_matrix(
            twin,
            legal0,
            legal1,
            stuck0,
            stuck1,
            radix0,
            radix1,
            powerless0,
            powerless1,
            taken0,
            taken1,
            next_pair,
            reveal,
            end_table,
            rounds,
            end_fight,
            twin_next_keys,
            twin_next_vals,
            twin_next_slots,
            a,
            rows,
            cols,
        )
        wr, wc = _node_matrix(
            k,
            legal0,
            legal1,
            stuck0,
            stuck1,
            radix0,
            radix1,
            powerless0,
            powerless1,
            taken0,
            taken1,
            next_pair,
            reveal,
            end_table,
            rounds,
            end_fight,
            next_keys,
            next_vals,
            next_slots,
            w,
            wrows,
            wcols,
        )
        g = a[:nr, :nc]
        rf = (k >> _RF) & 3
        # the opponent's committed cards are some of its twin's: where they sit there
        if me == 0:
            at = np.empty(wc, dtype=np.int64)
            for q in range(wc):
                for q2 in range(nc):
                    if cols[q2] == wcols[q]:
                        at[q] = q2
        else:
            at = np.empty(wr, dtype=np.int64)
            for p in range(wr):
                for p2 in range(nr):
                    if rows[p2] == wrows[p]:
                        at[p] = p2
        if rf == 0:
            v = _game_strategy(g, *ws, row, col)
            if np.isnan(v):
                pos = _find(twin_slots, twin_keys, twin)
                if pos < 0:  # pragma: no cover
                    raise KeyError("twin state not solved")
                out[n] = twin_vals[pos]
                uncertified += 1
                continue
            if me == 0:
                best = np.inf
                for q in range(wc):
                    pay = 0.0
                    for p in range(wr):
                        pay += row[p] * w[p, q]
                    best = min(best, pay)
            else:
                best = -np.inf
                for p in range(wr):
                    pay = 0.0
                    for q in range(wc):
                        pay += w[p, q] * col[q]
                    best = max(best, pay)
        elif rf == me + 1:  # the bound strategy reveals its card first: one card
            if me == 0:
                p0 = _first_maximin_row(g)
                best = np.inf
                for q in range(wc):
                    best = min(best, w[p0, q])
            else:
                q0 = _first_minimax_col(g)
                best = -np.inf
                for p in range(wr):
                    best = max(best, w[p, q0])
        else:  # the opponent reveals first; the bound strategy answers each card
            if me == 0:
                best = np.inf
                for q in range(wc):
                    p0 = _first_max_in_col(g, at[q])
                    best = min(best, w[p0, q])
            else:
                best = -np.inf
                for p in range(wr):
                    q0 = _first_min_in_row(g, at[p])
                    best = max(best, w[p, q0])
        out[n] = best
    return out, uncertified


@_jit
def _first_max_in_col(a: Array, j: int) -> int:
    arg = 0
    for i in range(1, a.shape[0]):
        if a[i, j] > a[arg, j]:
            arg = i
    return arg


@_jit
def _first_min_in_row(a: Array, i: int) -> int:
    arg = 0
    for j in range(1, a.shape[1]):
        if a[i, j] < a[i, arg]:
            arg = j
    return arg


def warm_up() -> None:
    """Compile (or load from the cache) every kernel, on a one-state toy problem."""
    from kumite.games.sfrivals.game import GAME
    from kumite.solve.sfrivals.fight import FightSolver, Position

    opts = GAME.parse_options({})
    cat = GAME.catalog(opts)
    chars = (cat.characters["ryu"], cat.characters["ken"])
    hands = tuple(tuple(int(c.index == 0) for c in ch.cards) for ch in chars)
    FightSolver(cat, opts, chars).value(Position((hands[0], hands[1]), round=cat.rules.hand))
    game_value(np.array([[1.0, -1.0, 0.0], [-1.0, 1.0, 0.0], [0.0, 0.0, -1.0]]))
