"""examples/: one short script per API, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.needs("pettingzoo")
def test_random_play() -> None:
    out = run("random_play.py", "--seed", "2")
    assert out.count("player_0") == 3


@pytest.mark.needs("gymnasium")
def test_gymnasium_vector_loop() -> None:
    out = run("gymnasium_vector.py", "--steps", "60", "--envs", "4")
    assert "fights ended" in out and "(4, 278)" in out


@pytest.mark.needs("pyspiel")
def test_openspiel_cfr_on_the_reduced_variant() -> None:
    out = run("openspiel_cfr.py", "--iterations", "1000")
    gap = float(out.split("exploitability ")[1].split(",")[0])
    assert gap <= 1e-3


@pytest.mark.slow
@pytest.mark.parametrize("api", ["gymnasium", "pettingzoo"])
def test_selfplay_improves_on_its_first_snapshot(api: str) -> None:
    """examples/selfplay_maskable_ppo.py (sb3-contrib's MaskablePPO against a pool of its
    own snapshots; short and seeded): the trained policy beats its first snapshot — the
    lower end of the 95% interval of its mean return against it is above 0."""
    out = run(
        "selfplay_maskable_ppo.py",
        *("--steps", "10000", "--eval-games", "200", "--against", "", "--api", api, "--json"),
    )
    result = json.loads(out)
    assert result["against"]["snapshot-0"]["games"] == 200
    low, _high = result["against"]["snapshot-0"]["mean_95"]
    assert low > 0, result["against"]


@pytest.mark.slow
@pytest.mark.needs("sb3_contrib")
def test_sb3_exploit_trains_on_the_batched_engine_then_measures_exactly() -> None:
    """examples/sb3_exploit.py (MaskablePPO through the SB3 adapter of the batched engine,
    seeded, then the exact exploitability of the network both ways): three labelled exact
    figures in [0, 1], the same on a second run (~60 s each on the loaded machine)."""
    args = ("--steps", "2048", "--pack", "short_duel", "--seed", "1")
    first = run("sb3_exploit.py", *args)
    lines = [line for line in first.splitlines() if "exploitability" in line]
    assert [line.split(":")[0] for line in lines] == ["uniform random", "sampled", "greedy"]
    for line in lines:
        assert "(exact;" in line
        assert 0.0 <= float(line.split("exploitability ")[1].split(" ")[0]) <= 1.0
    again = [line for line in run("sb3_exploit.py", *args).splitlines() if "exploit" in line]
    assert [line.split(" (exact")[0] for line in again] == [
        line.split(" (exact")[0] for line in lines
    ]
