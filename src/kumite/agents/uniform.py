"""The uniformly random agent, apart from :mod:`.base` so that it is compiled with the
engines (``KUMITE_COMPILE=1``, docs/speed.md): simulations ask it at every step."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from kumite.core.game import Decision

_Random: Final = random.Random
#: ``Random.getrandbits`` unbound: the draw below skips the method look-up on each call.
_getrandbits: Final = random.Random.getrandbits


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
        # ``rng.choice(legal)`` with ``Random._randbelow`` inlined, draw for draw (the same
        # ``getrandbits`` calls, so the same choices): the random agent's whole cost.
        k = n.bit_length()
        r = _getrandbits(rng, k)
        while r >= n:
            r = _getrandbits(rng, k)
        return legal[r]
