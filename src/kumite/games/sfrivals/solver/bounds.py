"""Tighter sound bounds for the hidden-cover game: a secret cover, an unknown opponent's.

The bounds of :mod:`.setup` (method ``adaptive``) give each seat's strategy a guarantee
against an opponent that knows the seat's cover (its hand is treated as public) and may
pick its own cover at the very end (it is *adaptive*). Both are relaxations, and the
ground truth on the mini pack (:mod:`.hidden`) shows each costs a lot. This module
tightens both, keeping every bound a guarantee (the proof is in docs/solver.md, "Tighter
bounds"):

* **A secret cover.** Seat 0 may choose a *secret set-up* ``(shown, S)``: its cover is drawn
  uniformly from the card types ``S``. While two or more types remain possible, it plays
  *public* cards (held whatever the cover), or the *S-move* — a card drawn uniformly from
  ``S`` minus its cover, after which that type is ruled out — or it *switches* to committed
  play (its cover taken, pessimistically, as known to the opponent from then on). Then,
  whatever the opponent saw, it believes the cover uniform over the types not yet ruled out:
  the opponent's belief is a function of the position, so positions can still be merged.
* **An unknown opponent's cover.** Seat 1 is committed to a cover of one *class* of its card
  types (a partition; within a class it stays adaptive), and seat 0 does not know which: a
  position's value is a vector, one guarantee per class, and seat 0's strategy there is the
  maximin strategy against every (class, card) pair.

A secret set-up of one type is a committed one, and with a single class seat 1 is the
adaptive opponent: the method contains :mod:`.setup`'s, so its bounds are never looser.
Seat 1's bound is seat 0's of the mirrored matchup (the rules favour neither seat).
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray

from kumite.games.sfrivals.cards import Character
from kumite.games.sfrivals.choice import SetUp
from kumite.games.sfrivals.legal import is_stuck, playable_cards
from kumite.games.sfrivals.options import Options
from kumite.games.sfrivals.resolve import NO_CARRY, Carry
from kumite.games.sfrivals.solver import background, kernels
from kumite.games.sfrivals.solver import bounds_kernels as bk
from kumite.games.sfrivals.solver.fight import (
    I64,
    FightSolver,
    _decode,
    _minus,
    secret_root_key,
    setup_hand,
)
from kumite.games.sfrivals.solver.resident import array_bytes
from kumite.solve.matrix import FloatArray

Progress = Callable[[str], None]
NODE_MEMO = 1 << 14
"""How many solved nodes a :class:`BoundSolver` keeps for look-ups (~1.3 kB each)."""
_NODE_BYTES = 1400

SECRET = "secret:"
"""The prefix of a secret set-up's name (a set-up choice of the game otherwise)."""


@dataclasses.dataclass(frozen=True, slots=True)
class SecretSetup:
    """Seat 0's secret set-up: the shown card and the card types its cover is drawn from."""

    shown: str
    cover_from: tuple[str, ...]

    @property
    def name(self) -> str:
        """``setup:<cover>:<shown>`` for one type, else ``secret:<shown>:<t1>+<t2>...``."""
        if len(self.cover_from) == 1:
            return SetUp(self.cover_from[0], self.shown).format()
        return f"{SECRET}{self.shown}:{'+'.join(self.cover_from)}"

    @staticmethod
    def parse(name: str) -> SecretSetup:
        if not name.startswith(SECRET):  # a set-up choice of the game
            setup = SetUp.parse(name)
            return SecretSetup(setup.shown, (setup.cover,))
        shown, _, covers = name.removeprefix(SECRET).partition(":")
        return SecretSetup(shown, tuple(covers.split("+")))


def restricted_classes(char: Character) -> list[int]:
    """The default classes of ``char``'s cover: each Ultra or Super Combo type alone (the
    cards whose absence an opponent most wants to know), every other type together."""
    alone = [1 << c.index for c in char.cards if c.is_ultra or c.is_super]
    rest = sum(1 << c.index for c in char.cards if not (c.is_ultra or c.is_super))
    return [*alone, rest] if rest else alone


