"""The simulation engine: determinism, the fast path, designs, seats and tallies."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest

from kumite.agents.runner import run_game
from kumite.agents.uniform import RandomAgent
from kumite.core.errors import OptionsError
from kumite.core.registry import specs
from kumite.core.rng import derive_seed
from kumite.core.spec import GameSpec, Ref
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.rollout import random_rollout
from kumite.sim.adapters import GameSummary
from kumite.sim.backends import simulate
from kumite.sim.engine import Runner, SimSpec, Tally, chunks

RANDOM2 = (("random", "random"),)


def dump(result):
    return json.dumps(result.tally.to_json(), sort_keys=True), result.rows


def test_results_are_identical_whatever_the_number_of_jobs_and_chunks():
    """Game i's seed comes from the master seed and i alone, never from a worker."""
    spec = SimSpec("sfrivals", RANDOM2, 600, seed=11)
    one = dump(simulate(spec, jobs=1))
    assert dump(simulate(spec, jobs=1, chunk_size=7)) == one
    assert dump(simulate(spec, jobs=2)) == one
    assert dump(simulate(spec, jobs=2, chunk_size=50)) == one
    other = dump(simulate(SimSpec("sfrivals", RANDOM2, 600, seed=12), jobs=1))
    assert other != one


def test_bots_results_are_identical_across_jobs():
    spec = SimSpec("sfrivals", (("greedy", "random"),), 40, seed=5)
    assert dump(simulate(spec, jobs=2, chunk_size=9)) == dump(simulate(spec, jobs=1))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"characters": ["ryu", None]},
        {"ultra_rule": "power"},
        {"no_legal_card": "play-powerless"},
        {"swap": "printed"},
    ],
)
def test_fast_rollout_plays_the_engines_game_with_random_agents(options):
    """The fast path draws exactly like RandomAgent through the engine: same seeds, same
    fight — characters, every card played, final lives and the reason it ended."""
    opts = GAME.parse_options(options)
    catalog = GAME.catalog(opts)
    for seed in range(300):
        seeds = [derive_seed(seed, "agent", s) for s in (0, 1)]
        state = GAME.new_state(seed, options)
        state.quiet = True
        outcome = run_game(state, [RandomAgent(s) for s in seeds])
        fast = random_rollout(catalog, opts, (random.Random(seeds[0]), random.Random(seeds[1])))
        assert fast.characters == tuple(c.id for c in state.chars)
        assert fast.played == tuple(tuple(c.id for c in p) for p in state.played)
        assert fast.lives == tuple(outcome.detail["lives"])
        assert fast.rounds == outcome.detail["rounds"]
        assert (fast.reason, fast.rule) == (outcome.reason, outcome.rule)
        assert fast.winner == (outcome.winners[0] if outcome.winners else None)


def test_sim_fast_path_and_engine_path_tally_alike():
    spec = SimSpec("sfrivals", RANDOM2, 200, seed=3)
    slow = dataclasses.replace(spec, fast=False)
    assert dump(simulate(slow)) == dump(simulate(spec))


