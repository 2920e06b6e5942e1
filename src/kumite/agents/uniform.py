"""The uniformly random agent, apart from :mod:`.base` so that it is compiled with the
engines (``KUMITE_COMPILE=1``, docs/speed.md): simulations ask it at every step."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from kumite.core.game import Decision
from kumite.core.rng import below

_Random: Final = random.Random


class RandomAgent:
    """Uniformly random among the legal choices (every game)."""

    name = "random"
    needs_view = False

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        rng = self.rng
        legal = decision.legal
        n = len(legal)
        if type(rng) is not _Random or not n:
            return rng.choice(legal)
        return legal[below(rng, n)]  # rng.choice(legal), draw for draw
