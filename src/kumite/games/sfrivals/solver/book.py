"""Shipped books: the ``bounded`` strategy's first rounds, written down per side.

A seat's strategy (method tight, :mod:`.tight`) reads, at each of its decisions, the solved
*nodes* of the bound game along its history (:func:`.tight.play_distribution`). Solving a
node of round 1 means solving every position below it: hundreds of thousands of states,
seconds to minutes — what made the first game of ``bounded`` cost minutes. A *book* holds,
for one side (character X in its own frame against Y), every node of rounds 1 to
:data:`ROUNDS` that the strategy meets when it follows its own set-up mix and the opponent
plays anything: its rows, its strategy over them, whether it switches to committed play, and
its answer to each card the opponent may reveal first — the same floats the solver computes
(the book is written from a solve, and tested against one). After round :data:`ROUNDS` a
node has at most a few thousand positions under it, solved when first met and kept for
the process.

Books ship for the base pack under the default rules (``solver/books/X~Y.npz``, one per
ordered pair of characters: 64, the seat-swapped matchup reads the same two sides), written
by ``python -m kumite.games.sfrivals.solver.book`` from the shipped solutions. A book is
used only for the solution it was written from (the digest of the side's set-up mix, its
classes and the rules are checked when it loads); elsewhere the bound solver solves.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import hashlib
import json
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
from numpy.typing import NDArray

from kumite.games.sfrivals.cards import Character
from kumite.games.sfrivals.legal import is_stuck, playable_cards, powerless_reason
from kumite.games.sfrivals.options import Options
from kumite.games.sfrivals.resolve import NO_CARRY, Carry, resolve_round
from kumite.games.sfrivals.solver.fight import _R, _radix, secret_root_key, setup_hand
from kumite.games.sfrivals.solver.resident import MEMORY, array_bytes

BOOK_VERSION = "sfr-book-1"
ROUNDS = 3
"""Rounds a book holds: below a node of round 4 lie at most a few thousand positions, solved
when first met (four rounds would take ~25 MB of books instead of ~5: docs/solver.md)."""
FOLDER = "books"
"""``kumite.games.sfrivals.solver/books/``: the shipped books."""
_S_MOVE = -1


@dataclasses.dataclass(frozen=True, slots=True)
class BookNode:
    """A node as a book holds it: what :func:`.tight.play_distribution` reads."""

    row_cards: NDArray[np.int64]
    s_move: bool
    switched: bool
    strategy: NDArray[np.float64]
    answers: NDArray[np.int64] | None
    """The row answering each card type of the opponent's, where it reveals first."""


@dataclasses.dataclass(frozen=True)
class Book:
    """One side's book: sorted state keys (carried bonuses coded by :attr:`pairs`) and,
    per key, a record of its node (records are shared: many nodes play alike)."""

    characters: tuple[str, str]
    meta: dict[str, Any]
    keys: NDArray[np.int64]
    rec: NDArray[np.int32]
    rstart: NDArray[np.int32]
    rrows: NDArray[np.int8]
    rprob: NDArray[np.float64]
    rflags: NDArray[np.int8]
    rans: NDArray[np.int8]
    pairs: NDArray[np.int16]

    @property
    def rounds(self) -> int:
        return int(self.meta["rounds"])

    def nbytes(self) -> int:
        return array_bytes(
            self.keys, self.rec, self.rstart, self.rrows, self.rprob, self.rflags, self.rans
        )

    def carry_pairs(self) -> list[tuple[Carry, Carry]]:
        return [(Carry(*p[:3]), Carry(*p[3:])) for p in self.pairs.tolist()]

    def find(self, key: int) -> BookNode | None:
        at = int(np.searchsorted(self.keys, key))
        if at >= len(self.keys) or self.keys[at] != key:
            return None
        r = int(self.rec[at])
        lo, hi = int(self.rstart[r]), int(self.rstart[r + 1])
        rows = self.rrows[lo:hi].astype(np.int64)
        flags = int(self.rflags[r])
        s_move = bool(flags & 1)
        return BookNode(
            rows[:-1] if s_move else rows,
            s_move,
            bool(flags & 2),
            self.rprob[lo:hi].copy(),
            self.rans[r].astype(np.int64) if flags & 4 else None,
        )

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            meta=np.array(json.dumps(self.meta, sort_keys=True)),
            keys=self.keys,
            rec=self.rec,
            rstart=self.rstart,
            rrows=self.rrows,
            rprob=self.rprob,
            rflags=self.rflags,
            rans=self.rans,
            pairs=self.pairs,
        )

    @staticmethod
    def load(source: Any) -> Book:
        with np.load(source) as data:
            meta = json.loads(str(data["meta"]))
            return Book(
                (meta["characters"][0], meta["characters"][1]),
                meta,
                *(data[k] for k in ("keys", "rec", "rstart", "rrows", "rprob")),
                *(data[k] for k in ("rflags", "rans", "pairs")),
            )


