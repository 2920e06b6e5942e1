"""The Rivales adapter: fighter matchups (mirrors allowed) and the cards each seat played."""

from __future__ import annotations

from kumite.games.rivales.game import GAME
from kumite.sim.adapters import adapter_for
from kumite.sim.analysis import analyze
from kumite.sim.backends import simulate
from kumite.sim.engine import Runner, SimSpec

LINEUP = (("random", "random"),)


def test_fighters_are_fixed_in_the_options_for_one_vs_one():
    runner = Runner(SimSpec("rivales", LINEUP, 0, seed=1))
    assert runner.balanced
    for i in range(8):
        _agents, fighters = runner.assignment(i)
        assert fighters is not None
        options, _ = runner.options(2, fighters)
        state = GAME.new_state(1, options)
        assert [f.id for f in state.fighters] == list(fighters)


def test_fighter_ratings_and_card_impact_by_clash():
    result = simulate(SimSpec("rivales", LINEUP, 24, seed=7))
    tally = result.tally
    assert sum(c[0] for c in tally.counts("entities").values()) == 24 * 2
    assert {v for (_s, v, _c) in tally.counts("cards")} == {"played"}
    a = analyze(tally, entity="fighter", turn="clash")
    assert a["entities"]["ratings"]
    assert all(r["when"] >= 1 for r in a["cards"]["by_when"])


def test_card_labels_name_the_fighter_except_for_shared_basics():
    labels = adapter_for("rivales").card_labels(GAME, {})
    assert labels["basic.golpe"] == GAME.catalog().cards["basic.golpe"].name
    assert labels["zorro.latigazo"].startswith("Zorro: ")


def test_two_vs_two_designs_keep_teammates_apart():
    runner = Runner(SimSpec("rivales", (("random",) * 4,), 0, seed=2, options={"mode": "2v2"}))
    assert runner.balanced
    for i in range(30):
        _agents, fighters = runner.assignment(i)
        assert fighters is not None
        assert fighters[0] != fighters[1] and fighters[2] != fighters[3]
        options, _ = runner.options(4, fighters)
        GAME.new_state(1, options)  # valid options
