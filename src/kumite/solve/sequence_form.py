"""The sequence form of a compiled game: exact values and equilibria by one linear program.

A player's pure strategies are exponentially many, but with perfect recall a mixed strategy
is equivalent to its *realization plan* — the probability ``x[s]`` of every sequence ``s``
of the player's own (information set, action) pairs — and those plans form a polytope
``E x = e, x >= 0`` (one flow constraint per information set). Expected utility is bilinear,
``x @ A @ y``, with ``A[s0, s1]`` the chance-weighted utility of the terminal histories whose
last own sequences are ``s0`` and ``s1``. So the game's value is one LP (Koller, Megiddo &
von Stengel 1996; von Stengel 1996)::

    max_{x, q}  q[0]   s.t.  F.T @ q <= A.T @ x,   E @ x = e,   x >= 0

(the inner ``min_y`` over player 1's plans replaced by its LP dual ``q``); player 1's plan
``y`` is the dual of the first constraints. Solved by SciPy's HiGHS: exact to its tolerance
(about 1e-9), unlike CFR's approximate average. Sequence ``0`` of each player is the empty
one; sequence ``1 + k`` is the player's ``k``-th (information set, action) pair.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from kumite.solve.efg import CHANCE, TERMINAL, FloatArray, IntArray, Tree


@dataclasses.dataclass(frozen=True, eq=False)
class SequenceForm:
    """Both players' sequences, flow constraints and the payoff matrix of a tree."""

    seq_of_ia: IntArray
    """Sequence index (within its player's) of every (information set, action) pair."""
    ia_of_seq: tuple[IntArray, IntArray]
    """Per player: the (infoset, action) pair of sequences 1, 2, ... (sequence 0 is empty)."""
    infoset_parent: IntArray
    """The player's own sequence leading to each information set (0: none)."""
    infosets: tuple[IntArray, IntArray]
    """Per player: its information sets (tree indices), in constraint order."""
    payoff: sp.csr_matrix
    """``A[s0, s1]``: player 0's chance-weighted utility at the terminals of (s0, s1)."""

    def constraints(self, tree: Tree[Any], player: int) -> sp.csr_matrix:
        """``E`` (player 0) or ``F`` (player 1): row 0 is ``x[0] = 1``; row ``1 + i`` says
        that information set ``i``'s actions share its parent sequence's probability."""
        sets = self.infosets[player]
        n = len(self.ia_of_seq[player]) + 1
        rows = [0]
        cols = [0]
        vals = [1.0]
        for r, i in enumerate(sets.tolist(), start=1):
            rows.append(r)
            cols.append(int(self.infoset_parent[i]))
            vals.append(-1.0)
            first = int(tree.infoset_first_ia[i])
            for k in range(int(tree.infoset_num_actions[i])):
                rows.append(r)
                cols.append(int(self.seq_of_ia[first + k]))
                vals.append(1.0)
        return sp.csr_matrix((vals, (rows, cols)), shape=(len(sets) + 1, n))


def sequence_form(tree: Tree[Any]) -> SequenceForm:
    """The sequence form of ``tree`` (two players, perfect recall — checked)."""
    owner_of_ia = tree.infoset_player[tree.ia_infoset]
    seq_of_ia = np.zeros(tree.num_ia, dtype=np.int64)
    ia_of_seq = []
    for p in (0, 1):
        mine = np.flatnonzero(owner_of_ia == p)
        seq_of_ia[mine] = np.arange(1, len(mine) + 1)
        ia_of_seq.append(mine)
    # each node's last own (infoset, action) pair per player, -1 before any
    last = np.full((2, tree.num_nodes), -1, dtype=np.int64)
    for sl in tree.depth_slices:
        par = tree.edge_parent[sl]
        ch = tree.edge_child[sl]
        own = tree.edge_owner[sl]
        for p in (0, 1):
            last[p, ch] = np.where(own == p, tree.edge_ia[sl], last[p, par])
    decision = np.flatnonzero(tree.node_infoset >= 0)
    sets = tree.node_infoset[decision]
    mover = tree.node_player[decision]
    before = last[mover, decision]
    parent_seq = np.where(before >= 0, seq_of_ia[np.maximum(before, 0)], 0)
    infoset_parent = np.zeros(tree.num_infosets, dtype=np.int64)
    infoset_parent[sets] = parent_seq
    if (infoset_parent[sets] != parent_seq).any():
        raise ValueError(f"{tree.name}: not perfect recall (an information set has two pasts)")
    terminal = np.flatnonzero(tree.node_player == TERMINAL)
    chance = _chance_reach(tree)[terminal]
    s0 = np.where(last[0, terminal] >= 0, seq_of_ia[np.maximum(last[0, terminal], 0)], 0)
    s1 = np.where(last[1, terminal] >= 0, seq_of_ia[np.maximum(last[1, terminal], 0)], 0)
    shape = (len(ia_of_seq[0]) + 1, len(ia_of_seq[1]) + 1)
    payoff = sp.csr_matrix((chance * tree.terminal_value[terminal], (s0, s1)), shape=shape)
    payoff.sum_duplicates()
    return SequenceForm(
        seq_of_ia=seq_of_ia,
        ia_of_seq=(ia_of_seq[0], ia_of_seq[1]),
        infoset_parent=infoset_parent,
        infosets=tuple(np.flatnonzero(tree.infoset_player == p) for p in (0, 1)),  # type: ignore[arg-type]
        payoff=payoff,
    )


