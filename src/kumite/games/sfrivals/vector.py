"""SF Rivals' batched vector core (docs/envs.md, "The batched vector env"): ``num_envs``
fights of one learner seat against an opponent, stepped at once in compiled code on the
batched engine's rule tables (:mod:`.batch`: the fight solver's tables and packed keys), their
observations written for all fights at once in the layout of :mod:`.observation`.

It plays the scalar engine's game step for step: the same decisions in the same order
(character picks where the options leave them, set-ups, then each round — the seat that must
reveal first alone, then the other), the same legal actions, outcome and returns, and the
same observation tensor as :class:`~.observation.SFRivalsEncoding` of the seat's view
(tests/envs/test_vector.py replays every step on the scalar environment). A decision of both
seats is buffered until both have chosen, so the opponent decides blind to the learner's
choice, as in :class:`kumite.envs.gymnasium.KumiteEnv`.

The opponent is one of

* ``random``: a uniform legal choice, drawn from the fight's own counter-based stream
  (SplitMix64 of the game seed: not the draws of kumite's ``RandomAgent``);
* ``greedy``: the decisions of the scalar ``greedy`` bot (:mod:`.bots.greedy`), read from
  tables the bot's own round model (``resolve_round``) fills once per pairing; where the bot
  breaks a tie by a random draw, this one draws uniformly among the same tied choices (tested
  decision for decision against the bot);
* a batched policy ``policy(observations[k, size], masks[k, actions]) -> actions[k]``
  (kumite.envs.policy's convention), called once per wave for every fight whose opponent
  must decide, with the opponent's own observations and masks.

Only the policy is Python; everything else of a step — the learner's choice, the opponent's,
the transition, the observation, the mask, the reward and the autoreset of every fight — is
one compiled pass over the fights in order. This module is where the vector env's speed
tricks live (each pays for itself in ``benchmarks/env_batch.py``):

* **compact rule tables** (:class:`Rules`): the solver's tables re-laid out for committed
  play — a hand's round is implied by its size, so a character's legal cards and stuck flags
  of a (hand, life) are one 32-bit word (``[character, hand, life]``, 8 characters in
  ~0.4 MB instead of ~6 MB), and a round's damage, carried bonuses and reveal flags one word
  of ``[pairing, bonus pair, powerless, card, card]``: every pairing's tables stay in the
  caches, so the fights run in index order with no sort by pairing (the same reading of the
  same entries as :func:`.solver.kernels.next_state`; tests/envs/test_vector.py compares the
  legal entries with the solver's, and every step with the scalar engine);
* **narrow fight rows**: a fight is one 128-byte row (two cache lines) of small integers;
* **observations and masks updated in place**: once a fight is in play, a step rewrites only
  the fields a round can change (phase, round, lives, hand sizes, the rows of the rounds
  played since, and the tail from ``revealed`` on), not the whole 278-value row;
* **one compiled call per step** (the learner's actions checked against the masks, the
  fights run, written, rewarded and reset), so the Python of a step is a few array
  operations, not one per fight.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np
from numba import njit
from numpy.typing import NDArray

from kumite.core.errors import IllegalChoiceError, OptionsError
from kumite.core.game import Game
from kumite.games.sfrivals.batch import BatchEngine, _below, _bit_tables, _next, engine_for
from kumite.games.sfrivals.bots.greedy import KO, card_value
from kumite.games.sfrivals.cards import HAND
from kumite.games.sfrivals.game import SFRivals
from kumite.games.sfrivals.observation import PHASES, SFRivalsEncoding
from kumite.games.sfrivals.resolve import resolve_round
from kumite.games.sfrivals.solver import kernels
from kumite.games.sfrivals.solver.fight import key_fields
from kumite.games.sfrivals.state import (
    A_CHARACTER,
    A_PLAY,
    A_SETUP,
    CARD_SLOTS,
    MAX_CHARACTERS,
    NUM_ACTIONS,
)

CHARACTER, SETUP, PLAY, OVER = (PHASES.index(p) for p in ("character", "setup", "play", "over"))
K_CHARACTER, K_SETUP, K_PLAY, K_FIRST = 0, 1, 2, 3  # observation.KINDS
# a fight's status after a compiled pass
RUNNING, LEARNER, WAITING, ENDED, WANTS_ENTER, WANTS_RESOLVE = 0, 1, 2, 3, 4, 5
RANDOM, GREEDY, POLICY = 0, 1, 2
OPPONENTS = {"random": RANDOM, "greedy": GREEDY}
# the modes of a compiled pass (advance)
FIRST, SEEDED, SAME_STEP, STRICT = 1, 2, 4, 8
_S = CARD_SLOTS
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
OBS_FIELDS = (
    "seat", "phase", "round", "rounds", "character", "life", "hand_size", "shown", "played",
    "revealed", "carry", "must_reveal_first", "hand", "cover", "to_decide", "decision",
)  # fmt: skip
"""The encoding's fields in the order the kernels write them (checked when a core is made)."""


def _key_layout() -> dict[str, tuple[int, int]]:
    """Each field's (shift, mask) in the solver's packed keys, read off its public
    :func:`~.solver.fight.key_fields` (one bit at a time)."""
    bits = np.int64(1) << np.arange(63, dtype=np.int64)
    names = ("round", "h0", "h1", "l0", "l1", "cp", "rf", "ad")
    out = {}
    for name, values in zip(names, key_fields(bits), strict=True):
        where = np.flatnonzero(values)
        out[name] = (int(where.min()), (1 << len(where)) - 1)
    return out


_KEY = _key_layout()
_R, _RM = _KEY["round"]
_H0, _H1, _HM = _KEY["h0"][0], _KEY["h1"][0], _KEY["h0"][1]
_L0, _L1, _LM = _KEY["l0"][0], _KEY["l1"][0], _KEY["l0"][1]
_CP, _CPM = _KEY["cp"]
_RF, _RFM = _KEY["rf"]
# a compact rule entry (Rules.entry): the legal cards' bits, then
_KNOWN = 1 << 24  # the stuck flag is known
_STUCK = 1 << 25  # the seat is stuck (no legal card: the fight ends)
_DONE = kernels.LEGAL_DONE  # the legal cards are known
_CARDS = (1 << _S) - 1


class Fights(NamedTuple):
    """Every fight's position: one small array per field, indexed by fight (a Numba named
    tuple; the fights run in index order, so each field is read as a stream)."""

    key: Any  # int64[n]: the fight solver's packed state (from the set-up on)
    returns: Any  # float64[n]: seat 0's result once over
    rng: Any  # uint64[n]: the opponent's stream
    env_rng: Any  # uint64[n]: each environment's stream of game seeds
    legal: Any  # int16[n, 2]: legal card slots this round (bit masks)
    hands: Any  # int8[n, 2, slots]: copies in hand
    played: Any  # int8[n, 2, HAND]: slot played each round, -1
    chars: Any  # int8[n, 2], -1 before the pick
    setup: Any  # int8[n, 2]: index into the character's set-up choices
    cover: Any  # int8[n, 2]: card slot, -1 before the set-up
    shown: Any  # int8[n, 2]
    early: Any  # int8[n, 2]: the card already chosen this round (revealed first), -1
    chosen: Any  # int8[n, 2]: a choice buffered for the pending decision, -1
    lives: Any  # int8[n, 2]
    hsize: Any  # int8[n, 2]: cards in hand
    seen_early: Any  # int8[n, 2]: ``early`` when the learner's row was last written
    phase: Any  # int8[n]
    round: Any  # int8[n]
    status: Any  # int8[n]
    seen: Any  # int8[n]: the phase when the learner's row was last written (-1: never)
    seen_round: Any  # int8[n]: the round then
    stepped: Any  # int8[n]: the learner acted in this game this step
    work: Any  # int64[2 * slots]: scratch (greedy's candidates and ties)


