"""Compiled (Numba) inner loops of the tighter bounds (:mod:`.bounds`).

A state is a fight position from seat 0's side (packed like :mod:`.kernels`' keys, seat 1
always holding all its unseen cards, ``ad = 2``), with, from bit :data:`_MASK` up, the
*secret mask* of seat 0: the card types its cover may still be (two or more; 0 for a
committed seat 0, whose hand code is then its hand). For a secret state seat 0's hand code
is its unseen cards, cover included. A state's value is a *vector*: one entry per class of
seat 1's cover (:class:`BTables`), NaN where no card of the class is unseen.

:func:`children` lists the next round's states (and :func:`switch_keys` the committed states
of the same round a secret state may switch to); :func:`evaluate` values a round's states
from the next round's values (and, for secret states, the same round's committed values),
in parallel; :func:`node` gives one state's matrix game and seat 0's strategy, for the
agents. The kernels only read rule tables filled from the engine (:mod:`.fight`,
:mod:`.bounds`), so they hold no rule of their own.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import prange

from kumite.games.sfrivals.solver.kernels import (
    _AD,
    _CP,
    _H0,
    _H1,
    _L0,
    _L1,
    _R,
    _RF,
    LEGAL_CARDS,
    LEGAL_STOP,
    Tables,
    _count_bits,
    _find,
    _hash_slot,
    _next_state,
    jit_flat,
    jit_inline,
)
from kumite.games.sfrivals.solver.kernels import jit as _jit
from kumite.games.sfrivals.solver.kernels import jit_parallel as _jit_parallel
from kumite.solve.matrix_jit import _first_maximin_row, _game_strategy, _workspace

Array = Any

_MASK = 52
_MASK_BITS = 0x3FF << _MASK
_BLOCK = 256
_EMPTY = -1
#: Row kinds in :func:`node`'s answer: a card type (>= 0), or the S-move.
S_MOVE = -1


class BTables(NamedTuple):
    """What the bounds add to :class:`~.kernels.Tables`."""

    legal1: Array
    """``[round, hand code, life, class]``: seat 1's playable card types (bit mask) when its
    cover is of that class, with :data:`~.kernels.LEGAL_STOP` (some cover of the class
    leaves it stuck: it may end the fight), :data:`~.kernels.LEGAL_DONE` and
    :data:`~.kernels.LEGAL_WANTED`."""
    allowed0: Array
    """``[card, round, life]``: the card may be played by seat 0 (Ultra and Super Combo
    conditions; no fallback)."""
    classes: Array
    """Bit mask of card types of each class of seat 1's cover (a partition)."""
    held0: Array
    """``[n, hand code]``: bit mask of seat 0's card types the hand holds at least ``n + 1``
    copies of (``n`` = 0, 1)."""
    held1: Array
    """``[hand code]``: bit mask of seat 1's card types the hand holds."""
    allowed_bits: Array
    """``[round, life]``: :attr:`allowed0` as a bit mask of card types."""


class Scratch(NamedTuple):
    """The scratch arrays of one state's game (:func:`_game`, :func:`_state`), as one argument:
    allocated once per block of states by :func:`_scratch`, overwritten by each state."""

    a: Array
    """``[row, column]``: the matrix game (rows: :attr:`rows`, then the S-move; columns:
    :attr:`cols_class`/:attr:`cols_card`)."""
    cols_class: Array
    """Each column's class of seat 1's cover."""
    cols_card: Array
    """Each column's card type of seat 1."""
    rows: Array
    """Seat 0's public rows: their card types."""
    sm: Array
    """``[type, card, class]``: the S-move's entries when the card drawn is of that type."""
    vec: Array
    """One child's value vector (:func:`_visit`)."""
    cv: Array
    """``[row, card, class]``: each (row, seat 1's card) child's value vector, which the
    columns read."""
    stop: Array
    """Per class: some cover of the class leaves seat 1 stuck (it may end the fight)."""
    live: Array
    """Per class: seat 1's unseen cards hold a card of the class."""
    swv: Array
    """Per class: the value of switching to committed play (the mean over the mask's
    types)."""
    sigma: Array
    """Seat 0's strategy over the rows."""
    col_strategy: Array
    """Seat 1's strategy over the columns (the simplex's; not read)."""
    ws: tuple[Array, Array, Array, Array, Array, Array, Array, Array]
    """The simplex's scratch arrays (:func:`~kumite.solve.matrix_jit._workspace`)."""


