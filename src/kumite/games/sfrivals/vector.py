"""SF Rivals' batched vector core (docs/envs.md, "The batched vector env"): ``num_envs``
fights of one learner seat against an opponent, stepped at once in compiled code on the
batched engine's arrays (:mod:`.batch`: the fight solver's rule tables and transition), their
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
the transition, the observation and the mask of every fight — is one compiled pass.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np
from numba import njit
from numba.typed import List
from numpy.typing import NDArray

from kumite.core.errors import IllegalChoiceError, OptionsError
from kumite.core.game import Game
from kumite.games.sfrivals.batch import BatchEngine, _below, _next, engine_for
from kumite.games.sfrivals.bots.greedy import KO, card_value
from kumite.games.sfrivals.cards import HAND
from kumite.games.sfrivals.game import SFRivals
from kumite.games.sfrivals.observation import PHASES, SFRivalsEncoding
from kumite.games.sfrivals.resolve import resolve_round
from kumite.games.sfrivals.solver import kernels
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
_S = CARD_SLOTS
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


class Fights(NamedTuple):
    """Every fight's position, one row each (a Numba named tuple of arrays)."""

    phase: Any  # int64[n]
    chars: Any  # int64[n, 2], -1 before the pick
    setup: Any  # int64[n, 2]: index into the character's set-up choices
    cover: Any  # int64[n, 2]: card slot, -1 before the set-up
    shown: Any  # int64[n, 2]
    hands: Any  # int64[n, 2, slots]: copies in hand
    played: Any  # int64[n, 2, HAND]: slot played each round, -1
    early: Any  # int64[n, 2]: the card already chosen this round (revealed first), -1
    chosen: Any  # int64[n, 2]: a choice buffered for the pending decision, -1
    round: Any  # int64[n]
    key: Any  # int64[n]: the fight solver's packed state (from the set-up on)
    lives: Any  # int64[n, 2]
    legal: Any  # int64[n, 2]: legal card slots this round (bit masks)
    status: Any  # int64[n]
    returns: Any  # float64[n]: seat 0's result once over
    rng: Any  # uint64[n]: the opponent's stream
    env_rng: Any  # uint64[n]: each environment's stream of game seeds
    order: Any  # int64[n]: scratch (the fights in order of pairing)
    start: Any  # int64[pairings + 1]: scratch
    work: Any  # int64[2 * slots]: scratch (greedy's candidates and ties)


class Consts(NamedTuple):
    """What every fight reads: the pack, the rule tables, the opponent's tables."""

    characters: int
    fixed: Any  # int64[2]
    copies: Any  # int64[C, slots]
    setups: Any  # int64[C]: set-up choices per character
    setup_cards: Any  # int64[C, most, 2]: (cover, shown) of each
    setup_index: Any  # int64[C, slots * slots]: the choice of (cover, shown), -1
    life: int
    rounds: int
    radix: Any  # int64[P, 2, slots]
    full: Any  # int64[P, 2]
    no_carry: Any  # int64[P]
    carry: Any  # int64[P, pairs, 2, 3]: the carried bonuses of a pair code
    # greedy's tables
    g_score: Any  # int8[P, 2, pairs, slots, slots, 6]: _greedy_tables
    g_done: Any  # bool[P, 2, pairs]
    g_value: Any  # float64[C, slots]: -card_value * 0.01
    g_setup: Any  # bool[C, most]: the set-ups of least value (greedy's ties)
    is_ultra: Any  # bool[C, slots]
    is_super: Any  # bool[C, slots]
    super_round: int
    ultra_life: int
    # the observation
    offsets: Any  # int64[16]: each field's offset, in the encoding's order
    scale: Any  # float32[size]: 1, or 1/high (normalised)
    size: int


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


@njit(cache=True, inline="always")
def _nth_bit(mask: int, k: int) -> int:
    for b in range(_S):
        if mask >> b & 1:
            if k == 0:
                return b
            k -= 1
    return -1


@njit(cache=True, inline="always")
def _bits(mask: int) -> int:
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n


# -- the state machine -------------------------------------------------------------------


@njit(cache=True, inline="always")
def _first(f: Fights, i: int) -> Any:
    """The seat that must reveal its card first and has not yet, else -1."""
    flags = kernels.key_reveal(f.key[i])
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
    return f.chars[i, 0] * c.characters + f.chars[i, 1]


