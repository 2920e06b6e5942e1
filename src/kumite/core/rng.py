"""Seeded randomness.

A game's chance comes from an :class:`Rng` held in its state, seeded per game, so that seed
plus choices replays a game exactly. Independent streams (one per agent, per simulated game)
are derived from a parent seed by hashing, which is stable across processes and platforms.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any, Final

from mypy_extensions import mypyc_attr


def derive_seed(seed: int, *keys: object) -> int:
    """A 63-bit seed derived from ``seed`` and ``keys``; stable across runs and machines."""
    h = hashlib.blake2b(digest_size=8)
    h.update(str(seed).encode())
    for key in keys:
        h.update(b"\x1f")
        h.update(str(key).encode())
    return int.from_bytes(h.digest(), "big") >> 1


@mypyc_attr(native_class=False)  # compiled (setup.py), a random.Random subclass stays Python
class Rng(random.Random):
    """A :class:`random.Random` that can be cloned (independent streams: :func:`derive_seed`)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)

    def clone(self) -> Rng:
        other = Rng.__new__(Rng)
        other.setstate(self.getstate())
        return other


#: ``Random.getrandbits`` unbound: each draw below skips the method look-up.
_getrandbits: Final = random.Random.getrandbits
#: ``_BITS[i]``: the bits a draw among ``i + 1`` takes (``(i + 1).bit_length()``).
_BITS: Final = tuple((i + 1).bit_length() for i in range(512))


def below(rng: random.Random, n: int) -> int:
    """A number in ``range(n)``, ``n > 0``, drawn as CPython's ``Random._randbelow`` does
    (``getrandbits`` of ``n``'s bit length until below ``n``): ``seq[below(rng, len(seq))]``
    is ``rng.choice(seq)`` draw for draw, without the private method."""
    k = n.bit_length()
    r: int = _getrandbits(rng, k)
    while r >= n:
        r = _getrandbits(rng, k)
    return r


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)`` draw for draw (Fisher-Yates from the last position, a
    :func:`below` each), with the draw inlined: games shuffle whole decks often, and seed
    plus choices must replay the same games."""
    if len(items) > len(_BITS):
        rng.shuffle(items)
        return
    bits, getrandbits = _BITS, rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        k = bits[i]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
