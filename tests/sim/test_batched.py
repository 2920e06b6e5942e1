"""``kumite sim --batched``: random play on a game's batched engine through the lab's hook
(Adapter.batch_random, declared by SF Rivals' lab face): deterministic whatever the jobs and
chunks, and the same game as the scalar engine in distribution (docs/envs.md)."""

from __future__ import annotations

import dataclasses
import json

from kumite.sim.backends import simulate
from kumite.sim.engine import SimSpec

RANDOM2 = (("random", "random"),)


def dump(result):
    return json.dumps(result.tally.to_json(), sort_keys=True), result.rows


def test_batched_results_are_identical_whatever_the_jobs_and_chunks():
    spec = SimSpec("sfrivals", RANDOM2, 600, seed=11, batched=True)
    one = dump(simulate(spec, jobs=1))
    assert dump(simulate(spec, jobs=1, chunk_size=7)) == one
    assert dump(simulate(spec, jobs=2, chunk_size=100)) == one
    # other random streams than the scalar fast path: other games
    assert dump(simulate(dataclasses.replace(spec, batched=False), jobs=1)) != one


def test_batched_sim_tallies_like_the_scalar_engine():
    """Both play the same game between random seats: the rates of each end agree within
    sampling error (4,000 games each, balanced over the 64 character pairs)."""
    spec = SimSpec("sfrivals", RANDOM2, 4000, seed=5, rotate=False)
    results = [simulate(dataclasses.replace(spec, batched=b), jobs=1) for b in (False, True)]
    reasons = []
    for r in results:
        counts: dict[str, int] = {}
        for row in r.rows:
            counts[row[5]] = counts.get(row[5], 0) + 1
        reasons.append(counts)
    scalar, batched = reasons
    assert set(scalar) == set(batched)
    for reason, n in scalar.items():
        p = n / 4000
        sigma = (2 * p * (1 - p) / 4000) ** 0.5
        assert abs(batched[reason] / 4000 - p) < 4 * sigma + 1e-3, reason
