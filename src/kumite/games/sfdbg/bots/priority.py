"""Priority-list SF DBG bots, in the spirit of Dominion simulators' buy rules.

A strategy is data (TOML), so a new strategy needs no code::

    name = "big-power"
    play_order = ["weakness", "draw", "location", "power", "attack", "defense", "other"]
    hold_defense = true      # keep a Defense while attacking a foe who may Counter-Attack
    challenge = true         # challenge the Stage Boss whenever the Power allows

    [[buy]]                  # rules in priority order; the first that matches a card you can
    card = "ultra"           # buy now is bought (the most expensive match), again and again
    [[buy]]                  # while Power lasts
    type = "Super Power"
    min_cost = 6
    [[buy]]
    card = "kick"
    max_owned = 6

Rule fields: ``card`` (a card id, ``kick``, ``ultra`` for your own Ultra, or ``any``),
``type``, ``min_cost``/``max_cost``, ``attack``/``defense`` (the card has one), ``max_owned``
(copies the bot has bought so far), ``min_late``/``max_late`` (how far the game has gone,
0 to 1: the larger of Stages defeated and main deck used). Forced decisions are answered by
:class:`~kumite.games.sfdbg.bots.policy.Policy`. Load your own with :func:`load_strategy`.
"""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from collections.abc import Mapping
from typing import Any

import msgspec

from kumite.core.errors import KumiteError
from kumite.core.game import Decision, Game
from kumite.games.sfdbg.bots.policy import (
    GROUPS,
    CardValues,
    Policy,
    card_of,
    kind_of,
    lateness,
    next_play,
)
from kumite.games.sfdbg.choice import BUY_ULTRA, CHALLENGE, END, Buy, Take
from kumite.games.sfdbg.game import GAME


class BuyRule(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    card: str = "any"
    type: str | None = None
    min_cost: int | None = None
    max_cost: int | None = None
    attack: bool | None = None
    defense: bool | None = None
    max_owned: int | None = None
    min_late: float = 0.0
    max_late: float = 1.0


class Strategy(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    name: str
    description: str = ""
    play_order: tuple[str, ...] = GROUPS
    hold_defense: bool = True
    challenge: bool = True
    buy: tuple[BuyRule, ...] = ()


class StrategyError(KumiteError, ValueError):
    """A strategy file is malformed."""


STRATEGIES: dict[str, str] = {
    "balanced": """
name = "balanced"
description = "Stages first, then its Ultra, strong cards, draws and Kicks early, VP late."
[[buy]]
card = "ultra"
[[buy]]
min_cost = 6
[[buy]]
min_cost = 4
max_late = 0.8
[[buy]]
card = "kick"
max_owned = 5
max_late = 0.6
[[buy]]
min_cost = 2
max_cost = 3
max_late = 0.3
[[buy]]
min_cost = 4
""",
    "power": """
name = "power"
description = "Big Money: the most Power it can buy (Super Powers and Kicks), then Stages."
[[buy]]
card = "psycho-crusher"
[[buy]]
card = "tiger-shot"
[[buy]]
type = "Super Power"
min_cost = 6
[[buy]]
card = "ultra"
[[buy]]
card = "kick"
max_owned = 10
[[buy]]
min_cost = 5
""",
    "attack": """
name = "attack"
description = "Buys every Attack it can, to bury its foes in Weaknesses."
play_order = ["weakness", "draw", "location", "attack", "power", "defense", "other"]
[[buy]]
card = "ultra"
[[buy]]
attack = true
[[buy]]
min_cost = 5
[[buy]]
card = "kick"
max_owned = 4
""",
}


def load_strategy(text: str, name: str = "strategy") -> Strategy:
    """Parse a strategy written in TOML; errors name the file and the field."""
    try:
        return msgspec.convert(tomllib.loads(text), Strategy)
    except (tomllib.TOMLDecodeError, msgspec.ValidationError) as exc:
        raise StrategyError(f"{name}: {exc}") from None


class PriorityBot:
    """Plays its cards in the strategy's order and buys by its rules."""

    def __init__(self, values: CardValues, strategy: Strategy, seed: int) -> None:
        self.values = values
        self.strategy = strategy
        self.policy = Policy(values)
        self.rng = random.Random(seed)
        self.bought: Counter[str] = Counter()
        self.name = f"priority-{strategy.name}"

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        if decision.kind != "turn":
            return self.policy.answer(view, decision.kind, decision.legal)
        legal = decision.legal
        takes = [c for c in legal if kind_of(c) is Take]
        if takes:
            return takes[0]
        if self.strategy.challenge and CHALLENGE in legal:
            return CHALLENGE
        play = next_play(
            view, legal, self.values, self.strategy.play_order, self.strategy.hold_defense
        )
        if play is not None:
            return play
        buy = self.buy(view, legal)
        if buy is None:
            return END
        self.bought[card_of(buy) if buy != BUY_ULTRA else "ultra"] += 1
        return buy

    def buy(self, view: Mapping[str, Any], legal: tuple[str, ...]) -> str | None:
        buys = [c for c in legal if kind_of(c) is Buy]
        late = lateness(view)
        for rule in self.strategy.buy:
            if not rule.min_late <= late <= rule.max_late:
                continue
            matching = [c for c in buys if self.matches(rule, c)]
            if matching:
                return max(matching, key=lambda c: (self.cost(c), self.econ(c), c))
        return None

    def econ(self, choice: str) -> float:
        """What the card bought does for a turn (the Ultra stack's top: unknown, 0)."""
        return 0.0 if choice == BUY_ULTRA else self.values.econ.get(card_of(choice), 0.0)

    def cost(self, choice: str) -> int:
        return 6 if choice == BUY_ULTRA else self.values.card(card_of(choice)).cost

    def matches(self, rule: BuyRule, choice: str) -> bool:
        own_ultra = choice == BUY_ULTRA or (
            Buy.parse(choice).zone == "under" and self.values.card(card_of(choice)).type == "Ultra"
        )
        card_id = "ultra" if own_ultra else card_of(choice)
        if rule.card != "any" and rule.card != card_id:
            return False
        if rule.max_owned is not None and self.bought[card_id] >= rule.max_owned:
            return False
        if own_ultra and rule.card == "ultra":
            return True
        card = self.values.card(card_of(choice)) if choice != BUY_ULTRA else None
        if card is None:
            return False
        if rule.type is not None and card.type != rule.type:
            return False
        if rule.min_cost is not None and card.cost < rule.min_cost:
            return False
        if rule.max_cost is not None and card.cost > rule.max_cost:
            return False
        if rule.attack is not None and card.has_attack != rule.attack:
            return False
        return rule.defense is None or card.has_defense == rule.defense


def _values(game: Game[Any], options: Mapping[str, Any]) -> CardValues:

    return CardValues.of(GAME.catalog(options))


def factory(strategy: str) -> Any:
    """An agent factory (for the registry) playing a shipped strategy."""
    parsed = load_strategy(STRATEGIES[strategy], strategy)

    def make(game: Game[Any], options: Mapping[str, Any], seat: int, seed: int) -> PriorityBot:
        return PriorityBot(_values(game, options), parsed, seed)

    return make


make = factory("balanced")
make_power = factory("power")
make_attack = factory("attack")