class Consts(NamedTuple):
    """What every fight reads: the pack, the set-ups, the opponent's tables, the layout."""

    characters: int
    fixed: Any  # int64[2]
    copies: Any  # int64[C, slots]
    start_size: Any  # int64[C]: cards in hand after the set-up
    setups: Any  # int64[C]: set-up choices per character
    setup_cards: Any  # int64[C, most, 2]: (cover, shown) of each
    setup_index: Any  # int64[C, slots * slots]: the choice of (cover, shown), -1
    life: int
    rounds: int
    radix: Any  # int64[P, 2, slots]
    full: Any  # int64[P, 2]
    no_carry: Any  # int64[P]
    carry: Any  # int64[P, pairs, 2, 3]: the carried bonuses of a pair code
    bit_count: Any  # int8[2**slots]
    nth_bit: Any  # int8[2**slots, slots]
    # greedy's tables
    g_score: Any  # int8[P, 2, pairs, slots, slots, 6]: _greedy_tables
    g_value: Any  # float64[C, slots]: -card_value * 0.01
    g_setup: Any  # bool[C, most]: the set-ups of least value (greedy's ties)
    is_ultra: Any  # bool[C, slots]
    is_super: Any  # bool[C, slots]
    super_round: int
    ultra_life: int
    # the observation
    offsets: Any  # int64[16]: each field's offset, in OBS_FIELDS' order
    scale: Any  # float32[size]: 1/high
    normalize: bool
    size: int


class Rules(NamedTuple):
    """The fight solver's rule tables, re-laid out for committed play (the module docstring)."""

    entry: Any  # int32[C, hand code, life]: legal cards | _DONE | _KNOWN | _STUCK
    radix: Any  # int64[C, slots]: a hand's code is the sum of its cards' radices
    powerless: Any  # int8[C, slots, life]: the card would be played powerless
    trans: Any  # int32[P, pairs, 2, 2, slots, slots]: damage to seat 0, to seat 1 (8 bits
    # each), reveal-first flags (2), next carried-bonus pair (10), by [pairing, pair,
    # powerless0, powerless1, card0, card1]
    pairs_filled: Any  # bool[P, pairs]
    end: Any  # float64[P, life, life, 2, 2]: the solver's end table
    rounds: int
    end_fight: bool


# -- random streams (each game's SplitMix64 stream: batch._next, batch._below) ----------


@njit(cache=True, inline="always")
def _mix(z: Any) -> Any:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _hash_seed(seed: int, salt: int) -> Any:
    """A stream's state from a seed and a salt (two SplitMix64 steps)."""
    z = np.uint64(seed) ^ (np.uint64(salt) * _GOLDEN)
    return _mix(_mix(z + _GOLDEN) + _GOLDEN)


# -- the packed key (the solver's layout, read off key_fields) ----------------------------


@njit(cache=True, inline="always")
def _reveal_flags(k: int) -> int:
    return (k >> _RF) & _RFM


@njit(cache=True, inline="always")
def _pair_of(k: int) -> int:
    return (k >> _CP) & _CPM


@njit(cache=True, inline="always")
def _pack(r: Any, h0: Any, h1: Any, l0: Any, l1: Any, cp: Any, rf: Any) -> Any:
    """A committed state's key (adaptive flags 0): :func:`.solver.kernels.pack_fields`."""
    return (
        (np.int64(r) << _R)
        | (np.int64(h0) << _H0)
        | (np.int64(h1) << _H1)
        | (np.int64(l0) << _L0)
        | (np.int64(l1) << _L1)
        | (np.int64(cp) << _CP)
        | (np.int64(rf) << _RF)
    )


# -- the state machine -------------------------------------------------------------------


@njit(cache=True, inline="always")
def _first(f: Fights, i: int) -> Any:
    """The seat that must reveal its card first and has not yet, else -1."""
    flags = _reveal_flags(f.key[i])
    for s in range(2):
        if flags >> s & 1 and f.early[i, s] < 0:
            return s
    return -1


@njit(cache=True, inline="always")
def _pending(f: Fights, i: int, s: int) -> Any:
    """Seat ``s`` has a decision pending (as ``SFRState.pending``)."""
    phase = f.phase[i]
    if phase == CHARACTER:
        return f.chars[i, s] < 0
    if phase == SETUP:
        return True
    if phase == PLAY:
        first = _first(f, i)
        if first >= 0:
            return first == s
        return f.early[i, s] < 0
    return False


@njit(cache=True, inline="always")
def _pairing(f: Fights, c: Consts, i: int) -> Any:
    return np.int64(f.chars[i, 0]) * c.characters + f.chars[i, 1]


@njit(cache=True, inline="always")
def _enter(f: Fights, tb: Rules, i: int) -> Any:
    """Fight ``i`` starts a round at its key: its legal cards (False: the tables lack them,
    as :func:`.solver.kernels.round_ready` says)."""
    k = f.key[i]
    c0 = f.chars[i, 0]
    c1 = f.chars[i, 1]
    e0 = tb.entry[c0, (k >> _H0) & _HM, (k >> _L0) & _LM]
    e1 = tb.entry[c1, (k >> _H1) & _HM, (k >> _L1) & _LM]
    p = np.int64(c0) * tb.entry.shape[0] + c1
    if not (tb.pairs_filled[p, (k >> _CP) & _CPM] and e0 & _DONE and e1 & _DONE):
        f.status[i] = WANTS_ENTER
        return False
    f.legal[i, 0] = e0 & _CARDS
    f.legal[i, 1] = e1 & _CARDS
    return True


@njit(cache=True, inline="always")
def _resolve(f: Fights, tb: Rules, i: int) -> Any:
    """Both cards of the round are down: resolve it (False: the tables lack an entry). The
    reading of :func:`.solver.kernels.next_state` (committed seats), on the compact tables."""
    k = f.key[i]
    a = f.early[i, 0]
    b = f.early[i, 1]
    c0 = f.chars[i, 0]
    c1 = f.chars[i, 1]
    r = (k >> _R) & _RM
    l0 = (k >> _L0) & _LM
    l1 = (k >> _L1) & _LM
    cp = (k >> _CP) & _CPM
    p = np.int64(c0) * tb.entry.shape[0] + c1
    e = np.int64(tb.trans[p, cp, tb.powerless[c0, a, l0], tb.powerless[c1, b, l1], a, b])
    nl0 = max(l0 - (e & 255), 0)
    nl1 = max(l1 - ((e >> 8) & 255), 0)
    nh0 = ((k >> _H0) & _HM) - tb.radix[c0, a]
    nh1 = ((k >> _H1) & _HM) - tb.radix[c1, b]
    nxt = r + 1
    over = 1 if nxt > tb.rounds else 0
    stuck = 0
    if tb.end_fight and over == 0 and nl0 > 0 and nl1 > 0:
        s0 = tb.entry[c0, nh0, nl0]
        s1 = tb.entry[c1, nh1, nl1]
        if not (s0 & _KNOWN and s1 & _KNOWN):
            f.status[i] = WANTS_RESOLVE
            return False
        stuck = 1 if (s0 | s1) & _STUCK else 0
    result = tb.end[p, nl0, nl1, over, stuck]
    f.early[i, 0] = -1
    f.early[i, 1] = -1
    f.round[i] += 1
    f.lives[i, 0] = nl0
    f.lives[i, 1] = nl1
    f.key[i] = _pack(nxt, nh0, nh1, nl0, nl1, (e >> 18) & 1023, (e >> 16) & 3)
    if not np.isnan(result):
        f.returns[i] = result
        f.phase[i] = OVER
        f.legal[i, 0] = 0
        f.legal[i, 1] = 0
        f.status[i] = ENDED
        return True
    return _enter(f, tb, i)


