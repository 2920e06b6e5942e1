"""The batched SF Rivals engine: N fights stepped at once on arrays (docs/envs.md).

No rule is written here. A fight position is the fight solver's packed 64-bit key (round,
hands, lives, carried bonuses, reveal-first flags; :mod:`.solver.fight`), and one round is
the solver's own compiled transition (:func:`.solver.kernels.next_state`, legal cards from
:func:`.solver.kernels.legal_cards`), which only reads the rule tables the solver builds *by
calling the engine's pure functions* (``resolve_round``, ``playable_cards``, ``is_stuck``,
``fight_end``, ``powerless_reason``) and kept per pairing, the legal-card and stuck tables
shared per character (:class:`.solver.fight.CharacterTables`). Every entry committed play
can meet is filled when a pairing is first used (``FightSolver.fill_committed``); should a
fight still meet one the tables lack, it stops, the entries are filled
(``FightSolver.prepare``) and it goes on.
So the batched engine plays the scalar engine's game choice for choice — the tests replay
10^4 random batched fights on :class:`~.state.SFRState` and compare every legal set, the
outcome and the lives.

Random play has its own random streams: one counter-based stream per fight (SplitMix64 of
the fight's seed), so a fight's choices depend only on its seed — never on the batch it ran
in — but they are not the draws of ``RandomAgent`` (``kumite sim --batched`` plays other,
equally random, games than ``kumite sim``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
import numpy as np
from numba import njit
from numpy.typing import NDArray

from kumite.core.game import Game
from kumite.games.sfrivals.cards import HAND, Catalog, Character
from kumite.games.sfrivals.choice import PickCharacter
from kumite.games.sfrivals.game import SFRivals
from kumite.games.sfrivals.options import Options
from kumite.games.sfrivals.resolve import NO_CARRY
from kumite.games.sfrivals.solver import kernels
from kumite.games.sfrivals.solver.fight import CharacterTables, FightSolver, key_fields
from kumite.games.sfrivals.state import A_CHARACTER, A_PLAY, A_SETUP, CARD_SLOTS

I64 = NDArray[np.int64]
U64 = NDArray[np.uint64]

RUNNING, DONE, WANTS = 0, 1, 2
"""A fight's status in :func:`_play`: playing, over, stopped for a table entry."""
_MASK64 = (1 << 64) - 1


def _bit_tables(width: int) -> tuple[NDArray[np.int8], NDArray[np.int8]]:
    """For every mask of ``width`` bits: how many bits are set, and the position of each
    (the ``k``-th set bit): a random card is two look-ups, not two loops over the bits."""
    size = 1 << width
    count = np.zeros(size, dtype=np.int8)
    nth = np.zeros((size, width), dtype=np.int8)
    for m in range(size):
        bits = [b for b in range(width) if m >> b & 1]
        count[m] = len(bits)
        nth[m, : len(bits)] = bits
    return count, nth


def fight_seeds(seeds: Sequence[int] | I64) -> U64:
    """The random stream of each fight, from its seed (an int; its low 64 bits count),
    hashed so that streams of nearby seeds do not overlap."""
    if isinstance(seeds, np.ndarray) and seeds.dtype.kind in "iu":
        raw = seeds.astype(np.int64).view(np.uint64)
    else:
        raw = np.asarray([int(s) & _MASK64 for s in seeds], dtype=np.uint64)
    state = raw.copy()
    _mix(state)
    return state


@njit(cache=True)
def _mix(state: U64) -> None:
    for i in range(len(state)):
        _next(state, i)
        state[i] = np.uint64(_next(state, i))


@njit(cache=True)
def _next(state: U64, i: int) -> int:
    """SplitMix64: the next 64-bit draw of fight ``i``'s stream."""
    z = state[i] + np.uint64(0x9E3779B97F4A7C15)
    state[i] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))  # type: ignore[no-any-return]


@njit(cache=True)
def _below(state: U64, i: int, n: int) -> int:
    """A uniform draw in ``0..n-1`` (Lemire's method, rejection keeps it exact)."""
    bound = np.uint64(n)
    threshold = (np.uint64(0) - bound) % bound
    while True:
        x = np.uint64(_next(state, i)) >> np.uint64(32)
        m = x * bound
        if (m & np.uint64(0xFFFFFFFF)) >= threshold:
            return int(m >> np.uint64(32))


