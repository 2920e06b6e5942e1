"""scripts/rivales_screen.py: one step of each value, each fight played on the same seeds."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.games.rivales.helpers import script


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """The script on Darwin against Hansel & Gretel, with ``args``."""
    return script("rivales_screen.py", "--pair", "darwin:hansel-gretel", *args)


def screen(*extra: str) -> dict:
    done = run("--fights", "4", "-j", "1", "--seed", "7", "--json", *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_single_step_within_its_range_is_played_against_the_same_seeds():
    out = screen("--vary", "darwin.pinzon:speed", "--vary", "darwin:life", "--range", "speed=1..5")
    rows = out["agents"]["greedy"]
    # Pico de Pinzón's Speed is 5 and the range stops there: only 5 -> 4; life 10 -> 9 and 11
    assert [r["move"] for r in rows] == [
        "start",
        "darwin.pinzon.speed 5 -> 4",
        "darwin.life 10 -> 9",
        "darwin.life 10 -> 11",
    ]
    start = rows[0]["darwin|hansel-gretel"]
    assert start["change"] == 0 and start["se"] == 0  # the start against itself, seed for seed
    assert all(0 <= r["darwin|hansel-gretel"]["score"] <= 1 for r in rows)
    assert (
        screen("--vary", "darwin.pinzon:speed", "--vary", "darwin:life", "--range", "speed=1..5")
        == out
    )  # the same seed, the same screen


def test_only_plays_the_named_moves():
    out = screen("--vary", "darwin*:speed", "--only", "darwin.pinzon.speed=6")
    assert [r["move"] for r in out["agents"]["greedy"]] == ["start", "darwin.pinzon.speed 5 -> 6"]


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--only", "zorro.latigazo.speed=4"], "no value 'zorro.latigazo.speed'"),
        (["--range", "speed=fast"], "bad --range 'speed=fast'"),
        (["--only", "darwin.pinzon.speed=9"], "darwin.pinzon.speed may be 4..6"),
        (["--vary", "nobody:speed"], "names no integer value"),
        (["--start", "/nonexistent/pack.toml"], "cannot read"),
    ],
)
def test_bad_input_is_one_line_naming_it(extra, words):
    bad = run("--vary", "darwin*:speed", *extra)
    assert bad.returncode == 2 and words in bad.stderr and "Traceback" not in bad.stderr
