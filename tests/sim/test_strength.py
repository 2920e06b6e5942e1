"""The head-to-head strength table: round-robin pairs, W/D/L, Wilson intervals."""

from __future__ import annotations

import pytest

from kumite.sim.strength import default_agents, format_row, pair_row, strength_table


def test_default_agents_include_search_and_every_game() -> None:
    defaults = default_agents()
    assert {"sfrivals", "rivales", "sfdbg"} <= set(defaults)
    for game in ("sfrivals", "rivales", "sfdbg"):
        assert {"random", "greedy", "ismcts"} <= set(defaults[game])
    assert "priority" in defaults["sfdbg"]
    assert "equilibrium" not in defaults["sfrivals"]  # needs a solved matchup on disk


def test_tiny_table_structure_and_intervals() -> None:
    seen: list[tuple[str, str, str]] = []
    table = strength_table(
        {"sfrivals": ("random", "greedy", "ismcts-easy")},
        games=6,
        seed=3,
        search_games=2,
        progress=lambda g, a, b, row: seen.append((g, a, b)),
    )
    assert table["seed"] == 3 and table["games"] == 6 and table["search_games"] == 2
    rows = table["tables"]["sfrivals"]["pairs"]
    assert [(r["a"], r["b"]) for r in rows] == [
        ("random", "greedy"),
        ("random", "ismcts-easy"),
        ("greedy", "ismcts-easy"),
    ]
    assert seen == [("sfrivals", r["a"], r["b"]) for r in rows]
    for row in rows:
        n = 2 if row["b"] == "ismcts-easy" else 6
        assert row["n"] == n == row["wins"] + row["draws"] + row["losses"]
        share = row["share"]
        assert share["n"] == row["wins"] + row["losses"]
        if share["n"]:
            assert share["low"] <= share["rate"] <= share["high"]
        assert row["win"]["low"] <= row["win"]["rate"] <= row["win"]["high"]
        assert "vs" in format_row(row)


def test_pair_rows_are_reproducible() -> None:
    a = pair_row("sfdbg", "random", "greedy", 4, seed=9)
    b = pair_row("sfdbg", "random", "greedy", 4, seed=9)
    keys = ("wins", "draws", "losses")
    assert [a[k] for k in keys] == [b[k] for k in keys]
    assert a["losses"] >= 3  # greedy beats random


def test_unknown_agent_is_refused() -> None:
    with pytest.raises(ValueError, match="no agent"):
        strength_table({"rivales": ("random", "priority")}, games=1, seed=0)