class Levels(NamedTuple):
    """The solved values a state's game reads (:func:`_game`), as one argument."""

    next_keys: Array
    """The next round's states."""
    next_vals: Array
    """``[state, class]``: their value vectors."""
    next_slots: Array
    """The hash index of :attr:`next_keys` (:func:`index`; a stand-in, never read, where
    the children are read from cells)."""
    same_keys: Array
    """The same round's committed states (a secret state's switches)."""
    same_vals: Array
    """``[state, class]``: their value vectors."""
    same_slots: Array
    """The hash index of :attr:`same_keys`."""


@_jit
def _scratch(t0: int, t1: int, m: int) -> Scratch:
    """:class:`Scratch` for ``t0`` card types of seat 0, ``t1`` of seat 1 and ``m`` classes
    of seat 1's cover."""
    return Scratch(
        np.empty((t0 + 1, m * t1)),
        np.empty(m * t1, dtype=np.int64),
        np.empty(m * t1, dtype=np.int64),
        np.empty(t0, dtype=np.int64),
        np.empty((t0, t1, m)),
        np.empty(m),
        np.empty((t0 + 1, t1, m)),
        np.empty(m, dtype=np.bool_),
        np.empty(m, dtype=np.bool_),
        np.empty(m),
        np.empty(t0 + 1),
        np.empty(m * t1),
        _workspace(t0 + 1, m * t1),
    )


@jit_inline
def _lowest(mask: int) -> int:
    i = 0
    while not (mask >> i) & 1:
        i += 1
    return i


@jit_inline
def committed_key(k: int, c: int, t: Tables) -> int:
    """Secret state ``k`` with its cover known to be type ``c``: the committed state."""
    out: int = (k & ~_MASK_BITS) - (int(t.radix0[c]) << _H0)
    return out


@jit_inline
def _consistent(u1: int, cls: int, bt: BTables) -> bool:
    """Seat 1's unseen cards ``u1`` hold a card of class ``cls`` (bit mask)."""
    return bool(bt.held1[u1] & cls)


@jit_inline
def _held(h0: int, mask: int, bt: BTables) -> int:
    """Seat 0's card types held whatever its cover (among the types ``mask``): one copy of
    each type outside the mask, two of each type in it."""
    return int((bt.held0[0, h0] & ~mask) | (bt.held0[1, h0] & mask))


@_jit
def mark_legal1(states: Array, t: Tables, bt: BTables, wanted_flag: int, done_flag: int) -> int:
    """Mark the class-legal entries ``states`` need and lack; returns how many."""
    wanted = 0
    for n in range(len(states)):
        k = states[n]
        r = (k >> _R) & 15
        u1 = (k >> _H1) & 0xFFF
        l1 = (k >> _L1) & 31
        for c in range(len(bt.classes)):
            if not _consistent(u1, bt.classes[c], bt):
                continue
            e = bt.legal1[r, u1, l1, c]
            if e & (done_flag | wanted_flag) == 0:
                bt.legal1[r, u1, l1, c] = wanted_flag
                wanted += 1
    return wanted


@_jit
def switch_keys(states: Array, t: Tables) -> Array:
    """The committed states the secret ones among ``states`` may switch to (one per type of
    the mask, repeats included)."""
    total = 0
    for n in range(len(states)):
        total += _count_bits((states[n] >> _MASK) & 0x3FF)
    out = np.empty(total, dtype=np.int64)
    p = 0
    for n in range(len(states)):
        k = states[n]
        mask = (k >> _MASK) & 0x3FF
        for c in range(len(t.radix0)):
            if (mask >> c) & 1:
                out[p] = committed_key(k, c, t)
                p += 1
    return out