@njit(cache=True, inline="always")
def _enter(f: Fights, i: int, t: Any, filled: Any) -> Any:
    """Fight ``i`` starts a round at its key: its legal cards (False: the tables lack them).
    ``t`` and ``filled`` are its pairing's rule tables (``BatchEngine.rule_tables``)."""
    k = f.key[i]
    if not kernels.round_ready(k, t, filled):
        f.status[i] = WANTS_ENTER
        return False
    m0, m1 = kernels.legal_cards(k, t)
    f.legal[i, 0] = m0
    f.legal[i, 1] = m1
    return True


@njit(cache=True, inline="always")
def _resolve(f: Fights, i: int, t: Any, filled: Any) -> Any:
    """Both cards of the round are down: resolve it (False: the tables lack an entry)."""
    child, end, wanted = kernels.next_state(f.key[i], f.early[i, 0], f.early[i, 1], t, False)
    if wanted:
        f.status[i] = WANTS_RESOLVE
        return False
    f.key[i] = child
    f.early[i, 0] = -1
    f.early[i, 1] = -1
    f.round[i] += 1
    if end >= 0:
        size = t.end_table.shape[1]
        l0 = (end >> 2) // size
        l1 = (end >> 2) % size
        f.lives[i, 0] = l0
        f.lives[i, 1] = l1
        f.returns[i] = t.end_table[l0, l1, (end >> 1) & 1, end & 1]
        f.phase[i] = OVER
        f.legal[i, 0] = 0
        f.legal[i, 1] = 0
        f.status[i] = ENDED
        return True
    f.lives[i, 0], f.lives[i, 1] = kernels.key_lives(child)
    return _enter(f, i, t, filled)


@njit(cache=True, inline="always")
def _apply(f: Fights, c: Consts, i: int, t: Any, filled: Any) -> Any:
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
            h = c.full[p, s] - c.radix[p, s, cover] - c.radix[p, s, shown]
            if s == 0:
                h0 = h
            else:
                h1 = h
        f.chosen[i, 0] = -1
        f.chosen[i, 1] = -1
        f.key[i] = kernels.pack_key(1, h0, h1, c.life, c.life, c.no_carry[p], 0, 0)
        f.lives[i, 0] = c.life
        f.lives[i, 1] = c.life
        f.phase[i] = PLAY
        f.round[i] = 1
        return _enter(f, i, t, filled)
    first = _first(f, i)
    for s in range(2):
        if f.early[i, s] < 0 and (first < 0 or first == s):
            slot = f.chosen[i, s]
            f.hands[i, s, slot] -= 1
            f.played[i, s, f.round[i] - 1] = slot
            f.early[i, s] = slot
            f.chosen[i, s] = -1
    if first >= 0:
        return True
    return _resolve(f, i, t, filled)


@njit(cache=True, inline="always")
def _random_choice(f: Fights, c: Consts, i: int, s: int) -> Any:
    phase = f.phase[i]
    if phase == CHARACTER:
        return _below(f.rng, i, c.characters)
    if phase == SETUP:
        return _below(f.rng, i, c.setups[f.chars[i, s]])
    m = f.legal[i, s]
    return _nth_bit(m, _below(f.rng, i, _bits(m)))


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
    code = kernels.key_pair(f.key[i])
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
def _run(
    f: Fights, c: Consts, i: int, me: int, opponent: int, t: Any, filled: Any, picking: bool
) -> None:
    """Take fight ``i`` as far as it goes without the learner (or a policy opponent); once
    ``picking``, only through the character picks (its pairing's tables not yet known)."""
    status = f.status[i]
    if status == WANTS_RESOLVE:
        f.status[i] = RUNNING
        if not _resolve(f, i, t, filled):
            return
    elif status == WANTS_ENTER:
        f.status[i] = RUNNING
        if not _enter(f, i, t, filled):
            return
    f.status[i] = RUNNING
    o = 1 - me
    while f.phase[i] != OVER:
        if picking and f.phase[i] != CHARACTER:
            return
        mine = _pending(f, i, me)
        if mine and f.chosen[i, me] < 0:
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
        if not _apply(f, c, i, t, filled):
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