@njit(cache=True, inline="always")
def _apply(f: Fights, c: Consts, tb: Rules, i: int) -> Any:
    """Apply the buffered choices of fight ``i``'s decision (every pending seat chose)."""
    phase = f.phase[i]
    if phase == CHARACTER:
        for s in range(2):
            if f.chars[i, s] < 0:
                f.chars[i, s] = f.chosen[i, s]
        f.chosen[i, 0] = -1
        f.chosen[i, 1] = -1
        f.phase[i] = SETUP
        return True
    if phase == SETUP:
        p = _pairing(f, c, i)
        h0 = 0
        h1 = 0
        for s in range(2):
            ch = f.chars[i, s]
            choice = f.chosen[i, s]
            cover = c.setup_cards[ch, choice, 0]
            shown = c.setup_cards[ch, choice, 1]
            f.setup[i, s] = choice
            f.cover[i, s] = cover
            f.shown[i, s] = shown
            for b in range(_S):
                f.hands[i, s, b] = c.copies[ch, b]
            f.hands[i, s, cover] -= 1
            f.hands[i, s, shown] -= 1
            f.hsize[i, s] = c.start_size[ch]
            h = c.full[p, s] - c.radix[p, s, cover] - c.radix[p, s, shown]
            if s == 0:
                h0 = h
            else:
                h1 = h
        f.chosen[i, 0] = -1
        f.chosen[i, 1] = -1
        f.key[i] = _pack(1, h0, h1, c.life, c.life, c.no_carry[p], 0)
        f.lives[i, 0] = c.life
        f.lives[i, 1] = c.life
        f.phase[i] = PLAY
        f.round[i] = 1
        return _enter(f, tb, i)
    first = _first(f, i)
    for s in range(2):
        if f.early[i, s] < 0 and (first < 0 or first == s):
            slot = f.chosen[i, s]
            f.hands[i, s, slot] -= 1
            f.hsize[i, s] -= 1
            f.played[i, s, f.round[i] - 1] = slot
            f.early[i, s] = slot
            f.chosen[i, s] = -1
    if first >= 0:
        return True
    return _resolve(f, tb, i)


@njit(cache=True, inline="always")
def _random_choice(f: Fights, c: Consts, i: int, s: int) -> Any:
    phase = f.phase[i]
    if phase == CHARACTER:
        return _below(f.rng, i, c.characters)
    if phase == SETUP:
        return _below(f.rng, i, c.setups[f.chars[i, s]])
    m = f.legal[i, s]
    return c.nth_bit[m, _below(f.rng, i, c.bit_count[m])]


@njit(cache=True, inline="always")
def _greedy_choice(f: Fights, c: Consts, i: int, s: int) -> Any:
    """The greedy bot's decision (bots/greedy.py): its ties drawn uniformly."""
    phase = f.phase[i]
    if phase == CHARACTER:
        return _below(f.rng, i, c.characters)
    ch = f.chars[i, s]
    if phase == SETUP:
        ties = 0
        for k in range(c.setups[ch]):
            ties += c.g_setup[ch, k]
        pick = _below(f.rng, i, ties)
        for k in range(c.setups[ch]):
            if c.g_setup[ch, k]:
                if pick == 0:
                    return k
                pick -= 1
    o = 1 - s
    oc = f.chars[i, o]
    p = _pairing(f, c, i)
    code = _pair_of(f.key[i])
    scores = c.g_score[p, s, code]
    # the opponent's candidates: its revealed card, else every unseen card it may play
    count = f.work[:_S]
    count[:] = 0
    if f.early[i, o] >= 0:
        count[f.early[i, o]] = 1
    else:
        total = 0
        for b in range(_S):
            n = f.hands[i, o, b] + (1 if f.cover[i, o] == b else 0)
            if n == 0:
                continue
            if c.is_super[oc, b] and f.round[i] < c.super_round:
                continue
            if c.is_ultra[oc, b] and f.lives[i, o] > c.ultra_life:
                continue
            count[b] = n
            total += n
        if total == 0:
            for b in range(_S):
                count[b] = f.hands[i, o, b] + (1 if f.cover[i, o] == b else 0)
    n_candidates = 0
    for b in range(_S):
        n_candidates += count[b]
    my_life = f.lives[i, s]
    their_life = f.lives[i, o]
    best_mean = -np.inf
    best_value = -np.inf
    ties = 0
    best = f.work[_S:]
    best[:] = 0
    m = f.legal[i, s]
    for a in range(_S):
        if not m >> a & 1:
            continue
        total_score = 0.0
        for b in range(_S):
            for _ in range(count[b]):
                e = scores[a, b]
                mine = max(my_life - np.int64(e[0]), 0)
                theirs = max(their_life - np.int64(e[1]), 0)
                if theirs == 0 and mine > 0:
                    total_score += KO
                elif mine == 0 and theirs > 0:
                    total_score += -KO
                else:  # bots/greedy.py _score, operation for operation
                    score = float(np.int64(e[1]) - np.int64(e[0]))
                    score += 0.3 * (np.int64(e[2]) - np.int64(e[3]))
                    score += 0.5 * (np.int64(e[5]) - np.int64(e[4]))
                    total_score += score
        mean = total_score / n_candidates
        value = c.g_value[ch, a]
        if mean > best_mean or (mean == best_mean and value > best_value):
            best_mean, best_value = mean, value
            best[:] = 0
            best[a] = 1
            ties = 1
        elif mean == best_mean and value == best_value:
            best[a] = 1
            ties += 1
    pick = _below(f.rng, i, ties)
    for a in range(_S):
        if best[a] == 1:
            if pick == 0:
                return a
            pick -= 1
    return -1


@njit(cache=True, inline="always")
def _run(f: Fights, c: Consts, tb: Rules, i: int, me: int, opponent: int) -> None:
    """Take fight ``i`` as far as it goes without the learner (or a policy opponent)."""
    status = f.status[i]
    if status == WANTS_RESOLVE:
        f.status[i] = RUNNING
        if not _resolve(f, tb, i):
            return
    elif status == WANTS_ENTER:
        f.status[i] = RUNNING
        if not _enter(f, tb, i):
            return
    f.status[i] = RUNNING
    o = 1 - me
    while f.phase[i] != OVER:
        if _pending(f, i, me) and f.chosen[i, me] < 0:
            f.status[i] = LEARNER
            return
        if _pending(f, i, o) and f.chosen[i, o] < 0:
            if opponent == POLICY:
                f.status[i] = WAITING
                return
            if opponent == RANDOM:
                f.chosen[i, o] = _random_choice(f, c, i, o)
            else:
                f.chosen[i, o] = _greedy_choice(f, c, i, o)
        if not _apply(f, c, tb, i):
            return
    f.status[i] = ENDED


