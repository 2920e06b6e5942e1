"""A fast random rollout: a whole fight between two uniformly random players.

Mass simulation spends nearly all its time in random play, so this drives the engine's own
pure functions (:mod:`.legal` for the cards a player may play, :mod:`.resolve` for each
round) without building :class:`~kumite.core.game.Decision` objects, validating choice strings
or keeping a history. It follows :class:`~.state.SFRState` step for step and draws from each
seat's random stream exactly as :class:`~kumite.agents.base.RandomAgent` does (one
``rng.choice`` over a list of the same length and order as the decision's legal choices), so
for the same seeds it plays *the same fight* as the engine with two random agents — a test
checks this for every rule option.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from kumite.games.sfrivals.cards import Card, Catalog, Character
from kumite.games.sfrivals.legal import is_stuck, playable_cards, powerless_reason
from kumite.games.sfrivals.options import Options
from kumite.games.sfrivals.resolve import NO_CARRY, resolve_round

_SETUPS: dict[Character, tuple[tuple[Card, Card], ...]] = {}


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
        pairs = []
        for choice in char.setup_choices:
            _, cover, shown = choice.split(":")
            pairs.append((char.by_id[cover], char.by_id[shown]))
        found = _SETUPS[char] = tuple(pairs)
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
    hands: list[tuple[int, ...]] = []
    for seat in (0, 1):
        cover, shown = rngs[seat].choice(_setups(chars[seat]))
        hand = [c.copies for c in chars[seat].cards]
        hand[cover.index] -= 1
        hand[shown.index] -= 1
        hands.append(tuple(hand))
    life = rules.life
    lives = (life, life)
    carry = (NO_CARRY, NO_CARRY)
    swap_printed = options.swap == "printed"
    played: tuple[list[str], list[str]] = ([], [])
    rnd = 1
    while True:
        picked: list[Card] = []
        for seat in (0, 1):
            card = rngs[seat].choice(
                playable_cards(chars[seat], hands[seat], lives[seat], rnd, rules, options)
            )
            hand = list(hands[seat])
            hand[card.index] -= 1
            hands[seat] = tuple(hand)
            played[seat].append(card.id)
            picked.append(card)
        a, b = picked
        result = resolve_round(
            (a, b),
            carry,
            lives,
            powerless=(
                powerless_reason(a, lives[0], rules, options) if a.is_ultra else None,
                powerless_reason(b, lives[1], rules, options) if b.is_ultra else None,
            ),
            swap_printed=swap_printed,
        )
        lives, carry = result.lives, result.carry
        rnd += 1
        l0, l1 = lives
        winner: int | None
        if l0 == 0 or l1 == 0:
            if l0 == l1:
                winner, reason, rule = None, "double KO", "sfr.end.double-ko"
            else:
                winner, reason, rule = (0 if l1 == 0 else 1), "KO", "sfr.end.ko"
        elif rnd > rules.hand:
            winner, reason, rule = _by_life(lives), "out of cards", "sfr.end.out-of-cards"
        elif options.no_legal_card == "end-fight" and (
            is_stuck(chars[0], hands[0], l0, rnd, rules, options)
            or is_stuck(chars[1], hands[1], l1, rnd, rules, options)
        ):
            winner, reason, rule = (
                _by_life(lives),
                "no playable card left",
                "sfr.ruling.no-legal-card",
            )
        else:
            continue
        return Rollout(
            characters=(chars[0].id, chars[1].id),
            winner=winner,
            reason=reason,
            rule=rule,
            lives=lives,
            rounds=rnd - 1,
            played=(tuple(played[0]), tuple(played[1])),
        )


def _by_life(lives: tuple[int, int]) -> int | None:
    a, b = lives
    return None if a == b else (0 if a > b else 1)