@kernels.jit_flat
def _prepare_step(
    f: Fights, c: Consts, actions: Any, acting: Any, me: int, opponent: int, seat: int, t: Any
) -> int:
    """Apply ``actions`` (-1 if one is illegal: nothing applied), run the character picks
    (no table needed), and list the fights to run in order of pairing in ``f.order``;
    returns how many."""
    n = len(actions)
    for i in range(n):
        if acting[i] and _choice(f, c, i, seat, actions[i]) < 0:
            return -1
    for i in range(n):
        if acting[i]:
            f.chosen[i, seat] = _choice(f, c, i, seat, actions[i])
            f.status[i] = RUNNING
    for i in range(n):
        if f.status[i] == RUNNING and f.phase[i] == CHARACTER:
            _run(f, c, i, me, opponent, t, t.legal0[0, 0, 0], True)
    pairings = c.characters * c.characters
    start = f.start
    start[:] = 0
    runnable = 0
    for i in range(n):
        st = f.status[i]
        if st == RUNNING or st >= WANTS_ENTER:
            start[_pairing(f, c, i) + 1] += 1
            runnable += 1
    for p in range(pairings):
        start[p + 1] += start[p]
    for i in range(n):
        st = f.status[i]
        if st == RUNNING or st >= WANTS_ENTER:
            p = _pairing(f, c, i)
            f.order[start[p]] = i
            start[p] += 1
    return runnable


@kernels.jit_flat
def _run_block(
    f: Fights, c: Consts, lo: int, hi: int, me: int, opponent: int, t: Any, filled: Any
) -> int:
    """Run fights ``f.order[lo:hi]``, all of one pairing (its tables ``t``, ``filled``);
    returns how many want a table entry."""
    wanting = 0
    for j in range(lo, hi):
        i = f.order[j]
        _run(f, c, i, me, opponent, t, filled, False)
        if f.status[i] >= WANTS_ENTER:
            wanting += 1
    return wanting


@njit(cache=True)
def step_all(
    f: Fights,
    c: Consts,
    tables: Any,
    filled: Any,
    actions: Any,
    acting: Any,
    me: int,
    opponent: int,
    seat: int,
) -> int:
    """The learner's ``actions`` (where ``acting``) as ``seat``'s choices (the learner's or,
    for a policy opponent, the opponent's), then every running fight taken as far as it goes;
    returns how many now want a table entry, or -1 for an illegal action (nothing applied).

    The fights run in order of pairing, each pairing's tables fetched from the typed list
    once (a fetch costs ~0.5 us: more than a round), by kernels compiled without reference
    counting (which would cost an atomic operation per array per inlined call)."""
    runnable = _prepare_step(f, c, actions, acting, me, opponent, seat, tables[0])
    if runnable < 0:
        return -1
    wanting = 0
    j = 0
    while j < runnable:
        p = _pairing(f, c, f.order[j])
        hi = j
        while hi < runnable and _pairing(f, c, f.order[hi]) == p:
            hi += 1
        wanting += _run_block(f, c, j, hi, me, opponent, tables[p], filled[p])
        j = hi
    return wanting


@kernels.jit_flat
def _seed_streams(streams: Any, seeds: Any) -> None:
    for i in range(len(seeds)):
        streams[i] = _hash_seed(seeds[i], 2)


@kernels.jit_flat
def reset_all(f: Fights, c: Consts, which: Any, seeds: Any, use_seeds: bool) -> None:
    """New fights where ``which``: game seed ``seeds[i]`` (``use_seeds``) or the next of the
    environment's stream; the opponent's stream is derived from the game seed."""
    for i in range(len(which)):
        if not which[i]:
            continue
        if use_seeds:
            game_seed = seeds[i]
        else:
            game_seed = np.int64(np.uint64(_next(f.env_rng, i)) >> np.uint64(2))
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
            f.legal[i, s] = 0
            for b in range(_S):
                f.hands[i, s, b] = 0
            for r in range(HAND):
                f.played[i, s, r] = -1
        f.round[i] = 0
        f.key[i] = 0
        f.returns[i] = 0.0
        f.status[i] = RUNNING


@kernels.jit_flat
def masks_all(f: Fights, c: Consts, seat: int, which: Any, out: Any) -> None:
    """``out[j]``: seat ``seat``'s legal actions in fight ``which[j]``."""
    for j in range(len(which)):
        i = which[j]
        row = out[j]
        row[:] = False
        if not _pending(f, i, seat) or f.chosen[i, seat] >= 0:
            continue
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


