"""Acceptance of a game kumite does not ship: the toy game of ``tests/plugins``, registered
only by its distribution's entry point (on ``PYTHONPATH``, as the suite's conftest sets),
is listed, played and simulated by the ``kumite`` command like any other game."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


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
    assert toy["players"] == [2, 4]
    options = {o["name"]: o for o in toy["options"]}
    assert options["cards"] == {
        "name": "cards", "type": "int", "default": 6, "doc": "Cards in the deck (3 to 20)."
    }  # fmt: skip
    assert options["mode"]["choices"] == ["1v1", "2v2"]
    assert (options["raises"]["type"], options["dealer"]["type"]) == ("bool", "str")
    assert toy["faces"] == ["solver"] and "ismcts" in toy["agents"]


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


def test_kumite_solve_runs_the_toy_games_own_solver_command_with_its_own_flag():
    """A game's solver is its own sub-command (its spec's ``solver``: a Typer app): its flags
    (the toy's ``--card``) beside the ones every game shares (``--option``, ``--json``)."""
    listed = kumite("solve", "--help")
    assert listed.returncode == 0 and "toy" in listed.stdout
    own = kumite("solve", "toy", "--help")
    assert own.returncode == 0
    assert all(flag in own.stdout for flag in ("--card", "--option", "--pack", "--json"))
    done = kumite("solve", "toy", "--option", "cards=4", "--card", "4", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [{"card": 4, "win": 1.0, "tie": 0.0, "loss": 0.0}]
    teams = kumite("solve", "toy", "-o", "mode=2v2", "-o", "cards=4", "--card", "1", "--json")
    assert teams.returncode == 0, teams.stderr  # 2v2's four seats: a tie only beside the 4
    (row,) = json.loads(teams.stdout)
    assert (row["win"], row["tie"], row["loss"]) == pytest.approx((0, 1 / 3, 2 / 3))
    for bad, words in [(("--card", "9"), "--card must be 1..6"), (("--cards", "3"), "--cards")]:
        refused = kumite("solve", "toy", *bad)
        assert refused.returncode == 2 and words in refused.stderr
        assert "Traceback" not in refused.stderr
