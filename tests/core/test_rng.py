"""Seeded randomness: derived seeds are stable; clones continue identically; the draw
helpers draw exactly as ``random.Random`` does (seed plus choices replay the same games)."""

import random

import pytest

from kumite.core import Rng, derive_seed
from kumite.core.rng import below, shuffle


def test_derive_seed_is_stable_and_key_sensitive():
    assert derive_seed(1, "agent", 0) == derive_seed(1, "agent", 0)
    assert derive_seed(1, "agent", 0) != derive_seed(1, "agent", 1)
    assert derive_seed(2, "agent", 0) != derive_seed(1, "agent", 0)
    assert 0 <= derive_seed(7) < 2**63


def test_clone_continues_the_same_stream():
    rng = Rng(3)
    rng.random()
    twin = rng.clone()
    assert [rng.random() for _ in range(5)] == [twin.random() for _ in range(5)]


@pytest.mark.parametrize("size", [0, 1, 2, 3, 5, 8, 10, 17, 33, 64, 111, 600])
def test_shuffle_is_random_shuffle_draw_for_draw(size: int) -> None:
    """Same order, and the stream left where ``Random.shuffle`` leaves it (600: past the
    table of draw widths)."""
    for seed in range(20):
        ours, theirs = Rng(seed), Rng(seed)
        a, b = list(range(size)), list(range(size))
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
        assert ours.getrandbits(64) == theirs.getrandbits(64)


def test_below_is_random_choice_draw_for_draw() -> None:
    ours, theirs = random.Random(5), random.Random(5)
    for n in [1, 2, 3, 7, 8, 9, 100, 2**20 + 1] * 50:
        items = range(n)
        assert items[below(ours, n)] == theirs.choice(items)
    assert ours.getstate() == theirs.getstate()