def _plans_digest(sol: Any, seat: int) -> str:
    """:func:`plans_digest` of a solution's seat, worked out once per solution object."""
    found = sol.digests[seat]
    if found is None:
        found = sol.digests[seat] = plans_digest(sol.plans[seat])
    return str(found)


@functools.lru_cache(maxsize=256)
def _rules_key(options: Options) -> str:
    return rules_key(options)


def plans_digest(plans: Mapping[str, float]) -> str:
    """A digest of a side's set-up mix (its plans with positive weight, exact floats)."""
    kept = sorted((k, v.hex()) for k, v in plans.items() if v > 0)
    return hashlib.sha256(json.dumps(kept).encode()).hexdigest()[:16]


def rules_key(options: Options) -> str:
    """The pack and the rules a book was written for (not the characters)."""
    from kumite.games.sfrivals.game import GAME

    rules = {
        k: v for k, v in GAME.options_to_json(options).items() if k not in ("pack", "characters")
    }
    blob = json.dumps({"pack": GAME.pack_ref(options).get("sha256"), "rules": rules})
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


# -- reading: a side of the strategy from its book --------------------------------------------
@dataclasses.dataclass(frozen=True)
class _Rules:
    """What :func:`.tight.rounds_of_view` reads of a fight solver."""

    rules: Any
    options: Options
    life_max: int
    rounds: int


@dataclasses.dataclass(frozen=True)
class _Allowed:
    allowed0: NDArray[np.bool_]


class BookSide:
    """A seat's side of the strategy (:class:`.tight.Side`), read from its book up to
    round :attr:`Book.rounds` and from a bound solver of the same pairing after (made when
    first needed, its positions kept: every later node is small). One per side and process,
    shared by its tables (:mod:`.resident`)."""

    def __init__(
        self, book: Book, chars: tuple[Character, Character], options: Options, classes: Any
    ) -> None:
        from kumite.games.sfrivals.game import GAME

        self.book = book
        self.chars = chars
        self.options = options
        self.classes = tuple(int(c) for c in classes)
        catalog = GAME.catalog(options)
        self.catalog = catalog
        self.fight = _Rules(catalog.rules, options, catalog.rules.life, catalog.rules.hand)
        self.bt = _Allowed(_allowed_table(chars[0], catalog.rules, options))
        self.radix = (_radix(chars[0]), _radix(chars[1]))
        self._pairs = {pair: code for code, pair in enumerate(book.carry_pairs())}
        self._pair_list = list(self._pairs)
        self._late: Any = None
        self.lock = threading.RLock()
        self.hits = 0
        self.late_nodes = 0

    # -- the side's interface (tight.Side) ------------------------------------------------
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
        if self._late is not None:
            return int(self._late.root(hand0, secret, unseen1, lives, round, carry, reveal))
        return secret_root_key(
            self.fight.life_max,
            self.radix,
            self._pair_code,
            hand0,
            secret,
            unseen1,
            lives,
            round,
            carry,
            reveal,
        )

    def in_book(self, key: int) -> bool:
        """Whether ``key`` is a node of one of the book's rounds."""
        return bool((key >> _R) & 15 <= self.book.rounds)

    def booked(self, key: int) -> Any:
        """The book's node for a book round's ``key``, or ``None`` where the book has none."""
        found = self.book.find(key)
        if found is not None:
            self.hits += 1
        return found

    def node(self, key: int) -> Any:
        if self.in_book(key) and (found := self.booked(key)) is not None:
            return found
        self.late_nodes += 1
        return self.late().node(key)

    # -- after the book ------------------------------------------------------------------
    def late(self) -> Any:
        """The bound solver of the same pairing, its carried-bonus codes the book's."""
        if self._late is None:
            from kumite.games.sfrivals.solver.bounds import BoundSolver
            from kumite.games.sfrivals.solver.fight import FightSolver

            rules = msgspec.structs.replace(self.options, characters=None)
            tables = (
                _character_tables(rules, self.chars[0].id),
                _character_tables(rules, self.chars[1].id),
            )
            fight = FightSolver(self.catalog, self.options, self.chars, seat_tables=tables)
            for pair in self._pair_list:
                fight.pair_code(pair)
            self._late = BoundSolver(fight, self.classes)
        return self._late

    def _pair_code(self, carry: tuple[Carry, Carry]) -> int:
        code = self._pairs.get(carry)
        if code is None:
            code = self._pairs[carry] = len(self._pair_list)
            self._pair_list.append(carry)
        return code

    def resident_bytes(self) -> int:
        late = 0 if self._late is None else int(self._late.resident_bytes())
        return self.book.nbytes() + late

    def release(self) -> None:
        if self._late is not None:
            self._late.release()
            self._late.fight.release()


