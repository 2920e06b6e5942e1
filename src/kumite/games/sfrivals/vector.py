"""SF Rivals' batched vector core (docs/envs.md, "Vector environments"): ``num_envs`` fights
of one learner seat against a random opponent, stepped at once on the batched engine's
arrays (:mod:`.batch`: the fight solver's rule tables and compiled transition), and their
observations written for all fights at once in the layout of :mod:`.observation`.

It plays the scalar engine's game step for step: the same decisions in the same order
(character picks where the options leave them, set-ups, then each round — the seat that
must reveal first alone, then the other), the same legal actions, outcome and returns, and
the same observation tensor as :class:`~.observation.SFRivalsEncoding` of the seat's view
(tests/envs/test_vector.py replays it against Gymnasium's synchronous vector of the scalar
environment). The opponent's choice is ``draw(n)``, the index of its choice among the ``n``
legal ones in the scalar decision's order (kumite's random agent: ``rng.choice(range(n))``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from kumite.core.game import Game
from kumite.games.sfrivals.batch import BatchEngine, engine_for
from kumite.games.sfrivals.cards import HAND
from kumite.games.sfrivals.game import SFRivals
from kumite.games.sfrivals.observation import KINDS, PHASES, SFRivalsEncoding
from kumite.games.sfrivals.solver import kernels
from kumite.games.sfrivals.solver.fight import key_fields
from kumite.games.sfrivals.state import A_CHARACTER, A_PLAY, A_SETUP, CARD_SLOTS, NUM_ACTIONS

CHARACTER, SETUP, PLAY, OVER = (PHASES.index(p) for p in ("character", "setup", "play", "over"))

Draw = Callable[[int], int]


@njit(cache=True)
def _ready(keys: Any, pairing: Any, tables: Any, pairs_filled: Any) -> Any:
    """Whether the tables hold what fight ``i``'s round needs (legal cards, carried bonuses)."""
    out = np.zeros(len(keys), dtype=np.bool_)
    for i in range(len(keys)):
        out[i] = kernels.round_ready(keys[i], tables[pairing[i]], pairs_filled[pairing[i]])
    return out


@njit(cache=True)
def _masks(keys: Any, pairing: Any, tables: Any) -> Any:
    out = np.zeros((len(keys), 2), dtype=np.int64)
    for i in range(len(keys)):
        out[i, 0], out[i, 1] = kernels.legal_cards(keys[i], tables[pairing[i]])
    return out


@njit(cache=True)
def _resolve(keys: Any, pairing: Any, cards: Any, tables: Any) -> Any:
    """Each fight's round with cards ``cards[i]``: the child key, the end (-1: goes on) and
    whether the tables lacked an entry (then nothing is to be read)."""
    n = len(keys)
    child = np.zeros(n, dtype=np.int64)
    end = np.zeros(n, dtype=np.int64)
    wanted = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        c, e, w = kernels.next_state(keys[i], cards[i, 0], cards[i, 1], tables[pairing[i]], False)
        child[i], end[i], wanted[i] = c, e, w > 0
    return child, end, wanted


def _bits(mask: int) -> list[int]:
    return [b for b in range(CARD_SLOTS) if mask >> b & 1]


