"""The Ray backend gives the same results as local processes (against a local Ray)."""

from __future__ import annotations

import json

import pytest
import ray  # kumite[ray]; the test extra installs it (tests/conftest.py skips without it)

from kumite.sim.backends import simulate
from kumite.sim.engine import SimSpec

# Each starts a local Ray (seconds of start-up on two cores): make test runs them, the quick
# target does not.
pytestmark = pytest.mark.slow


def test_ray_backend_matches_local_processes():
    spec = SimSpec("sfrivals", (("greedy", "random"), ("random", "random")), 300, seed=21)
    local = simulate(spec, jobs=1)
    on_ray = simulate(spec, jobs=2, backend="ray", chunk_size=40)
    assert on_ray.backend == "ray"
    assert json.dumps(on_ray.tally.to_json()) == json.dumps(local.tally.to_json())
    assert on_ray.rows == local.rows
    assert not ray.is_initialized()  # the backend shuts down the Ray it started


def test_a_balance_run_on_ray_finds_the_same_pack():
    from kumite.sim.balance import BalanceSpec, Targets, balance, knobs_of, pack_of

    ents = ("ryu", "ken", "guile")
    knobs = knobs_of(pack_of("sfrivals"), ["guile.*:damage"], ents, max_change=1)
    spec = BalanceSpec(
        "sfrivals", ("random",), tuple(knobs), Targets(pairing=(0.45, 0.55)), seed=9,
        budget=1500, entities=ents, fights=20, batch=20, max_fights=40, stages=1, screen=1,
    )  # fmt: skip
    local = balance(spec, jobs=1)
    on_ray = balance(spec, jobs=2, backend="ray")
    assert on_ray["overlay"] == local["overlay"]
    assert on_ray["history"] == local["history"]
    assert not ray.is_initialized()
