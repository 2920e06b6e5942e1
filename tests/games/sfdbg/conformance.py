"""What the Street Fighter Deck-Building Game adds to the suites over every game
(tests/conformance.py): three-player games in each variant played by quick people (Power
cards first, a challenge whenever possible, then any buy), and the checks that need its
views: no other player's hand is shown, no other player's drawn cards are named."""

from __future__ import annotations

import random
import re
from typing import Any

from tests.conformance import Chooser, GameHooks, Table

DRAWN_BY = re.compile(r"Player (\d) draws \d+ cards?: ")


def sensible(rng: random.Random) -> Chooser:
    """A quick human: plays the Power cards, challenges, buys what it can, else anything."""

    def pick(seat: int, legal: list[str]) -> str:
        for wanted in ("play-power", "challenge"):
            if wanted in legal:
                return wanted
        plays = [c for c in legal if c.startswith("play:")]
        buys = [c for c in legal if c.startswith("buy:")]
        if plays:
            return rng.choice(plays)
        if buys:
            return rng.choice(buys)
        return rng.choice(legal)

    return pick


def check_update(seat: int | None, state: Any, snap: dict[str, Any], raw: str) -> None:
    for other in snap["view"]["players"]:
        if other["seat"] != seat:
            assert "hand" not in other
    for found in DRAWN_BY.findall(raw):
        assert int(found) - 1 == seat


HOOKS = GameHooks(
    tables=(
        Table(3, {"variant": "standard", "round_limit": 60}, seed=13),
        Table(3, {"variant": "secret-heroes", "round_limit": 6}, seed=13),
        Table(3, {"variant": "high-powered", "round_limit": 6}, seed=13),
    ),
    people=sensible,
    check_update=check_update,
    short=Table(2, {"round_limit": 3, "first_player": 0}, seed=3),
    env_options=(
        {"players": 4, "variant": "high-powered"},
        {"players": 5, "variant": "secret-heroes"},
    ),
)
