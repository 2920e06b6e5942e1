"""The SF DBG adapter: Super Hero performance by player count, cards played and bought."""

from __future__ import annotations

from kumite.games.sfdbg.game import GAME
from kumite.sim.analysis import analyze
from kumite.sim.backends import simulate
from kumite.sim.engine import Runner, SimSpec

LINEUPS = (("random",) * 2, ("random",) * 3)
BY_PLAYERS = ((2, {"players": 2}), (3, {"players": 3}))


def test_heroes_are_dealt_distinct_and_fixed_in_the_options():
    runner = Runner(
        SimSpec("sfdbg", LINEUPS, 0, seed=1, options={"players": 2}, options_by_players=BY_PLAYERS)
    )
    assert runner.balanced
    for i in range(12):
        agents, heroes = runner.assignment(i)
        assert heroes is not None and len(set(heroes)) == len(heroes) == len(agents)
        options, _ = runner.options(len(agents), heroes)
        state = GAME.new_state(1, options)
        assert [state.heroes[h].id for h in state.hero] == list(heroes)


def test_hero_performance_by_player_count_and_card_impact():
    spec = SimSpec(
        "sfdbg", LINEUPS, 24, seed=5, options={"players": 2}, options_by_players=BY_PLAYERS
    )
    result = simulate(spec)
    tally = result.tally
    assert {p for (_h, p) in tally.counts("entity_players")} == {2, 3}
    assert sum(c[0] for c in tally.counts("entities").values()) == 12 * 2 + 12 * 3
    verbs = {v for (_s, v, _c) in tally.counts("cards")}
    assert verbs == {"played", "bought"}
    assert all(scope == "*" for (scope, _v, _c) in tally.counts("cards"))
    a = analyze(tally, entity="hero", turn="turn")
    assert a["entities"]["by_players"] and a["cards"]["impact"]
    assert all(r["when"] >= 1 for r in a["cards"]["by_when"])


def test_secret_heroes_cannot_be_dealt_by_the_lab():
    runner = Runner(SimSpec("sfdbg", LINEUPS[:1], 0, seed=1, options={"variant": "secret-heroes"}))
    assert not runner.balanced
