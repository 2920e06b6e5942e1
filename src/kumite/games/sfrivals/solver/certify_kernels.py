"""Compiled (Numba) best response of :mod:`.certify`: a committed, fully informed opponent
against a bound strategy, on the tables and keys of :mod:`.kernels`."""

from __future__ import annotations

from typing import Any

import numpy as np

from kumite.games.sfrivals.solver.kernels import (
    _AD,
    _COVER,
    _COVER_BITS,
    _H0,
    _H1,
    _RF,
    Tables,
    _find,
    _node_matrix,
)
from kumite.games.sfrivals.solver.kernels import jit as _jit
from kumite.solve.matrix_jit import (
    _first_maximin_row,
    _first_minimax_col,
    _game_strategy,
    _workspace,
)

Array = Any


@_jit
def twin_key(k: int, t: Tables, me: int) -> int:
    """The *twin* of committed state ``k``: the same position with the opponent of ``me``
    adaptive over its hand plus its cover (what seat ``me`` sees), cover bits cleared."""
    opp = 1 - me
    cover = ((k >> _COVER) & 31) - 1
    twin = k & ~_COVER_BITS & ~np.int64(3 << _AD)
    if opp == 0:
        twin += t.radix0[cover] << _H0
    else:
        twin += t.radix1[cover] << _H1
    out: int = twin | (np.int64(1 << opp) << _AD)
    return out


@_jit
def twin_keys(states: Array, t: Tables, me: int) -> Array:
    """:func:`twin_key` of each of ``states``."""
    out = np.empty(len(states), dtype=np.int64)
    for n in range(len(states)):
        out[n] = twin_key(states[n], t, me)
    return out


@_jit
def best_response(
    states: Array,
    t: Tables,
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
    t0 = len(t.radix0)
    t1 = len(t.radix1)
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
    for n in range(len(states)):
        k = states[n]
        twin = twin_key(k, t, me)
        nr, nc = _node_matrix(
            twin,
            t,
            twin_next_keys,
            twin_next_vals,
            twin_next_slots,
            a,
            rows,
            cols,
        )
        wr, wc = _node_matrix(
            k,
            t,
            next_keys,
            next_vals,
            next_slots,
            w,
            wrows,
            wcols,
        )
        if nr == 0 or nc == 0 or wr == 0 or wc == 0:
            # a rule table the caller did not fill (certify prepares every state it reads)
            raise ValueError("certificate: a state without legal cards (rule tables not filled)")
        g = a[:nr, :nc]
        rf = (k >> _RF) & 3
        # the opponent's committed cards are some of its twin's: where they sit there
        if me == 0:
            at = np.full(wc, -1, dtype=np.int64)
            for q in range(wc):
                for q2 in range(nc):
                    if cols[q2] == wcols[q]:
                        at[q] = q2
        else:
            at = np.full(wr, -1, dtype=np.int64)
            for p in range(wr):
                for p2 in range(nr):
                    if rows[p2] == wrows[p]:
                        at[p] = p2
        for x in range(len(at)):
            if at[x] < 0:
                raise ValueError("certificate: a committed card its twin may not play")
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