@jit_inline
def _public(k: int, t: Tables, bt: BTables) -> int:
    """Seat 0's rows that are cards it holds whatever its cover (bit mask), or its legal
    cards if committed."""
    r = (k >> _R) & 15
    h0 = (k >> _H0) & 0xFFF
    l0 = (k >> _L0) & 31
    mask = (k >> _MASK) & 0x3FF
    if mask == 0:
        return int(t.legal0[r, h0, l0, 0] & LEGAL_CARDS)
    return int(_held(h0, mask, bt) & bt.allowed_bits[r, l0])


@jit_inline
def _s_move(k: int, bt: BTables) -> bool:
    """A secret state's S-move is open: every type of the mask may be played."""
    mask = (k >> _MASK) & 0x3FF
    if mask == 0:
        return False
    r = (k >> _R) & 15
    l0 = (k >> _L0) & 31
    return bool((mask & ~bt.allowed_bits[r, l0]) == 0)


@jit_inline
def _regular(h0: int, mask: int, r: int, l0: int, t: Tables, bt: BTables) -> bool:
    """Seat 0, holding unseen cards ``h0`` with cover among ``mask`` (two or more types), may
    play an allowed card at round ``r`` whatever its cover, and which ones does not depend
    on the cover."""
    if r >= bt.allowed_bits.shape[0]:
        return True  # past the last round: the fight is over anyway
    allowed = bt.allowed_bits[r, l0]
    return bool((_held(h0, mask, bt) & allowed) != 0 or (mask & ~allowed) == 0)


@jit_inline
def _visit(
    k: int,
    x: int,
    b: int,
    after: int,
    t: Tables,
    bt: BTables,
    collect: bool,
    keys: Array,
    n_keys: int,
    next_keys: Array,
    next_vals: Array,
    next_slots: Array,
    vec: Array,
    mark: bool,
    ends: Array,
) -> tuple[int, int]:
    """Seat 0 plays type ``x`` at state ``k`` (``after``: its secret mask then), seat 1 type
    ``b``. With ``collect``, the live children are appended to ``keys`` from ``n_keys`` on;
    else their vector of values (averaged over covers where the cover decides) is written to
    ``vec``. Returns the new ``n_keys`` and the number of stuck entries missing (marked
    wanted if ``mark``)."""
    m = len(bt.classes)
    mask = (k >> _MASK) & 0x3FF
    wanted = 0
    if not collect:
        for c in range(m):
            vec[c] = 0.0
    if mask == 0 or _count_bits(after) == 1:
        parent = k if mask == 0 else committed_key(k, _lowest(after), t)
        child, end, miss = _next_state(parent, x, b, t, mark)
        wanted += miss
        if collect:
            if end < 0:
                keys[n_keys] = child
                n_keys += 1
        elif end >= 0:
            for c in range(m):
                vec[c] = ends[end]
        else:
            _add(vec, child, next_keys, next_vals, next_slots, 1.0)
        return n_keys, wanted
    # a secret child: how the round ends, from the tables (as _child does)
    r = (k >> _R) & 15
    l0 = (k >> _L0) & 31
    l1 = (k >> _L1) & 31
    cp = (k >> _CP) & 0x3FF
    pl0 = 1 if t.powerless0[x, l0] else 0
    pl1 = 1 if t.powerless1[b, l1] else 0
    nl0 = max(l0 - t.taken0[cp, x, b, pl0, pl1], 0)
    nl1 = max(l1 - t.taken1[cp, x, b, pl0, pl1], 0)
    nxt = r + 1
    over = 1 if nxt > t.rounds else 0
    nh0 = ((k >> _H0) & 0xFFF) - t.radix0[x]
    if not np.isnan(t.end_table[nl0, nl1, over, 0]):
        if not collect:
            v = t.end_table[nl0, nl1, over, 0]
            for c in range(m):
                vec[c] = v
        return n_keys, wanted
    if _regular(nh0, after, nxt, nl0, t, bt):
        child = (
            (np.int64(nxt) << _R)
            | (np.int64(nh0) << _H0)
            | ((((k >> _H1) & 0xFFF) - t.radix1[b]) << _H1)
            | (np.int64(nl0) << _L0)
            | (np.int64(nl1) << _L1)
            | (np.int64(t.next_pair[cp, x, b, pl0, pl1]) << _CP)
            | (np.int64(t.reveal[cp, x, b, pl0, pl1]) << _RF)
            | (np.int64(2) << _AD)
            | (np.int64(after) << _MASK)
        )
        if collect:
            keys[n_keys] = child
            n_keys += 1
        else:
            _add(vec, child, next_keys, next_vals, next_slots, 1.0)
        return n_keys, wanted
    # which cards seat 0 may play next depends on its cover: as if it were known
    share = 1.0 / _count_bits(after)
    for c in range(len(t.radix0)):
        if not (after >> c) & 1:
            continue
        child, end, miss = _next_state(committed_key(k, c, t), x, b, t, mark)
        wanted += miss
        if collect:
            if end < 0:
                keys[n_keys] = child
                n_keys += 1
        elif end >= 0:
            for j in range(m):
                vec[j] += share * ends[end]
        else:
            _add(vec, child, next_keys, next_vals, next_slots, share)
    return n_keys, wanted


