"""Exact best responses to the shipped agents."""

from __future__ import annotations

import pytest

from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver.strength import best_response_value, greedy_setups, strength_table
from tests.games.sfrivals.solver.conftest import SHORT_PACK

OPTS = {"pack": SHORT_PACK}


def test_uniform_best_response_matches_the_search() -> None:
    """The vectorised best response to a uniformly random seat equals the generic
    best-response search given the same uniform policy."""
    table = strength_table(("guile", "dudley"), OPTS, agents=("random",))
    opts = GAME.parse_options({**OPTS, "characters": ["guile", "dudley"]})
    state = GAME.new_state(0, {**OPTS, "characters": ["guile", "dudley"]})
    state.apply(dict(enumerate(greedy_setups(("guile", "dudley"), opts))))
    for row in table["rows"]:
        seat = row["seat"]
        v0 = best_response_value(state, seat, lambda s, d: {c: 1.0 / len(d.legal) for c in d.legal})
        assert row["worst_case"] == pytest.approx(v0 if seat == 0 else -v0, abs=1e-9)


def test_exploitability_is_never_negative_and_greedy_is_beaten() -> None:
    table = strength_table(("ryu", "juri"), OPTS, agents=("random", "greedy"))
    for row in table["rows"]:
        assert row["exploitability"] >= -1e-12
        assert row["worst_case"] <= row["value"] + 1e-12
