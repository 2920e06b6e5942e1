"""``kumite sim --batched``: random play on a game's batched engine through the lab's hook
(Adapter.batch_random, declared by SF Rivals' lab face): deterministic whatever the jobs and
chunks, and the same game as the scalar engine in distribution (docs/envs.md)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from kumite.sim.backends import simulate
from kumite.sim.engine import SimSpec

RANDOM2 = (("random", "random"),)


def dump(result):
    return json.dumps(result.tally.to_json(), sort_keys=True), result.rows


@pytest.mark.slow
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


SHORT = """
[pack]
id = "three-rounds"
base = "sfrivals-base"
game = "sfrivals"
version = "1"
title = "Three rounds: small rule tables"

[rules]
hand = 3
"""


@pytest.mark.slow
def test_the_batched_engines_rule_tables_come_back_from_the_disk_cache(tmp_path, monkeypatch):
    """``BatchEngine.warm`` fills every pairing's tables once and keeps them on disk; a new
    engine of the same pack and rules reads them back without calling the engine's
    functions — the same tables, the same fights — and another pack has another file."""
    import numpy as np

    from kumite.games.sfrivals.batch import BatchEngine, tables_path
    from kumite.games.sfrivals.game import GAME
    from kumite.games.sfrivals.solver.fight import CharacterTables, FightSolver

    monkeypatch.setenv("KUMITE_CACHE_DIR", str(tmp_path))
    options = {"pack": SHORT}
    filled = BatchEngine(GAME, options)
    filled.warm()
    path = tables_path(filled)
    assert path.is_file() and path.parent.parent == tmp_path

    def refuse(*_a, **_k):
        raise AssertionError("filled from the engine, not read from the cache")

    monkeypatch.setattr(FightSolver, "fill_committed", refuse)
    monkeypatch.setattr(CharacterTables, "fill_committed", refuse)
    read = BatchEngine(GAME, options)
    read.warm()
    for c, tables in filled._character_tables.items():
        assert np.array_equal(tables.legal, read._character_tables[c].legal)
        assert np.array_equal(tables.stuck, read._character_tables[c].stuck)
    assert set(read._solvers) == set(filled._solvers) and len(filled._solvers) == 64
    for key, solver in filled._solvers.items():
        for a, b in zip(solver.tables, read._solvers[key].tables, strict=True):
            np.testing.assert_array_equal(a, b)  # NaN where the fight goes on: equal
        assert np.array_equal(solver.pairs_filled, read._solvers[key].pairs_filled)
    seeds = np.arange(3000, dtype=np.int64)
    one, two = filled.random_fights(seeds), read.random_fights(seeds)
    assert np.array_equal(one.played, two.played) and np.array_equal(one.winner, two.winner)
    assert tables_path(BatchEngine(GAME, {})) != path


def test_fights_of_many_pairings_in_one_call_are_those_of_one_call_per_pairing():
    """``kumite sim --batched`` hands the engine a whole chunk of the balanced design at
    once (``pairs``): each fight is the one its seed and characters give alone."""
    import numpy as np

    from kumite.games.sfrivals.batch import engine_for
    from kumite.games.sfrivals.game import GAME

    engine = engine_for(GAME, GAME.parse_options({}))
    rng = np.random.default_rng(3)
    seeds = rng.integers(0, 2**62, 600)
    pairs = rng.integers(0, len(engine.characters), (600, 2))
    together = engine.random_fights(seeds, pairs=pairs)
    ids = [c.id for c in engine.characters]
    for a, b in {(int(a), int(b)) for a, b in pairs[:40]}:
        mine = np.flatnonzero((pairs[:, 0] == a) & (pairs[:, 1] == b))
        alone = engine.random_fights(seeds[mine], (ids[a], ids[b]))
        assert np.array_equal(alone.played, together.played[mine])
        assert np.array_equal(alone.setup, together.setup[mine])
        assert np.array_equal(alone.winner, together.winner[mine])