@jit_inline
def _add(vec: Array, child: int, keys: Array, vals: Array, slots: Array, w: float) -> None:
    pos = _find(slots, keys, child)
    if pos < 0:  # pragma: no cover - the forward pass reached every child
        raise KeyError("bounds: child state not solved")
    for c in range(len(vec)):
        vec[c] += w * vals[pos, c]


_TIE = 1e-9
"""Worst cases within this of each other are a tie, broken by the mean over the classes:
the floats of two equally good choices differ by rounding, and the tie decides what the
other classes get."""


@jit_inline
def _better(worst: float, mean: float, best_worst: float, best_mean: float) -> bool:
    if worst > best_worst + _TIE:
        return True
    return worst >= best_worst - _TIE and mean > best_mean + _TIE


@jit_inline
def _rows(k: int, t: Tables, bt: BTables, out: Array) -> tuple[int, bool]:
    """Seat 0's rows at ``k``: card types written to ``out``, and whether the S-move is a
    further row."""
    pub = _public(k, t, bt)
    n = 0
    for i in range(len(t.radix0)):
        if (pub >> i) & 1:
            out[n] = i
            n += 1
    return n, _s_move(k, bt)


@jit_inline
def _b_union(k: int, t: Tables, bt: BTables) -> int:
    r = (k >> _R) & 15
    u1 = (k >> _H1) & 0xFFF
    l1 = (k >> _L1) & 31
    out = 0
    for c in range(len(bt.classes)):
        if _consistent(u1, bt.classes[c], bt):
            out |= bt.legal1[r, u1, l1, c] & LEGAL_CARDS
    return int(out)


@jit_flat
def _secret_children(
    k: int, t: Tables, bt: BTables, rows: Array, keys: Array, vec: Array, mark: bool
) -> tuple[int, int]:
    """The live children of state ``k``, written to ``keys`` (repeats included): their
    number, and how many stuck entries the tables lacked (then marked if ``mark``)."""
    mask = (k >> _MASK) & 0x3FF
    nr, smove = _rows(k, t, bt, rows)
    bs = _b_union(k, t, bt)
    ends = t.end_table.reshape(t.end_table.size)
    none = keys[:0]
    no_vals = t.end_table.reshape((-1, 1))[:0]
    got = 0
    wanted = 0
    for j in range(len(t.radix1)):
        if not (bs >> j) & 1:
            continue
        for p in range(nr):
            got, miss = _visit(
                k, rows[p], j, mask, t, bt, True, keys, got,
                none, no_vals, none, vec, mark, ends,
            )  # fmt: skip
            wanted += miss
        if smove:
            for x in range(len(t.radix0)):
                if (mask >> x) & 1:
                    got, miss = _visit(
                        k, x, j, mask & ~(1 << x), t, bt, True, keys, got,
                        none, no_vals, none, vec, mark, ends,
                    )  # fmt: skip
                    wanted += miss
    return got, wanted


