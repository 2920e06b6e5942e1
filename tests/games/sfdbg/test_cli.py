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


def test_cards_table_shows_copies_stage_numbers_kicks_type_mark_and_variable_vp():
    result = runner.invoke(app, ["cards", "sfdbg"], env={"COLUMNS": "160"})
    assert result.exit_code == 0
    rows = {line.split("│")[1].strip(): line for line in result.output.splitlines() if "│" in line}
    assert "×36" in rows["Punch"] and "×3†" in rows["Juri"]  # copies; the main deck's: †
    assert "Super Power*" in rows["Kick"]
    assert "Location, Stage 1 " in rows["USA"] and "Location, Stage 2*" in rows["Hong Kong"]
    cells = [c.strip() for c in rows["Agents of Shadaloo"].split("│")]
    assert "★" in cells and "*" not in cells  # printed variable VP, not an estimate
    assert "★ VP — printed on the card" in result.output
    assert "† reconstructed" in result.output and "* estimate" in result.output


def test_play_in_the_terminal_prints_turn_headings_without_rule_tags_and_each_draw_once():
    """A scripted game at the terminal (the human always takes the first choice)."""
    result = runner.invoke(
        app,
        [
            "play",
            "sfdbg",
            "--players",
            "human,priority-attack",
            "--heroes",
            "ryu,dhalsim",
            "--seed",
            "3",
            "--rule",
            "round_limit=3",
        ],
        input="1\n" * 200,
        env={"COLUMNS": "140"},
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    turns = [line for line in lines if "— Turn " in line and "•" in line]
    assert turns and not any("[sfdbg." in line for line in turns)
    mine = [line for line in lines if "Player 1 draws" in line]
    assert mine and all(":" in line.split("draws", 1)[1] for line in mine)  # named, once
    theirs = [line for line in lines if "Player 2 draws" in line]
    assert theirs and not any(":" in line.split("draws", 1)[1].split("[")[0] for line in theirs)
    assert "★ VP — printed on the card" in result.output  # the legend under the table
