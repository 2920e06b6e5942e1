"""Seeded randomness: derived seeds are stable; clones continue identically; the draw
helpers draw exactly as ``random.Random`` does (seed plus choices replay the same games)."""

import random

import pytest

from kumite.core import Rng, derive_seed
from kumite.core.rng import ChanceNeeded, ScriptedRng, below, shuffle


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


def test_scripted_stream_answers_with_its_draws_and_asks_for_the_missing_ones() -> None:
    """ScriptedRng (explicit chance, kumite.envs.openspiel): each uniform draw comes from
    the script; a shuffle lacking draws asks for all of them at once, sizes from the last
    position; floats and raw bits are chance no node declares, so they raise."""
    rng = ScriptedRng([2])
    assert rng.randrange(3) == 2
    with pytest.raises(ChanceNeeded) as asked:
        rng.randrange(5)
    assert asked.value.sizes == (5,)
    cards = [10, 11, 12, 13]
    with pytest.raises(ChanceNeeded) as asked:
        ScriptedRng([1]).shuffle(cards)
    assert asked.value.sizes == (3, 2)  # the first of (4, 3, 2) is there
    assert cards == [10, 11, 12, 13]  # nothing moved before every draw was there
    scripted = ScriptedRng([0, 2, 1])
    shuffle(scripted, cards)  # the module's shuffle goes through the script too
    assert cards == [13, 11, 12, 10]  # position 3 took card 0; 2 and 1 kept theirs
    assert below(ScriptedRng([4]), 5) == 4
    with pytest.raises(ValueError, match="not among 3 outcomes"):
        ScriptedRng([3]).randrange(3)
    for draw in (ScriptedRng().random, lambda: ScriptedRng().getrandbits(8)):
        with pytest.raises(TypeError):
            draw()


def test_scripted_draws_of_a_seeded_stream_replay_its_shuffles() -> None:
    """Answered with ``below(Rng(seed), n)`` for each draw asked, a scripted shuffle is
    ``shuffle(Rng(seed), ...)``: the chance nodes are the engine's own draws."""
    ref, real = Rng(9), Rng(9)
    expected = list(range(30))
    shuffle(real, expected)
    try:
        ScriptedRng().shuffle(list(range(30)))
    except ChanceNeeded as asked:
        sizes = asked.sizes
    got = list(range(30))
    ScriptedRng([below(ref, n) for n in sizes]).shuffle(got)
    assert got == expected
    clone = ScriptedRng([1, 0], pos=1).clone()
    assert clone.randrange(2) == 0