@_jit
def children(states: Array, t: Tables, bt: BTables, mark: bool) -> tuple[Array, int]:
    """The distinct live children of ``states`` (one round), and how many stuck entries
    the tables lacked (then marked wanted if ``mark``, and the list is incomplete)."""
    size = 1 << 12
    table = np.full(size, _EMPTY, dtype=np.int64)
    count = 0
    scratch = np.empty(4 * len(t.radix0) * len(t.radix1) * (len(t.radix0) + 1), dtype=np.int64)
    rows = np.empty(len(t.radix0), dtype=np.int64)
    vec = np.empty(len(bt.classes))
    wanted = 0
    for n in range(len(states)):
        got, miss = _secret_children(states[n], t, bt, rows, scratch, vec, mark)
        wanted += miss
        for q in range(got):
            key = scratch[q]
            hmask = len(table) - 1
            slot = _hash_slot(key, hmask)
            while table[slot] != _EMPTY and table[slot] != key:
                slot = (slot + 1) & hmask
            if table[slot] == _EMPTY:
                table[slot] = key
                count += 1
                if 2 * count > len(table):
                    table = _grow(table)
    out = np.empty(count, dtype=np.int64)
    p = 0
    for s in range(len(table)):
        if table[s] != _EMPTY:
            out[p] = table[s]
            p += 1
    return np.sort(out), wanted


@_jit
def _grow(table: Array) -> Array:
    bigger = np.full(2 * len(table), _EMPTY, dtype=np.int64)
    hmask = len(bigger) - 1
    for s in range(len(table)):
        key = table[s]
        if key != _EMPTY:
            slot = _hash_slot(key, hmask)
            while bigger[slot] != _EMPTY:
                slot = (slot + 1) & hmask
            bigger[slot] = key
    return bigger


