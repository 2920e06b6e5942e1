"""Acceptance of a game kumite does not ship: the toy game of ``tests/plugins``, registered
only by its distribution's entry point (on ``PYTHONPATH``, as the suite's conftest sets),
is listed, played and simulated by the ``kumite`` command like any other game."""

from __future__ import annotations

import json
import subprocess
import sys


def kumite(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kumite.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_kumite_games_lists_the_installed_toy_game():
    done = kumite("games", "--json")
    assert done.returncode == 0, done.stderr
    toy = next(g for g in json.loads(done.stdout) if g["id"] == "toy")
    assert toy["name"] == "Toy poker"
    assert toy["options"] == [
        {"name": "cards", "type": "int", "default": 6, "doc": "Cards in the deck (3 to 20)."}
    ]
    assert toy["faces"] == [] and "ismcts" in toy["agents"]


def test_kumite_play_plays_the_toy_game_with_its_declared_option():
    done = kumite("play", "toy", "-p", "random,ismcts-easy", "--option", "cards=4", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["outcome"]["rule"] == "toy.showdown"
    bad = kumite("play", "toy", "-p", "random,random", "--option", "cards=99")
    assert bad.returncode == 2 and "<= 20 - at `$.cards`" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_kumite_sim_simulates_the_toy_game():
    done = kumite("sim", "toy", "-n", "60", "-j", "1", "--seed", "3", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["game"] == "toy" and result["game_name"] == "Toy poker"
    assert result["runs"][0]["tally"]["games"] == 60