def _chance_reach(tree: Tree[Any]) -> FloatArray:
    out = np.ones(tree.num_nodes)
    factor = np.where(tree.edge_owner == CHANCE, tree.edge_chance, 1.0)
    for sl in tree.depth_slices:
        out[tree.edge_child[sl]] = out[tree.edge_parent[sl]] * factor[sl]
    return out


@dataclasses.dataclass(frozen=True, eq=False)
class LPSolution:
    value: float
    """Player 0's value of the game."""
    sigma: FloatArray
    """An equilibrium as a behaviour profile over the tree's (infoset, action) pairs."""
    plans: tuple[FloatArray, FloatArray]
    """The players' realization plans (sequence 0 first)."""


def solve_lp(tree: Tree[Any], form: SequenceForm | None = None) -> LPSolution:
    """The exact value of ``tree`` and an equilibrium, by the sequence-form LP."""
    form = sequence_form(tree) if form is None else form
    e = form.constraints(tree, 0)
    f = form.constraints(tree, 1)
    n0 = e.shape[1]
    m1 = f.shape[0]
    # variables: x (player 0's plan, >= 0), then q (one per row of F, free)
    a_ub = sp.hstack([-form.payoff.T, f.T]).tocsr()
    a_eq = sp.hstack([e, sp.csr_matrix((e.shape[0], m1))]).tocsr()
    b_eq = np.zeros(e.shape[0])
    b_eq[0] = 1.0
    cost = np.zeros(n0 + m1)
    cost[n0] = -1.0
    bounds = [(0.0, None)] * n0 + [(None, None)] * m1
    res = linprog(
        cost,
        A_ub=a_ub,
        b_ub=np.zeros(a_ub.shape[0]),
        A_eq=a_eq,
        b_eq=b_eq,
        bounds=bounds,
        method="highs",
    )
    if res.status != 0:  # pragma: no cover - a finite zero-sum game always has a value
        raise RuntimeError(f"sequence-form LP failed: {res.message}")
    x = np.maximum(res.x[:n0], 0.0)
    y = np.maximum(-np.asarray(res.ineqlin.marginals), 0.0)
    sigma = np.zeros(tree.num_ia)
    for p, plan in ((0, x), (1, y)):
        sigma += behaviour(tree, form, plan, p)
    return LPSolution(value=float(-res.fun), sigma=sigma, plans=(x, y))


def behaviour(tree: Tree[Any], form: SequenceForm, plan: FloatArray, player: int) -> FloatArray:
    """The behaviour strategy of a realization plan, over the tree's (infoset, action)
    pairs (0 on the other player's; uniform where the plan never reaches an infoset)."""
    out = np.zeros(tree.num_ia)
    mine = form.ia_of_seq[player]
    infoset = tree.ia_infoset[mine]
    reach = plan[form.infoset_parent[infoset]]
    own = plan[form.seq_of_ia[mine]]
    uniform = 1.0 / tree.infoset_num_actions[infoset]
    out[mine] = np.where(reach > 1e-15, own / np.where(reach > 1e-15, reach, 1.0), uniform)
    # renormalise what the LP's tolerance leaves slightly off
    total = np.bincount(tree.ia_infoset[mine], weights=out[mine], minlength=tree.num_infosets)
    out[mine] /= total[infoset]
    return out


def realization_plan(
    tree: Tree[Any], form: SequenceForm, sigma: FloatArray, player: int
) -> FloatArray:
    """``player``'s realization plan of the behaviour profile ``sigma`` (sequence 0 first)."""
    mine = form.ia_of_seq[player]
    plan = np.ones(len(mine) + 1)
    # an infoset's parent sequence comes before it in depth order: fill by infoset depth
    infoset = tree.ia_infoset[mine]
    order = np.argsort(tree.infoset_depth[infoset], kind="stable")
    parent = form.infoset_parent[infoset]
    for k in order.tolist():
        plan[k + 1] = plan[parent[k]] * sigma[mine[k]]
    return plan
