"""The kumite command line: play, replay, cards, rules, match."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from kumite.cli.main import app
from tests.hidden import hiding_env

runner = CliRunner()


def kumite(*args, input=None):
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def test_play_bots_to_the_end_without_input_and_record_replays_identically(tmp_path):
    path = tmp_path / "game.json"
    result = kumite(
        "play",
        "sfrivals",
        "--players",
        "greedy,random",
        "--seed",
        "3",
        "--record",
        str(path),
        "--json",
    )
    assert result.exit_code == 0, result.output
    played = json.loads(result.output)
    assert played["seed"] == 3
    assert played["players"] == ["greedy", "random"]
    replayed = kumite("replay", str(path), "--json")
    assert replayed.exit_code == 0, replayed.output
    data = json.loads(replayed.output)
    assert data["outcome"] == played["outcome"]
    assert [s["life"] for s in data["seats"]] == played["outcome"]["lives"]
    assert data["events"][0]["type"] == "CharacterChosen"
    assert all({"step", "type", "rule", "text"} <= set(e) for e in data["events"])


def test_play_shows_the_explained_resolution():
    result = kumite("play", "--players", "greedy,greedy", "--characters", "ryu,ken", "--seed", "1")
    assert result.exit_code == 0
    assert "reveals" in result.output
    assert "[sfr.round." in result.output
    assert "Result" in result.output


def test_human_plays_against_the_bot_by_numbers():
    result = kumite(
        "play",
        "--players",
        "human,greedy",
        "--characters",
        "ryu,ken",
        "--seed",
        "4",
        input="1\n" * 40,
    )
    assert result.exit_code == 0, result.output
    assert "Keep 8 of your 10 cards" in result.output
    assert "Your hand" in result.output
    assert "Result" in result.output


def test_hot_seat_hands_over_the_terminal_between_turns():
    result = kumite(
        "play",
        "--players",
        "human,human",
        "--characters",
        "ryu,ken",
        "--seed",
        "4",
        input="1\n" * 200,
    )
    assert result.exit_code == 0, result.output
    assert "Pass the terminal to Player 2" in result.output
    assert "Result" in result.output


def test_replay_text_mode(tmp_path):
    path = tmp_path / "g.json"
    kumite("play", "--players", "random,random", "--seed", "8", "--record", str(path), "--quiet")
    result = kumite("replay", str(path))
    assert result.exit_code == 0
    assert "replay of g.json" in result.output
    assert "step 1" in result.output


def test_corrupted_record_is_a_one_line_error(tmp_path):
    path = tmp_path / "g.json"
    kumite("play", "--players", "random,random", "--seed", "8", "--record", str(path), "--quiet")
    data = json.loads(path.read_text())
    data["steps"][2] = {"0": "play:ryu.nothing", "1": data["steps"][2].get("1", "x")}
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1
    assert "g.json: step 3" in lines[0]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            '[pack]\nid="m"\ngame="sfrivals"\n[[cards]]\nid="ryu.jab"\ndamage="x"\n',
            "card 'ryu.jab': field 'damage'",
        ),
        ("not toml [", "invalid TOML"),
    ],
)
def test_bad_pack_is_a_one_line_error(tmp_path, text, words):
    path = tmp_path / "mine.toml"
    path.write_text(text)
    result = runner.invoke(app, ["play", "--players", "random,random", "--pack", str(path)])
    assert result.exit_code == 2
    assert words in result.output
    assert "mine.toml" in result.output


def test_pack_overlay_is_used_and_recorded(tmp_path):
    pack = tmp_path / "mine.toml"
    pack.write_text('[pack]\nid="m"\ngame="sfrivals"\n[[cards]]\nid="ryu.jab"\ndamage=5\n')
    record = tmp_path / "g.json"
    result = kumite(
        "play",
        "--players",
        "random,random",
        "--seed",
        "2",
        "--pack",
        str(pack),
        "--record",
        str(record),
        "--quiet",
    )
    assert result.exit_code == 0
    assert "damage=5" in json.loads(record.read_text())["options"]["pack"]
    assert kumite("replay", str(record), "--json").exit_code == 0
    listing = json.loads(kumite("cards", "--pack", str(pack), "--json").output)
    jab = next(c for c in listing["cards"] if c["id"] == "ryu.jab")
    assert jab["damage"] == 5
    assert jab["provenance"]["damage"]["from"] == "source:m"


def test_cards_json_lists_every_card_with_provenance():
    data = json.loads(kumite("cards", "sfrivals", "--json").output)
    assert len(data["cards"]) == 71
    assert sum(c["copies"] for c in data["cards"]) == 80
    for card in data["cards"]:
        assert {"character", "name", "initiative", "damage", "power"} <= set(card)
        assert {"initiative", "damage", "name"} <= set(card["provenance"])
    assert data["rules"]["life"] == {
        "value": 10,
        "from": "source:4G",
        "note": "the winner is whoever first deals 10 damage in total",
    }


def test_cards_table_marks_estimates():
    result = kumite("cards", "--only", "ryu")
    assert "Shoryuken" in result.output
    assert "2*" in result.output
    assert "estimate" in result.output


def test_rules_lists_references_and_rulings():
    result = kumite("rules", "sfrivals")
    assert "sfr.ruling.swap" in result.output
    assert "sfr.powers.check-printed-initiative" in result.output


def test_match_tournament_and_team_json():
    data = json.loads(
        kumite(
            "match", "--players", "greedy:ryu,random:ken", "--fights", "3", "--seed", "1", "--json"
        ).output
    )
    assert sum(r["points"] for r in data["standings"]) in range(6, 7)
    data = json.loads(
        kumite("match", "--entrants", "greedy,random,random:juri", "--seed", "1", "--json").output
    )
    assert len(data["fights"]) == 3
    data = json.loads(
        kumite(
            "match",
            "--team-a",
            "greedy:ryu,greedy:ken",
            "--team-b",
            "random:guile,random:juri",
            "--scoring",
            "win1",
            "--json",
        ).output
    )
    assert len(data["team_points"]) == 2


def test_match_rivales_one_vs_one_with_fighters():
    data = json.loads(
        kumite(
            "match",
            "rivales",
            "--players",
            "greedy:zorro,random:curie",
            "--fights",
            "2",
            "--seed",
            "3",
            "--json",
        ).output
    )
    assert [r["entrant"] for r in data["standings"]] != []
    assert len(data["fights"]) == 2


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "--players", "greedy"], "needs 2-2 players"),
        (["play", "--players", "random,genius"], "no agent 'genius'"),
        (
            ["play", "--players", "random,random", "--characters", "ryu,blanka"],
            "unknown character 'blanka'",
        ),
        (["play", "--players", "random,random", "--rule", "swap"], "--rule needs KEY=VALUE"),
        (["play", "--players", "random,random", "--rule", "swap=sideways"], "sfrivals options"),
        (["replay", "/nonexistent.json"], "cannot read"),
        (["match", "--players", "greedy"], "--players needs two entrants"),
    ],
)
def test_bad_input_is_a_one_line_error(args, words):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert words in result.output


HAND_12 = '[pack]\nid="m"\ngame="sfrivals"\nbase="sfrivals-base"\n[rules]\nhand = 12\n'


@pytest.mark.parametrize(
    "args",
    [
        ["play", "sfrivals", "--players", "random,random", "--seed", "6", "--quiet"],
        ["solve", "sfrivals", "--characters", "ryu,ken", "--no-cache"],
        ["sim", "sfrivals", "--games", "4"],
        ["cards", "sfrivals"],
    ],
    ids=lambda a: a[0],
)
def test_pack_with_hand_12_is_one_line_naming_file_and_field_in_every_command(tmp_path, args):
    path = tmp_path / "mine.toml"
    path.write_text(HAND_12)
    result = runner.invoke(app, [*args, "--pack", str(path)])
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.output  # no traceback
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines == [
        "error: mine.toml: field 'rules.hand': 12 is outside 1..8: "
        "the number of rounds: a player keeps 8 of their 10 cards"
    ]


def test_replay_of_a_record_whose_pack_has_hand_12_is_one_line(tmp_path):
    pack = tmp_path / "mine.toml"
    pack.write_text(HAND_12.replace("hand = 12", "hand = 8"))
    record = tmp_path / "g.json"
    kumite(
        "play",
        "--players",
        "random,random",
        "--seed",
        "6",
        "--pack",
        str(pack),
        "--record",
        str(record),
        "--quiet",
    )
    data = json.loads(record.read_text())
    data["options"]["pack"] = data["options"]["pack"].replace("hand = 8", "hand = 12")
    record.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1
    assert "g.json: options: " in lines[0] and "field 'rules.hand': 12 is outside 1..8" in lines[0]


def test_error_quoting_a_pack_table_keeps_its_brackets(tmp_path):
    # the message cites "[sources]": a rich markup tag would swallow it
    path = tmp_path / "mine.toml"
    path.write_text(
        '[pack]\nid="m"\ngame="sfrivals"\n[[cards]]\nid="ryu.jab"\n'
        'damage = { value = 3, from = "source:NOPE" }\n'
    )
    result = runner.invoke(app, ["cards", "sfrivals", "--pack", str(path)])
    assert result.exit_code == 2
    assert "unknown source key 'NOPE': cite one of [sources] (" in result.output


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (["sim", "sfrivals", "--games", "2"], "lab"),
        (["balance", "sfrivals"], "lab"),
        (["solve", "sfrivals", "--characters", "ryu,ken"], "solver"),
        (["play", "sfrivals", "--players", "bounded,random", "--quiet"], "solver"),
    ],
)
def test_without_an_extra_its_commands_and_bots_name_it_in_one_line(tmp_path, args, extra):
    """As after `make serve` (numba, SciPy, matplotlib and cma hidden): a command or bot that
    needs the solver or the lab says which extra to install, in one line, exit code 2."""
    done = subprocess.run(
        [sys.executable, "-m", "kumite.cli.main", *args],
        capture_output=True, text=True, timeout=120, check=False,
        env={**hiding_env(tmp_path), "COLUMNS": "200", "NO_COLOR": "1"},
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().startswith("error: ")
    assert f"pip install 'kumite[{extra}]'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