def committed_setups(char: Character) -> list[SecretSetup]:
    """Every committed set-up (one type to draw the cover from): the engine's set-ups."""
    out: list[SecretSetup] = []
    for shown in char.cards:
        unseen = setup_hand(char, None, shown)
        out.extend(SecretSetup(shown.id, (c.id,)) for c in char.cards if unseen[c.index] >= 1)
    return out


def secret_candidates(
    char: Character, committed: Sequence[SecretSetup], worst: Sequence[float], top: int = 2
) -> list[SecretSetup]:
    """The secret set-ups worth solving, from the committed ones' worst cases: for every
    shown card, the pairs of cover types among its ``top`` best committed covers and its
    Ultra and Super Combo types (the cards an opponent most wants to know are gone) that
    hold at least one of the best. Any choice keeps the bounds sound; this one keeps their
    cost within a few times the committed set-ups' (every pair would be ten times as many)."""
    by_shown: dict[str, list[tuple[float, str]]] = {}
    for s, w in zip(committed, worst, strict=True):
        by_shown.setdefault(s.shown, []).append((w, s.cover_from[0]))
    restricted = {c.id for c in char.cards if c.is_ultra or c.is_super}
    order = {c.id: c.index for c in char.cards}
    out: list[SecretSetup] = []
    for shown, options in by_shown.items():
        ranked = [c for _, c in sorted(options, key=lambda wc: (-wc[0], order[wc[1]]))]
        best = set(ranked[:top])
        pool = sorted(best | (restricted & set(ranked)), key=order.__getitem__)
        for c, d in itertools.combinations(pool, 2):
            if c in best or d in best:
                out.append(SecretSetup(shown, (c, d)))
    return out


