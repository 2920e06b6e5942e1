"""Small extensive-form games: a definition protocol and a compiled array form.

A game is described by :class:`ExtensiveGame` (histories, whose turn, legal actions, chance
outcomes, information-set keys, returns). :func:`compile_game` enumerates it once into a
:class:`Tree` of numpy arrays — nodes in breadth-first order, edges grouped by depth with
each node's children contiguous — so that CFR, best response and evaluation are a handful
of vectorised operations per depth instead of a Python walk per node.

Two-player zero-sum only; returns are player 0's utility.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Sequence
from typing import Generic, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

CHANCE = -1
TERMINAL = -2

H = TypeVar("H", bound=Hashable)
IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


class ExtensiveGame(Protocol[H]):
    """A two-player zero-sum game with perfect recall, as plain Python callbacks."""

    name: str

    def root(self) -> H: ...

    def player(self, h: H) -> int:
        """0 or 1 to move, :data:`CHANCE`, or :data:`TERMINAL`."""
        ...

    def actions(self, h: H) -> Sequence[str]:
        """Legal actions of the player to move."""
        ...

    def chance(self, h: H) -> Sequence[tuple[str, float]]:
        """Chance outcomes and their probabilities."""
        ...

    def child(self, h: H, action: str) -> H: ...

    def returns(self, h: H) -> float:
        """Player 0's utility at a terminal history (player 1 gets the opposite)."""
        ...

    def infoset(self, h: H) -> str:
        """Key of the mover's information set: equal keys, indistinguishable histories."""
        ...


@dataclasses.dataclass(frozen=True, eq=False)
class Tree(Generic[H]):
    """A compiled game tree. ``ia`` indexes (information set, action) pairs."""

    name: str
    node_player: NDArray[np.int8]
    node_depth: IntArray
    node_infoset: IntArray
    """Information set of a decision node, else -1."""
    terminal_value: FloatArray
    """Player 0's utility at terminals, 0 elsewhere."""
    edge_parent: IntArray
    edge_child: IntArray
    edge_owner: NDArray[np.int8]
    """Who chooses the edge: 0, 1 or :data:`CHANCE`."""
    edge_ia: IntArray
    """(infoset, action) index of a decision edge; -1 for a chance edge."""
    edge_chance: FloatArray
    """Probability of a chance edge; 1 for a decision edge."""
    depth_slices: tuple[slice, ...]
    """Edges whose parent is at depth d, for d = 0, 1, ..."""
    depth_parents: tuple[IntArray, ...]
    """Parent nodes at depth d, in edge order (one per run of children)."""
    depth_starts: tuple[IntArray, ...]
    """Start of each parent's run of edges within the depth slice."""
    infoset_keys: tuple[str, ...]
    infoset_player: IntArray
    infoset_first_ia: IntArray
    infoset_num_actions: IntArray
    infoset_depth: IntArray
    ia_infoset: IntArray
    ia_action: tuple[str, ...]
    histories: tuple[H, ...]

    @property
    def num_nodes(self) -> int:
        return len(self.node_player)

    @property
    def num_infosets(self) -> int:
        return len(self.infoset_keys)

    @property
    def num_ia(self) -> int:
        return len(self.ia_infoset)

    def uniform(self) -> FloatArray:
        """The uniform strategy profile (every information set mixes evenly)."""
        return 1.0 / self.infoset_num_actions[self.ia_infoset].astype(np.float64)

    def strategy_dict(self, sigma: FloatArray) -> dict[str, dict[str, float]]:
        """A profile as ``{infoset key: {action: probability}}``."""
        out: dict[str, dict[str, float]] = {}
        for i, key in enumerate(self.infoset_keys):
            first = int(self.infoset_first_ia[i])
            n = int(self.infoset_num_actions[i])
            out[key] = {self.ia_action[first + k]: float(sigma[first + k]) for k in range(n)}
        return out


