"""Seeded randomness.

A game's chance comes from an :class:`Rng` held in its state, seeded per game, so that seed
plus choices replays a game exactly. Independent streams (one per agent, per simulated game)
are derived from a parent seed by hashing, which is stable across processes and platforms.
"""

from __future__ import annotations

import hashlib
import random


def derive_seed(seed: int, *keys: object) -> int:
    """A 63-bit seed derived from ``seed`` and ``keys``; stable across runs and machines."""
    h = hashlib.blake2b(digest_size=8)
    h.update(str(seed).encode())
    for key in keys:
        h.update(b"\x1f")
        h.update(str(key).encode())
    return int.from_bytes(h.digest(), "big") >> 1


class Rng(random.Random):
    """A :class:`random.Random` that can be cloned and spawn independent child streams."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.seed_value = seed

    def clone(self) -> Rng:
        other = Rng.__new__(Rng)
        other.setstate(self.getstate())
        other.seed_value = self.seed_value
        return other

    def child(self, *keys: object) -> Rng:
        """An independent stream whose seed depends only on this stream's seed and ``keys``."""
        return Rng(derive_seed(self.seed_value, *keys))
