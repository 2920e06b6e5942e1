"""``kumite solve``: one matchup, the value table files, the strength table."""

from __future__ import annotations

import builtins
import csv
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kumite.cli.main import app
from kumite.games.sfrivals.solver import cli as solve_cmd
from tests.games.sfrivals.solver.conftest import SHORT_PACK

runner = CliRunner()


@pytest.fixture
def short_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KUMITE_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "short.toml"
    path.write_text(SHORT_PACK)
    return path


def test_solve_one_matchup_json_then_cached(short_pack: Path) -> None:
    args = ["solve", "sfrivals", "--characters", "juri,guile", "--pack", str(short_pack), "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.output)
    assert data["lower"] <= data["value"] <= data["upper"]
    assert data["exploitability"] >= 0
    assert not data["from_cache"]
    assert sum(data["setup"][0].values()) == pytest.approx(1.0)
    second = json.loads(runner.invoke(app, args).output)
    assert second["from_cache"]
    assert second["value"] == data["value"]


def test_solve_prints_value_exploitability_time_and_setup(short_pack: Path) -> None:
    result = runner.invoke(
        app, ["solve", "sfrivals", "--characters", "ryu,ken", "--pack", str(short_pack)]
    )
    assert result.exit_code == 0, result.output
    for text in ("value", "exploitability", "time", "Set-up strategy of ryu", "cover"):
        assert text in result.output


def test_solve_needs_two_characters(short_pack: Path) -> None:
    result = runner.invoke(app, ["solve", "sfrivals", "--characters", "ryu"])
    assert result.exit_code == 2
    assert "two characters" in result.output


def test_solve_rejects_unknown_character(short_pack: Path) -> None:
    result = runner.invoke(app, ["solve", "sfrivals", "--characters", "ryu,akuma"])
    assert result.exit_code == 2
    assert "akuma" in result.output


def _fake_results(chars: list[str]) -> dict[tuple[str, str], dict[str, Any]]:
    out = {}
    for i, a in enumerate(chars):
        for j, b in enumerate(chars[i:], start=i):
            v = 0.1 * (j - i)
            out[(a, b)] = {"characters": [a, b], "value": v, "lower": v - 0.05, "upper": v + 0.05}
    return out


def test_value_table_files(tmp_path: Path) -> None:
    chars = ["ryu", "ken", "guile"]
    results = _fake_results(chars)
    grid = solve_cmd.value_grid(chars, results)
    assert grid[0][2] == pytest.approx(0.2)
    assert grid[2][0] == pytest.approx(-0.2)
    paths = solve_cmd.write_table(chars, grid, results, tmp_path)
    names = sorted(p.name for p in paths)
    assert names == [
        "sfrivals-intervals.csv",
        "sfrivals-values.csv",
        "sfrivals-values.json",
        "sfrivals-values.png",
    ]
    rows = list(csv.reader((tmp_path / "sfrivals-values.csv").open()))
    assert rows[0] == ["character", *chars]
    assert float(rows[1][3]) == pytest.approx(0.2)
    assert json.loads((tmp_path / "sfrivals-values.json").read_text())["values"] == grid
    assert (tmp_path / "sfrivals-values.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_interval_table_is_seat_symmetric(tmp_path: Path) -> None:
    """The 8x8 table of certified intervals: (b, a)'s interval is (a, b)'s, negated."""
    chars = ["ryu", "ken", "guile"]
    results = _fake_results(chars)
    lows, highs = solve_cmd.interval_grid(chars, results)
    assert (lows[0][2], highs[0][2]) == pytest.approx((0.15, 0.25))
    assert (lows[2][0], highs[2][0]) == pytest.approx((-0.25, -0.15))
    solve_cmd.write_table(chars, solve_cmd.value_grid(chars, results), results, tmp_path)
    rows = list(csv.reader((tmp_path / "sfrivals-intervals.csv").open()))
    assert rows[1][3] == "[0.150000 0.250000]"
    data = json.loads((tmp_path / "sfrivals-values.json").read_text())
    assert data["lower"] == lows and data["upper"] == highs


def test_solve_exact_on_the_shipped_mini_pack_names_the_variant() -> None:
    """``--pack mini`` is the shipped variant; --exact refuses the full game with one line."""
    result = runner.invoke(
        app, ["solve", "sfrivals", "--pack", "mini", "--characters", "ryu,ken", "--exact"]
    )
    assert result.exit_code == 2
    assert "more than" in result.output and "Traceback" not in result.output


def test_heat_map_degrades_without_matplotlib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real_import = builtins.__import__

    def no_matplotlib(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    assert solve_cmd.heat_map(["ryu"], [[0.0]], tmp_path / "x.png") is None
    assert not (tmp_path / "x.png").exists()


def test_strength_table_cli(short_pack: Path) -> None:
    result = runner.invoke(
        app,
        [
            "solve",
            "sfrivals",
            "--characters",
            "ken,poison",
            "--pack",
            str(short_pack),
            "--strength",
            "--agents",
            "random,greedy",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {(r["agent"], r["seat"]) for r in data["rows"]} == {
        ("random", 0),
        ("random", 1),
        ("greedy", 0),
        ("greedy", 1),
    }
    for r in data["rows"]:
        assert r["exploitability"] >= -1e-12
