"""Secret seeds: a table's game seed and its bots' seed, drawn from the operating system's
randomness. Nobody sees either before the game ends; the bots' never (docs/protocol.md,
"Seeds")."""

from __future__ import annotations

import secrets

SEED_BITS = 128
"""Bits of a seed the server draws: far beyond guessing, or trying every value."""
MAX_SEED = 2**SEED_BITS
"""Seeds a client may pass with ``--dev-seeds`` are below this (what the storage holds)."""


def new_seed() -> int:
    """A fresh secret seed of :data:`SEED_BITS` bits."""
    return secrets.randbits(SEED_BITS)