class OffBook(LookupError):  # noqa: N818 - a signal, not an error
    """A node of the book's rounds that the book does not hold (a plan its strategy never
    follows: a cover off its set-up mix, or a play it gives no weight)."""


class BookOnly:
    """A :class:`BookSide` that never solves a node of the book's rounds: one the book lacks
    raises :class:`OffBook` (a model that asks about a plan off the strategy learns it is
    off, in microseconds, where the bound solver would take seconds). Later rounds are
    the side's (small solves)."""

    def __init__(self, side: BookSide) -> None:
        self.side = side
        self.chars = side.chars
        self.fight = side.fight
        self.bt = side.bt
        self.root = side.root  # the side's own keys: only node() differs

    def node(self, key: int) -> Any:
        if not self.side.in_book(key):
            return self.side.node(key)
        found = self.side.booked(key)
        if found is None:
            raise OffBook(key)
        return found


@functools.lru_cache(maxsize=64)
def _character_tables(options: Options, char: str) -> Any:
    """One character's rule tables (:class:`.fight.CharacterTables`), shared by the later
    rounds of every book side it plays in: what one pair filled from the engine, the next
    reads (the entries are filled in place, the same value whoever fills them)."""
    from kumite.games.sfrivals.game import GAME
    from kumite.games.sfrivals.solver.fight import CharacterTables

    catalog = GAME.catalog(options)
    return CharacterTables(catalog, options, catalog.characters[char])


def _allowed_table(char: Character, rules: Any, options: Options) -> NDArray[np.bool_]:
    """:meth:`.bounds.BoundSolver._allowed_table`: may seat 0 play the card (its Ultra and
    Super Combo conditions), by round and life."""
    strict = Options(no_legal_card="end-fight", ultra_rule=options.ultra_rule)
    out = np.zeros((len(char.cards), rules.hand + 2, rules.life + 1), dtype=np.bool_)
    for c in char.cards:
        hand = tuple(int(d.index == c.index) for d in char.cards)
        for r in range(1, rules.hand + 1):
            for life in range(rules.life + 1):
                out[c.index, r, life] = bool(playable_cards(char, hand, life, r, rules, strict))
    return out


@functools.lru_cache(maxsize=128)
def _book_file(first: str, second: str) -> Book | None:
    res = resources.files("kumite.games.sfrivals.solver") / FOLDER / f"{first}~{second}.npz"
    if not res.is_file():
        return None
    with resources.as_file(res) as path:
        return Book.load(path)


def side_book(sol: Any, seat: int) -> BookSide | None:
    """The shipped book of ``seat``'s side of the matchup solution ``sol``, if one was
    written from this very solution (else None: the bound solver solves)."""
    if sol.method != "tight" or sol.plans is None:
        return None
    first, second = sol.characters[seat], sol.characters[1 - seat]
    classes = tuple(int(c) for c in sol.classes[seat])
    digest = _plans_digest(sol, seat)
    rules = _rules_key(sol.options)
    key = ("book", first, second, rules, digest)
    found = MEMORY.peek(key)
    if found is not None:
        return MEMORY.get(key, lambda: found)  # type: ignore[return-value]
    book = _book_file(first, second)
    if book is None:
        return None
    meta = book.meta
    if (
        meta.get("book_version") != BOOK_VERSION
        or meta.get("rules") != rules
        or meta.get("plans") != digest
        or tuple(meta.get("classes", ())) != classes
    ):
        return None
    cat = sol.solver.catalog
    chars = (cat.characters[first], cat.characters[second])
    return MEMORY.get(key, lambda: BookSide(book, chars, sol.options, classes))


