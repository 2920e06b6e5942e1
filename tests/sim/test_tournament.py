"""Matches, team matches and tournaments scored per fight (sfr.match.points)."""

from __future__ import annotations

import pytest

from kumite.core.errors import OptionsError
from kumite.core.game import Outcome
from kumite.sim.tournament import (
    Entrant,
    entrants_from,
    fight_points,
    play_match,
    play_round_robin,
    play_team_match,
    scoring,
)


def outcome(winner):
    if winner is None:
        return Outcome((), True, (0.0, 0.0), "draw", "x")
    return Outcome((winner,), False, (1.0, -1.0) if winner == 0 else (-1.0, 1.0), "KO", "x")


def test_match_points__win_2_draw_1_by_default_or_win_1():
    """sfr.match.points: every fight earns 1 or 2 points."""
    rule = scoring("win2-draw1")
    assert fight_points(outcome(0), rule) == (2, 0)
    assert fight_points(outcome(1), rule) == (0, 2)
    assert fight_points(outcome(None), rule) == (1, 1)
    assert fight_points(outcome(None), scoring("win1")) == (0, 0)
    with pytest.raises(OptionsError):
        scoring("win3")


def test_match__points_summed_over_fights():
    results = iter([0, None, 1, 0])
    table = play_match(
        Entrant("a"),
        Entrant("b"),
        4,
        lambda a, b, s: outcome(next(results)),
        scoring("win2-draw1"),
        [1, 2, 3, 4],
    )
    assert table.points == [5, 3]
    assert (table.wins, table.draws, table.losses) == ([2, 1], [1, 1], [1, 2])


def test_team_match__ith_members_fight_and_team_points_are_summed():
    results = iter([0, 1, 0])
    team_a, team_b = entrants_from("x:ryu,y:ken,z:juri"), entrants_from("p,q,r")
    table, totals = play_team_match(
        team_a, team_b, lambda a, b, s: outcome(next(results)), scoring("win2-draw1"), [1, 2, 3]
    )
    assert totals == (4, 2)
    assert [(f.a, f.b) for f in table.fights] == [(0, 3), (1, 4), (2, 5)]
    with pytest.raises(OptionsError):
        play_team_match(team_a, team_b[:2], lambda a, b, s: outcome(0), scoring("win1"), [1])


def test_round_robin__every_pair_meets_and_ranking_by_points():
    field = entrants_from(["a", "b", "c"])
    beats = {"a": 3, "b": 2, "c": 1}

    def fight(x, y, seed):
        return outcome(0 if beats[x.agent] > beats[y.agent] else 1)

    table = play_round_robin(field, 2, fight, scoring("win1"), lambda i, j, n: i * 10 + j + n)
    assert len(table.fights) == 6
    assert [table.names[i] for i in table.ranking()] == ["a", "b", "c"]
    assert table.points == [4, 2, 0]


def test_entrant_syntax():
    assert Entrant.parse("greedy:ryu") == Entrant("greedy", "ryu")
    assert str(Entrant.parse("random")) == "random"
    with pytest.raises(OptionsError):
        Entrant.parse(":ryu")
