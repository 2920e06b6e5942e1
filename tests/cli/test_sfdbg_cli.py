"""``kumite play/replay/cards`` with SF DBG."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kumite.cli.main import app

runner = CliRunner()


def test_play_three_bots_record_and_replay_with_each_seats_vp(tmp_path):
    record = tmp_path / "game.json"
    result = runner.invoke(
        app,
        [
            "play",
            "sfdbg",
            "--players",
            "greedy,priority,random",
            "--seed",
            "5",
            "--record",
            str(record),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    played = json.loads(result.output)
    assert len(played["outcome"]["vp"]) == 3
    result = runner.invoke(app, ["replay", str(record), "--json"])
    assert result.exit_code == 0, result.output
    replayed = json.loads(result.output)
    assert replayed["outcome"] == played["outcome"]
    assert [s["vp"] for s in replayed["seats"]] == played["outcome"]["vp"]
    assert all("hand" not in s for s in replayed["seats"])


def test_play_with_heroes_and_a_variant():
    result = runner.invoke(
        app,
        [
            "play",
            "sfdbg",
            "--players",
            "random,random",
            "--heroes",
            "ryu,-",
            "--variant",
            "high-powered",
            "--seed",
            "2",
            "--rule",
            "round_limit=3",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["outcome"]["heroes"][0] == "ryu"


def test_bad_play_options_are_one_line_errors():
    for args in (
        ["--players", "random"],
        ["--players", "random,random", "--heroes", "ryu"],
        ["--players", "random,random", "--variant", "turbo"],
        ["--players", "random,random", "--rule", "round_limit=many"],
    ):
        result = runner.invoke(app, ["play", "sfdbg", *args, "--json"])
        assert result.exit_code == 2, (args, result.output)
        assert "error" in result.output


def test_cards_json_lists_221_cards_and_14_heroes_with_provenance():
    result = runner.invoke(app, ["cards", "sfdbg", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert sum(c["copies"] for c in data["cards"]) == 221
    assert len(data["heroes"]) == 14
    hadoken = next(c for c in data["cards"] if c["id"] == "hadoken")
    assert hadoken["provenance"]["cost"]["from"] == "source:TTS"
    assert hadoken["provenance"]["text"]["from"] == "reconstructed"
    assert "TTS" in data["sources"]


def test_cards_table_shows_provenance_marks():
    result = runner.invoke(app, ["cards", "sfdbg", "--only", "kick"])
    assert result.exit_code == 0
    assert "+2 Power*" in result.output and "estimate" in result.output


def test_rules_lists_sfdbg_references():
    result = runner.invoke(app, ["rules", "sfdbg"])
    assert result.exit_code == 0
    assert "sfdbg.attack.one-defense" in result.output
