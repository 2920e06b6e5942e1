"""Compiled (Numba) inner loops of the SF Rivals fight solver.

:mod:`.fight` builds every rule table by calling the engine's pure functions; these kernels
only *read* the tables (bundled in one :class:`Tables`), so they hold no rule of their own.
One round of the induction is two passes over its states (packed 64-bit keys, layout in
:mod:`.fight`):

* :func:`expand` (forward) — every child state of the round, each once (hash tables), and
  each state's round game as *cells*: for every pair of legal cards, the position of the
  child among the children, or the result where the fight ends. Also the "stuck" entries
  of the next round the tables still lack (marked for :mod:`.fight` to fill);
* :func:`evaluate` (backward) — each state's value: its matrix of continuation values is
  read from its cells and the next round's values (no child is hashed twice) and solved
  on the spot — max-min where a seat reveals first, else :mod:`kumite.solve.matrix_jit`
  (saddle point, dominance, a checked simplex). A game whose check fails is left NaN for
  the LP (HiGHS) in :mod:`.fight`.

Both run on Numba's threads (``prange``: blocks of states, hash shards); every result is
the same whatever the number of threads. :mod:`.certify_kernels` adds the best response
of :mod:`.certify` on the same tables (:func:`build_index` / :func:`_find` look states up).

Tables (all dense numpy arrays, indexed by round, hand code, life, adaptive flag):
``legal[round, code, life, adaptive]`` is a bit mask of playable card types with
:data:`LEGAL_STOP` (an adaptive seat may end the fight) and :data:`LEGAL_DONE` (the entry
is filled); ``stuck[round, code, life]`` is 1/0, or :data:`UNKNOWN`/:data:`WANTED`.
Compiled once and cached on disk (``cache=True``).
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple, cast

import numpy as np
from numba import njit, prange

from kumite.solve.matrix_jit import F, _game_value, _maximin_pure, _minimax_pure, _workspace

# Numba's OpenMP threads wait for the next of the solver's many short parallel loops
# asleep, not spinning: on a busy machine a spinning thread takes the core from the one
# still working (and shows as CPU time). Read when the OpenMP library loads, at the first
# parallel call; a policy the user set stays.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

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
_BLOCK = 256
"""States per parallel task of :func:`evaluate` (scratch arrays are allocated per block)."""
_GOLDEN = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit integer

Array = Any


# Every kernel called from Python lets go of the GIL while it runs (``nogil``): a solve in a
# background thread (a bot preparing its tables at the web table, docs/protocol.md
# "Limits") must not stop the server's event loop and other bots' threads for the seconds a
# big round takes. The kernels touch no Python object, so nothing else changes.
_NOGIL: dict[str, Any] = {"cache": True, "nogil": True}


def jit(func: F) -> F:
    """``numba.njit(cache=True, nogil=True)``, keeping the Python signature."""
    return cast(F, njit(**_NOGIL)(func))


def jit_parallel(func: F) -> F:
    """:func:`jit` with ``parallel=True``: ``numba.prange`` loops run on Numba's threads."""
    return cast(F, njit(parallel=True, **_NOGIL)(func))


_jit = jit
_jit_parallel = jit_parallel


# The speed tricks of the kernels, both about calls. A compiled call passes every array it
# takes as its descriptor, word by word (the rule tables: ~250 words), and Numba's runtime
# counts references to each array on the way in and out (atomic operations): ~0.2-0.5 us a
# call, whatever the callee does — more than a transition itself costs. So the helpers the
# hot loops call per child are inlined (jit_inline), and the loops that call them per state
# and per block are compiled without reference counting (jit_flat), so that the inlined
# code counts nothing either. Neither changes an operation on a value.


def jit_inline(func: F) -> F:
    """:func:`~kumite.solve.matrix_jit.jit`, inlined into its compiled callers (Numba IR)."""
    return cast(F, njit(cache=True, inline="always")(func))


_NO_REFCOUNT: dict[str, Any] = {"_nrt": False}


def jit_flat(func: F) -> F:
    """:func:`~kumite.solve.matrix_jit.jit` without the runtime's reference counting, for a
    kernel that allocates nothing and only reads and writes arrays its caller holds
    (``_nrt=False``: Numba's own switch, long-standing though not in its documentation)."""
    return cast(F, njit(**_NOGIL, **_NO_REFCOUNT)(func))