@kernels.jit_flat
def observe_all(f: Fights, c: Consts, seat: int, which: Any, out: Any, normalize: bool) -> None:
    """``out[j]``: seat ``seat``'s observation of fight ``which[j]``, as
    :class:`~.observation.SFRivalsEncoding` writes it from the seat's view."""
    at = c.offsets
    (
        o_seat, o_phase, o_round, o_rounds, o_char, o_life, o_hsize, o_shown,
        o_played, o_revealed, o_carry, o_must, o_hand, o_cover, o_todo, o_kind,
    ) = (at[0], at[1], at[2], at[3], at[4], at[5], at[6], at[7],
         at[8], at[9], at[10], at[11], at[12], at[13], at[14], at[15])  # fmt: skip
    for j in range(len(which)):
        i = which[j]
        row = out[j]
        row[:] = 0.0
        row[o_seat + seat] = 1.0
        phase = f.phase[i]
        row[o_phase + phase] = 1.0
        row[o_round] = f.round[i]
        row[o_rounds] = c.rounds
        started = phase >= PLAY
        flags = kernels.key_reveal(f.key[i]) if started else 0
        code = kernels.key_pair(f.key[i]) if started else 0
        p = _pairing(f, c, i) if f.chars[i, 0] >= 0 and f.chars[i, 1] >= 0 else -1
        for k in range(2):
            s = seat if k == 0 else 1 - seat
            if f.chars[i, s] >= 0:
                row[o_char + k * MAX_CHARACTERS + f.chars[i, s]] = 1.0
            row[o_life + k] = f.lives[i, s]
            size = 0
            for b in range(_S):
                size += f.hands[i, s, b]
            row[o_hsize + k] = size
            if started:
                row[o_shown + k * _S + f.shown[i, s]] = 1.0
                early = f.early[i, s]
                for r in range(HAND):
                    slot = f.played[i, s, r]
                    # a card revealed first is shown as revealed, not yet as played
                    if slot >= 0 and not (early >= 0 and f.round[i] == r + 1):
                        row[o_played + (k * HAND + r) * _S + slot] = 1.0
                if early >= 0:
                    row[o_revealed + k * _S + early] = 1.0
                for q in range(3):
                    row[o_carry + k * 3 + q] = c.carry[p, code, s, q]
                row[o_must + k] = 1.0 if flags >> s & 1 else 0.0
        if started:
            for b in range(_S):
                row[o_hand + b] = f.hands[i, seat, b]
            row[o_cover + f.cover[i, seat]] = 1.0
        first = _first(f, i) if phase == PLAY else -1
        for k in range(2):
            s = seat if k == 0 else 1 - seat
            if _pending(f, i, s):
                row[o_todo + k] = 1.0
        if _pending(f, i, seat):
            if phase == CHARACTER:
                row[o_kind + K_CHARACTER] = 1.0
            elif phase == SETUP:
                row[o_kind + K_SETUP] = 1.0
            else:
                row[o_kind + (K_FIRST if first == seat else K_PLAY)] = 1.0
        if normalize:
            for q in range(c.size):
                row[q] *= c.scale[q]


# -- the tables, from the engine -----------------------------------------------------------


def _greedy_tables(engine: BatchEngine, pairings: list[int], pairs: int) -> tuple[Any, Any]:
    """Greedy's round model per pairing, seat and carried-bonus pair: for its card ``a`` and
    the opponent's ``b``, what its score of the round reads (bots/greedy.py ``_score``):
    damage taken, damage dealt, initiative bonuses carried and reveal-first flags of both,
    from the very call the bot makes (``resolve_round((mine, theirs), carry, lives)``, its own
    card first)."""
    count = len(engine.characters)
    table = np.zeros((count * count, 2, pairs, _S, _S, 6), dtype=np.int8)
    done = np.zeros((count * count, 2, pairs), dtype=bool)
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
                done[p, s, code] = True
    return table, done


_WIDTHS = {
    "phase": (), "chars": (2,), "setup": (2,), "cover": (2,), "shown": (2,),
    "hands": (2, _S), "played": (2, HAND), "early": (2,), "chosen": (2,), "round": (),
    "key": (), "lives": (2,), "legal": (2,), "status": (), "returns": (), "rng": (),
    "env_rng": (),
}  # fmt: skip
WIDTH = sum(int(np.prod(w)) for w in _WIDTHS.values()) + 7 & ~7  # rows of whole cache lines


def _fights(n: int, count: int) -> Fights:
    """Fresh fight arrays, every fight's fields side by side in one row of one buffer (each
    field a view of its columns): a step touches a fight's few cache lines, not one line in
    each of 17 arrays (the fights run in order of pairing, not of index)."""
    return fights_of(new_rows(n), count)