@jit_flat
def _game(
    k: int,
    t: Tables,
    bt: BTables,
    lv: Levels,
    out: Array,
    s: Scratch,
    cells: Array,
    start: int,
) -> tuple[int, bool, int, float, bool]:
    """The matrix game of state ``k`` (:func:`_state`'s first half, which allocates
    nothing), in ``s``: the columns (``cols_class``/``cols_card``; ``live``/``stop`` per
    class), the switch values (``swv``), the matrix ``a`` (rows: ``rows`` then the S-move;
    ``sm``: the S-move's entries per type); and NaN in ``out``. Returns (public rows,
    S-move open, columns, worst switch value, whether switching is seat 0's only play:
    ``out`` is then its value)."""
    m = len(bt.classes)
    r = (k >> _R) & 15
    u1 = (k >> _H1) & 0xFFF
    l1 = (k >> _L1) & 31
    mask = (k >> _MASK) & 0x3FF
    t0 = len(t.radix0)
    ends = t.end_table.reshape(t.end_table.size)
    nr, smove = _rows(k, t, bt, s.rows)
    total_rows = nr + (1 if smove else 0)
    # columns: (class, card) pairs
    nc = 0
    for c in range(m):
        s.stop[c] = False
        s.live[c] = False
    for c in range(m):
        if not _consistent(u1, bt.classes[c], bt):
            continue
        s.live[c] = True
        e = bt.legal1[r, u1, l1, c]
        if e & LEGAL_STOP:
            s.stop[c] = True
        for j in range(len(t.radix1)):
            if ((e & LEGAL_CARDS) >> j) & 1:
                s.cols_class[nc] = c
                s.cols_card[nc] = j
                nc += 1
    for c in range(m):
        out[c] = np.nan
    switch_worst = np.inf
    for c in range(m):
        s.swv[c] = 0.0
    if mask != 0:
        # switching: the committed states of each possible cover, averaged
        share = 1.0 / _count_bits(mask)
        for x in range(t0):
            if (mask >> x) & 1:
                pos = _find(lv.same_slots, lv.same_keys, committed_key(k, x, t))
                if pos < 0:  # pragma: no cover
                    raise KeyError("bounds: switch state not solved")
                for c in range(m):
                    s.swv[c] += share * lv.same_vals[pos, c]
        for c in range(m):
            if s.live[c]:
                switch_worst = min(switch_worst, s.swv[c])
        if total_rows == 0:
            for c in range(m):
                if s.live[c]:
                    out[c] = s.swv[c]
            return nr, smove, nc, switch_worst, True
    # the matrix: public rows, then the S-move (its entries the mean over the mask's types);
    # each (row, card) child's vector once, then every (class, card) column reads it
    t1 = len(t.radix1)
    bs = 0
    for q in range(nc):
        bs |= 1 << s.cols_card[q]
    share = 1.0 / _count_bits(mask) if mask != 0 else 1.0
    if start >= 0:
        m1 = t.legal1[r, u1, l1, 1] & LEGAL_CARDS
        cell = start
        for p in range(nr):
            for j in range(t1):
                if (m1 >> j) & 1:
                    x = cells[cell]
                    cell += 1
                    if x >= 0:
                        for c in range(m):
                            s.cv[p, j, c] = lv.next_vals[x, c]
                    else:
                        for c in range(m):
                            s.cv[p, j, c] = ends[-1 - x]
        bs = 0  # every entry read
    for j in range(t1):
        if not (bs >> j) & 1:
            continue
        for p in range(nr):
            _visit(
                k, s.rows[p], j, mask, t, bt, False, lv.next_keys, 0,
                lv.next_keys, lv.next_vals, lv.next_slots, s.vec, False, ends,
            )  # fmt: skip
            for c in range(m):
                s.cv[p, j, c] = s.vec[c]
        if smove:
            for c in range(m):
                s.cv[nr, j, c] = 0.0
            for x in range(t0):
                if (mask >> x) & 1:
                    _visit(
                        k, x, j, mask & ~(1 << x), t, bt, False, lv.next_keys, 0,
                        lv.next_keys, lv.next_vals, lv.next_slots, s.vec, False, ends,
                    )  # fmt: skip
                    for c in range(m):
                        s.sm[x, j, c] = s.vec[c]
                        s.cv[nr, j, c] += share * s.vec[c]
    for p in range(total_rows):
        for q in range(nc):
            s.a[p, q] = s.cv[p, s.cols_card[q], s.cols_class[q]]
    return nr, smove, nc, switch_worst, False


