"""The committed-opponent certificate: its best responses against the engine-driven search
of the agent's own policy, and its place between the adaptive bounds."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kumite.core.game import Decision
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver.certify import certify, committed_values
from kumite.games.sfrivals.solver.fight import FightSolver
from kumite.games.sfrivals.solver.setup import MatchupSolution, solve_matchup
from kumite.games.sfrivals.solver.strategy import advice
from kumite.games.sfrivals.solver.strength import best_response_value
from kumite.games.sfrivals.state import SFRState
from tests.games.sfrivals.solver.conftest import SHORT_PACK

PACK3 = '[pack]\nid = "three"\ngame = "sfrivals"\n[rules]\nhand = 3\nlife = 4\n'


def _solution(solver: FightSolver, opts: dict[str, str]) -> MatchupSolution:
    """A stand-in solution around ``solver``: :func:`advice` only uses its fight tables."""
    empty = np.zeros((0, 0))
    return MatchupSolution(
        characters=(solver.chars[0].id, solver.chars[1].id),
        options=GAME.parse_options(opts),
        lower=0.0,
        upper=0.0,
        setup=({}, {}),
        lower_matrix=empty,
        upper_matrix=empty,
        rows=((), ()),
        cols=((), ()),
        seconds=0.0,
        states=0,
        solver=solver,
    )


@pytest.mark.parametrize(
    ("chars", "opts"),
    [
        (("juri", "guile"), {}),
        (("ryu", "dudley"), {"no_legal_card": "play-powerless", "ultra_rule": "power"}),
    ],
)
def test_committed_best_response_equals_the_search_against_the_agent(
    chars: tuple[str, str], opts: dict[str, str]
) -> None:
    """For set-up pairs drawn at random, the compiled committed best response to each
    seat's bound strategy equals the engine-driven exact best response to the policy the
    ``equilibrium`` agent plays (its advice probabilities, from its own view)."""
    options = {**opts, "pack": PACK3}
    parsed = GAME.parse_options({**options, "characters": list(chars)})
    cat = GAME.catalog(parsed)
    solver = FightSolver(cat, parsed, (cat.characters[chars[0]], cat.characters[chars[1]]))
    sol = _solution(solver, {**options, "characters": list(chars)})

    def policy(state: SFRState, decision: Decision) -> dict[str, float]:
        view = state.view(decision.seat)
        return {a.choice: a.probability for a in advice(view, sol) if a.probability > 0}

    rng = random.Random(7)
    for me in (0, 1):
        pairs = [
            (rng.choice(solver.chars[0].setup_choices), rng.choice(solver.chars[1].setup_choices))
            for _ in range(2)
        ]
        got, _, uncertified = committed_values(solver, me, pairs)
        assert uncertified == 0
        for (s0, s1), value in zip(pairs, got, strict=True):
            state = GAME.new_state(0, {**options, "characters": list(chars)})
            state.apply({0: s0, 1: s1})
            assert value == pytest.approx(best_response_value(state, me, policy), abs=1e-9)


def test_certificate_is_between_the_adaptive_bounds(shared_cache: Path) -> None:
    """The committed opponent is weaker than the adaptive one: lower <= lower_committed <=
    upper_committed <= upper (a short fight: all four meet)."""
    sol = solve_matchup(("juri", "guile"), {"pack": SHORT_PACK}, method="adaptive")
    cert = certify(sol)
    assert sol.lower - 1e-9 <= cert.lower <= cert.upper + 1e-9
    assert cert.upper <= sol.upper + 1e-9
    assert 0.0 <= cert.exploitability + 1e-9 <= sol.exploitability + 2e-9
    assert cert.uncertified == 0
    pure = tuple(max(sol.setup[seat].values()) == 1.0 for seat in (0, 1))
    assert cert.exact == pure


_CERTIFY_SCRIPT = """
import json, sys
from kumite.games.sfrivals.solver.certify import certify
from kumite.games.sfrivals.solver.setup import solve_matchup
sol = solve_matchup(("juri", "guile"), {"pack": sys.argv[1]}, method="adaptive")
cert = certify(sol)
print(json.dumps([sol.from_cache, cert.lower, cert.upper, cert.uncertified]))
"""


def test_certify_a_solution_loaded_from_the_cache(tmp_path: Path) -> None:
    """Issue 13: ``certify()`` on a solution loaded from the disk cache crashed the
    interpreter (the loaded solver had filled none of the rule tables the compiled best
    response reads, and it indexed with garbage). Run in subprocesses, so that a crash fails
    this test instead of killing pytest: a fresh solve, then a fresh process that loads it
    from the cache; both certificates must be the same."""
    env = {**os.environ, "KUMITE_CACHE_DIR": str(tmp_path)}
    results = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", _CERTIFY_SCRIPT, PACK3],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        results.append(json.loads(done.stdout.splitlines()[-1]))
    (fresh, *first), (loaded, *again) = results
    assert not fresh and loaded
    assert again == pytest.approx(first, abs=1e-12)