# -- writing -------------------------------------------------------------------------------------
class _Recorder:
    """A bound solver that notes every node the strategy reads."""

    def __init__(self, side: Any) -> None:
        self.side = side
        self.chars = side.chars
        self.fight = side.fight
        self.bt = side.bt
        self.root = side.root
        self.keys: set[int] = set()

    def node(self, key: int) -> Any:
        self.keys.add(key)
        return self.side.node(key)


def build_side(sol: Any, seat: int, rounds: int = ROUNDS) -> Book:
    """The book of ``seat``'s side of ``sol`` (solving every position under its nodes)."""
    from kumite.games.sfrivals.solver.tight import answer_row

    assert sol.plans is not None
    side = sol.side(seat)
    plans = sol.plans[seat]
    rec = _Recorder(side)
    a, b = side.chars
    life = side.fight.life_max
    for _ in _walk(rec, plans, rounds):
        pass
    keys = np.array(sorted(rec.keys), dtype=np.int64)
    records: dict[tuple[Any, ...], int] = {}
    ids = np.empty(len(keys), dtype=np.int32)
    t1 = len(b.cards)
    for n, key in enumerate(keys.tolist()):
        node = side.node(key)
        rows = [int(c) for c in node.row_cards.tolist()] + ([_S_MOVE] if node.s_move else [])
        answers: tuple[int, ...] = ()
        if (key >> 2) & 3 == 2:  # the opponent reveals first: the answer to each card
            cards = {int(c) for c in node.col_card.tolist()}
            answers = tuple(answer_row(node, j) if j in cards else -1 for j in range(t1))
        flags = int(node.s_move) | 2 * int(node.switched) | (4 if answers else 0)
        record = (tuple(rows), tuple(float(p) for p in node.strategy.tolist()), flags, answers)
        ids[n] = records.setdefault(record, len(records))
    ordered = list(records)
    rstart = np.zeros(len(ordered) + 1, dtype=np.int32)
    np.cumsum([len(r[0]) for r in ordered], out=rstart[1:])
    rrows = np.array([x for r in ordered for x in r[0]], dtype=np.int8)
    rprob = np.array([x for r in ordered for x in r[1]], dtype=np.float64)
    rflags = np.array([r[2] for r in ordered], dtype=np.int8)
    rans = np.full((len(ordered), t1), -1, dtype=np.int8)
    for i, r in enumerate(ordered):
        if r[3]:
            rans[i] = r[3]
    pairs = np.array([[*p[0], *p[1]] for p in side.fight._pair_list], dtype=np.int16).reshape(-1, 6)
    meta = {
        "book_version": BOOK_VERSION,
        "characters": [a.id, b.id],
        "rounds": rounds,
        "rules": rules_key(sol.options),
        "plans": plans_digest(plans),
        "classes": [int(c) for c in sol.classes[seat]],
        "nodes": len(keys),
        "records": len(ordered),
        "life": life,
    }
    return Book((a.id, b.id), meta, keys, ids, rstart, rrows, rprob, rflags, rans, pairs)