class BoundSolver:
    """Backward induction over the positions of the tighter bound of seat 0 (see module),
    on the rule tables of a :class:`~.fight.FightSolver` of the same pairing. Solved states
    are kept per round (sorted keys, value vectors), so later calls reuse them."""

    def __init__(self, fight: FightSolver, classes: Sequence[int] | None = None) -> None:
        self.fight = fight
        self.chars = fight.chars
        self.classes = np.asarray(
            restricted_classes(fight.chars[1]) if classes is None else classes, dtype=np.int64
        )
        rounds, life = fight.rounds, fight.life_max
        codes1 = fight._legal_tab[1].shape[1]
        allowed0 = self._allowed_table()
        bits = np.left_shift(1, np.arange(len(allowed0)), dtype=np.int64)
        self.bt = bk.BTables(
            legal1=np.zeros((rounds + 2, codes1, life + 1, len(self.classes)), dtype=np.int32),
            allowed0=allowed0,
            classes=self.classes,
            held0=np.stack([_held(fight, 0, 1), _held(fight, 0, 2)]),
            held1=_held(fight, 1, 1),
            allowed_bits=np.tensordot(bits, allowed0, axes=1),
        )
        self.levels: dict[int, tuple[I64, FloatArray]] = {}
        self._slots: dict[int, NDArray[np.int64]] = {}
        self.states_solved = 0
        self.fallbacks = 0
        # Agents and hints ask the same few positions again and again; a solved state's node
        # never changes (its children are solved with it), so it is worked out once. (A
        # dict, not an lru_cache of the bound method: that would make the solver a cycle,
        # freed only by the cycle collector, its arrays with it.)
        self._nodes: collections.OrderedDict[int, BoundNode] = collections.OrderedDict()

    @property
    def num_classes(self) -> int:
        return len(self.classes)

    def class_of(self, card_index: int) -> int:
        return int(np.flatnonzero((self.classes >> card_index) & 1)[0])

    # -- keys -------------------------------------------------------------------------------
    def root(
        self,
        hand0: Sequence[int],
        secret: Sequence[int],
        unseen1: Sequence[int],
        lives: tuple[int, int] | None = None,
        round: int = 1,
        carry: tuple[Carry, Carry] = (NO_CARRY, NO_CARRY),
        reveal: tuple[bool, bool] = (False, False),
    ) -> int:
        """A state's key: ``hand0`` is seat 0's hand if ``secret`` is empty, else its unseen
        cards (cover included) with the cover among the types ``secret``."""
        f = self.fight
        return secret_root_key(
            f.life_max, f.radix, f._pair_code, hand0, secret, unseen1, lives, round, carry, reveal
        )

    # -- tables from the engine ---------------------------------------------------------
    def _allowed_table(self) -> NDArray[np.bool_]:
        f = self.fight
        char = self.chars[0]
        strict = Options(no_legal_card="end-fight", ultra_rule=f.options.ultra_rule)
        out = np.zeros((len(char.cards), f.rounds + 2, f.life_max + 1), dtype=np.bool_)
        for c in char.cards:
            hand = tuple(int(d.index == c.index) for d in char.cards)
            for r in range(1, f.rounds + 1):
                for life in range(f.life_max + 1):
                    out[c.index, r, life] = bool(
                        playable_cards(char, hand, life, r, f.rules, strict)
                    )
        return out

    def _legal1(self, code: int, life: int, round: int, cls: int) -> int:
        """Seat 1's class-legal entry: every card some cover of the class lets it play, and
        whether some cover of the class leaves it stuck."""
        f = self.fight
        char = self.chars[1]
        hand = _decode(code, f.radix[1], char)
        bits = 0
        stop = False
        for c in char.cards:
            if (int(self.classes[cls]) >> c.index) & 1 and hand[c.index]:
                rest = _minus(hand, c.index)
                for card in playable_cards(char, rest, life, round, f.rules, f.options):
                    bits |= 1 << card.index
                if f.end_fight and is_stuck(char, rest, life, round, f.rules, f.options):
                    stop = True
        return kernels.LEGAL_DONE | bits | (kernels.LEGAL_STOP if stop else 0)

    def _prepare(self, r: int, states: I64) -> None:
        f = self.fight
        f._prepare(r, states & ~bk._MASK_BITS)
        if bk.mark_legal1(states, f.tables, self.bt, kernels.LEGAL_WANTED, kernels.LEGAL_DONE):
            tab = self.bt.legal1
            for code, life, cls in zip(*np.nonzero(tab[r] == kernels.LEGAL_WANTED), strict=True):
                tab[r, code, life, cls] = self._legal1(int(code), int(life), r, int(cls))

    # -- the induction --------------------------------------------------------------------
    def values(self, keys: Sequence[int] | I64) -> FloatArray:
        """Value vectors (one entry per class, NaN where the class is impossible) of the
        states ``keys`` (all of one round)."""
        arr = np.asarray(keys, dtype=np.int64)
        r = int(arr[0] >> kernels._R) & 15
        if not self._known_mask(r, arr).all():
            background.may_solve(r)
            with numba.parallel_chunksize(1):
                self._solve(r, _unique(arr))
        keys_r, vals_r = self.levels[r]
        pos = np.searchsorted(keys_r, arr)
        out: FloatArray = vals_r[pos]
        return out

    def _known(self, r: int, states: I64) -> I64:
        """Those of ``states`` round ``r`` has not solved yet."""
        out: I64 = states[~self._known_mask(r, states)]
        return out

    def _known_mask(self, r: int, states: I64) -> NDArray[np.bool_]:
        level = self.levels.get(r)
        if level is None or len(states) == 0 or len(level[0]) == 0:
            return np.zeros(len(states), dtype=bool)
        pos = np.minimum(np.searchsorted(level[0], states), len(level[0]) - 1)
        known: NDArray[np.bool_] = level[0][pos] == states
        return known

    def _lookup(self, r: int, keys: I64) -> FloatArray:
        level = self.levels[r]
        out: FloatArray = level[1][np.searchsorted(level[0], keys)]
        return out

    def _solve(self, r0: int, roots: I64) -> None:
        """Forward, round by round: the committed states are expanded by the fight solver's
        kernel (their children's positions recorded as cells: no look-up later), the secret
        ones by :func:`.bounds_kernels.children`; each round's array starts with the last
        round's committed children, in the cells' order. Backward: committed states from
        their cells, then secret ones, which look their children and their committed
        same-round states up by key."""
        f = self.fight
        m = self.num_classes
        plan: dict[int, _Step] = {}
        head = np.zeros(0, dtype=np.int64)  # the last round's committed children
        rest = _unique(roots)
        r = r0
        # every array of keys here is sorted and distinct (head too: _expand sorts it)
        while r <= f.rounds and (len(head) or len(rest)):
            if len(head):
                rest = rest[~_in_sorted(rest, head)]
            secret_all = rest[(rest >> bk._MASK) != 0]
            committed_rest = rest[(rest >> bk._MASK) == 0]
            todo_s = self._known(r, secret_all)
            if len(todo_s):  # the committed states they may switch to, of this round
                sw = _unique(bk.switch_keys(todo_s, f.tables))
                sw = sw[~_in_sorted(sw, head)]
                committed_rest = _unique(np.concatenate([committed_rest, sw]))
            committed = np.concatenate([head, committed_rest])
            known_c = self._known_mask(r, committed)
            todo_c = committed[~known_c]
            self._prepare(r, np.concatenate([todo_c, todo_s]))
            kids, cells, starts = f._expand(r, todo_c)
            skids = np.zeros(0, dtype=np.int64)
            # after the last round every fight is over: its states have no live children
            while r < f.rounds:
                skids, wanted = bk.children(todo_s, f.tables, self.bt, True)
                if not wanted:
                    break
                f._fill_stuck(r + 1)
            plan[r] = _Step(committed, known_c, todo_c, cells, starts, secret_all, todo_s)
            head, rest = kids, skids
            r += 1
        empty_keys = np.zeros(0, dtype=np.int64)
        empty_vals = np.zeros((0, m))
        no_cells = np.zeros(0, dtype=np.int32)
        no_starts = np.zeros(0, dtype=np.int64)
        done: dict[int, tuple[I64, FloatArray]] = {}
        for r in sorted(plan, reverse=True):
            step = plan.pop(r)
            nxt_keys, nxt_vals = done.pop(r + 1, (empty_keys, empty_vals))
            vals_c = np.empty((len(step.committed), m))
            if step.known_c.any():
                vals_c[step.known_c] = self._lookup(r, step.committed[step.known_c])
            if len(step.todo_c):
                with kernels_threads(len(step.todo_c)):
                    got, fb = bk.evaluate(
                        step.todo_c, f.tables, self.bt, nxt_keys, nxt_vals, empty_keys,
                        empty_vals, step.cells, step.starts,
                    )  # fmt: skip
                self.fallbacks += fb
                vals_c[~step.known_c] = got
                self._store(r, step.todo_c, got)
                self.states_solved += len(step.todo_c)
            if len(step.todo_s):
                same_keys, same_vals = self.levels[r]
                with kernels_threads(len(step.todo_s)):
                    got, fb = bk.evaluate(
                        step.todo_s, f.tables, self.bt, nxt_keys, nxt_vals, same_keys,
                        same_vals, no_cells, no_starts,
                    )  # fmt: skip
                self.fallbacks += fb
                self._store(r, step.todo_s, got)
                self.states_solved += len(step.todo_s)
            vals_s = self._lookup(r, step.secret_all) if len(step.secret_all) else empty_vals
            done[r] = (
                np.concatenate([step.committed, step.secret_all]),
                np.concatenate([vals_c, vals_s]),
            )

    def _store(self, r: int, states: I64, vals: FloatArray) -> None:
        order = np.argsort(states, kind="stable")
        states, vals = states[order], vals[order]
        level = self.levels.get(r)
        if level is not None:
            at = np.searchsorted(level[0], states)
            states = np.insert(level[0], at, states)
            vals = np.insert(level[1], at, vals, axis=0)
        self.levels[r] = (states, vals)
        self._slots.pop(r, None)

    def slots(self, r: int) -> NDArray[np.int64]:
        """The hash index of round ``r``'s level (built once, for look-ups)."""
        got = self._slots.get(r)
        if got is None:
            got = self._slots[r] = bk.index(self.levels[r][0])
        return got

    def node(self, key: int) -> BoundNode:
        """The solution at state ``key`` (solving it if needed), for agents and hints;
        each state's is computed once (the last :data:`NODE_MEMO` are kept)."""
        found = self._nodes.get(key)
        if found is None:
            found = self._nodes[key] = self._node(key)
            if len(self._nodes) > NODE_MEMO:
                self._nodes.popitem(last=False)
        else:
            self._nodes.move_to_end(key)
        return found

    def resident_bytes(self, with_fight: bool = True) -> int:
        """Solved states, their hash indices, tables and kept nodes, about
        (:mod:`.resident`)."""
        levels = sum(k.nbytes + v.nbytes for k, v in self.levels.values())
        slots = sum(s.nbytes for s in self._slots.values())
        nodes = _NODE_BYTES * len(self._nodes)
        tables = array_bytes(*self.bt)
        return levels + slots + nodes + tables + (self.fight.resident_bytes() if with_fight else 0)

    def release(self) -> None:
        """Drop the solved states and kept nodes (a memo: solved again when asked)."""
        self.levels.clear()
        self._slots.clear()
        self._nodes.clear()

    def _node(self, key: int) -> BoundNode:
        r = (key >> kernels._R) & 15
        self.values([key])
        background.may_compute()
        empty = (np.zeros(0, dtype=np.int64), np.zeros((0, self.num_classes)))
        nxt = self.levels.get(r + 1, empty)
        nxt_slots = self.slots(r + 1) if r + 1 in self.levels else bk.index(nxt[0])
        same = self.levels[r]
        vec, a, row_cards, smove, cls, cards, sigma, switched = bk.node(
            key, self.fight.tables, self.bt, nxt[0], nxt[1], nxt_slots, same[0], same[1],
            self.slots(r),
        )  # fmt: skip
        return BoundNode(vec, a, row_cards, bool(smove), cls, cards, sigma, bool(switched))