@njit(cache=True)
def draw_setups(
    rng: U64, fixed: NDArray[np.int64], characters: int, setups: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Each fight's characters (``fixed[seat]`` or drawn uniformly, seat 0 first) and set-up
    choices (an index into the character's ``setup_choices``)."""
    n = len(rng)
    chars = np.empty((n, 2), dtype=np.int64)
    setup = np.empty((n, 2), dtype=np.int64)
    for i in range(n):
        for s in range(2):
            chars[i, s] = fixed[s] if fixed[s] >= 0 else _below(rng, i, characters)
        for s in range(2):
            setup[i, s] = _below(rng, i, setups[chars[i, s]])
    return chars, setup


@njit(cache=True)
def _play(
    keys: I64,
    rng: U64,
    status: NDArray[np.int8],
    pairing: NDArray[np.int64],
    tables: Any,
    pairs_filled: Any,
    played: NDArray[np.int8],
    legal: NDArray[np.int16],
    end: I64,
    bit_count: NDArray[np.int8],
    nth_bit: NDArray[np.int8],
) -> int:
    """Play each running fight at random to its end, or until it needs a table entry the
    solver has not filled (then it stops as :data:`WANTS`, its stream as it was before the
    round). ``tables[pairing[i]]`` are fight ``i``'s rule tables; the fights come sorted
    by pairing. Returns how many stopped."""
    stopped = 0
    last = pairing[0] if len(pairing) else 0
    t = tables[last]
    filled = pairs_filled[last]
    for i in range(len(pairing)):
        if status[i] != RUNNING:
            continue
        if pairing[i] != last:
            last = pairing[i]
            t = tables[last]
            filled = pairs_filled[last]
        while True:
            k = keys[i]
            if not kernels.round_ready(k, t, filled):
                status[i] = WANTS
                stopped += 1
                break
            r = kernels.key_round(k)
            m0, m1 = kernels.legal_cards(k, t)
            saved = rng[i]
            a = nth_bit[m0, _below(rng, i, bit_count[m0])]
            b = nth_bit[m1, _below(rng, i, bit_count[m1])]
            child, stop, wanted = kernels.next_state(k, a, b, t, False)
            if wanted:
                rng[i] = saved  # drawn again once the entry is filled
                status[i] = WANTS
                stopped += 1
                break
            played[i, 0, r - 1] = a
            played[i, 1, r - 1] = b
            legal[i, 0, r - 1] = m0
            legal[i, 1, r - 1] = m1
            if stop >= 0:
                end[i] = stop
                status[i] = DONE
                break
            keys[i] = child
    return stopped


@njit(cache=True)
def _first_keys(
    chars: NDArray[np.int64],
    setup: NDArray[np.int64],
    setup_table: NDArray[np.int64],
    radix: I64,
    full: I64,
    pair: I64,
    life: int,
) -> I64:
    count = setup_table.shape[0]
    keys = np.empty(len(chars), dtype=np.int64)
    for i in range(len(chars)):
        p = chars[i, 0] * count + chars[i, 1]
        a, b = chars[i, 0], chars[i, 1]
        h0 = full[p, 0] - radix[p, 0, setup_table[a, setup[i, 0], 0]]
        h0 -= radix[p, 0, setup_table[a, setup[i, 0], 1]]
        h1 = full[p, 1] - radix[p, 1, setup_table[b, setup[i, 1], 0]]
        h1 -= radix[p, 1, setup_table[b, setup[i, 1], 1]]
        keys[i] = kernels.pack_key(1, h0, h1, life, life, pair[p], 0, 0)
    return keys


@njit(cache=True)
def _by_pairing(pairing: NDArray[np.int64], pairings: int) -> I64:
    """The fights in order of pairing, in order of index within one (a stable counting
    sort: one pairing's tables at a time stay in the caches)."""
    start = np.zeros(pairings + 1, dtype=np.int64)
    for p in pairing:
        start[p + 1] += 1
    for p in range(pairings):
        start[p + 1] += start[p]
    order = np.empty(len(pairing), dtype=np.int64)
    for i in range(len(pairing)):
        order[start[pairing[i]]] = i
        start[pairing[i]] += 1
    return order


@njit(cache=True)
def _outcomes(
    end: I64, played: NDArray[np.int8], size: int
) -> tuple[NDArray[np.int8], I64, I64, NDArray[np.int8]]:
    """Each fight's winner, lives, rounds played and reason (:data:`REASONS`) from its end
    (``((life0 * size + life1) * 2 + over) * 2 + stuck``: kernels.next_state's index)."""
    n = len(end)
    winner = np.empty(n, dtype=np.int8)
    lives = np.empty((n, 2), dtype=np.int64)
    rounds = np.zeros(n, dtype=np.int64)
    reason = np.empty(n, dtype=np.int8)
    for i in range(n):
        e = end[i]
        l0, l1 = (e >> 2) // size, (e >> 2) % size
        lives[i, 0], lives[i, 1] = l0, l1
        winner[i] = 0 if l0 > l1 else (1 if l1 > l0 else -1)
        if l0 == 0 or l1 == 0:
            reason[i] = 1 if l0 == l1 else 0
        else:
            reason[i] = 3 if (e >> 1) & 1 == 0 and e & 1 == 1 else 2
        for r in range(played.shape[2]):
            rounds[i] += played[i, 0, r] >= 0
    return winner, lives, rounds, reason


@dataclasses.dataclass
class Fights:
    """N random fights: every choice made and how each fight ended."""

    characters: NDArray[np.int64]
    """``[fight, seat]``: the character's position in the pack."""
    setup: NDArray[np.int64]
    """``[fight, seat]``: the set-up choice, an index into ``Character.setup_choices``."""
    played: NDArray[np.int8]
    """``[fight, seat, round - 1]``: the card slot played, -1 after the end."""
    legal: NDArray[np.int16]
    """``[fight, seat, round - 1]``: the legal card slots then (bit mask)."""
    winner: NDArray[np.int8]
    """0 or 1, or -1 for a draw."""
    lives: NDArray[np.int64]
    rounds: NDArray[np.int64]
    """Rounds played."""
    reason: NDArray[np.int8]
    """Index into :data:`REASONS`."""

    def __len__(self) -> int:
        return len(self.winner)

    def choices(self, engine: BatchEngine, i: int) -> list[dict[int, str]]:
        """Fight ``i``'s choices as the scalar engine's steps (character picks where the
        options leave them, set-ups, then one card per seat per round)."""
        chars = [engine.characters[c] for c in self.characters[i]]
        out: list[dict[int, str]] = []
        picks = {s: PickCharacter(chars[s].id).format() for s in (0, 1) if engine.fixed[s] < 0}
        if picks:
            out.append(picks)
        out.append({s: chars[s].setup_choices[int(self.setup[i, s])] for s in (0, 1)})
        for r in range(int(self.rounds[i])):
            out.append({s: chars[s].cards[int(self.played[i, s, r])].choice for s in (0, 1)})
        return out


REASONS = ("KO", "double KO", "out of cards", "no playable card left")


class BatchEngine:
    """SF Rivals fights on arrays under one set of options (one fight solver's tables per
    pairing of characters, built on first use and kept)."""

    def __init__(self, game: SFRivals, options: Mapping[str, Any] | None = None) -> None:
        self.game = game
        self.options: Options = game.parse_options(options)
        self.catalog: Catalog = game.catalog(self.options)
        self.characters: list[Character] = list(self.catalog.characters.values())
        self.index = {c.id: k for k, c in enumerate(self.characters)}
        self.fixed = self._fixed(self.options.characters or (None, None))
        self.setups = np.array([len(c.setup_choices) for c in self.characters], dtype=np.int64)
        # per character: the (cover, shown) slots of each set-up choice
        self._setup_cards = []
        for char in self.characters:
            self._setup_cards.append(
                np.array([[c.index, s.index] for c, s in char.setups.values()])
            )
        self._solvers: dict[tuple[int, int], FightSolver] = {}
        # legal cards and stuck hands depend on the character only: one table each, shared
        # by every pairing (8 tables in the caches instead of 128), filled up front
        self._character_tables: dict[int, CharacterTables] = {}
        self._bits = _bit_tables(max(len(c.cards) for c in self.characters))
        most = max(len(c.setup_choices) for c in self.characters)
        self._setup_table = np.zeros((len(self.characters), most, 2), dtype=np.int64)
        for k, cards in enumerate(self._setup_cards):
            self._setup_table[k, : len(cards)] = cards
        self._consts: tuple[I64, I64, I64, NDArray[np.bool_]] | None = None
        self.life = self.catalog.rules.life
        self._tables: Any = None

    def rule_tables(self, pairings: NDArray[np.int64]) -> tuple[Any, Any]:
        """Every pairing's rule tables (and filled carried-bonus pairs) as Numba lists
        indexed by pairing (``a * characters + b``), those in ``pairings`` made: the others
        hold the first made pairing's tables as placeholders, never read."""
        from numba.typed import List

        count = len(self.characters)
        if self._tables is None:
            first = self.solver(*divmod(int(pairings[0]), count))
            tables, done = List(), List()
            for _ in range(count * count):
                tables.append(first.tables)
                done.append(first.pairs_filled)
            self._tables = (tables, done, set())
        tables, done, made = self._tables
        for p in pairings.tolist():
            if p not in made:
                solver = self.solver(*divmod(p, count))
                tables[p] = solver.tables
                done[p] = solver.pairs_filled
                made.add(p)
        return tables, done

    def _fixed(self, characters: Sequence[str | None]) -> NDArray[np.int64]:
        return np.array([-1 if c is None else self.index[c] for c in characters], dtype=np.int64)

    def solver(self, a: int, b: int) -> FightSolver:
        """The fight solver (its rule tables) of characters ``a`` and ``b``, every entry
        committed play can meet filled when it is made (:meth:`FightSolver.fill_committed`:
        a fight then never stops for one)."""
        found = self._solvers.get((a, b))
        if found is None:
            pair = (self.characters[a], self.characters[b])
            seat_tables = (self._tables_of(a), self._tables_of(b))
            found = FightSolver(self.catalog, self.options, pair, seat_tables=seat_tables)
            found.fill_committed()
            self._solvers[a, b] = found
        return found

    def _tables_of(self, c: int) -> CharacterTables:
        found = self._character_tables.get(c)
        if found is None:
            found = CharacterTables(self.catalog, self.options, self.characters[c])
            self._character_tables[c] = found
        return found

    def first_keys(self, chars: NDArray[np.int64], setup: NDArray[np.int64]) -> I64:
        """Round-1 keys of fights of any pairings (``[fight, seat]`` characters and set-up
        choices), in one compiled pass over per-pairing constants."""
        count = len(self.characters)
        pairing = chars[:, 0] * count + chars[:, 1]
        used = np.flatnonzero(np.bincount(pairing, minlength=count * count))
        radix, full, pair = self._start_consts(used)
        keys: I64 = _first_keys(chars, setup, self._setup_table, radix, full, pair, self.life)
        return keys

    def _start_consts(self, pairings: NDArray[np.int64]) -> tuple[I64, I64, I64]:
        """Per pairing: each seat's hand radix per card slot, its full hand's code, and the
        code of "no carried bonus" (made for ``pairings`` as needed)."""
        count = len(self.characters)
        if self._consts is None:
            self._consts = (
                np.zeros((count * count, 2, CARD_SLOTS), dtype=np.int64),
                np.zeros((count * count, 2), dtype=np.int64),
                np.zeros(count * count, dtype=np.int64),
                np.zeros(count * count, dtype=bool),
            )
        radix, full, pair, made = self._consts
        for p in pairings[~made[pairings]].tolist():
            a, b = divmod(p, count)
            solver = self.solver(a, b)
            for seat, c in ((0, a), (1, b)):
                r = np.asarray(solver.radix[seat], dtype=np.int64)
                radix[p, seat, : len(r)] = r
                full[p, seat] = sum(
                    card.copies * r[card.index] for card in self.characters[c].cards
                )
            pair[p] = solver.pair_code((NO_CARRY, NO_CARRY))
            made[p] = True
        return radix, full, pair

    def random_fights(
        self, seeds: Sequence[int] | I64, characters: Sequence[str | None] | None = None
    ) -> Fights:
        """One fight per seed, both seats choosing uniformly at random (characters where the
        options — or ``characters``, which override them — leave them, set-ups, a card each
        round)."""
        rng = fight_seeds(seeds)
        n = len(rng)
        fixed = self.fixed if characters is None else self._fixed(characters)
        chars, setup = draw_setups(rng, fixed, len(self.characters), self.setups)
        count = len(self.characters)
        pairing = chars[:, 0] * count + chars[:, 1]
        keys = self.first_keys(chars, setup)
        tables, done = self.rule_tables(np.flatnonzero(np.bincount(pairing)))
        # The fights are played in order of pairing (one pairing's tables at a time stay in
        # the caches) on arrays in that order (each fight's entries next to the last one's),
        # and put back in seed order at the end: about 1.4x the fights per second.
        order = _by_pairing(pairing, count * count)
        keys, rng, pairing = keys[order], rng[order], pairing[order]
        played = np.full((n, 2, HAND), -1, dtype=np.int8)
        legal = np.zeros((n, 2, HAND), dtype=np.int16)
        end = np.full(n, -1, dtype=np.int64)
        status = np.zeros(n, dtype=np.int8)
        count_bits, nth_bit = self._bits
        while _play(
            keys, rng, status, pairing, tables, done, played, legal, end, count_bits, nth_bit
        ):
            wanting = np.flatnonzero(status == WANTS)
            rounds = key_fields(keys[wanting])[0]
            for p in np.unique(pairing[wanting]):
                solver = self.solver(*divmod(int(p), count))
                mine = pairing[wanting] == p
                for r in np.unique(rounds[mine]):
                    solver.prepare(int(r), keys[wanting[mine & (rounds == r)]])
            status[wanting] = RUNNING
        for a in (played, legal, end):
            a[order] = a.copy()
        return self._fights(chars, setup, played, legal, end)

    def _fights(
        self,
        chars: NDArray[np.int64],
        setup: NDArray[np.int64],
        played: NDArray[np.int8],
        legal: NDArray[np.int16],
        end: I64,
    ) -> Fights:
        winner, lives, rounds, reason = _outcomes(end, played, self.life + 1)
        return Fights(chars, setup, played, legal, winner, lives, rounds, reason)

    def action_ids(self, fights: Fights, i: int) -> list[dict[int, int]]:
        """Fight ``i``'s choices as dense action ids (``state.A_*``), step by step."""
        out: list[dict[int, int]] = []
        picks = {s: A_CHARACTER + int(fights.characters[i, s]) for s in (0, 1) if self.fixed[s] < 0}
        if picks:
            out.append(picks)
        step = {}
        for s in (0, 1):
            cover, shown = self._setup_cards[int(fights.characters[i, s])][int(fights.setup[i, s])]
            step[s] = A_SETUP + int(cover) * CARD_SLOTS + int(shown)
        out.append(step)
        for r in range(int(fights.rounds[i])):
            out.append({s: A_PLAY + int(fights.played[i, s, r]) for s in (0, 1)})
        return out


def make(game: Game[Any], options: Mapping[str, Any]) -> BatchEngine:
    """The spec's ``batch`` hook."""
    assert isinstance(game, SFRivals)
    return BatchEngine(game, options)


_ENGINES: dict[Options, BatchEngine] = {}


def engine_for(game: Game[Any], options: Options) -> BatchEngine:
    """The batched engine of these rule options, kept (its rule tables fill as it plays);
    characters are left out: pass them to :meth:`BatchEngine.random_fights`."""
    key = msgspec.structs.replace(options, characters=None)
    found = _ENGINES.get(key)
    if found is None:
        assert isinstance(game, SFRivals)
        if len(_ENGINES) >= 8:
            _ENGINES.clear()
        found = _ENGINES[key] = BatchEngine(game, game.options_to_json(key))
    return found