class SFRivalsVector:
    """``num_envs`` SF Rivals fights seen from ``seat`` (see the module docstring)."""

    def __init__(
        self, game: Game[Any], options: Mapping[str, Any], num_envs: int, seat: int
    ) -> None:
        assert isinstance(game, SFRivals)
        opts = game.parse_options(options)
        self.engine: BatchEngine = engine_for(game, opts)
        self.encoding = SFRivalsEncoding(self.engine.catalog)
        self.fixed = self.engine._fixed(opts.characters or (None, None))
        self.n, self.seat, self.opp = num_envs, seat, 1 - seat
        self.rounds = self.engine.catalog.rules.hand
        n = num_envs
        self.phase = np.full(n, OVER, dtype=np.int64)
        self.chars = np.full((n, 2), -1, dtype=np.int64)
        self.setup = np.full((n, 2), -1, dtype=np.int64)
        self.cards = np.full((n, 2, 2), -1, dtype=np.int64)  # (cover, shown) slots
        self.hands = np.zeros((n, 2, CARD_SLOTS), dtype=np.int64)
        self.played = np.full((n, 2, HAND), -1, dtype=np.int64)
        self.early = np.full((n, 2), -1, dtype=np.int64)
        self.keys = np.zeros(n, dtype=np.int64)
        self.round = np.zeros(n, dtype=np.int64)
        self.lives = np.zeros((n, 2), dtype=np.int64)
        self.carry = np.zeros((n, 2, 3), dtype=np.int64)
        self.reveal = np.zeros((n, 2), dtype=bool)
        self.legal = np.zeros((n, 2), dtype=np.int64)
        self.returns = np.zeros(n, dtype=np.float32)
        self.draws: list[Draw | None] = [None] * n
        count = len(self.engine.characters)
        self._setup_ids = [
            A_SETUP + cards[:, 0] * CARD_SLOTS + cards[:, 1] for cards in self.engine._setup_cards
        ]
        self._char_ids = A_CHARACTER + np.arange(count)
        self._setup_rows = np.zeros((count, NUM_ACTIONS), dtype=bool)
        for c, ids in enumerate(self._setup_ids):
            self._setup_rows[c, ids] = True
        self._slot_rows = (np.arange(1 << CARD_SLOTS)[:, None] >> np.arange(CARD_SLOTS)) & 1 == 1
        self._blocks = {
            f.name: (self.encoding.offsets[f.name], f.size, f.shape) for f in self.encoding.fields
        }

    # -- the decisions, as the scalar state machine takes them -------------------------------

    def _pending(self, i: int) -> list[int]:
        phase = self.phase[i]
        if phase == CHARACTER:
            return [s for s in (0, 1) if self.chars[i, s] < 0]
        if phase == SETUP:
            return [0, 1]
        if phase == PLAY:
            for s in (0, 1):
                if self.reveal[i, s] and self.early[i, s] < 0:
                    return [s]
            return [s for s in (0, 1) if self.early[i, s] < 0]
        return []

    def _opponent(self, i: int) -> int:
        """The opponent's choice at its pending decision (a character, a set-up choice
        index, or a card slot)."""
        draw = self.draws[i]
        assert draw is not None
        phase = self.phase[i]
        if phase == CHARACTER:
            return draw(len(self.engine.characters))
        if phase == SETUP:
            return draw(int(self.engine.setups[self.chars[i, self.opp]]))
        legal = _bits(int(self.legal[i, self.opp]))
        return legal[draw(len(legal))]

    def _apply(self, i: int, choices: dict[int, int]) -> bool:
        """Apply one decision's choices; True when the round is now to resolve."""
        phase = self.phase[i]
        if phase == CHARACTER:
            for s, c in choices.items():
                self.chars[i, s] = c
            self.phase[i] = SETUP
            return False
        if phase == SETUP:
            for s in (0, 1):
                c = int(self.chars[i, s])
                cover, shown = self.engine._setup_cards[c][choices[s]]
                self.setup[i, s] = choices[s]
                self.cards[i, s] = cover, shown
                hand = self.hands[i, s]
                hand[:] = 0
                for card in self.engine.characters[c].cards:
                    hand[card.index] = card.copies
                hand[cover] -= 1
                hand[shown] -= 1
            self.phase[i] = PLAY
            self.round[i] = 1
            return False
        first = next((s for s in (0, 1) if self.reveal[i, s] and self.early[i, s] < 0), None)
        for s, slot in choices.items():
            self.hands[i, s, slot] -= 1
            self.played[i, s, self.round[i] - 1] = slot
            self.early[i, s] = slot
        return first is None

    # -- the engine ---------------------------------------------------------------------

    def _tables(self, idx: NDArray[np.int64]) -> tuple[Any, Any, NDArray[np.int64]]:
        count = len(self.engine.characters)
        pairing = self.chars[idx, 0] * count + self.chars[idx, 1]
        tables, done = self.engine.rule_tables(np.unique(pairing))
        return tables, done, pairing

    def _prepare(self, keys: NDArray[np.int64], pairing: NDArray[np.int64]) -> None:
        count = len(self.engine.characters)
        rounds = key_fields(keys)[0]
        for p in np.unique(pairing):
            solver = self.engine.solver(*divmod(int(p), count))
            for r in np.unique(rounds[pairing == p]):
                solver.prepare(int(r), keys[(pairing == p) & (rounds == r)])

    def _enter(self, idx: NDArray[np.int64]) -> None:
        """Fights ``idx`` start a round at ``self.keys``: fill what its tables lack, then
        read the legal cards and what the key holds."""
        if not len(idx):
            return
        tables, done, pairing = self._tables(idx)
        keys = self.keys[idx]
        while True:
            missing = ~_ready(keys, pairing, tables, done)
            if not missing.any():
                break
            self._prepare(keys[missing], pairing[missing])
        self.legal[idx] = _masks(keys, pairing, tables)
        self._read(idx)

    def _read(self, idx: NDArray[np.int64]) -> None:
        keys = self.keys[idx]
        _, _, _, l0, l1, pairs, flags, _ = key_fields(keys)
        self.lives[idx, 0] = l0
        self.lives[idx, 1] = l1
        self.reveal[idx, 0] = flags & 1 == 1
        self.reveal[idx, 1] = flags & 2 == 2
        count = len(self.engine.characters)
        for j, i in enumerate(idx.tolist()):
            a, b = divmod(int(self.chars[i, 0] * count + self.chars[i, 1]), count)
            pair = self.engine.solver(a, b).carry_pair(int(pairs[j]))
            self.carry[i] = [list(pair[0]), list(pair[1])]

    def _start(self, idx: NDArray[np.int64]) -> None:
        """Fights ``idx`` leave their set-ups: their round-1 keys."""
        if not len(idx):
            return
        self.keys[idx] = self.engine.first_keys(self.chars[idx], self.setup[idx])
        self._enter(idx)

    def _resolve_rounds(self, idx: NDArray[np.int64]) -> None:
        if not len(idx):
            return
        tables, _, pairing = self._tables(idx)
        keys = self.keys[idx]
        cards = self.early[idx]
        while True:
            child, end, wanted = _resolve(keys, pairing, cards, tables)
            if not wanted.any():
                break
            self._prepare(keys[wanted], pairing[wanted])
        self.keys[idx] = child
        self.early[idx] = -1
        self.round[idx] += 1
        over = end >= 0
        going = idx[~over]
        self._enter(going)
        ended = idx[over]
        if len(ended):
            self._read(ended)
            size = self.engine.life + 1
            lives = end[over] >> 2
            l0, l1 = lives // size, lives % size
            self.lives[ended, 0], self.lives[ended, 1] = l0, l1
            sign = np.sign(l0 - l1).astype(np.float32)
            self.returns[ended] = sign if self.seat == 0 else -sign
            self.phase[ended] = OVER
            self.legal[ended] = 0

    def _advance(self, choices: dict[int, dict[int, int]]) -> None:
        """Apply the learner's choices (per fight), then play every fight's opponent until
        the learner must decide again or the fight ends (KumiteEnv._advance, in waves: each
        wave runs the fights up to the engine, which then takes them all at once)."""
        todo = dict(choices)
        while todo:
            starting, resolving = [], []
            for i, first in todo.items():
                mine = first
                while self.phase[i] != OVER:
                    pending = self._pending(i)
                    if not mine and self.seat in pending:
                        break
                    mine = dict(mine)
                    for s in pending:
                        if s != self.seat:
                            mine[s] = self._opponent(i)
                    phase = self.phase[i]
                    resolve = self._apply(i, mine)
                    mine = {}
                    if phase == SETUP:
                        starting.append(i)
                        break
                    if resolve:
                        resolving.append(i)
                        break
            self._start(np.asarray(starting, dtype=np.int64))
            self._resolve_rounds(np.asarray(resolving, dtype=np.int64))
            todo = {i: {} for i in starting + resolving}

    # -- the vector core ------------------------------------------------------------------

    def reset(self, index: Sequence[int], draws: Sequence[Draw]) -> None:
        """New fights at ``index``, the opponent of each choosing by its ``draws``."""
        for i, draw in zip(index, draws, strict=True):
            self.draws[i] = draw
            self.phase[i] = CHARACTER if (self.fixed < 0).any() else SETUP
            self.chars[i] = self.fixed
            self.setup[i] = self.cards[i, :, 0] = self.cards[i, :, 1] = -1
            self.hands[i] = 0
            self.played[i] = -1
            self.early[i] = -1
            self.round[i] = 0
            self.lives[i] = self.engine.life
            self.carry[i] = 0
            self.reveal[i] = False
            self.legal[i] = 0
            self.returns[i] = 0.0
        self._advance({int(i): {} for i in index})

    def _pending_all(self) -> tuple[NDArray[np.bool_], NDArray[np.int64]]:
        """``_pending`` and ``_kind`` of every fight at once: ``[fight, seat]`` has a
        decision pending, and the learner's decision kind (-1: none)."""
        phase, early, reveal = self.phase, self.early, self.reveal
        first0 = reveal[:, 0] & (early[:, 0] < 0)
        first1 = reveal[:, 1] & (early[:, 1] < 0) & ~first0
        first = first0 | first1
        pending = np.zeros((self.n, 2), dtype=bool)
        for s, mine in ((0, first0), (1, first1)):
            in_play = np.where(first, mine, early[:, s] < 0)
            pending[:, s] = np.where(
                phase == CHARACTER,
                self.chars[:, s] < 0,
                (phase == SETUP) | ((phase == PLAY) & in_play),
            )
        me = self.seat
        kind = np.where(
            phase == CHARACTER,
            KINDS.index("character"),
            np.where(
                phase == SETUP,
                KINDS.index("setup"),
                np.where(
                    first0 if me == 0 else first1, KINDS.index("play-first"), KINDS.index("play")
                ),
            ),
        )
        return pending, np.where(pending[:, me], kind, -1)

    def masks(self) -> NDArray[np.bool_]:
        """The learner's legal actions in every fight (none once it is over)."""
        pending, _ = self._pending_all()
        mine = pending[:, self.seat]
        out = np.zeros((self.n, NUM_ACTIONS), dtype=bool)
        phase = self.phase
        chars = self.chars[:, self.seat]
        pick = mine & (phase == CHARACTER)
        out[np.ix_(pick, self._char_ids)] = True
        setup = mine & (phase == SETUP)
        out[setup] = self._setup_rows[chars[setup]]
        play = mine & (phase == PLAY)
        out[play, A_PLAY : A_PLAY + CARD_SLOTS] = self._slot_rows[self.legal[play, self.seat]]
        return out

    def step(self, actions: Mapping[int, int]) -> None:
        """The learner's legal ``actions`` (fight -> action id), then the opponents'."""
        choices: dict[int, dict[int, int]] = {}
        for i, action in actions.items():
            phase = self.phase[i]
            if phase == CHARACTER:
                choice = action - A_CHARACTER
            elif phase == SETUP:
                ids = self._setup_ids[self.chars[i, self.seat]]
                choice = int(np.flatnonzero(ids == action)[0])
            else:
                choice = action - A_PLAY
            choices[i] = {self.seat: choice}
        self._advance(choices)

    def done(self) -> NDArray[np.bool_]:
        out: NDArray[np.bool_] = self.phase == OVER
        return out

    def observations(self) -> NDArray[np.float32]:
        """Every fight's observation tensor, as :class:`SFRivalsEncoding` writes it."""
        enc, n = self.encoding, self.n
        out = np.zeros((n, enc.size), dtype=np.float32)
        rows = np.arange(n)
        order = [self.seat, self.opp]  # relative seats: the observer first

        def block(name: str) -> NDArray[np.float32]:
            at, size, shape = self._blocks[name]
            return out[:, at : at + size].reshape((n, *shape))

        block("seat")[:, self.seat] = 1
        block("phase")[rows, self.phase] = 1
        block("round")[:, 0] = self.round
        block("rounds")[:] = self.rounds
        started = self.phase >= PLAY
        for k, s in enumerate(order):
            chosen = self.chars[:, s] >= 0
            block("character")[rows[chosen], k, self.chars[chosen, s]] = 1
            block("life")[:, k] = self.lives[:, s]
            block("hand_size")[:, k] = self.hands[:, s].sum(axis=1)
            block("shown")[rows[started], k, self.cards[started, s, 1]] = 1
            early = self.early[:, s]
            for r in range(HAND):
                slot = self.played[:, s, r]
                # a card revealed first is shown as revealed, not yet as played
                seen = (slot >= 0) & ~((early >= 0) & (self.round == r + 1))
                block("played")[rows[seen], k, r, slot[seen]] = 1
            block("revealed")[rows[early >= 0], k, early[early >= 0]] = 1
            block("carry")[:, k] = self.carry[:, s]
            block("must_reveal_first")[:, k] = self.reveal[:, s]
        block("hand")[:] = self.hands[:, self.seat]
        block("cover")[rows[started], self.cards[started, self.seat, 0]] = 1
        pending, kind = self._pending_all()
        block("to_decide")[:] = pending[:, order]
        block("decision")[rows[kind >= 0], kind[kind >= 0]] = 1
        return out


def make(game: Game[Any], options: Mapping[str, Any], num_envs: int, seat: int) -> SFRivalsVector:
    """The spec's ``vector`` hook."""
    return SFRivalsVector(game, options, num_envs, seat)
