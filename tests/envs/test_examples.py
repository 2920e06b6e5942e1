"""examples/: one short script per API, run as a user runs them."""

from __future__ import annotations

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
