"""``kumite bench``: rates on 1 and all cores, peak memory, the goofspiel yardstick."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kumite.agents.registry import agent_names
from kumite.cli.main import app
from kumite.sim import bench


def test_bench_measures_every_path_on_one_and_two_cores():
    result = bench.run(seconds=0.3, warmup=0.05, jobs=2, games=["sfrivals"], agents=["random"])
    paths = [r["path"] for r in result["rows"]]
    assert paths == ["engine", "fast rollout", "fast rollout + sim tallies"]
    for r in result["rows"]:
        assert r["game"] == "sfrivals" and r["agent"] == "random" and r["jobs"] == 2
        assert r["games_per_second_1_core"] > 0 and r["games_per_second_all_cores"] > 0
        assert r["scaling"] > 0
        assert 20 < r["peak_rss_mb_1_core"] < 2000
    if bench.has_openspiel():
        assert result["openspiel"]["games_per_second_1_core"] > 0
        assert set(result["ratios_to_goofspiel"]) == {f"sfrivals random ({p})" for p in paths}
    else:
        assert result["openspiel"] is None


def test_bench_cases_cover_each_agent_of_each_game():
    cases = bench.cases(["sfrivals"])
    assert {(g, a) for g, a, *_ in cases} == {("sfrivals", a) for a in agent_names("sfrivals")}
    assert all(spec.games == 0 and not spec.fast for _, _, p, spec, _ in cases if p == "engine")


def test_bench_command_prints_json():
    out = CliRunner().invoke(
        app,
        [
            "bench",
            "--seconds",
            "0.2",
            "--warmup",
            "0.1",
            "--jobs",
            "1",
            "--games",
            "sfrivals",
            "--agents",
            "greedy",
            "--json",
        ],
        catch_exceptions=False,
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    (row,) = data["rows"]
    assert row["agent"] == "greedy" and row["games_per_second_all_cores"] is None
