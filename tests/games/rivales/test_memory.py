"""Rivales states hold no reference cycles, so simulations free them by reference counting
(the cyclic garbage collector, which otherwise runs over every live object, is not needed:
a cycle through each clash's fight once made it a large share of simulation time)."""

from __future__ import annotations

import gc
import random
import weakref
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from kumite.games.rivales.game import GAME


@contextmanager
def no_cycle_collector() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@pytest.mark.parametrize("mode", ["1v1", "2v2"])
def test_states_are_freed_by_reference_counting_at_every_step(mode: str) -> None:
    """A state dropped after any number of steps (or at the end) is freed at once."""
    rng = random.Random(5)
    with no_cycle_collector():
        for seed in range(4):
            length = 0
            state = GAME.new_state(seed, {"mode": mode})
            while not state.is_terminal:
                state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
                length += 1
            ref = weakref.ref(state)
            del state
            assert ref() is None, "a finished fight was left to the cycle collector"
            for stop in range(0, length, 3):
                state = GAME.new_state(seed, {"mode": mode})
                state.quiet = stop % 2 == 0
                for _ in range(stop):
                    state.apply({d.seat: d.legal[0] for d in state.pending()})
                    if state.is_terminal:
                        break
                ref = weakref.ref(state)
                del state
                assert ref() is None, f"a state after {stop} steps was left to the cycle collector"
