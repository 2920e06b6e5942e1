"""Seeded randomness: derived seeds are stable; clones continue identically."""

from kumite.core import Rng, derive_seed


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


def test_children_are_independent_of_parent_position():
    a, b = Rng(3), Rng(3)
    a.random()
    assert a.child("x").random() == b.child("x").random()
