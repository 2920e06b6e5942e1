"""scripts/rivales_odds.py: the bots' disagreement and the chance the balance check passes."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.games.rivales.helpers import SCRIPTS, script

sys.path.insert(0, str(SCRIPTS))

import rivales_odds
from rivales_balance import PAIRING, wilson


def table(agent: str, fights: int, matchups: dict[str, float]) -> str:
    fighters = sorted({f for k in matchups for f in k.split("|")})
    both = {**matchups, **{"|".join(k.split("|")[::-1]): 1 - v for k, v in matchups.items()}}
    return json.dumps(
        {
            "agent": agent,
            "fights_per_pair": fights,
            "fighters": {f: {} for f in fighters},
            "matchups": both,
        }
    )


def odds(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return script("rivales_odds.py", str(path), *extra, timeout=120)


def test_save_writes_the_json_lines_that_the_odds_script_reads(tmp_path):
    saved = tmp_path / "t.jsonl"
    args = ["--agent", "greedy,random", "--fights", "2", "-j", "1", "--seed", "5"]
    args += ["--fighters", "zorro,curie,darwin"]
    printed = script("rivales_balance.py", *args, "--json")
    assert printed.returncode == 0, printed.stderr
    shown = script("rivales_balance.py", *args, "--save", str(saved))
    assert shown.returncode == 0, shown.stderr
    assert "every pairing within [0.40, 0.60]" in shown.stdout  # the tables are still printed
    assert saved.read_text().splitlines() == printed.stdout.splitlines()
    done = odds(saved, "--trials", "200", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["agents"] == ["greedy", "random"] and out["fights_per_pair"] == 2
    assert 0 <= out["chance_all_half"] <= 1 and "disagreement" in out


def test_spread_and_disagreement_match_a_hand_computed_case():
    # two agents reading three pairings 0.55 / 0.5 / 0.45 and 0.45 / 0.5 / 0.55: each departs
    # from 1/2 by rms sqrt((0.0025 + 0 + 0.0025) / 3); each lies that far from their mean, too
    keys = ["a|b", "a|c", "b|c"]
    scores = np.array([[0.55, 0.5, 0.45], [0.45, 0.5, 0.55]])
    out = rivales_odds.odds(["x", "y"], keys, scores, 10**8, 200, 2000, 3)
    rms = round(math.sqrt(0.005 / 3), 3)
    assert out["spread"] == {a: {"sd": rms, "not_noise": rms} for a in ("x", "y")}
    assert out["disagreement"]["sd"] == rms == out["disagreement"]["not_noise"]
    assert list(out["disagreement"]["widest"])[:2] == ["a|b", "b|c"]  # ties in table order
    # their mean already reads every pairing 1/2: halfway between them is this pack, and a
    # pack read 1/2 by both passes more often
    assert abs(out["chance_halfway"] - out["chance_this_pack"]) < 0.01
    assert 0 < out["chance_this_pack"] < out["chance_all_half"]


def test_departures_no_larger_than_the_noise_shrink_to_nothing():
    noise = 0.5 / math.sqrt(200)
    assert np.all(rivales_odds.shrink(np.array([noise, -noise, noise]), noise) == 0)
    kept = rivales_odds.shrink(np.array([2 * noise, -2 * noise]), noise)
    assert np.allclose(kept, [1.5 * noise, -1.5 * noise])  # (4 - 1) / 4 of each


def test_the_simulated_check_matches_the_exact_chance_for_one_pairing():
    # two fighters, one pairing read 0.55 at n fights: the check passes when the score s/n is
    # within the pairing band and both fighters' Wilson intervals contain 1/2
    n, p = 60, 0.55
    low, high = PAIRING

    def passes(s: int) -> bool:
        mine, theirs = wilson(s, n), wilson(n - s, n)
        halves = all(lo <= 0.5 <= hi for lo, hi in (mine, theirs))
        return bool(low <= s / n <= high and halves)

    exact = sum(math.comb(n, s) * p**s * (1 - p) ** (n - s) for s in range(n + 1) if passes(s))
    trials = 40000
    simulated = rivales_odds.check_chance(np.array([[p]]), ["a|b"], n, trials, 11)
    assert abs(simulated - exact) < 4 * math.sqrt(exact * (1 - exact) / trials)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "No such file"),
        ("{not json", "not rivales_balance.py --json output"),
        ('{"agent": "greedy"}', "not rivales_balance.py --json output"),
        (
            table("greedy", 200, {"a|b": 0.5}) + "\n" + table("random", 100, {"a|b": 0.5}),
            "differ in fights per pairing",
        ),
    ],
)
def test_bad_input_is_one_line_naming_it(tmp_path, content, words):
    path = tmp_path / "t.jsonl"
    if content is not None:
        path.write_text(content)
    bad = odds(path)
    assert bad.returncode == 1 and words in bad.stderr and "Traceback" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