@_jit
def _state(
    k: int,
    t: Tables,
    bt: BTables,
    lv: Levels,
    out: Array,
    s: Scratch,
    cells: Array,
    start: int,
) -> tuple[int, int, int, int]:
    """Value vector of state ``k`` into ``out``; for a committed state with ``start >= 0``,
    its children are read from ``cells[start:]`` (:func:`.kernels.expand`'s, positions in
    ``next_vals``) instead of being looked up by key; the matrix game (``a``, columns
    ``cols_class``/``cols_card``, row types ``rows`` then the S-move) and seat 0's strategy
    (``sigma``) stay in the scratch arrays ``s``. Returns (rows, columns, how seat 0 plays:
    0 the game, 1 it switches to committed play, fallbacks: 1 if the simplex's check failed
    and the first maximin row stood in)."""
    nr, smove, nc, switch_worst, only_switch = _game(k, t, bt, lv, out, s, cells, start)
    if only_switch:
        return 0, nc, 1, 0
    # the fields as locals: this kernel counts references, and each read of a field of ``s``
    # would count one (in the loops below)
    a, cols_class, cols_card, sm = s.a, s.cols_class, s.cols_card, s.sm
    sigma, col_strategy, ws, stop, live, swv = s.sigma, s.col_strategy, s.ws, s.stop, s.live, s.swv
    m = len(bt.classes)
    l0 = (k >> _L0) & 31
    l1 = (k >> _L1) & 31
    rf = (k >> _RF) & 3
    mask = (k >> _MASK) & 0x3FF
    t0 = len(t.radix0)
    total_rows = nr + (1 if smove else 0)
    sv = t.end_table[l0, l1, 0, 1]
    g = a[:total_rows, :nc]
    fallback = 0
    for p in range(total_rows):
        sigma[p] = 0.0
    if rf == 1:  # seat 0 reveals first: one row, each class answers it
        best = -np.inf
        best_mean = -np.inf
        arg = 0
        for p in range(total_rows):
            worst = np.inf
            mean = 0.0
            n_live = 0
            for c in range(m):
                if live[c]:
                    v = _revealed(p, nr, c, mask, g, cols_class, cols_card, nc, sm, t0)
                    if stop[c]:
                        v = min(v, sv)
                    worst = min(worst, v)
                    mean += v
                    n_live += 1
            mean /= n_live
            if p == 0 or _better(worst, mean, best, best_mean):
                best = worst
                best_mean = mean
                arg = p
        sigma[arg] = 1.0
        for c in range(m):
            if live[c]:
                out[c] = _revealed(arg, nr, c, mask, g, cols_class, cols_card, nc, sm, t0)
    elif rf == 2:  # seat 1 reveals first: seat 0 answers each card (not knowing the class)
        for c in range(m):
            if live[c]:
                out[c] = np.inf
        for q in range(nc):
            j = cols_card[q]
            best = -np.inf
            best_mean = -np.inf
            arg = 0
            for p in range(total_rows):
                worst = np.inf
                mean = 0.0
                n_cols = 0
                for q2 in range(nc):
                    if cols_card[q2] == j:
                        worst = min(worst, g[p, q2])
                        mean += g[p, q2]
                        n_cols += 1
                mean /= n_cols
                if p == 0 or _better(worst, mean, best, best_mean):
                    best = worst
                    best_mean = mean
                    arg = p
            out[cols_class[q]] = min(out[cols_class[q]], g[arg, q])
    else:
        v = _game_strategy(g, *ws, sigma[:total_rows], col_strategy[:nc])
        if np.isnan(v):
            fallback = 1
            for p in range(total_rows):
                sigma[p] = 0.0
            sigma[_first_maximin_row(g)] = 1.0
        for c in range(m):
            if live[c]:
                out[c] = np.inf
        for q in range(nc):
            pay = 0.0
            for p in range(total_rows):
                pay += sigma[p] * g[p, q]
            out[cols_class[q]] = min(out[cols_class[q]], pay)
    for c in range(m):
        if live[c] and stop[c]:
            out[c] = min(out[c], sv)
    if mask != 0:
        worst = np.inf
        mean = 0.0
        switch_mean = 0.0
        for c in range(m):
            if live[c]:
                worst = min(worst, out[c])
                mean += out[c]
                switch_mean += swv[c]
        if _better(switch_worst, switch_mean, worst, mean):
            for c in range(m):
                if live[c]:
                    out[c] = swv[c]
            return total_rows, nc, 1, fallback
    return total_rows, nc, 0, fallback


