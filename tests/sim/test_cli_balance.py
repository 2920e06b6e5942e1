"""``kumite balance`` from the command line: a pack and a report out, one-line errors."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kumite.cli.main import app
from kumite.games.sfrivals.cards import load_catalog

runner = CliRunner()


def kumite(*args):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_balance_writes_an_overlay_and_a_report(tmp_path):
    out, report = tmp_path / "mine.toml", tmp_path / "mine.json"
    result = kumite(
        "balance", "sfrivals", "--judge", "random", "--vary", "ryu.hadouken:damage",
        "--range", "damage=0..3", "--pairing", "0.1,0.9", "--entities", "ryu,ken",
        "--budget", "200", "--fights", "20", "--batch", "20", "--max-fights", "20",
        "--seed", "3", "-j", "1", "--out", str(out), "--report", str(report), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    doc = json.loads(report.read_text())
    assert doc["format"] == "kumite-balance/1" and doc["seed"] == 3
    assert set(doc["before"]["random"]["cells"]) == {"ryu|ken"}
    assert doc["history"][0]["step"] == "start"
    if doc["changes"]:
        load_catalog(out.read_text())
    else:
        assert not out.exists()  # the shipped pack already meets the wide target


def test_bad_requests_are_one_line_errors(tmp_path):
    base = ("balance", "sfrivals", "--judge", "random", "--out", str(tmp_path / "x.toml"))
    no_target = kumite(*base, "--vary", "ryu.*:damage")
    assert no_target.exit_code == 2
    assert "give a target" in no_target.output and "Traceback" not in no_target.output
    nothing = kumite(*base, "--vary", "nobody*:damage", "--pairing", "0.4,0.6")
    assert nothing.exit_code == 2 and "names no integer value" in nothing.output
    bounds = kumite(*base, "--vary", "ryu.*:damage", "--pairing", "0.6,0.4")
    assert bounds.exit_code == 2 and "lower bound comes first" in bounds.output
    assert not (tmp_path / "x.toml").exists()