@njit(cache=True, inline="always")
def _choice(f: Fights, c: Consts, i: int, s: int, action: int) -> Any:
    """The choice of seat ``s``'s legal ``action`` id (-1: not legal now)."""
    if not _pending(f, i, s) or f.chosen[i, s] >= 0:
        return -1
    phase = f.phase[i]
    if phase == CHARACTER:
        k = action - A_CHARACTER
        return k if 0 <= k < c.characters else -1
    if phase == SETUP:
        k = action - A_SETUP
        if not 0 <= k < _S * _S:
            return -1
        return c.setup_index[f.chars[i, s], k]
    k = action - A_PLAY
    if 0 <= k < _S and f.legal[i, s] >> k & 1:
        return k
    return -1


@njit(cache=True, inline="always")
def _reset(f: Fights, c: Consts, i: int, game_seed: int) -> None:
    """A new game of seed ``game_seed`` in fight ``i`` (the opponent's stream from it)."""
    f.rng[i] = _hash_seed(game_seed, 1)
    free = c.fixed[0] < 0 or c.fixed[1] < 0
    f.phase[i] = CHARACTER if free else SETUP
    for s in range(2):
        f.chars[i, s] = c.fixed[s]
        f.setup[i, s] = -1
        f.cover[i, s] = -1
        f.shown[i, s] = -1
        f.early[i, s] = -1
        f.chosen[i, s] = -1
        f.lives[i, s] = c.life
        f.hsize[i, s] = 0
        f.seen_early[i, s] = -1
        f.legal[i, s] = 0
        for b in range(_S):
            f.hands[i, s, b] = 0
        for r in range(HAND):
            f.played[i, s, r] = -1
    f.round[i] = 0
    f.key[i] = 0
    f.returns[i] = 0.0
    f.status[i] = RUNNING
    f.seen[i] = -1
    f.seen_round[i] = 0
    f.stepped[i] = 0


@njit(cache=True, inline="always")
def _next_seed(f: Fights, i: int) -> Any:
    """The environment's next game seed (from its stream)."""
    return np.int64(np.uint64(_next(f.env_rng, i)) >> np.uint64(2))


# -- writing a seat's observation and mask ----------------------------------------------------


@njit(cache=True, inline="always")
def _put(row: Any, c: Consts, q: int, value: Any) -> None:
    if c.normalize:
        row[q] = np.float32(value) * c.scale[q]
    else:
        row[q] = value


@njit(cache=True, inline="always")
def _played(f: Fights, c: Consts, i: int, seat: int, row: Any, r: int) -> None:
    """Round ``r``'s played cards in ``seat``'s observation (a card revealed first is shown
    as revealed, not yet as played); a card once shown stays, so this only sets."""
    at = c.offsets[8]
    for k in range(2):
        s = seat if k == 0 else 1 - seat
        slot = f.played[i, s, r]
        if slot >= 0 and not (f.early[i, s] >= 0 and f.round[i] == r + 1):
            _put(row, c, at + (k * HAND + r) * _S + slot, 1)


@njit(cache=True, inline="always")
def _kind(f: Fights, i: int, seat: int) -> int:
    """The kind of ``seat``'s pending decision (observation.KINDS), -1 if none."""
    if not _pending(f, i, seat):
        return -1
    phase = f.phase[i]
    if phase == CHARACTER:
        return K_CHARACTER
    if phase == SETUP:
        return K_SETUP
    return K_FIRST if _first(f, i) == seat else K_PLAY


@njit(cache=True, inline="always")
def _write_obs(f: Fights, c: Consts, i: int, seat: int, row: Any) -> None:
    """Seat ``seat``'s observation of fight ``i`` into ``row``, as
    :class:`~.observation.SFRivalsEncoding` writes it from the seat's view."""
    at = c.offsets
    for q in range(c.size):
        row[q] = 0.0
    phase = f.phase[i]
    started = phase >= PLAY
    _put(row, c, at[0] + seat, 1)
    _put(row, c, at[1] + phase, 1)
    _put(row, c, at[2], f.round[i])
    _put(row, c, at[3], c.rounds)
    key = f.key[i]
    flags = _reveal_flags(key) if started else 0
    code = _pair_of(key) if started else 0
    p = _pairing(f, c, i) if started else 0
    for k in range(2):
        s = seat if k == 0 else 1 - seat
        if f.chars[i, s] >= 0:
            _put(row, c, at[4] + k * MAX_CHARACTERS + f.chars[i, s], 1)
        _put(row, c, at[5] + k, f.lives[i, s])
        _put(row, c, at[6] + k, f.hsize[i, s])
        if started:
            _put(row, c, at[7] + k * _S + f.shown[i, s], 1)
            early = f.early[i, s]
            if early >= 0:
                _put(row, c, at[9] + k * _S + early, 1)
            for q in range(3):
                _put(row, c, at[10] + k * 3 + q, c.carry[p, code, s, q])
            if flags >> s & 1:
                _put(row, c, at[11] + k, 1)
        if _pending(f, i, s):
            _put(row, c, at[14] + k, 1)
    if started:
        for r in range(HAND):
            _played(f, c, i, seat, row, r)
        for b in range(_S):
            _put(row, c, at[12] + b, f.hands[i, seat, b])
        _put(row, c, at[13] + f.cover[i, seat], 1)
    kind = _kind(f, i, seat)
    if kind >= 0:
        _put(row, c, at[15] + kind, 1)


@njit(cache=True, inline="always")
def _update_obs(f: Fights, c: Consts, i: int, seat: int, row: Any) -> None:
    """:func:`_write_obs` on a row that holds ``seat``'s observation of this fight in play
    (``f.seen``, ``f.seen_round``, ``f.seen_early``: when it was written): only what a step
    of play can change, and only the entries that change."""
    at = c.offsets
    phase = f.phase[i]
    if phase != f.seen[i]:
        row[at[1] + f.seen[i]] = 0.0
        _put(row, c, at[1] + phase, 1)
    _put(row, c, at[2], f.round[i])
    key = f.key[i]
    flags = _reveal_flags(key)
    code = _pair_of(key)
    p = _pairing(f, c, i)
    for k in range(2):
        s = seat if k == 0 else 1 - seat
        _put(row, c, at[5] + k, f.lives[i, s])
        _put(row, c, at[6] + k, f.hsize[i, s])
        before = f.seen_early[i, s]
        early = f.early[i, s]
        if before != early:
            if before >= 0:
                row[at[9] + k * _S + before] = 0.0
            if early >= 0:
                _put(row, c, at[9] + k * _S + early, 1)
        for q in range(3):
            _put(row, c, at[10] + k * 3 + q, c.carry[p, code, s, q])
        _put(row, c, at[11] + k, flags >> s & 1)
        _put(row, c, at[14] + k, 1 if _pending(f, i, s) else 0)
    for r in range(max(f.seen_round[i] - 1, 0), min(f.round[i], HAND)):
        _played(f, c, i, seat, row, r)
    for b in range(_S):
        _put(row, c, at[12] + b, f.hands[i, seat, b])
    kind = _kind(f, i, seat)
    for q in range(4):
        _put(row, c, at[15] + q, 1 if q == kind else 0)


