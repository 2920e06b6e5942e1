"""A fast random rollout: a whole fight between two uniformly random players.

Mass simulation spends nearly all its time in random play, so this drives the engine's own
pure functions (:mod:`.legal` for the cards a player may play, :mod:`.resolve` for each
round) without building :class:`~kumite.core.game.Decision` objects, validating choice strings
or keeping a history. It follows :class:`~.state.SFRState` step for step and draws from each
seat's random stream exactly as :class:`~kumite.agents.uniform.RandomAgent` does (one
``rng.choice`` over a list of the same length and order as the decision's legal choices), so
for the same seeds it plays *the same fight* as the engine with two random agents — a test
checks this for every rule option.

Hands are coded as ints and what :mod:`.legal` says of each hand is cached per character
and options, so a round costs a few integer operations, two dict look-ups and the engine's
(memoised) round resolution.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from kumite.core.memo import Memo
from kumite.core.rng import below
from kumite.games.sfrivals.cards import Card, Catalog, Character, RuleValues
from kumite.games.sfrivals.legal import fight_end, is_stuck, playable_cards, powerless_reason
from kumite.games.sfrivals.options import Options
from kumite.games.sfrivals.resolve import NO_CARRY, resolve_round

_SETUPS: dict[Character, tuple[tuple[Card, Card], ...]] = {}
BASE = 11
"""A hand is coded as an int, one base-11 digit per card type (a character has 10 cards)."""


class _Hands:
    """One character's hands under one set of options, coded as ints, with what
    :mod:`.legal` says of each: the playable cards and whether the player is stuck.
    Filled lazily from the engine's own functions; the flags are the only way life and
    round matter (an Ultra Combo at life <= 5, a Super Combo from round 5)."""

    def __init__(self, char: Character, options: Options) -> None:
        self.char = char
        self.options = options
        self.weights = tuple(BASE**c.index for c in char.cards)
        self.full = sum(c.copies * w for c, w in zip(char.cards, self.weights, strict=True))
        self.entries: dict[int, tuple[tuple[Card, ...], bool]] = {}

    def entry(
        self, code: int, life: int, rnd: int, rules: RuleValues
    ) -> tuple[tuple[Card, ...], bool]:
        ultra_ok = self.options.ultra_rule == "power" or life <= rules.ultra_life_at_most
        key = code * 4 + 2 * ultra_ok + (rnd >= rules.super_round_at_least)
        found = self.entries.get(key)
        if found is None:
            hand = tuple((code // w) % BASE for w in self.weights)
            found = self.entries[key] = (
                playable_cards(self.char, hand, life, rnd, rules, self.options),
                is_stuck(self.char, hand, life, rnd, rules, self.options),
            )
        return found


_HANDS: Memo[tuple[Character, Options], _Hands] = Memo(256)
NO_POWERLESS: tuple[None, None] = (None, None)


def _yes() -> bool:
    return True


def _no() -> bool:
    return False


def _hands(char: Character, options: Options) -> _Hands:
    found = _HANDS.get((char, options))
    if found is None:
        found = _HANDS.put((char, options), _Hands(char, options))
    return found


class Rollout(NamedTuple):
    """What a random fight came to."""

    characters: tuple[str, str]
    winner: int | None
    """Winning seat, or None for a draw."""
    reason: str
    rule: str
    lives: tuple[int, int]
    rounds: int
    """Rounds played."""
    played: tuple[tuple[str, ...], tuple[str, ...]]
    """Card ids each seat played, in round order (round ``i + 1`` at index ``i``)."""


def _setups(char: Character) -> tuple[tuple[Card, Card], ...]:
    """``(cover, shown)`` per set-up choice, in the order of ``char.setup_choices``."""
    found = _SETUPS.get(char)
    if found is None:
        found = _SETUPS[char] = tuple(char.setups.values())
    return found


def random_rollout(
    catalog: Catalog, options: Options, rngs: tuple[random.Random, random.Random]
) -> Rollout:
    """Play one fight with both seats choosing uniformly at random from ``rngs[seat]``."""
    rules = catalog.rules
    ids = list(catalog.characters)
    fixed = options.characters or (None, None)
    chars: list[Character] = []
    for seat in (0, 1):
        char_id = fixed[seat]
        if char_id is None:
            char_id = rngs[seat].choice(ids)
        chars.append(catalog.characters[char_id])
    tables = (_hands(chars[0], options), _hands(chars[1], options))
    codes = [0, 0]
    for seat in (0, 1):
        cover, shown = rngs[seat].choice(_setups(chars[seat]))
        t = tables[seat]
        codes[seat] = t.full - t.weights[cover.index] - t.weights[shown.index]
    life = rules.life
    lives = (life, life)
    carry = (NO_CARRY, NO_CARRY)
    swap_printed = options.swap == "printed"
    end_fight = options.no_legal_card == "end-fight"
    ultra_always = options.ultra_rule == "power"
    ultra_life, super_round, last_round = (
        rules.ultra_life_at_most,
        rules.super_round_at_least,
        rules.hand,
    )
    played: tuple[list[str], list[str]] = ([], [])
    t0, t1 = tables
    e0, e1 = t0.entries, t1.entries
    w0, w1 = t0.weights, t1.weights
    c0, c1 = codes
    r0, r1 = rngs  # below(r, len(seq)) draws as r.choice(seq), one frame fewer
    rnd = 1
    super_ok = rnd >= super_round
    l0, l1 = lives
    k0 = c0 * 4 + 2 * (ultra_always or l0 <= ultra_life) + super_ok
    k1 = c1 * 4 + 2 * (ultra_always or l1 <= ultra_life) + super_ok
    cards0, stuck0 = e0.get(k0) or t0.entry(c0, l0, rnd, rules)
    cards1, stuck1 = e1.get(k1) or t1.entry(c1, l1, rnd, rules)
    while True:
        a = cards0[below(r0, len(cards0))]
        b = cards1[below(r1, len(cards1))]
        c0 -= w0[a.index]
        c1 -= w1[b.index]
        played[0].append(a.id)
        played[1].append(b.id)
        if a.is_ultra or b.is_ultra:
            powerless = (
                powerless_reason(a, l0, rules, options) if a.is_ultra else None,
                powerless_reason(b, l1, rules, options) if b.is_ultra else None,
            )
        else:
            powerless = NO_POWERLESS
        result = resolve_round((a, b), carry, lives, powerless=powerless, swap_printed=swap_printed)
        lives, carry = result.lives, result.carry
        rnd += 1
        l0, l1 = lives
        super_ok = rnd >= super_round
        k0 = c0 * 4 + 2 * (ultra_always or l0 <= ultra_life) + super_ok
        k1 = c1 * 4 + 2 * (ultra_always or l1 <= ultra_life) + super_ok
        # This round's look-ups answer both "stuck?" now and "which cards?" next round.
        cards0, stuck0 = e0.get(k0) or t0.entry(c0, l0, rnd, rules)
        cards1, stuck1 = e1.get(k1) or t1.entry(c1, l1, rnd, rules)
        stuck = end_fight and (stuck0 or stuck1)
        end = fight_end(lives, rnd, last_round, _yes if stuck else _no)
        if end is None:
            continue
        return Rollout(
            characters=(chars[0].id, chars[1].id),
            winner=end.winner,
            reason=end.reason,
            rule=end.rule,
            lives=lives,
            rounds=rnd - 1,
            played=(tuple(played[0]), tuple(played[1])),
        )