def new_rows(n: int) -> NDArray[np.int64]:
    """``n`` fights' rows, every field at its start value (see :func:`fights_of`)."""
    buf = np.zeros((n, WIDTH), dtype=np.int64)
    f = fights_of(buf, 1)
    for name in ("phase", "chars", "setup", "cover", "shown", "played", "early", "chosen"):
        getattr(f, name)[...] = -1
    f.phase[:] = OVER
    f.status[:] = ENDED
    return buf


def fights_of(buf: NDArray[np.int64], count: int) -> Fights:
    """The fights whose rows are ``buf``'s (views; copying rows copies fights)."""
    n = len(buf)
    views: dict[str, Any] = {}
    at = 0
    for name, shape in _WIDTHS.items():
        size = int(np.prod(shape))
        view = buf[:, at : at + size]
        views[name] = view.reshape((n, *shape)) if shape else view[:, 0]
        at += size
    views["returns"] = views["returns"].view(np.float64)
    views["rng"] = views["rng"].view(np.uint64)
    views["env_rng"] = views["env_rng"].view(np.uint64)
    return Fights(
        **views,
        order=np.zeros(n, dtype=np.int64),
        start=np.zeros(count * count + 1, dtype=np.int64),
        work=np.zeros(2 * _S, dtype=np.int64),
    )


def _pair_count(solver: Any) -> int:
    """The carried-bonus pair codes ``solver`` has made (``carry_pair`` answers them)."""
    n = int(np.flatnonzero(solver.pairs_filled).max()) + 1
    while True:
        try:
            solver.carry_pair(n)
        except IndexError:
            return n
        n += 1