def compile_game(game: ExtensiveGame[H]) -> Tree[H]:
    """Enumerate ``game`` into a :class:`Tree` (breadth first)."""
    histories: list[H] = [game.root()]
    players: list[int] = []
    depth = [0]
    node_infoset: list[int] = []
    terminal: list[float] = []
    e_parent: list[int] = []
    e_child: list[int] = []
    e_owner: list[int] = []
    e_ia: list[int] = []
    e_prob: list[float] = []
    keys: dict[str, int] = {}
    is_player: list[int] = []
    is_first: list[int] = []
    is_num: list[int] = []
    is_depth: list[int] = []
    is_actions: list[tuple[str, ...]] = []
    ia_action: list[str] = []
    ia_infoset: list[int] = []
    i = 0
    while i < len(histories):
        h = histories[i]
        p = game.player(h)
        players.append(p)
        node_infoset.append(-1)
        terminal.append(0.0)
        if p == TERMINAL:
            terminal[i] = float(game.returns(h))
        elif p == CHANCE:
            for action, prob in game.chance(h):
                e_parent.append(i)
                e_child.append(len(histories))
                e_owner.append(CHANCE)
                e_ia.append(-1)
                e_prob.append(prob)
                histories.append(game.child(h, action))
                depth.append(depth[i] + 1)
        else:
            actions = tuple(game.actions(h))
            key = game.infoset(h)
            idx = keys.get(key)
            if idx is None:
                idx = keys[key] = len(is_player)
                is_player.append(p)
                is_first.append(len(ia_action))
                is_num.append(len(actions))
                is_depth.append(depth[i])
                is_actions.append(actions)
                ia_action.extend(actions)
                ia_infoset.extend([idx] * len(actions))
            elif is_actions[idx] != actions or is_player[idx] != p:
                raise ValueError(f"{game.name}: information set {key!r} is inconsistent")
            elif is_depth[idx] != depth[i]:
                raise ValueError(f"{game.name}: information set {key!r} spans several depths")
            node_infoset[i] = idx
            for k, action in enumerate(actions):
                e_parent.append(i)
                e_child.append(len(histories))
                e_owner.append(p)
                e_ia.append(is_first[idx] + k)
                e_prob.append(1.0)
                histories.append(game.child(h, action))
                depth.append(depth[i] + 1)
        i += 1
    parent = np.array(e_parent, dtype=np.int64)
    node_depth = np.array(depth, dtype=np.int64)
    edge_depth = node_depth[parent] if len(parent) else np.zeros(0, dtype=np.int64)
    slices: list[slice] = []
    parents: list[IntArray] = []
    starts: list[IntArray] = []
    max_depth = int(edge_depth.max()) if len(edge_depth) else -1
    for d in range(max_depth + 1):
        lo, hi = np.searchsorted(edge_depth, [d, d + 1])
        sl = slice(int(lo), int(hi))
        seg = parent[sl]
        first = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
        slices.append(sl)
        parents.append(seg[first])
        starts.append(first.astype(np.int64))
    return Tree(
        name=game.name,
        node_player=np.array(players, dtype=np.int8),
        node_depth=node_depth,
        node_infoset=np.array(node_infoset, dtype=np.int64),
        terminal_value=np.array(terminal, dtype=np.float64),
        edge_parent=parent,
        edge_child=np.array(e_child, dtype=np.int64),
        edge_owner=np.array(e_owner, dtype=np.int8),
        edge_ia=np.array(e_ia, dtype=np.int64),
        edge_chance=np.array(e_prob, dtype=np.float64),
        depth_slices=tuple(slices),
        depth_parents=tuple(parents),
        depth_starts=tuple(starts),
        infoset_keys=tuple(keys),
        infoset_player=np.array(is_player, dtype=np.int64),
        infoset_first_ia=np.array(is_first, dtype=np.int64),
        infoset_num_actions=np.array(is_num, dtype=np.int64),
        infoset_depth=np.array(is_depth, dtype=np.int64),
        ia_infoset=np.array(ia_infoset, dtype=np.int64),
        ia_action=tuple(ia_action),
        histories=tuple(histories),
    )
