"""Random games of every size and variant run to the end."""

from __future__ import annotations

import random

import pytest

from kumite.games.sfdbg.game import GAME


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", ["standard", "high-powered", "secret-heroes"])
def test_random_game_runs_to_the_end(players, variant):
    state = GAME.new_state(players, {"players": players, "variant": variant, "round_limit": 15})
    rng = random.Random(players)
    while not state.is_terminal:
        (decision,) = state.pending()
        state.apply({decision.seat: rng.choice(decision.legal)})
    outcome = state.outcome
    assert outcome is not None
    assert len(outcome.detail["vp"]) == players
    assert outcome.winners
