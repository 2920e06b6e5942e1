"""A clone is independent of its original, in every registered game: the two share no
mutable object (immutable values may be shared). Random games, many positions."""

from __future__ import annotations

import random

import pytest

from kumite.games import game_ids, get_game
from tests.core.graph import shared_mutables

SEEDS = range(6)
EVERY = {"sfrivals": 2, "rivales": 7, "sfdbg": 25}
"""Steps between two positions checked (games differ in length)."""


def _positions(game_id: str, seed: int, scale: int = 1):
    """States along a random game (every few steps), in each mode the game has."""
    game = get_game(game_id)
    every = EVERY.get(game_id, 5) * scale
    options = [{}]
    if game_id == "rivales":
        options.append({"mode": "2v2"})
    if game_id == "sfdbg":
        options = [{"players": 2 + seed % 4}]
    for opts in options:
        state = game.new_state(seed, opts)
        rng = random.Random(seed)
        step = 0
        while not state.is_terminal:
            if step % every == 0:
                yield state
            state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
            step += 1
        yield state


@pytest.mark.parametrize("game_id", game_ids())
def test_clone_shares_no_mutable_object_with_its_original(game_id):
    """DESIGN §2 ``clone()``: an independent copy. A shared list (Rivales once shared its
    seats' names) lets a search write into the live table."""
    checked = 0
    for seed in SEEDS:
        for state in _positions(game_id, seed):
            shared = shared_mutables(state, state.clone())
            assert not shared, f"{game_id} seed {seed} step {len(state.history)}: {shared[:5]}"
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("game_id", game_ids())
def test_a_move_in_a_clone_leaves_the_original_and_its_views_unchanged(game_id):
    """The behaviour the sharing check protects: playing on in a clone (as a search does)
    changes no view of the original."""
    for seed in SEEDS:
        for state in _positions(game_id, seed, scale=2):
            if state.is_terminal:
                continue
            views = [state.view(s) for s in (None, *state.players)]
            history = [dict(step) for step in state.history]
            other = state.clone()
            rng = random.Random(seed + 99)
            for _ in range(30):
                if other.is_terminal:
                    break
                other.apply({d.seat: rng.choice(d.legal) for d in other.pending()})
            assert [state.view(s) for s in (None, *state.players)] == views
            assert [dict(step) for step in state.history] == history