@njit(cache=True, inline="always")
def _write_mask(f: Fights, c: Consts, i: int, seat: int, row: Any, full: bool) -> None:
    """Seat ``seat``'s legal actions in fight ``i`` into ``row``; ``full=False`` (the row
    holds them for a decision in play): only the card actions are written."""
    if full:
        for a in range(NUM_ACTIONS):
            row[a] = False
    else:
        for a in range(A_PLAY, A_PLAY + _S):
            row[a] = False
    if not _pending(f, i, seat) or f.chosen[i, seat] >= 0:
        return
    phase = f.phase[i]
    if phase == CHARACTER:
        for k in range(c.characters):
            row[A_CHARACTER + k] = True
    elif phase == SETUP:
        ch = f.chars[i, seat]
        for k in range(c.setups[ch]):
            row[A_SETUP + c.setup_cards[ch, k, 0] * _S + c.setup_cards[ch, k, 1]] = True
    else:
        m = f.legal[i, seat]
        for b in range(_S):
            if m >> b & 1:
                row[A_PLAY + b] = True


@njit(cache=True, inline="always")
def _write(f: Fights, c: Consts, i: int, me: int, obs: Any, mask: Any) -> None:
    """The learner's observation and mask of fight ``i``, in place where they allow it."""
    if f.seen[i] == PLAY:
        _update_obs(f, c, i, me, obs[i])
        _write_mask(f, c, i, me, mask[i], False)
    else:
        _write_obs(f, c, i, me, obs[i])
        _write_mask(f, c, i, me, mask[i], True)
    f.seen[i] = f.phase[i]
    f.seen_round[i] = f.round[i]
    f.seen_early[i, 0] = f.early[i, 0]
    f.seen_early[i, 1] = f.early[i, 1]


@njit(cache=True, inline="always")
def _round(
    f: Fights, c: Consts, tb: Rules, i: int, me: int, opponent: int, row: Any, mrow: Any
) -> bool:
    """The common step, written at once: the learner chose its card of a round that both
    seats play blind (no reveal-first flag); the opponent chooses, the round resolves, and
    if the next one is again such a round the learner's observation and mask are updated
    with what changed (round, lives, hand sizes, the two cards played, the learner's count of
    its card, carried bonuses). False if the step is not that (nothing done) or does not end
    so (the rest is left to the general path: :func:`_run`, :func:`_write`)."""
    if f.phase[i] != PLAY or f.seen[i] != PLAY or _reveal_flags(f.key[i]) != 0:
        return False
    o = 1 - me
    r = f.round[i]
    before = _pair_of(f.key[i])
    a = f.chosen[i, me]
    if opponent == RANDOM:
        f.chosen[i, o] = _random_choice(f, c, i, o)
    else:
        f.chosen[i, o] = _greedy_choice(f, c, i, o)
    b = f.chosen[i, o]
    if not _apply(f, c, tb, i) or f.phase[i] != PLAY or _reveal_flags(f.key[i]) != 0:
        return False
    f.status[i] = LEARNER
    at = c.offsets
    _put(row, c, at[2], f.round[i])
    _put(row, c, at[5], f.lives[i, me])
    _put(row, c, at[5] + 1, f.lives[i, o])
    _put(row, c, at[6], f.hsize[i, me])
    _put(row, c, at[6] + 1, f.hsize[i, o])
    _put(row, c, at[8] + (r - 1) * _S + a, 1)
    _put(row, c, at[8] + (HAND + r - 1) * _S + b, 1)
    _put(row, c, at[12] + a, f.hands[i, me, a])
    code = _pair_of(f.key[i])
    if code != before:
        p = _pairing(f, c, i)
        for k in range(2):
            s = me if k == 0 else o
            for q in range(3):
                _put(row, c, at[10] + k * 3 + q, c.carry[p, code, s, q])
    m = f.legal[i, me]
    for x in range(_S):
        mrow[A_PLAY + x] = m >> x & 1
    f.seen_round[i] = f.round[i]
    return True


@njit(cache=True, inline="always")
def _copy_row(src: Any, dst: Any, i: int) -> None:
    for q in range(src.shape[1]):
        dst[i, q] = src[i, q]


# -- the compiled passes -----------------------------------------------------------------------


@kernels.jit_flat
def advance(
    f: Fights,
    c: Consts,
    tb: Rules,
    which: Any,
    actions: Any,
    seat: int,
    restart: Any,
    seeds: Any,
    mode: int,
    me: int,
    opponent: int,
    obs: Any,
    mask: Any,
    rewards: Any,
    terminated: Any,
    illegal: Any,
    final: Any,
    loss: float,
) -> int:
    """One pass over fights ``which``, each taken as far as it goes, its learner's
    observation and mask written (``obs``, ``mask``: the core's own buffers).

    ``FIRST`` (a step of the learner's, or a reset): each fight is reset if ``restart`` (game
    seed ``seeds[i]`` if ``SEEDED``, else the environment's next), else gets the learner's
    ``actions[j]``, checked against its mask: an illegal one ends that game lost (``loss``,
    ``illegal``) and changes nothing else — with ``STRICT``, the first illegal one (``-1 -
    j``) stops the pass before anything changes. Otherwise ``actions[j]`` (if ``seat >= 0``)
    are seat ``seat``'s checked choices: a policy opponent's. A game that ends after the
    learner acted gets its reward and termination; ``SAME_STEP``, its last observation goes
    to ``final`` and a new game starts at once.

    Returns how many fights wait for the policy opponent, plus ``2**32`` times how many
    want a table entry (filled by the caller, then passed again)."""
    n = len(restart) if which is None else len(which)
    first = mode & FIRST != 0
    same = mode & SAME_STEP != 0
    if first and mode & STRICT:
        for j in range(n):
            i = j if which is None else which[j]
            a = actions[j]
            if not restart[i] and not (0 <= a < NUM_ACTIONS and mask[i, a]):
                return -1 - j
    waiting = 0
    wanting = 0
    for j in range(n):
        i = j if which is None else which[j]
        if first:
            rewards[i] = 0.0
            terminated[i] = False
            illegal[i] = False
            if restart[i]:
                _reset(f, c, i, seeds[i] if mode & SEEDED else _next_seed(f, i))
            else:
                a = actions[j]
                choice = _choice(f, c, i, seat, a) if 0 <= a < NUM_ACTIONS and mask[i, a] else -1
                if choice < 0:
                    illegal[i] = True
                    rewards[i] = loss
                    terminated[i] = True
                    if not same:
                        continue
                    _copy_row(obs, final, i)
                    _reset(f, c, i, _next_seed(f, i))
                else:
                    f.chosen[i, seat] = choice
                    f.stepped[i] = 1
                    f.status[i] = RUNNING
                    if opponent != POLICY and _round(f, c, tb, i, me, opponent, obs[i], mask[i]):
                        continue
        elif seat >= 0:
            f.chosen[i, seat] = _choice(f, c, i, seat, actions[j])
        while True:
            _run(f, c, tb, i, me, opponent)
            st = f.status[i]
            if st == WAITING:
                waiting += 1
                break
            if st >= WANTS_ENTER:
                wanting += 1
                break
            _write(f, c, i, me, obs, mask)
            if st != ENDED or not f.stepped[i]:
                break
            f.stepped[i] = 0
            rewards[i] = f.returns[i] if me == 0 else -f.returns[i]
            terminated[i] = True
            if not same:
                break
            _copy_row(obs, final, i)
            _reset(f, c, i, _next_seed(f, i))
    return waiting + (wanting << 32)


