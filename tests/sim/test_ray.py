"""The Ray backend gives the same results as local processes (against a local Ray)."""

from __future__ import annotations

import json

import ray  # kumite[ray]; the test extra installs it (tests/conftest.py skips without it)

from kumite.sim.backends import simulate
from kumite.sim.engine import SimSpec


def test_ray_backend_matches_local_processes():
    spec = SimSpec("sfrivals", (("greedy", "random"), ("random", "random")), 300, seed=21)
    local = simulate(spec, jobs=1)
    on_ray = simulate(spec, jobs=2, backend="ray", chunk_size=40)
    assert on_ray.backend == "ray"
    assert json.dumps(on_ray.tally.to_json()) == json.dumps(local.tally.to_json())
    assert on_ray.rows == local.rows
    assert not ray.is_initialized()  # the backend shuts down the Ray it started