@jit_inline
def _revealed(
    p: int, nr: int, c: int, mask: int, g: Array, cols_class: Array, cols_card: Array,
    nc: int, sm: Array, t0: int,
) -> float:  # fmt: skip
    """Class ``c``'s answer to seat 0's row ``p`` revealed first (for the S-move: the card
    drawn is seen, then answered; ``sm[x, card, class]`` holds those values)."""
    if p < nr:
        worst = np.inf
        for q in range(nc):
            if cols_class[q] == c:
                worst = min(worst, g[p, q])
        return worst
    total = 0.0
    n = 0
    for x in range(t0):
        if (mask >> x) & 1:
            worst = np.inf
            for q in range(nc):
                if cols_class[q] == c:
                    worst = min(worst, sm[x, cols_card[q], c])
            total += worst
            n += 1
    return total / n


@_jit_parallel
def evaluate(
    states: Array,
    t: Tables,
    bt: BTables,
    next_keys: Array,
    next_vals: Array,
    same_keys: Array,
    same_vals: Array,
    cells: Array,
    starts: Array,
) -> tuple[Array, int]:
    """Value vectors of ``states`` (one round), from the next round's values and, for
    secret states, the same round's committed ones (``same_*``); with the number of games
    whose simplex check failed (their first maximin row stood in: still sound). Committed
    states read their children from ``cells``/``starts`` (:func:`.kernels.expand`) when
    ``starts`` is not empty, else every child is looked up by key."""
    m = len(bt.classes)
    n_states = len(states)
    out = np.empty((n_states, m))
    use_cells = len(starts) > 0
    next_slots = _index(next_keys) if not use_cells else np.full(1, -1, dtype=np.int64)
    same_slots = _index(same_keys)
    lv = Levels(next_keys, next_vals, next_slots, same_keys, same_vals, same_slots)
    t0 = len(t.radix0)
    t1 = len(t.radix1)
    n_blocks = (n_states + _BLOCK - 1) // _BLOCK
    fallbacks = np.zeros(n_blocks, dtype=np.int64)
    for blk in prange(n_blocks):
        s = _scratch(t0, t1, m)
        for n in range(blk * _BLOCK, min(n_states, (blk + 1) * _BLOCK)):
            start = starts[n] if use_cells else -1
            _, _, _, fb = _state(states[n], t, bt, lv, out[n], s, cells, start)
            fallbacks[blk] += fb
    return out, int(fallbacks.sum())


@_jit
def _index(keys: Array) -> Array:
    size = 1 << 4
    while size < 2 * len(keys):
        size *= 2
    slots = np.full(size, -1, dtype=np.int64)
    hmask = size - 1
    for n in range(len(keys)):
        s = _hash_slot(keys[n], hmask)
        while slots[s] >= 0:
            s = (s + 1) & hmask
        slots[s] = n
    return slots


@_jit
def node(
    k: int,
    t: Tables,
    bt: BTables,
    next_keys: Array,
    next_vals: Array,
    next_slots: Array,
    same_keys: Array,
    same_vals: Array,
    same_slots: Array,
) -> tuple[Array, Array, Array, bool, Array, Array, Array, bool]:
    """State ``k``'s solution as :func:`evaluate` computes it: its value vector, the
    matrix game (rows: the card types of ``row_cards``, then the S-move if open; columns:
    (class, card)), seat 0's strategy, and whether it switches to committed play."""
    m = len(bt.classes)
    t0 = len(t.radix0)
    t1 = len(t.radix1)
    out = np.empty(m)
    s = _scratch(t0, t1, m)
    lv = Levels(next_keys, next_vals, next_slots, same_keys, same_vals, same_slots)
    nrows, ncols, switched, _ = _state(k, t, bt, lv, out, s, np.empty(0, dtype=np.int32), -1)
    nr, smove = _rows(k, t, bt, s.rows)
    return (
        out,
        s.a[:nrows, :ncols].copy(),
        s.rows[:nr].copy(),
        smove and nrows > nr,
        s.cols_class[:ncols].copy(),
        s.cols_card[:ncols].copy(),
        s.sigma[:nrows].copy(),
        switched == 1,
    )


@_jit
def index(keys: Array) -> Array:
    """The hash index :func:`node` looks states up with (build it once per level)."""
    return _index(keys)