@kernels.jit_flat
def _seed_streams(streams: Any, seeds: Any) -> None:
    for i in range(len(seeds)):
        streams[i] = _hash_seed(seeds[i], 2)


@kernels.jit_flat
def reset_all(f: Fights, c: Consts, which: Any, seeds: Any) -> None:
    """New games in fights ``which[j]`` of game seeds ``seeds[j]``, not yet run (for
    :mod:`.exploit`, which steps them itself)."""
    for j in range(len(which)):
        _reset(f, c, which[j], seeds[j])


@kernels.jit_flat
def masks_all(f: Fights, c: Consts, seat: int, which: Any, out: Any) -> None:
    """``out[j]``: seat ``seat``'s legal actions in fight ``which[j]``."""
    for j in range(len(which)):
        _write_mask(f, c, which[j], seat, out[j], True)


@kernels.jit_flat
def observe_all(f: Fights, c: Consts, seat: int, which: Any, out: Any) -> None:
    """``out[j]``: seat ``seat``'s observation of fight ``which[j]`` (as the encoding writes
    it from the seat's view)."""
    for j in range(len(which)):
        _write_obs(f, c, which[j], seat, out[j])


_FIELDS: tuple[tuple[str, Any, tuple[int, ...], int], ...] = (
    ("key", np.int64, (), 0), ("returns", np.float64, (), 0), ("rng", np.uint64, (), 0),
    ("env_rng", np.uint64, (), 0), ("legal", np.int16, (2,), 0),
    ("hands", np.int8, (2, _S), 0), ("played", np.int8, (2, HAND), -1),
    ("chars", np.int8, (2,), -1), ("setup", np.int8, (2,), -1), ("cover", np.int8, (2,), -1),
    ("shown", np.int8, (2,), -1), ("early", np.int8, (2,), -1), ("chosen", np.int8, (2,), -1),
    ("lives", np.int8, (2,), 0), ("hsize", np.int8, (2,), 0), ("seen_early", np.int8, (2,), -1),
    ("phase", np.int8, (), OVER), ("round", np.int8, (), 0), ("status", np.int8, (), ENDED),
    ("seen", np.int8, (), -1), ("seen_round", np.int8, (), 0), ("stepped", np.int8, (), 0),
)  # fmt: skip
"""Each field's type, shape per fight and value before the first game."""


def new_fights(n: int) -> Fights:
    """``n`` fights, every game over (not started)."""
    arrays = {name: np.full((n, *shape), v, dtype=t) for name, t, shape, v in _FIELDS}
    return Fights(**arrays, work=np.zeros(2 * _S, dtype=np.int64))


def take(f: Fights, index: NDArray[np.int64]) -> Fights:
    """Copies of fights ``index`` (in that order)."""
    return Fights._make([*(a[index] for a in f[:-1]), np.zeros(2 * _S, dtype=np.int64)])


def concat(parts: list[Fights]) -> Fights:
    """The fights of ``parts``, one after the other."""
    fields = zip(*(p[:-1] for p in parts), strict=True)
    return Fights._make([*(np.concatenate(a) for a in fields), np.zeros(2 * _S, dtype=np.int64)])


Stops = tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int8]]
"""The fights that stopped for a table entry: their indices, keys and statuses."""


def stops_after_fill(f: Fights, wanting: NDArray[np.int64], before: Stops | None) -> Stops:
    """The stops of fights ``wanting``, checked against ``before`` (the stops the last fill
    was for): a fill lets every stopped fight go on, so the very same stops again mean the
    rule tables cannot serve them — an error, not another fill (which would loop forever)."""
    now = (wanting.copy(), f.key[wanting], f.status[wanting])
    if before is not None and all(np.array_equal(before[k], now[k]) for k in range(3)):
        k = int(now[1][0])
        raise RuntimeError(
            f"the compact rule tables lack entries the solver filled (key {k:#x}, status "
            f"{int(now[2][0])}): the layout and the solver's tables disagree"
        )
    return now


def _greedy_tables(engine: BatchEngine, pairings: list[int], pairs: int) -> NDArray[np.int8]:
    """Greedy's round model per pairing, seat and carried-bonus pair: for its card ``a`` and
    the opponent's ``b``, what its score of the round reads (bots/greedy.py ``_score``):
    damage taken, damage dealt, initiative bonuses carried and reveal-first flags of both,
    from the very call the bot makes (``resolve_round((mine, theirs), carry, lives)``, its own
    card first)."""
    count = len(engine.characters)
    table = np.zeros((count * count, 2, pairs, _S, _S, 6), dtype=np.int8)
    for p in pairings:
        a, b = divmod(p, count)
        solver = engine.solver(a, b)
        chars = (engine.characters[a], engine.characters[b])
        for code in range(min(_pair_count(solver), pairs)):
            carry = solver.carry_pair(code)
            for s in (0, 1):
                mine, theirs = chars[s], chars[1 - s]
                pair = (carry[s], carry[1 - s])
                for x in mine.cards:
                    for y in theirs.cards:
                        res = resolve_round((x, y), pair, (99, 99))
                        table[p, s, code, x.index, y.index] = (
                            res.taken[0],
                            res.taken[1],
                            res.carry[0].bonus,
                            res.carry[1].bonus,
                            res.reveal_first[0],
                            res.reveal_first[1],
                        )
    return table


def _pair_count(solver: Any) -> int:
    """The carried-bonus pair codes ``solver`` has made (``carry_pair`` answers them)."""
    n = int(np.flatnonzero(solver.pairs_filled).max()) + 1
    while True:
        try:
            solver.carry_pair(n)
        except IndexError:
            return n
        n += 1


