"""Restricted play values (Jaffe et al. 2012), flagged games, and the batched tally."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kumite.core.decision import Decision
from kumite.games.sfrivals.game import GAME as SFR
from kumite.sim.adapters import adapter_for
from kumite.sim.analysis import analyze
from kumite.sim.backends import simulate
from kumite.sim.banned import Restricted
from kumite.sim.engine import SimSpec, Tally
from kumite.sim.restricted import card_values, difference, entity_values

STRONG = """
[pack]
id = "strong-hadouken"
base = "sfrivals-base"
game = "sfrivals"
version = "1"
title = "Planted imbalance"

[[cards]]
id = "ryu.hadouken"
damage = 6
"""


def test_an_entitys_value_is_what_a_side_loses_without_it_hand_computed():
    """Three entities, each ordered pair as (games, row won, draws), both orders:
    A-B: A won 30 of 40, B 10; A-C: A won 20 of 40, C 20; B-C: B won 8, C 8, 4 drawn.
    Without A a side picks B or C: its rows B-A (10 of 40), B-C (8 of 16 decisive),
    C-A (20 of 40), C-B (8 of 16): 46 of 112 decisive, a share of 46/112;
    A's value = 1/2 - 46/112 = 10/112. Without B: rows A-B 30, A-C 20, C-A 20, C-B 8 =
    78 of 136, value 1/2 - 78/136 = -10/136 (a side is better off without B)."""
    pairs = {
        ("A", "B"): [40, 30, 0],
        ("B", "A"): [40, 10, 0],
        ("A", "C"): [40, 20, 0],
        ("C", "A"): [40, 20, 0],
        ("B", "C"): [20, 8, 4],
        ("C", "B"): [20, 8, 4],
    }
    values = {r["entity"]: r for r in entity_values(pairs)}
    assert values["A"]["value"] == pytest.approx(0.5 - 46 / 112, abs=1e-6)
    assert values["B"]["value"] == pytest.approx(0.5 - 78 / 136, abs=1e-6)
    assert values["A"]["decisive"] == 112
    a = values["A"]
    assert a["low"] < a["value"] < a["high"]
    # the interval is the Wilson interval of 46/112, mirrored about 1/2
    from kumite.sim.stats import proportion

    p = proportion(46, 112)
    assert (a["low"], a["high"]) == pytest.approx((0.5 - p.high, 0.5 - p.low), abs=1e-6)


def test_a_cards_value_is_the_share_difference_with_its_interval():
    # may: 60 won of 100 decisive (10 draws); may not: 40 of 100
    r = difference([110, 60, 10], [100, 40, 0])
    assert r["value"] == pytest.approx(0.2)
    se = (0.6 * 0.4 / 100 + 0.4 * 0.6 / 100) ** 0.5
    assert (r["low"], r["high"]) == pytest.approx((0.2 - 1.96 * se, 0.2 + 1.96 * se), abs=1e-3)


def test_the_restricted_agent_never_plays_its_banned_card_unless_forced():
    class First:
        name = "first"
        needs_view = False

        def choose(self, view, decision):
            return decision.legal[0]

    card = adapter_for("sfrivals").choice_card
    agent = Restricted(First(), frozenset({"ryu.hadouken"}), card)
    legal = ("play:ryu.hadouken", "play:ryu.jab")
    assert agent.choose({}, Decision(0, "play", legal)) == "play:ryu.jab"
    forced = ("play:ryu.hadouken",)
    assert agent.choose({}, Decision(0, "play", forced)) == "play:ryu.hadouken"


@pytest.mark.slow
def test_a_card_made_too_strong_is_worth_most_to_its_owner():
    """Hadouken at 6 Damage: a Ryu who may not play it loses much of his win share."""
    base = SimSpec("sfrivals", (("random", "random"),), 0, seed=4, options={"pack": STRONG})
    owners = adapter_for("sfrivals").card_owners(SFR, {"pack": STRONG})
    rows = card_values(base, ["ryu.hadouken", "ryu.jab"], 1600, owners, jobs=2)
    by = {r["card"]: r for r in rows}
    assert by["ryu.hadouken"]["low"] > 0  # significantly positive
    assert by["ryu.hadouken"]["value"] > by["ryu.jab"]["value"]


def test_games_at_a_limit_and_rare_ends_are_flagged_with_their_seeds():
    """SF DBG with a round limit of 1: every game stops at the limit rule; each flagged
    seed replays to the same end."""
    spec = SimSpec("sfdbg", (("random", "random"),), 12, seed=3, options={"round_limit": 1})
    result = simulate(spec, jobs=1)
    tally = result.tally
    assert tally.flags["limit"] == 12
    a = analyze(tally)
    limit = next(f for f in a["flags"] if f["flag"] == "limit")
    assert limit["games"] == 12 and len(limit["examples"]) == 12
    index, seed = limit["examples"][0]
    row = next(r for r in result.rows if r[0] == index)
    assert row[1] == seed and "round" in row[5]
    # the same flags whatever the chunks (the lowest indices are kept)
    again = simulate(spec, jobs=2, chunk_size=5).tally
    assert again.flagged == tally.flagged
    assert Tally.from_json(json.loads(json.dumps(tally.to_json()))).flagged == tally.flagged


def test_a_repeated_position_is_flagged_when_asked():
    spec = SimSpec("sfrivals", (("random", "random"),), 5, seed=3, loops=True, fast=False)
    tally = simulate(spec, jobs=1).tally
    assert tally.flags.get("loop", 0) == 0  # a fight never comes back to a position
    # every game at the same position twice: the adapter's key says so
    adapter = adapter_for("sfrivals")
    original = adapter.position
    adapter.position = lambda state: "same"  # type: ignore[method-assign]
    try:
        from kumite.sim.engine import Runner

        runner = Runner(spec)
        _, _, summary = runner.play(0)
        assert "loop" in runner.flags(summary)
    finally:
        adapter.position = original  # type: ignore[method-assign]


def test_the_batched_tally_counts_like_one_game_at_a_time():
    """The same fights (same seeds, characters fixed) counted on arrays in one compiled
    pass and one by one through Tally.add give the same tables."""
    adapter = adapter_for("sfrivals")
    options = {"characters": ["ryu", "ken"]}
    prepared = adapter.prepare(SFR, options)
    seeds = np.arange(1000, 1400, dtype=np.int64)
    batch = adapter.batch_games(SFR, prepared, seeds, None, ())
    vector = Tally()
    vector.add_batch(("random", "random"), batch, True, np.arange(400), seeds)
    one = Tally()
    for i, summary in enumerate(adapter.batch_random(SFR, prepared, seeds.tolist())):
        one.add(("random", "random"), summary, True, i, int(seeds[i]))
    assert json.dumps(vector.to_json(), sort_keys=True) == json.dumps(one.to_json(), sort_keys=True)
