"""The damage model behind every ``estimate`` damage value of the base pack.

The rulebook prints no damage values; one public source gives one (Ryu's Shoryuken, 3).
So that estimates are consistent rather than arbitrary, all of them come from this one
model, documented in the pack header and checked against the pack by a test.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

#: Value of each power primitive, in damage points given up for it.
POWER_VALUE: Mapping[str, Fraction] = {
    "next_round_initiative": Fraction(1, 2),  # per point
    "reduce_damage": Fraction(1, 2),  # per point
    "no_damage": Fraction(2),
    "opponent_reveals_first": Fraction(1),
    "swap_initiative": Fraction(3, 2),
    "force_initiative_draw": Fraction(3, 2),
    "cancel_opponent_power": Fraction(1, 2),
    "cancel_opponent_technique": Fraction(1),
    "deal_damage": Fraction(0),
    "lasting_initiative": Fraction(1),  # per point
    "lasting_damage": Fraction(1),  # per point
}
PER_POINT = {"next_round_initiative", "reduce_damage", "lasting_initiative", "lasting_damage"}
CONDITIONAL_CANCEL = Fraction(1, 4)
SUPER_BONUS = 2
MIN_DAMAGE, MAX_DAMAGE = 1, 5


def power_value(effects: Iterable[Mapping[str, Any]]) -> Fraction:
    """Total value P of a card's power."""
    total = Fraction(0)
    for effect in effects:
        op = str(effect["op"])
        if op == "cancel_opponent_power" and effect.get("if_opponent_printed") is not None:
            total += CONDITIONAL_CANCEL
        elif op in PER_POINT:
            total += POWER_VALUE[op] * int(effect.get("amount", 0))
        else:
            total += POWER_VALUE[op]
    return total


def estimated_damage(initiative: int, effects: Iterable[Mapping[str, Any]], kind: str) -> int:
    """``clamp(round_half_up(5 - initiative/2 - P + S), 1, 5)``."""
    raw = Fraction(5) - Fraction(initiative, 2) - power_value(effects)
    if kind == "super":
        raw += SUPER_BONUS
    rounded = math.floor(raw + Fraction(1, 2))
    return max(MIN_DAMAGE, min(MAX_DAMAGE, rounded))