def _entries(tables: Any, rounds: int, codes: int) -> NDArray[np.int32]:
    """One character's legal and stuck entries of committed play, ``[hand code, life]``: a
    hand of ``size`` cards is held in round ``HAND - size + 1`` (a seat keeps ``HAND`` cards
    and plays one a round, whatever the pack's ``rounds``; a round beyond them holds none).
    The solver's tables are read at that round, wherever they were filled (up front by
    ``CharacterTables.fill_committed`` or on demand by ``FightSolver.prepare``)."""
    copies = np.asarray([c.copies for c in tables.char.cards], dtype=np.int64)
    radix = np.asarray(tables.radix, dtype=np.int64)
    n = tables.legal.shape[1]
    code = np.arange(n, dtype=np.int64)
    size = ((code[:, None] // radix) % (copies + 1)).sum(axis=1)
    r = HAND - size + 1
    ok = (r >= 1) & (r <= rounds)
    r = np.clip(r, 0, tables.legal.shape[0] - 1)
    legal = tables.legal[r, code, :, 0].astype(np.int64)
    if (legal & kernels.LEGAL_CARDS >= 1 << _S).any():
        raise ValueError("a legal-card entry beyond the card slots")
    stuck = tables.stuck[r, code, :]
    entry = (legal & (_CARDS | _DONE)) | np.where(stuck >= 0, _KNOWN, 0)
    entry |= np.where(stuck == 1, _STUCK, 0)
    out = np.zeros((codes, tables.legal.shape[2]), dtype=np.int32)
    out[:n] = np.where(ok[:, None], entry, 0)
    return out


def _rules(engine: BatchEngine, pairings: list[int], pairs: int) -> Rules:
    """The compact tables of ``pairings`` (see :class:`Rules`), from the solvers' own."""
    count = len(engine.characters)
    first = engine.solver(*divmod(pairings[0], count))
    lives = first.tables.legal0.shape[2]
    rounds = int(first.tables.rounds)
    codes = max(
        engine.solver(*divmod(p, count)).seat_tables[s].legal.shape[1]
        for p in pairings
        for s in (0, 1)
    )
    entry = np.zeros((count, codes, lives), dtype=np.int32)
    radix = np.zeros((count, _S), dtype=np.int64)
    powerless = np.zeros((count, _S, lives), dtype=np.int8)
    trans = np.zeros((count * count, pairs, 2, 2, _S, _S), dtype=np.int32)
    filled = np.zeros((count * count, pairs), dtype=bool)
    end = np.zeros((count * count, lives, lives, 2, 2))
    for p in pairings:
        a, b = divmod(p, count)
        solver = engine.solver(a, b)
        t = solver.tables
        for ch, seat_tables, rad, weak in (
            (a, solver.seat_tables[0], t.radix0, t.powerless0),
            (b, solver.seat_tables[1], t.radix1, t.powerless1),
        ):
            entry[ch] = _entries(seat_tables, rounds, codes)
            radix[ch, : len(rad)] = rad
            powerless[ch, : weak.shape[0]] = weak
        k = min(pairs, len(solver.pairs_filled))
        fields = (t.taken0[:k], t.taken1[:k], t.reveal[:k], t.next_pair[:k])
        taken0, taken1, reveal, nxt = (x.astype(np.int64) for x in fields)
        if taken0.min() < 0 or max(taken0.max(), taken1.max()) > 255 or nxt.max() > 1023:
            raise ValueError("a transition entry outside the compact layout")
        word = taken0 | taken1 << 8 | reveal << 16 | nxt << 18
        n0, n1 = word.shape[1], word.shape[2]
        trans[p, :k, :, :, :n0, :n1] = word.transpose(0, 3, 4, 1, 2)
        filled[p, :k] = solver.pairs_filled[:k]
        end[p] = t.end_table
    return Rules(
        entry=entry,
        radix=radix,
        powerless=powerless,
        trans=trans,
        pairs_filled=filled,
        end=end,
        rounds=rounds,
        end_fight=bool(first.tables.end_fight),
    )


class SFRivalsVector:
    """``num_envs`` SF Rivals fights seen from ``seat`` (see the module docstring).

    ``obs``, ``mask``: the learner's observation and legal actions in every fight, kept
    current by :meth:`reset` and :meth:`step` (the core's own buffers, updated in place: read
    them, never write them); ``rewards``, ``terminated``, ``illegal``: the last step's."""

    def __init__(
        self,
        game: Game[Any],
        options: Mapping[str, Any],
        num_envs: int,
        seat: int,
        opponent: str | Callable[[Any, Any], Any] = "random",
        normalize: bool = False,
    ) -> None:
        assert isinstance(game, SFRivals)
        opts = game.parse_options(options)
        self.engine: BatchEngine = engine_for(game, opts)
        engine = self.engine
        self.policy: Callable[[Any, Any], Any] | None = None
        if callable(opponent):
            self.opponent, self.policy = POLICY, opponent
        elif opponent in OPPONENTS:
            self.opponent = OPPONENTS[opponent]
        else:
            known = ", ".join([*OPPONENTS, "a batched policy"])
            raise OptionsError(f"the batched SF Rivals env has no opponent {opponent!r} ({known})")
        self.encoding = SFRivalsEncoding(engine.catalog)
        fields = tuple(f.name for f in self.encoding.fields)
        if fields != OBS_FIELDS:
            raise AssertionError(f"the vector core writes {OBS_FIELDS}, the encoding has {fields}")
        self.n, self.seat, self.opp = num_envs, seat, 1 - seat
        self.normalize = normalize
        self.num_actions = NUM_ACTIONS
        self.size = self.encoding.size
        count = len(engine.characters)
        fixed = engine._fixed(opts.characters or (None, None))
        firsts = [int(fixed[0])] if fixed[0] >= 0 else list(range(count))
        seconds = [int(fixed[1])] if fixed[1] >= 0 else list(range(count))
        self.pairings = sorted(a * count + b for a in firsts for b in seconds)
        radix, full, no_carry = engine._start_consts(np.asarray(self.pairings, dtype=np.int64))
        most = max(len(c.setup_choices) for c in engine.characters)
        if most > 127:
            raise ValueError("more set-up choices than a fight's row holds")
        setup_index = np.full((count, _S * _S), -1, dtype=np.int64)
        for ch, cards in enumerate(engine._setup_cards):
            for k, (cover, shown) in enumerate(cards.tolist()):
                setup_index[ch, cover * _S + shown] = k
        copies = np.zeros((count, _S), dtype=np.int64)
        values = np.zeros((count, _S))
        ultra = np.zeros((count, _S), dtype=bool)
        super_ = np.zeros((count, _S), dtype=bool)
        g_setup = np.zeros((count, most), dtype=bool)
        for ch, char in enumerate(engine.characters):
            for card in char.cards:
                copies[ch, card.index] = card.copies
                values[ch, card.index] = -card_value(card) * 0.01
                ultra[ch, card.index] = card.is_ultra
                super_[ch, card.index] = card.is_super
            keys = []
            for choice in char.setup_choices:
                _, cov, sho = choice.split(":")
                cv, sv = card_value(char.by_id[cov]), card_value(char.by_id[sho])
                keys.append((cv + sv, cv))
            least = min(keys)
            g_setup[ch, : len(keys)] = [k == least for k in keys]
        self.scale = (1.0 / np.maximum(self.encoding.high, 1e-12)).astype(np.float32)
        bit_count, nth_bit = _bit_tables(_S)
        self.consts = Consts(
            characters=count,
            fixed=fixed,
            copies=copies,
            start_size=copies.sum(axis=1) - 2,
            setups=engine.setups.copy(),
            setup_cards=engine._setup_table,
            setup_index=setup_index,
            life=engine.life,
            rounds=engine.catalog.rules.hand,
            radix=radix,
            full=full,
            no_carry=no_carry,
            carry=np.zeros((1, 1, 2, 3), dtype=np.int64),
            bit_count=bit_count,
            nth_bit=nth_bit,
            g_score=np.zeros((1, 2, 1, _S, _S, 6), dtype=np.int8),
            g_value=values,
            g_setup=g_setup,
            is_ultra=ultra,
            is_super=super_,
            super_round=engine.catalog.rules.super_round_at_least,
            ultra_life=engine.catalog.rules.ultra_life_at_most,
            offsets=np.asarray([self.encoding.offsets[name] for name in fields], dtype=np.int64),
            scale=self.scale,
            normalize=normalize,
            size=self.size,
        )
        self._refresh()
        n = num_envs
        self.fights = new_fights(n)
        self.obs = np.zeros((n, self.size), dtype=np.float32)
        self.mask = np.zeros((n, NUM_ACTIONS), dtype=bool)
        self.rewards = np.zeros(n)
        self.terminated = np.zeros(n, dtype=bool)
        self.illegal = np.zeros(n, dtype=bool)
        self.final = np.zeros((n, self.size), dtype=np.float32)
        self._all = np.arange(n, dtype=np.int64)
        self._none = np.zeros(n, dtype=np.int64)
        self._no = np.zeros(n, dtype=bool)

    def _pairs(self) -> int:
        """How many carried-bonus pair codes the pairings' solvers have made (a child's
        code may be one whose transitions are not filled yet)."""
        count = len(self.engine.characters)
        return max(_pair_count(self.engine.solver(*divmod(p, count))) for p in self.pairings)

    def _carry_table(self, pairs: int) -> NDArray[np.int64]:
        engine = self.engine
        count = len(engine.characters)
        out = np.zeros((count * count, pairs, 2, 3), dtype=np.int64)
        for p in self.pairings:
            solver = engine.solver(*divmod(p, count))
            for code in range(_pair_count(solver)):
                pair = solver.carry_pair(code)
                out[p, code] = [list(pair[0]), list(pair[1])]
        return out

    def _refresh(self) -> None:
        """The compact tables, from the solvers' (when made, and after a table was filled:
        new carried-bonus pairs may have appeared)."""
        pairs = self._pairs()
        self.rules = _rules(self.engine, self.pairings, pairs)
        self.consts = self.consts._replace(carry=self._carry_table(pairs))
        if self.opponent == GREEDY:
            score = _greedy_tables(self.engine, self.pairings, pairs)
            self.consts = self.consts._replace(g_score=score)

    def _fill(self, wanting: NDArray[np.int64]) -> None:
        """Fill the table entries the stopped fights want (rare: filled up front)."""
        f = self.fights
        count = len(self.engine.characters)
        keys = f.key[wanting]
        rounds = (keys >> _R) & _RM
        pairing = f.chars[wanting, 0].astype(np.int64) * count + f.chars[wanting, 1]
        for p in np.unique(pairing).tolist():
            solver = self.engine.solver(*divmod(p, count))
            for r in np.unique(rounds[pairing == p]).tolist():
                solver.prepare(r, keys[(pairing == p) & (rounds == r)])
        self._refresh()

    # -- the core's interface (kumite.core.observation.VectorCore) ----------------------------

    def seed(self, seeds: NDArray[np.int64]) -> None:
        """Each environment's stream of game seeds (after its first game, ``seeds[i]``)."""
        _seed_streams(self.fights.env_rng, seeds.astype(np.int64))

    def reset(self, which: NDArray[np.bool_], seeds: NDArray[np.int64] | None = None) -> None:
        """New games where ``which``: game seed ``seeds[i]``, or the environment's next."""
        mode = FIRST | (0 if seeds is None else SEEDED)
        index = np.flatnonzero(which)
        self._pass(index, self._none, -1, which, self._none if seeds is None else seeds, mode)

    def step(
        self,
        actions: NDArray[np.int64],
        restart: NDArray[np.bool_],
        *,
        strict: bool = False,
        same_step: bool = False,
        loss: float = -1.0,
    ) -> tuple[NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_]]:
        """New games where ``restart``, the learner's ``actions`` in the others, then the
        opponent's choices until the learner must decide again or the game ends; returns
        the step's ``rewards``, ``terminated`` and ``illegal`` (the core's buffers). An
        illegal action ends its game lost (``loss``), or with ``strict`` raises
        :class:`~kumite.core.errors.IllegalChoiceError` and changes nothing. ``same_step``:
        an ended game restarts at once, its last observation in ``final``."""
        mode = FIRST | (STRICT if strict else 0) | (SAME_STEP if same_step else 0)
        self._pass(None, actions, self.seat, restart, self._none, mode, loss)
        return self.rewards, self.terminated, self.illegal

    def _pass(
        self,
        which: NDArray[np.int64] | None,
        actions: NDArray[np.int64],
        seat: int,
        restart: NDArray[np.bool_],
        seeds: NDArray[np.int64],
        mode: int,
        loss: float = -1.0,
    ) -> None:
        f, c = self.fights, self.consts
        args = (self.seat, self.opponent, self.obs, self.mask, self.rewards, self.terminated)
        out = advance(f, c, self.rules, which, actions, seat, restart, seeds, mode, *args,
                      self.illegal, self.final, loss)  # fmt: skip
        if out < 0:
            bad = int(actions[-1 - out])
            raise IllegalChoiceError(self.seat, bad, "not a legal action id now")
        mode &= SAME_STEP
        stops: Stops | None = None
        while out:
            status = f.status
            wanting = np.flatnonzero(status >= WANTS_ENTER)
            if len(wanting):
                stops = stops_after_fill(f, wanting, stops)
                self._fill(wanting)
                out = advance(f, self.consts, self.rules, wanting, self._none, -1, restart,
                              seeds, mode, *args, self.illegal, self.final, loss)  # fmt: skip
                continue
            waiting = np.flatnonzero(status == WAITING)
            if not len(waiting):
                return
            chosen = self._ask(waiting)
            out = advance(f, self.consts, self.rules, waiting, chosen, self.opp, restart,
                          seeds, mode, *args, self.illegal, self.final, loss)  # fmt: skip

    def _ask(self, waiting: NDArray[np.int64]) -> NDArray[np.int64]:
        """The policy opponent's choices in fights ``waiting``, from its own observations."""
        assert self.policy is not None
        k = len(waiting)
        obs = np.empty((k, self.size), dtype=np.float32)
        observe_all(self.fights, self.consts, self.opp, waiting, obs)
        masks = np.empty((k, NUM_ACTIONS), dtype=bool)
        masks_all(self.fights, self.consts, self.opp, waiting, masks)
        chosen = np.asarray(self.policy(obs, masks), dtype=np.int64).reshape(k)
        inside = (chosen >= 0) & (chosen < NUM_ACTIONS)
        if not (inside & masks[np.arange(k), np.where(inside, chosen, 0)]).all():
            raise OptionsError("the opponent policy chose an illegal action id")
        return chosen

    def observations(self, out: NDArray[np.float32] | None = None) -> NDArray[np.float32]:
        """A copy of every fight's observation tensor (the learner's)."""
        if out is None:
            return self.obs.copy()
        out[...] = self.obs
        return out

    def masks(self, out: NDArray[np.bool_] | None = None) -> NDArray[np.bool_]:
        """A copy of the learner's legal actions in every fight (none once it is over)."""
        if out is None:
            return self.mask.copy()
        out[...] = self.mask
        return out

    def done(self) -> NDArray[np.bool_]:
        out: NDArray[np.bool_] = self.fights.phase == OVER
        return out

    @property
    def returns(self) -> NDArray[np.float64]:
        """The learner's return in each ended fight."""
        r = self.fights.returns
        out: NDArray[np.float64] = r if self.seat == 0 else -r
        return out


def make(
    game: Game[Any],
    options: Mapping[str, Any],
    num_envs: int,
    seat: int,
    opponent: str | Callable[[Any, Any], Any] = "random",
    normalize: bool = False,
) -> SFRivalsVector:
    """The spec's ``vector`` hook."""
    return SFRivalsVector(game, options, num_envs, seat, opponent, normalize)


__all__ = ["OPPONENTS", "SFRivalsVector", "make"]