class Tables(NamedTuple):
    """The rule tables every kernel reads, as one argument (a Numba named tuple): adding a
    table is one field here, not an edit to every signature. Built by :mod:`.fight`."""

    legal0: Array
    """``[round, hand code, life, adaptive]``: bit mask of seat 0's playable card types."""
    legal1: Array
    stuck0: Array
    """``[round, hand code, life]``: seat 0 stuck (1/0), or :data:`UNKNOWN`/:data:`WANTED`."""
    stuck1: Array
    radix0: Array
    """Hand code of one card of each type (a hand's code is the sum over its cards)."""
    radix1: Array
    copies0: Array
    """Copies of each card type in the character's deck."""
    copies1: Array
    powerless0: Array
    """``[card, life]``: the card would be played powerless (its Ultra condition unmet)."""
    powerless1: Array
    taken0: Array
    """``[carry pair, card0, card1, powerless0, powerless1]``: damage seat 0 takes."""
    taken1: Array
    next_pair: Array
    """Same index: the carried-bonus pair after the round."""
    reveal: Array
    """Same index: the reveal-first flags of the next round (bit 0: seat 0, bit 1: seat 1)."""
    end_table: Array
    """``[life0, life1, cards run out, a seat stuck]``: seat 0's result, NaN if the fight
    goes on."""
    rounds: int
    end_fight: bool
    """A stuck seat ends the fight (``no_legal_card == "end-fight"``)."""


@_jit
def mark_legal(states: Array, t: Tables) -> int:
    """Mark the legal-table entries ``states`` need and lack; returns how many."""
    legal0, legal1 = t.legal0, t.legal1
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


@jit_inline
def _find(slots: Array, keys: Array, key: int) -> int:
    mask = len(slots) - 1
    s = _hash_slot(key, mask)
    while slots[s] >= 0:
        if keys[slots[s]] == key:
            return int(slots[s])
        s = (s + 1) & mask
    return -1