class SFRivalsVector:
    """``num_envs`` SF Rivals fights seen from ``seat`` (see the module docstring)."""

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
        self.n, self.seat, self.opp = num_envs, seat, 1 - seat
        self.normalize = normalize
        self.num_actions = NUM_ACTIONS
        self.size = self.encoding.size
        count = len(engine.characters)
        fixed = engine._fixed(opts.characters or (None, None))
        firsts = [int(fixed[0])] if fixed[0] >= 0 else list(range(count))
        seconds = [int(fixed[1])] if fixed[1] >= 0 else list(range(count))
        self.pairings = sorted(a * count + b for a in firsts for b in seconds)
        # typed lists go to compiled code as arguments of their own (inside a tuple they
        # cost Numba's dispatcher ~0.1 ms a call to type)
        self.tables, self.filled = engine.rule_tables(np.asarray(self.pairings, dtype=np.int64))
        radix, full, no_carry = engine._start_consts(np.asarray(self.pairings, dtype=np.int64))
        most = max(len(c.setup_choices) for c in engine.characters)
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
        pairs = self._pairs()
        if self.opponent == GREEDY:
            g_score, g_done = _greedy_tables(engine, self.pairings, pairs)
        else:
            g_score = np.zeros((1, 2, 1, _S, _S, 6), dtype=np.int8)
            g_done = np.zeros((1, 2, 1), dtype=bool)
        scale = (1.0 / np.maximum(self.encoding.high, 1e-12)).astype(np.float32)
        fields = [f.name for f in self.encoding.fields]
        self.consts = Consts(
            characters=count,
            fixed=fixed,
            copies=copies,
            setups=engine.setups.copy(),
            setup_cards=engine._setup_table,
            setup_index=setup_index,
            life=engine.life,
            rounds=engine.catalog.rules.hand,
            radix=radix,
            full=full,
            no_carry=no_carry,
            carry=self._carry_table(pairs),
            g_score=g_score,
            g_done=g_done,
            g_value=values,
            g_setup=g_setup,
            is_ultra=ultra,
            is_super=super_,
            super_round=engine.catalog.rules.super_round_at_least,
            ultra_life=engine.catalog.rules.ultra_life_at_most,
            offsets=np.asarray([self.encoding.offsets[name] for name in fields], dtype=np.int64),
            scale=scale,
            size=self.size,
        )
        n = num_envs
        self.fights = _fights(n, count)
        self._all = np.arange(n, dtype=np.int64)
        self._no_actions = np.zeros(n, dtype=np.int64)
        self._nobody = np.zeros(n, dtype=bool)

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
        """After a table was filled: new carried-bonus pairs may have appeared."""
        pairs = self._pairs()
        self.consts = self.consts._replace(carry=self._carry_table(pairs))
        if self.opponent == GREEDY:
            score, done = _greedy_tables(self.engine, self.pairings, pairs)
            self.consts = self.consts._replace(g_score=score, g_done=done)

    def _fill(self) -> None:
        """Fill the table entries the stopped fights want (rare: filled up front)."""
        f = self.fights
        count = len(self.engine.characters)
        wanting = np.flatnonzero(f.status >= WANTS_ENTER)
        keys = f.key[wanting]
        rounds = keys >> 48 & 15
        pairing = f.chars[wanting, 0] * count + f.chars[wanting, 1]
        for p in np.unique(pairing).tolist():
            solver = self.engine.solver(*divmod(p, count))
            for r in np.unique(rounds[pairing == p]).tolist():
                solver.prepare(r, keys[(pairing == p) & (rounds == r)])
        self._refresh()

    # -- the core's interface (kumite.envs.vector) ------------------------------------------

    def seed(self, seeds: NDArray[np.int64]) -> None:
        """Each environment's stream of game seeds (after its first game, ``seeds[i]``)."""
        _seed_streams(self.fights.env_rng, seeds.astype(np.int64))

    def reset(self, which: NDArray[np.bool_], seeds: NDArray[np.int64] | None = None) -> None:
        """New games where ``which``: game seed ``seeds[i]``, or the environment's next."""
        use = seeds is not None
        reset_all(
            self.fights, self.consts, which, self._no_actions if seeds is None else seeds, use
        )
        self._go(self._no_actions, self._nobody)

    def step(self, actions: NDArray[np.int64], acting: NDArray[np.bool_]) -> None:
        """The learner's legal ``actions`` where ``acting``, then the opponent's choices,
        until the learner must decide again or the fight ends. An illegal action raises
        :class:`~kumite.core.errors.IllegalChoiceError` and changes nothing."""
        try:
            self._go(actions, acting)
        except ValueError as exc:
            bad = self._illegal(actions, acting)
            raise IllegalChoiceError(self.seat, bad, "not a legal action id now") from exc

    def _illegal(self, actions: NDArray[np.int64], acting: NDArray[np.bool_]) -> int:
        masks = self.masks()
        rows = np.flatnonzero(acting)
        ok = masks[rows, np.clip(actions[rows], 0, NUM_ACTIONS - 1)] & (actions[rows] >= 0)
        ok &= actions[rows] < NUM_ACTIONS
        return int(actions[rows[~ok][0]]) if (~ok).any() else -1

    def _go(self, actions: NDArray[np.int64], acting: NDArray[np.bool_]) -> None:
        f, me = self.fights, self.seat
        seat, kind = me, self.opponent
        while True:
            while True:
                wanting = step_all(
                    f, self.consts, self.tables, self.filled, actions, acting, me, kind, seat
                )
                if wanting < 0:
                    raise ValueError("not a legal action id now")
                if not wanting:
                    break
                self._fill()
                actions, acting = self._no_actions, self._nobody
            if self.policy is None:
                return
            waiting = np.flatnonzero(f.status == WAITING)
            if not len(waiting):
                return
            obs = np.empty((len(waiting), self.size), dtype=np.float32)
            observe_all(f, self.consts, self.opp, waiting, obs, self.normalize)
            masks = np.empty((len(waiting), NUM_ACTIONS), dtype=bool)
            masks_all(f, self.consts, self.opp, waiting, masks)
            chosen = np.asarray(self.policy(obs, masks), dtype=np.int64).reshape(len(waiting))
            if not masks[np.arange(len(waiting)), np.clip(chosen, 0, NUM_ACTIONS - 1)].all():
                raise OptionsError("the opponent policy chose an illegal action id")
            actions = np.zeros(self.n, dtype=np.int64)
            actions[waiting] = chosen
            acting = np.zeros(self.n, dtype=bool)
            acting[waiting] = True
            seat = self.opp

    def observations(self, out: NDArray[np.float32] | None = None) -> NDArray[np.float32]:
        """Every fight's observation tensor (the learner's)."""
        if out is None:
            out = np.empty((self.n, self.size), dtype=np.float32)
        observe_all(self.fights, self.consts, self.seat, self._all, out, self.normalize)
        return out

    def masks(self, out: NDArray[np.bool_] | None = None) -> NDArray[np.bool_]:
        """The learner's legal actions in every fight (none once it is over)."""
        if out is None:
            out = np.empty((self.n, NUM_ACTIONS), dtype=bool)
        masks_all(self.fights, self.consts, self.seat, self._all, out)
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
_ = List  # the rule tables travel as Numba typed lists (BatchEngine.rule_tables)