def test_balanced_design_covers_every_character_pair_equally():
    spec = SimSpec("sfrivals", RANDOM2, 64 * 2 * 3, seed=1)
    tally = simulate(spec).tally
    pairs = tally.counts("entity_pairs")
    assert len(pairs) == 64
    # 384 games = 2 seat rotations x 64 ordered pairs x 3: each pair is dealt 6 times, and a
    # game of (x, y) counts both (x, y) and (y, x), so every cell holds 6 + 6 comparisons
    assert {c[0] for c in pairs.values()} == {12}
    entities = tally.counts("entities")
    assert {c[0] for c in entities.values()} == {2 * 384 // 8}


def test_free_design_lets_the_agents_choose():
    spec = SimSpec("sfrivals", RANDOM2, 400, seed=1, design="free")
    entities = simulate(spec).tally.counts("entities")
    assert len(entities) == 8
    assert len({c[0] for c in entities.values()}) > 1  # random picks: uneven counts


def test_fixed_characters_are_kept_and_balanced_is_refused():
    spec = SimSpec("sfrivals", RANDOM2, 50, seed=1, options={"characters": ["ryu", "ken"]})
    assert set(simulate(spec).tally.counts("entities")) == {"ryu", "ken"}
    with pytest.raises(OptionsError, match="balanced"):
        Runner(
            SimSpec(
                "sfrivals",
                RANDOM2,
                5,
                seed=1,
                design="balanced",
                options={"characters": ["ryu", "ken"]},
            )
        )


def test_seats_rotate_and_lineups_alternate():
    spec = SimSpec("sfrivals", (("greedy", "random"), ("random", "random")), 8, seed=1)
    runner = Runner(spec)
    agents = [runner.assignment(i)[0] for i in range(8)]
    assert agents[0::2] == [("greedy", "random"), ("random", "greedy")] * 2
    assert all(a == ("random", "random") for a in agents[1::2])
    fixed = Runner(SimSpec("sfrivals", (("greedy", "random"),), 4, seed=1, rotate=False))
    assert {fixed.assignment(i)[0] for i in range(4)} == {("greedy", "random")}


def test_tally_counts_agents_seats_pairs_and_cards():
    spec = SimSpec("sfrivals", (("greedy", "random"),), 30, seed=2)
    tally = simulate(spec).tally
    agents = tally.counts("agents")
    assert agents["greedy"][0] == agents["random"][0] == 30
    pairs = tally.counts("agent_pairs")
    g, r = pairs["greedy", "random"], pairs["random", "greedy"]
    assert g[0] == r[0] == 30 and g[1] == agents["greedy"][1] and g[2] == r[2] == tally.draws
    seats = tally.counts("seats")
    assert seats[2, 0][0] == seats[2, 1][0] == 30
    rounds = sum(k * v for k, v in tally.lengths.items())
    assert sum(c[0] for c in tally.counts("card_when").values()) == 2 * rounds
    for (scope, verb, card), c in tally.counts("cards").items():
        assert card.startswith(scope + ".") and verb == "played"
        assert c[0] <= tally.counts("entities")[scope][0]


def test_tally_json_round_trip_and_merge_is_order_free():
    spec = SimSpec("sfrivals", RANDOM2, 120, seed=9)
    runner = Runner(spec)
    a, b = runner.chunk(0, 70).tally, runner.chunk(70, 120).tally
    ab, ba = Tally(), Tally()
    ab.merge(a)
    ab.merge(b)
    ba.merge(b)
    ba.merge(a)
    assert ab.to_json() == ba.to_json() == simulate(spec).tally.to_json()
    assert Tally.from_json(json.loads(json.dumps(ab.to_json()))).to_json() == ab.to_json()


def test_partners_are_never_compared_with_each_other():
    """The declared teams (the toy plugin's 2vs2: seats 1 & 3 against seats 2 & 4): a drawn
    game compares each seat with both rivals, never with its partner."""
    runner = Runner(SimSpec("toy", (("random",) * 4,), 1, seed=1, options={"mode": "2v2"}))
    assert runner.teams(4) == (0, 1, 0, 1)
    tally = Tally()
    tally.add("abcd", GameSummary((), True, "fold", 1, (None,) * 4), False, runner.teams(4))
    pairs = tally.counts("agent_pairs")
    assert set(pairs) == {(x, y) for x in "ac" for y in "bd"} | {(y, x) for x in "ac" for y in "bd"}
    assert all(counts == [1, 0, 1] for counts in pairs.values())


def test_a_game_without_adapter_still_simulates(monkeypatch):
    """The lab only needs the core contract: the toy game of the core tests."""
    toy = GameSpec(id="toy", name="Toy", game=Ref("tests.core.toy:GAME"))
    monkeypatch.setitem(specs(), "toy", toy)
    tally = simulate(SimSpec("toy", RANDOM2, 300, seed=1)).tally
    assert tally.games == 300
    assert not tally.entities and not tally.cards
    assert sum(c[0] for c in tally.counts("agents").values()) == 600
    assert Counter(tally.reasons) == {"showdown": 300}


def test_bad_specs_are_refused():
    with pytest.raises(OptionsError):
        SimSpec("sfrivals", (), 10, seed=1)
    with pytest.raises(OptionsError):
        SimSpec("sfrivals", RANDOM2, 10, seed=1, design="nope")
    with pytest.raises(OptionsError, match="needs 2-2 players"):
        Runner(SimSpec("sfrivals", (("random",) * 3,), 10, seed=1))
    with pytest.raises(OptionsError):
        simulate(SimSpec("sfrivals", RANDOM2, 10, seed=1), jobs=0)


def test_chunks_cover_the_games_once():
    for games, jobs in ((0, 1), (1, 2), (1000, 2), (12345, 8)):
        ranges = list(chunks(games, jobs))
        covered = [i for a, b in ranges for i in range(a, b)]
        assert covered == list(range(games))