@_jit
def mark_stuck(states: Array, t: Tables) -> int:
    """Mark the stuck entries of the next round that any child of ``states`` may need (every
    card a seat holds, every life up to its current one) and the tables lack."""
    wanted = 0
    seen0 = np.zeros((t.stuck0.shape[1], 32), dtype=np.bool_)
    seen1 = np.zeros((t.stuck1.shape[1], 32), dtype=np.bool_)
    for n in range(len(states)):
        k = states[n]
        nxt = ((k >> _R) & 15) + 1
        if nxt > t.rounds:
            continue
        ad = (k >> _AD) & 3
        for seat in range(2):
            if (ad >> seat) & 1:
                continue
            if seat == 0:
                h, life, radix, copies, tab, seen = (
                    (k >> _H0) & 0xFFF,
                    (k >> _L0) & 31,
                    t.radix0,
                    t.copies0,
                    t.stuck0,
                    seen0,
                )
            else:
                h, life, radix, copies, tab, seen = (
                    (k >> _H1) & 0xFFF,
                    (k >> _L1) & 31,
                    t.radix1,
                    t.copies1,
                    t.stuck1,
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
def _count_bits(m: int) -> int:
    n = 0
    while m:
        n += m & 1
        m >>= 1
    return n


@_jit
def _grow_index(table: Array) -> Array:
    bigger = np.full((2 * len(table), 2), _EMPTY, dtype=np.int64)
    mask = len(bigger) - 1
    for s in range(len(table)):
        key = table[s, 0]
        if key != _EMPTY:
            slot = _hash_slot(key, mask)
            while bigger[slot, 0] != _EMPTY:
                slot = (slot + 1) & mask
            bigger[slot, 0] = key
            bigger[slot, 1] = table[s, 1]
    return bigger


@_jit
def _shard(key: int, shards: int) -> int:
    # the product's top bits: independent of the slot bits of _hash_slot
    return int(((key * _GOLDEN) >> 58) & 63) % shards


@jit_inline
def _probe_stuck(stuck: Array, r: int, h: int, life: int, mark: bool) -> int:
    """One seat's entry ``stuck[r, h, life]``: 1 or 0, or -1 if the table lacks it (then
    marked :data:`WANTED` if ``mark``)."""
    st = stuck[r, h, life]
    if st < 0:
        if mark and st == UNKNOWN:
            stuck[r, h, life] = WANTED
        return -1
    return 1 if st == 1 else 0


# -- what simulators use (the batched engine, the vector env; docs/solver.md, "The rule
# tables for simulators"): next_state, legal_cards, round_ready and the key fields below


def pack_fields(round: Any, h0: Any, h1: Any, l0: Any, l1: Any, cp: Any, rf: Any, ad: Any) -> Any:
    """A packed state key from its fields: ints or int64 arrays (:func:`.fight.pack_keys`)."""
    return (
        (round << _R)
        | (h0 << _H0)
        | (h1 << _H1)
        | (l0 << _L0)
        | (l1 << _L1)
        | (cp << _CP)
        | (rf << _RF)
        | (ad << _AD)
    )


pack_key = _jit(pack_fields)
"""The same, compiled, for one state inside a kernel."""


@_jit
def key_round(k: int) -> int:
    """The round of packed state ``k``."""
    return (k >> _R) & 15


@_jit
def key_lives(k: int) -> tuple[int, int]:
    """Both seats' lives at packed state ``k``."""
    return (k >> _L0) & 31, (k >> _L1) & 31


@_jit
def key_pair(k: int) -> int:
    """The code of the carried-bonus pair at packed state ``k`` (``FightSolver.carry_pair``)."""
    return (k >> _CP) & 0x3FF


@_jit
def key_reveal(k: int) -> int:
    """The reveal-first flags at packed state ``k`` (bit 0: seat 0, bit 1: seat 1)."""
    return (k >> _RF) & 3


@_jit
def round_ready(k: int, t: Tables, pairs_filled: Array) -> bool:
    """Whether the tables hold what a committed state ``k``'s round needs before
    :func:`next_state` (both seats' legal cards, the carried-bonus pair's transitions);
    ``pairs_filled`` is ``FightSolver.pairs_filled``."""
    r = (k >> _R) & 15
    e0 = t.legal0[r, (k >> _H0) & 0xFFF, (k >> _L0) & 31, 0]
    e1 = t.legal1[r, (k >> _H1) & 0xFFF, (k >> _L1) & 31, 0]
    return bool(pairs_filled[(k >> _CP) & 0x3FF] and e0 & LEGAL_DONE != 0 and e1 & LEGAL_DONE != 0)


@_jit
def next_state(k: int, i: int, j: int, t: Tables, mark: bool) -> tuple[int, int, int]:
    """The child of state ``k`` when seat 0 plays card type ``i`` and seat 1 ``j``: its key,
    the flat index in ``t.end_table`` of the result if the fight ends there (else -1), and
    how many stuck entries it needs that the tables lack (marked :data:`WANTED` if
    ``mark``; the answer is then incomplete)."""
    return _next_state(k, i, j, t, mark)


@jit_inline
def _next_state(k: int, i: int, j: int, t: Tables, mark: bool) -> tuple[int, int, int]:
    """:func:`next_state`, inlined into the kernels' loops."""
    r = (k >> _R) & 15
    l0 = (k >> _L0) & 31
    l1 = (k >> _L1) & 31
    cp = (k >> _CP) & 0x3FF
    ad = (k >> _AD) & 3
    pl0 = 1 if t.powerless0[i, l0] else 0
    pl1 = 1 if t.powerless1[j, l1] else 0
    nl0 = max(l0 - t.taken0[cp, i, j, pl0, pl1], 0)
    nl1 = max(l1 - t.taken1[cp, i, j, pl0, pl1], 0)
    nh0 = ((k >> _H0) & 0xFFF) - t.radix0[i]
    nh1 = ((k >> _H1) & 0xFFF) - t.radix1[j]
    nxt = r + 1
    over = 1 if nxt > t.rounds else 0
    stuck = 0
    wanted = 0
    if t.end_fight and over == 0 and nl0 > 0 and nl1 > 0:
        for p in (
            _probe_stuck(t.stuck0, nxt, nh0, nl0, mark) if ad & 1 == 0 else 0,
            _probe_stuck(t.stuck1, nxt, nh1, nl1, mark) if (ad >> 1) & 1 == 0 else 0,
        ):
            if p < 0:
                wanted += 1
            elif p == 1:
                stuck = 1
    end = -1
    if not np.isnan(t.end_table[nl0, nl1, over, stuck]):
        end = ((nl0 * t.end_table.shape[1] + nl1) * 2 + over) * 2 + stuck
    child = (
        (nxt << _R)
        | (nh0 << _H0)
        | (nh1 << _H1)
        | (nl0 << _L0)
        | (nl1 << _L1)
        | (np.int64(t.next_pair[cp, i, j, pl0, pl1]) << _CP)
        | (np.int64(t.reveal[cp, i, j, pl0, pl1]) << _RF)
        | (ad << _AD)
        | (k & _COVER_BITS)
    )
    return child, end, wanted


@_jit
def legal_cards(k: int, t: Tables) -> tuple[int, int]:
    """The legal card types of both seats at state ``k`` (bit masks)."""
    return _legal_cards(k, t)


@jit_inline
def _legal_cards(k: int, t: Tables) -> tuple[int, int]:
    r = (k >> _R) & 15
    ad = (k >> _AD) & 3
    m0 = t.legal0[r, (k >> _H0) & 0xFFF, (k >> _L0) & 31, ad & 1] & LEGAL_CARDS
    m1 = t.legal1[r, (k >> _H1) & 0xFFF, (k >> _L1) & 31, (ad >> 1) & 1] & LEGAL_CARDS
    return m0, m1


@_jit_parallel
def expand(states: Array, t: Tables, shards: int) -> tuple[Array, Array, Array, int]:
    """The distinct live children of ``states`` (one round), in order of first appearance,
    and every state's round game as *cells*: the legal (card0, card1) pairs of state ``n``,
    row-major, at ``cells[starts[n]:starts[n + 1]]``, each the position of its child among
    the children (>= 0) or, where the fight ends, ``-1 - e`` with ``e`` the flat index of
    the result in ``t.end_table`` — so that :func:`evaluate` reads the next round's values
    without hashing a child again. Also how many stuck entries were missing (then marked
    :data:`WANTED`, and the result is incomplete).

    In parallel: the cells' children by blocks of states, then their deduplication in
    ``shards`` hash shards, each with its own table; a sequential pass numbers the children
    in order of first appearance, so the result does not depend on ``shards`` (or on the
    number of threads)."""
    n_states = len(states)
    starts = np.empty(n_states + 1, dtype=np.int64)
    total = 0
    for n in range(n_states):
        m0, m1 = _legal_cards(states[n], t)
        starts[n] = total
        total += _count_bits(m0) * _count_bits(m1)
    starts[n_states] = total
    keys = np.empty(total, dtype=np.int64)  # the child, or -1 - e where the fight ends
    wanted = 0
    for b in prange((n_states + _BLOCK - 1) // _BLOCK):
        wanted += _block_children(states, starts, t, keys, b)
    cells = np.empty(total, dtype=np.int32)
    if wanted:  # mark what is missing (one thread: no two writes to one entry)
        for n in range(n_states):
            _state_children(states[n], t, keys, starts[n], True)
        return np.empty(0, dtype=np.int64), cells, starts, wanted
    count = 0
    for s in prange(shards):
        count += _dedupe_shard(keys, cells, s, shards, min(total, n_states))
    # each live cell holds the first cell its child appears in: number those in order
    children = np.empty(count, dtype=np.int64)
    count = 0
    for c in range(total):
        x = cells[c]
        if x == c:
            children[count] = keys[c]
            cells[c] = count
            count += 1
        elif x >= 0:
            cells[c] = cells[x]  # an earlier cell: already numbered
    return children, cells, starts, wanted


@jit_flat
def _block_children(states: Array, starts: Array, t: Tables, keys: Array, b: int) -> int:
    wanted = 0
    for n in range(b * _BLOCK, min(len(states), (b + 1) * _BLOCK)):
        wanted += _state_children(states[n], t, keys, starts[n], False)
    return wanted


@jit_inline
def _state_children(k: int, t: Tables, keys: Array, c: int, mark: bool) -> int:
    """Writes the cells' children of state ``k`` from ``keys[c]`` on (see :func:`expand`);
    returns the number of missing stuck entries."""
    m0, m1 = _legal_cards(k, t)
    wanted = 0
    for i in range(len(t.radix0)):
        if not (m0 >> i) & 1:
            continue
        for j in range(len(t.radix1)):
            if not (m1 >> j) & 1:
                continue
            child, end, missing = _next_state(k, i, j, t, mark)
            keys[c] = child if end < 0 else -1 - end
            wanted += missing
            c += 1
    return wanted


@_jit
def _dedupe_shard(keys: Array, cells: Array, shard: int, shards: int, guess: int) -> int:
    """For the cells whose child is in ``shard`` (and, for shard 0, those where the fight
    ends): the first cell the child appears in (or ``-1 - e``). Returns the number of
    distinct children of the shard."""
    size = 1 << 10
    while size * shards < guess:  # doubled as it fills
        size *= 2
    table = np.full((size, 2), _EMPTY, dtype=np.int64)  # key, first cell: one cache line
    count = 0
    for c in range(len(keys)):
        child = keys[c]
        if child < 0:
            if shard == 0:
                cells[c] = child
            continue
        if _shard(child, shards) != shard:
            continue
        hmask = len(table) - 1
        slot = _hash_slot(child, hmask)
        while True:
            key = table[slot, 0]
            if key == child:
                cells[c] = table[slot, 1]
                break
            if key == _EMPTY:
                table[slot, 0] = child
                table[slot, 1] = c
                cells[c] = c
                count += 1
                if 2 * count > len(table):
                    table = _grow_index(table)
                break
            slot = (slot + 1) & hmask
    return count


@_jit
def renumber(cells: Array, rank: Array) -> None:
    """Point ``cells`` (:func:`expand`) at the children's new positions: child ``x`` moved
    to ``rank[x]``."""
    for c in range(len(cells)):
        x = cells[c]
        if x >= 0:
            cells[c] = rank[x]


@_jit
def _node_matrix(
    k: int,
    t: Tables,
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
    t0 = len(t.radix0)
    t1 = len(t.radix1)
    r = (k >> _R) & 15
    h0 = (k >> _H0) & 0xFFF
    h1 = (k >> _H1) & 0xFFF
    l0 = (k >> _L0) & 31
    l1 = (k >> _L1) & 31
    ad = (k >> _AD) & 3
    e0 = t.legal0[r, h0, l0, ad & 1]
    e1 = t.legal1[r, h1, l1, (ad >> 1) & 1]
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
    ends = t.end_table.reshape(t.end_table.size)
    for p in range(nr):
        for q in range(nc):
            child, end, _ = _next_state(k, rows[p], cols[q], t, False)
            if end >= 0:
                a[p, q] = ends[end]
                continue
            pos = _find(next_slots, next_keys, child)
            if pos < 0:  # pragma: no cover - the forward pass reached every child
                raise KeyError("child state not solved")
            a[p, q] = next_vals[pos]
    return nr, nc


@_jit_parallel
def evaluate(
    states: Array, cells: Array, starts: Array, next_vals: Array, t: Tables, uniform_seat: int
) -> Array:
    """Seat 0's value of each state (NaN: left to the LP), from its cells (:func:`expand`)
    and ``next_vals``, the values of the next round's states in the order of the children.
    ``uniform_seat`` (-1: none) plays uniformly at random and the other seat best-responds.
    States are independent, so blocks of them run on parallel threads; each value is
    computed the same way whatever the number of threads."""
    n_states = len(states)
    out = np.empty(n_states)
    ends = t.end_table.reshape(t.end_table.size)
    n_blocks = (n_states + _BLOCK - 1) // _BLOCK
    for b in prange(n_blocks):
        a = np.empty((len(t.radix0), len(t.radix1)))
        ws = _workspace(len(t.radix0), len(t.radix1))
        for n in range(b * _BLOCK, min(n_states, (b + 1) * _BLOCK)):
            out[n] = _state_value(
                states[n], cells, starts[n], next_vals, ends, t, uniform_seat, a, ws
            )
    return out


@_jit
def _state_value(
    k: int,
    cells: Array,
    start: int,
    next_vals: Array,
    ends: Array,
    t: Tables,
    uniform_seat: int,
    a: Array,
    ws: Any,
) -> float:
    r = (k >> _R) & 15
    l0 = (k >> _L0) & 31
    l1 = (k >> _L1) & 31
    rf = (k >> _RF) & 3
    ad = (k >> _AD) & 3
    e0 = t.legal0[r, (k >> _H0) & 0xFFF, l0, ad & 1]
    e1 = t.legal1[r, (k >> _H1) & 0xFFF, l1, (ad >> 1) & 1]
    nr = _count_bits(e0 & LEGAL_CARDS)
    nc = _count_bits(e1 & LEGAL_CARDS)
    c = start
    for p in range(nr):
        for q in range(nc):
            x = cells[c]
            a[p, q] = next_vals[x] if x >= 0 else ends[-1 - x]
            c += 1
    g = a[:nr, :nc]
    if uniform_seat == 0:
        return _uniform_rows(g, rf == 1)
    if uniform_seat == 1:
        return _uniform_cols(g, rf == 2)
    if rf == 1 or nr == 1 or nc == 1:
        v = _maximin_pure(g)  # with one card on a side, _game_value's saddle: the same float
    elif rf == 2:
        v = _minimax_pure(g)
    else:
        v = _game_value(g, *ws)
    if (e0 | e1) & LEGAL_STOP and not np.isnan(v):
        sv = t.end_table[l0, l1, 0, 1]
        if ad == 1:
            v = max(v, sv)
        elif ad == 2:
            v = min(v, sv)
    return float(v)


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