def _walk(side: _Recorder, plans: Mapping[str, float], rounds: int) -> Iterator[tuple[Any, ...]]:
    """Every (round, plans the seat may follow, its cover) the strategy meets up to round
    ``rounds``, reading (and so noting) each node as :func:`.tight.play_distribution` does:
    the seat follows its set-up mix and the cards its strategy may play (its answers where
    the opponent reveals first), the opponent plays any card some cover lets it play."""
    from kumite.games.sfrivals.solver.bounds import SecretSetup
    from kumite.games.sfrivals.solver.tight import Round, _choices, _initial_plans, _regular

    a, b = side.chars
    fight = side.fight
    life = fight.life_max
    seen: set[tuple[Any, ...]] = set()
    stack: list[tuple[Round, frozenset[frozenset[int]], int]] = []
    for name, p in sorted(plans.items()):
        if p <= 0:
            continue
        setup = SecretSetup.parse(name)
        shown = a.card(setup.shown)
        unseen0 = setup_hand(a, None, shown)
        for cover_id in setup.cover_from:
            cover = a.card(cover_id).index
            initial = frozenset(pl.secret for pl in _initial_plans(a, plans, setup.shown, cover))
            for s1 in b.cards:
                rd = Round(
                    1,
                    (unseen0, setup_hand(b, None, s1)),
                    (life, life),
                    (NO_CARRY, NO_CARRY),
                    (False, False),
                    (None, None),
                )
                stack.append((rd, initial, cover))
    while stack:
        rd, secrets, cover = stack.pop()
        state = (rd, secrets, cover)
        if state in seen:
            continue
        seen.add(state)
        yield state
        opp: set[int] = set()
        for secret in secrets:
            _choices(side, rd, secret, cover)
            key = side.root(
                rd.unseen[0], sorted(secret), rd.unseen[1], rd.lives, rd.round, rd.carry,
                rd.reveal,
            )  # fmt: skip
            node = side.side.node(key)
            opp |= {int(c) for c in node.col_card.tolist()}
        if rd.round >= rounds:
            continue
        for j in sorted(opp):
            card_b = b.cards[j]
            seen_b = card_b if rd.reveal[1] else None
            asked = dataclasses.replace(rd, played=(None, seen_b))
            following: dict[int, set[frozenset[int]]] = {}
            for secret in secrets:
                for x, options in _choices(side, asked, secret, cover).items():
                    for after, p in options:
                        if p > 0:
                            following.setdefault(x, set()).add(after)
            for x, afters in following.items():
                nxt = _step(side, rd, x, j, cover)
                if nxt is None:
                    continue
                kept = frozenset(
                    frozenset([cover]) if len(s) >= 2 and not _regular(side, nxt, s) else s
                    for s in afters
                )
                stack.append((nxt, kept, cover))


def _step(side: Any, rd: Any, x: int, j: int, cover: int) -> Any:
    """The next round after seat 0 (its cover of type ``cover``) plays type ``x`` and seat 1
    type ``j`` (None: the fight is over), by the engine's round resolution (as
    :func:`.tight.rounds_of_view`)."""
    from kumite.games.sfrivals.solver.tight import Round

    a, b = side.chars
    fight = side.fight
    card_a, card_b = a.cards[x], b.cards[j]
    lives = rd.lives
    res = resolve_round(
        (card_a, card_b),
        rd.carry,
        lives,
        powerless=(
            powerless_reason(card_a, lives[0], fight.rules, fight.options)
            if card_a.is_ultra
            else None,
            powerless_reason(card_b, lives[1], fight.rules, fight.options)
            if card_b.is_ultra
            else None,
        ),
        swap_printed=fight.options.swap == "printed",
    )
    if min(res.lives) <= 0 or rd.round >= fight.rounds:
        return None
    u0, u1 = list(rd.unseen[0]), list(rd.unseen[1])
    u0[x] -= 1
    u1[j] -= 1
    hand = list(u0)
    hand[cover] -= 1
    nxt = rd.round + 1
    if fight.options.no_legal_card == "end-fight" and is_stuck(
        a, tuple(hand), res.lives[0], nxt, fight.rules, fight.options
    ):
        return None  # the seat may play none of its cards: the fight is over
    return Round(
        rd.round + 1, (tuple(u0), tuple(u1)), res.lives, res.carry, res.reveal_first, (None, None)
    )


def book_path(folder: Path, first: str, second: str) -> Path:
    return folder / f"{first}~{second}.npz"


def main() -> None:
    """Write the books of the shipped solutions (every ordered pair of the base pack)."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name(FOLDER))
    parser.add_argument("--pairs", nargs="*", help="X,Y: only these sides (X in its frame)")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--again", action="store_true", help="rewrite books already written")
    args = parser.parse_args()
    from kumite.games.sfrivals.game import GAME
    from kumite.games.sfrivals.solver.setup import known_solution

    chars = list(GAME.catalog(GAME.parse_options({})).characters)
    wanted = (
        [tuple(p.split(",")) for p in args.pairs]
        if args.pairs
        else [(x, y) for x in chars for y in chars]
    )
    args.out.mkdir(parents=True, exist_ok=True)
    for first, second in wanted:
        path = book_path(args.out, first, second)
        if path.exists() and not args.again:
            continue
        started = time.perf_counter()
        opts = GAME.parse_options({"characters": [first, second]})
        sol = known_solution((first, second), opts)
        if sol is None:
            print(f"{first} vs {second}: not solved, no book")
            continue
        book = build_side(sol, 0, args.rounds)
        book.save(path)
        seconds = time.perf_counter() - started
        print(
            f"{first} vs {second}: {book.meta['nodes']:,} nodes, {book.meta['records']:,} "
            f"records, {path.stat().st_size:,} bytes, {seconds:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
