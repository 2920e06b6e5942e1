"""Which cards a player may play — pure functions shared by the state, the solver and bots.

* An Ultra Combo may only be played at life ``ultra_life_at_most`` (5) or under
  (``sfr.layout.ultra-combo``; with ``ultra_rule=power`` it may always be played, and works
  only at 5 or under).
* A Super Combo may only be played from round ``super_round_at_least`` (5)
  (``sfr.layout.super-combo``).
* A player who may play none of their cards (``sfr.ruling.no-legal-card``): the fight ends
  (``no_legal_card=end-fight``), or they must play one without its power
  (``play-powerless``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from kumite.games.sfrivals.cards import Card, Character, RuleValues
from kumite.games.sfrivals.options import Options

Hand = tuple[int, ...]
"""Copies held per card type, indexed like ``Character.cards``."""

_CACHE: dict[
    tuple[Character, Hand, bool, bool, bool], tuple[tuple[Card, ...], tuple[str, ...]]
] = {}


def held(char: Character, hand: Hand) -> list[Card]:
    """The card types of which at least one copy is in ``hand``."""
    if not hand:  # before set-up
        return []
    return [c for c in char.cards if hand[c.index]]


def playable_cards(
    char: Character, hand: Hand, life: int, round: int, rules: RuleValues, options: Options
) -> tuple[Card, ...]:
    """The cards the player may play this round (see the module docstring)."""
    return _playable(char, hand, life, round, rules, options)[0]


def playable_choices(
    char: Character, hand: Hand, life: int, round: int, rules: RuleValues, options: Options
) -> tuple[str, ...]:
    """:func:`playable_cards` as ``play:<card>`` choice strings."""
    return _playable(char, hand, life, round, rules, options)[1]


def _playable(
    char: Character, hand: Hand, life: int, round: int, rules: RuleValues, options: Options
) -> tuple[tuple[Card, ...], tuple[str, ...]]:
    ultra_ok = options.ultra_rule == "power" or life <= rules.ultra_life_at_most
    super_ok = round >= rules.super_round_at_least
    fallback = options.no_legal_card == "play-powerless"
    key = (char, hand, ultra_ok, super_ok, fallback)
    found = _CACHE.get(key)
    if found is None:
        cards = held(char, hand)
        allowed = [
            c for c in cards if (ultra_ok or not c.is_ultra) and (super_ok or not c.is_super)
        ]
        if not allowed and fallback:
            allowed = cards
        found = _CACHE[key] = (tuple(allowed), tuple(c.choice for c in allowed))
    return found


def is_stuck(
    char: Character, hand: Hand, life: int, round: int, rules: RuleValues, options: Options
) -> bool:
    """The player holds cards but may play none of them (only under ``end-fight``, since
    ``play-powerless`` always offers the held cards)."""
    if sum(hand) > char.restricted_copies:  # fast path: an unrestricted card is held
        return False
    return (
        bool(hand) and sum(hand) > 0 and not playable_cards(char, hand, life, round, rules, options)
    )


def powerless_reason(
    card: Card, life: int, rules: RuleValues, options: Options
) -> tuple[str, str] | None:
    """``(rule, reason)`` if ``card`` is played without its power, else None."""
    if card.is_ultra and card.has_power and life > rules.ultra_life_at_most:
        if options.ultra_rule == "power":
            return (
                "sfr.layout.ultra-combo",
                f"its power only works at life {rules.ultra_life_at_most} or under",
            )
        return ("sfr.ruling.no-legal-card", "it was the only card left to play")
    return None


class FightEnd(NamedTuple):
    winner: int | None
    """The winning seat, or None for a draw."""
    reason: str
    rule: str


def fight_end(
    lives: tuple[int, int] | list[int], round: int, rounds: int, stuck: Callable[[], bool]
) -> FightEnd | None:
    """How the fight ends after a round, or None if it goes on. ``round`` is the number of
    the next round; ``stuck()`` says whether a seat may play none of its cards (called only
    when needed, and only relevant under ``no_legal_card=end-fight``)."""
    a, b = lives
    if a == 0 or b == 0:
        if a == b:
            return FightEnd(None, "double KO", "sfr.end.double-ko")
        return FightEnd(0 if b == 0 else 1, "KO", "sfr.end.ko")
    if round > rounds:
        return _by_life(a, b, "out of cards", "sfr.end.out-of-cards")
    if stuck():
        return _by_life(a, b, "no playable card left", "sfr.ruling.no-legal-card")
    return None


def _by_life(a: int, b: int, reason: str, rule: str) -> FightEnd:
    return FightEnd(None if a == b else (0 if a > b else 1), reason, rule)
