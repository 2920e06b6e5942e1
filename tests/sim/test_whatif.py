"""What-if packs: a planted imbalance is found; an unchanged pack finds nothing."""

from __future__ import annotations

import dataclasses

from kumite.games.sfrivals.cards import load_catalog
from kumite.sim.analysis import analyze
from kumite.sim.backends import simulate
from kumite.sim.engine import SimSpec
from kumite.sim.whatif import compare

STRONG = """
[pack]
id = "strong-hadouken"
base = "sfrivals-base"
game = "sfrivals"
version = "1"
title = "Planted imbalance: Ryu's Hadouken hits for 6"

[[cards]]
id = "ryu.hadouken"
damage = 6
"""

BASE = SimSpec("sfrivals", (("random", "random"),), 3000, seed=2024)


def whatif(pack: str) -> list[dict]:
    load_catalog(pack)  # a valid overlay
    after = dataclasses.replace(BASE, options={"pack": pack}, label="pack", stream="pack")
    return compare(simulate(BASE, jobs=2).tally, simulate(after, jobs=2).tally)


def find(rows, kind, key):
    return next(r for r in rows if r["kind"] == kind and r["key"] == key)


def test_planted_imbalance_is_detected_as_significant():
    rows = whatif(STRONG)
    ryu = find(rows, "win rate", "ryu")
    card = find(rows, "win rate when played", "ryu.hadouken")
    for row in (ryu, card):
        assert row["significant"], row
        assert row["diff"] > 0.1
        assert row["q"] < 1e-4
        assert row["before"]["high"] < row["after"]["low"]  # the intervals part
    # the rest of the roster is not called stronger
    others = [r for r in rows if r["kind"] == "win rate" and r["key"] != "ryu"]
    assert not any(r["significant"] and r["diff"] > 0 for r in others)


def test_a_pack_that_changes_nothing_shows_no_significant_difference():
    """An A/A comparison: independent games, same cards. Benjamini-Hochberg keeps the
    chance of any false alarm at most 5% under the null."""
    same = STRONG.replace("damage = 6", "damage = 1")  # Hadouken's shipped value
    rows = whatif(same)
    assert len(rows) > 80
    assert not [r for r in rows if r["significant"]]
    assert all(0 <= r["p"] <= 1 and r["q"] >= r["p"] for r in rows)


def test_analysis_reports_card_impact_by_round_with_intervals():
    tally = simulate(dataclasses.replace(BASE, games=400)).tally
    a = analyze(tally, entity="character", turn="round")
    impact = a["cards"]["impact"]
    assert len(impact) == len(load_catalog().cards)  # every card type of the 8 characters
    for row in impact:
        w = row["with"]["win"]
        assert w["low"] <= w["rate"] <= w["high"]
        assert row["with"]["n"] + row["without"]["n"] == next(
            e["n"] for e in a["entities"]["table"] if e["name"] == row["scope"]
        )
    rounds = {r["when"] for r in a["cards"]["by_when"]}
    assert rounds == set(range(1, 9))
    supers = [r for r in a["cards"]["by_when"] if r["card"] == "ryu.shinkuu-hadouken"]
    assert supers and min(r["when"] for r in supers) >= 5  # Super Combos: round 5 on
    matchups = a["entities"]["matchups"]
    assert len(matchups["names"]) == 8 and len(matchups["cells"]) == 64
    assert [r["name"] for r in a["entities"]["ratings"]] != []
