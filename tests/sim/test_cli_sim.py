"""``kumite sim`` and ``kumite report`` from the command line."""

from __future__ import annotations

import csv
import io
import json

from typer.testing import CliRunner

from kumite.cli.main import app

runner = CliRunner()

PACK = """
[pack]
id = "what-if"
base = "sfrivals-base"
game = "sfrivals"
version = "1"
title = "Ken's Hadouken hits for 5"

[[cards]]
id = "ken.hadouken"
damage = 5
"""


def kumite(*args):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_sim_prints_json_with_statistics_and_is_reproducible():
    args = ("sim", "sfrivals", "-n", "200", "-j", "1", "--seed", "5", "--json")
    first = kumite(*args)
    assert first.exit_code == 0, first.output
    doc = json.loads(first.output)
    assert doc["format"] == "kumite-sim/1" and doc["game"] == "sfrivals"
    (run,) = doc["runs"]
    a = run["analysis"]
    assert a["games"] == 200 and run["spec"]["seed"] == 5
    assert {s["seat"] for s in a["seats"][0]["seats"]} == {0, 1}
    assert len(a["entities"]["table"]) == 8
    again = json.loads(kumite(*args).output)
    assert again["runs"][0]["tally"] == run["tally"]


def test_sim_with_a_pack_writes_results_csv_games_and_report(tmp_path):
    pack = tmp_path / "what-if.toml"
    pack.write_text(PACK)
    out, stats, games, html = (tmp_path / n for n in ("r.json", "s.csv", "g.csv", "r.html"))
    result = kumite(
        "sim",
        "sfrivals",
        "-p",
        "greedy,random",
        "-n",
        "60",
        "-j",
        "1",
        "--seed",
        "3",
        "--characters",
        "ken,zangief",
        "--pack",
        str(pack),
        "--out",
        str(out),
        "--csv",
        str(stats),
        "--games-csv",
        str(games),
    )
    assert result.exit_code == 0, result.output
    assert "What-if" in result.output and "greedy" in result.output
    assert doc_entities(out) == {"ken", "zangief"}
    doc = json.loads(out.read_text())
    assert [r["label"] for r in doc["runs"]] == ["base", "pack"]
    assert doc["pack"]["text"] == PACK and doc["whatif"]
    rows = list(csv.DictReader(io.StringIO(stats.read_text())))
    tables = {r["table"] for r in rows}
    assert {"seat", "agent", "agent rating", "character", "matchup", "card played"} <= tables
    assert "what-if" in {r["run"] for r in rows}
    per_game = list(csv.DictReader(io.StringIO(games.read_text())))
    assert len(per_game) == 120
    assert {r["agents"] for r in per_game} == {"greedy,random", "random,greedy"}
    report = kumite("report", str(out), "-o", str(html))
    assert report.exit_code == 0, report.output
    assert html.read_text().count("data:image/png;base64,") >= 10


def doc_entities(path):
    doc = json.loads(path.read_text())
    return {row["name"] for row in doc["runs"][0]["analysis"]["entities"]["table"]}


def test_sim_errors_are_one_line():
    result = runner.invoke(app, ["sim", "sfrivals", "-p", "human,random", "-n", "5"])
    assert result.exit_code == 2
    assert "bots" in result.output
    result = runner.invoke(app, ["sim", "sfrivals", "-n", "5", "--backend", "slurm"])
    assert result.exit_code == 2 and "unknown backend" in result.output
    result = runner.invoke(app, ["report", "/nonexistent.json"])
    assert result.exit_code == 2 and "cannot read" in result.output
