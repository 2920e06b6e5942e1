"""Exact best responses and exploitability on a compiled tree."""

from __future__ import annotations

from typing import Any

import numpy as np

from kumite.solve.cfr import edge_probabilities, reach
from kumite.solve.efg import FloatArray, IntArray, Tree


def best_response(tree: Tree[Any], sigma: FloatArray, player: int) -> tuple[float, FloatArray]:
    """The value ``player`` gets by best-responding to the others' parts of ``sigma``, and
    that pure best response (as a profile over ``player``'s (infoset, action) pairs)."""
    pe = edge_probabilities(tree, sigma)
    r = reach(tree, sigma)
    opp = r[1 - player] * r[2]
    v = tree.terminal_value * (1.0 if player == 0 else -1.0)
    dense = _dense_ia(tree)
    choice = np.zeros(tree.num_ia)
    for d in range(len(tree.depth_slices) - 1, -1, -1):
        sl = tree.depth_slices[d]
        ch = tree.edge_child[sl]
        weight = pe[sl].copy()
        mine = tree.edge_owner[sl] == player
        if mine.any():
            ia = tree.edge_ia[sl][mine]
            agg = np.bincount(
                ia, weights=opp[tree.edge_parent[sl][mine]] * v[ch[mine]], minlength=tree.num_ia
            )
            padded = np.where(dense >= 0, agg[np.maximum(dense, 0)], -np.inf)
            best = dense[np.arange(len(dense)), padded.argmax(axis=1)]
            chosen = ia == best[tree.ia_infoset[ia]]
            weight[mine] = chosen.astype(np.float64)
            choice[ia[chosen]] = 1.0
        v[tree.depth_parents[d]] = np.add.reduceat(weight * v[ch], tree.depth_starts[d])
    return float(v[0]), choice


def nash_conv(tree: Tree[Any], sigma: FloatArray) -> float:
    """Sum over players of what a best response gains against ``sigma``."""
    return best_response(tree, sigma, 0)[0] + best_response(tree, sigma, 1)[0]


def exploitability(tree: Tree[Any], sigma: FloatArray) -> float:
    """NashConv / 2 (OpenSpiel's definition): 0 exactly at a Nash equilibrium."""
    return nash_conv(tree, sigma) / 2.0


def _dense_ia(tree: Tree[Any]) -> IntArray:
    width = int(tree.infoset_num_actions.max()) if tree.num_infosets else 0
    k = np.arange(width)
    dense = tree.infoset_first_ia[:, None] + k[None, :]
    return np.where(k[None, :] < tree.infoset_num_actions[:, None], dense, -1)