def _unique(keys: I64) -> I64:
    """``np.unique(keys)``, by sorting: numpy 2.4's ``unique`` (a hash table) is ~50 times
    slower on millions of keys (4.5 s for 2.5 million, against 0.1 s)."""
    out = np.sort(keys)
    if len(out) > 1:
        out = out[np.concatenate([[True], out[1:] != out[:-1]])]
    return out


def _in_sorted(keys: I64, sorted_keys: I64) -> NDArray[np.bool_]:
    """``np.isin(keys, sorted_keys)`` for sorted ``sorted_keys``, by binary search (``isin``
    calls ``unique``: see :func:`_unique`)."""
    if len(sorted_keys) == 0:
        return np.zeros(len(keys), dtype=bool)
    pos = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    out: NDArray[np.bool_] = sorted_keys[pos] == keys
    return out


def _held(fight: FightSolver, seat: int, copies: int) -> NDArray[np.int64]:
    """``[hand code]``: bit mask of the card types of which ``seat``'s hand holds at least
    ``copies``."""
    radix = fight._radix_arr[seat]
    codes = np.arange(fight._legal_tab[seat].shape[1], dtype=np.int64)
    counts = (codes[:, None] // radix) % (fight._copies[seat] + 1)
    bits = np.left_shift(1, np.arange(len(radix), dtype=np.int64))
    out: NDArray[np.int64] = (counts >= copies).astype(np.int64) @ bits
    return out


@dataclasses.dataclass(frozen=True)
class _Step:
    """One round between the forward and backward passes."""

    committed: I64
    """The round's committed states: the last round's committed children (in the order its
    cells use), then the others."""
    known_c: NDArray[np.bool_]
    todo_c: I64
    cells: NDArray[np.int32]
    starts: I64
    secret_all: I64
    todo_s: I64


@dataclasses.dataclass(frozen=True)
class BoundNode:
    value: FloatArray
    """One guarantee per class of seat 1's cover (NaN: impossible)."""
    matrix: FloatArray
    """Rows: ``row_cards`` then the S-move if open; columns: (``col_class``, ``col_card``)."""
    row_cards: NDArray[np.int64]
    s_move: bool
    col_class: NDArray[np.int64]
    col_card: NDArray[np.int64]
    strategy: FloatArray
    """Seat 0's strategy over the rows."""
    switched: bool
    """Seat 0 switches to committed play here (its cover then known to seat 1)."""


class kernels_threads:  # noqa: N801 - a context manager named like the function it wraps
    """All of Numba's threads for a big round, one for a small one (as :mod:`.fight`)."""

    def __init__(self, states: int) -> None:
        from kumite.games.sfrivals.solver.fight import _threads

        self.n = _threads(states)

    def __enter__(self) -> None:
        self.before = numba.get_num_threads()
        numba.set_num_threads(self.n)

    def __exit__(self, *exc: Any) -> None:
        numba.set_num_threads(self.before)


@dataclasses.dataclass(frozen=True)
class SideBound:
    """Seat 0's side of a matchup: its secret set-ups, their guarantees and the LP."""

    setups: tuple[SecretSetup, ...]
    cols: tuple[tuple[int, str], ...]
    """(class of seat 1's cover, seat 1's shown card) of each column."""
    matrix: FloatArray
    value: float
    mix: FloatArray
    """Seat 0's optimal mix over :attr:`setups`."""
    solver: BoundSolver


def side_bound(
    fight: FightSolver,
    setups: Sequence[SecretSetup] | None = None,
    classes: Sequence[int] | None = None,
    *,
    secret: bool = True,
    progress: Progress | None = None,
) -> SideBound:
    """Seat 0's tighter bound in ``fight``'s pairing: every set-up's guarantee against every
    (class, shown card) of seat 1, and the set-up LP over them. By default the set-ups are
    the committed ones and then (``secret``) the :func:`secret_candidates` they suggest."""
    from kumite.solve.matrix import solve_matrix

    a, b = fight.chars
    solver = BoundSolver(fight, classes)
    chosen = list(committed_setups(a) if setups is None else setups)
    vals = _root_values(solver, chosen)
    if setups is None and secret:
        worst = np.nanmin(vals.reshape(len(chosen), -1), axis=1)
        extra = secret_candidates(a, chosen, list(worst))
        if progress:
            progress(f"{len(extra)} secret set-ups of {a.id}")
        if extra:
            vals = np.concatenate([vals, _root_values(solver, extra)])
            chosen.extend(extra)
    shown1 = list(b.cards)
    cols = [
        (k, s1.id)
        for j, s1 in enumerate(shown1)
        for k in range(solver.num_classes)
        if not np.isnan(vals[0, j, k])
    ]
    matrix = np.array(
        [[vals[i, shown1.index(b.card(s1)), k] for k, s1 in cols] for i in range(len(chosen))]
    )
    sol = solve_matrix(matrix)
    return SideBound(tuple(chosen), tuple(cols), matrix, sol.value, sol.row, solver)


def _root_values(solver: BoundSolver, setups: Sequence[SecretSetup]) -> FloatArray:
    """``[set-up, seat 1's shown card, class]``: the guarantees of ``setups``."""
    a, b = solver.chars
    keys = []
    for s in setups:
        unseen0 = setup_hand(a, None, a.card(s.shown))
        types = [a.card(c).index for c in s.cover_from]
        if len(set(types)) != len(types) or any(unseen0[c] < 1 for c in types):
            raise ValueError(f"{s.name}: the cover must be drawn from distinct unseen types")
        for s1 in b.cards:
            keys.append(solver.root(unseen0, types, setup_hand(b, None, s1)))
    out: FloatArray = solver.values(keys).reshape(len(setups), len(b.cards), solver.num_classes)
    return out
