"""The SF Rivals matchup solution: sound bounds, set-up strategies, the cache, hints."""

from __future__ import annotations

import dataclasses
import gzip
import json
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver.equilibrium import certified
from kumite.games.sfrivals.solver.setup import (
    METHODS,
    SHIPPED,
    SOLVER_VERSION,
    MatchupSolution,
    cache_key,
    cache_path,
    known_solution,
    shipped_solution,
    solve_matchup,
    swapped,
)
from kumite.games.sfrivals.solver.strategy import Advice, advice, hints
from kumite.solve.matrix import solve_matrix
from tests.games.sfrivals.solver.conftest import SHORT_PACK, TINY_PACK


@pytest.mark.parametrize("method", METHODS)
def test_bounds_are_ordered_and_strategies_are_distributions(
    shared_cache: Path, method: str
) -> None:
    sol = solve_matchup(("juri", "guile"), {"pack": SHORT_PACK}, method=method)
    assert sol.lower <= sol.upper + 1e-12
    assert sol.exploitability == pytest.approx((sol.upper - sol.lower) / 2)
    for seat in (0, 1):
        assert sum(sol.setup[seat].values()) == pytest.approx(1.0)
        assert min(sol.setup[seat].values()) >= -1e-12
    # the set-up strategies (for tight: the mixes over secret set-ups) are optimal in their
    # bound games
    plans = sol.setup if sol.plans is None else sol.plans
    x = np.array([plans[0][r] for r in sol.rows[0]])
    assert (x @ sol.lower_matrix).min() == pytest.approx(sol.lower, abs=1e-9)
    y = np.array([plans[1][c] for c in sol.cols[1]])
    assert (sol.upper_matrix @ y).max() == pytest.approx(sol.upper, abs=1e-9)


@pytest.mark.parametrize("method", METHODS)
def test_short_fight_covers_cannot_matter(shared_cache: Path, method: str) -> None:
    """With two rounds, eight cards in hand and the cover never needed, an adaptive
    opponent is no stronger than a committed one: the bounds meet (exploitability 0)."""
    sol = solve_matchup(("juri", "guile"), {"pack": SHORT_PACK}, method=method)
    assert sol.exploitability == pytest.approx(0.0, abs=1e-12)


def test_lower_bound_is_below_the_perfect_information_values(shared_cache: Path) -> None:
    """Seat 0's guarantee against an adaptive seat 1 is at most its value against any
    committed seat-1 set-up with the same shown card."""
    sol = solve_matchup(("juri", "guile"), {"pack": SHORT_PACK}, method="adaptive")
    from kumite.games.sfrivals.solver.fight import Position, setup_hand

    a, b = sol.solver.chars
    life = GAME.catalog(sol.options).rules.life
    for r in (0, 17, 40):
        _, cover, shown = sol.rows[0][r].split(":")
        hand0 = setup_hand(a, a.card(cover), a.card(shown))
        for k in (0, 4):
            shown1 = sol.cols[0][k]
            covers = [c for c in b.cards if c.id != shown1 or c.copies > 1]
            committed = sol.solver.values(
                [Position((hand0, setup_hand(b, c, b.card(shown1))), (life, life)) for c in covers]
            )
            assert sol.lower_matrix[r, k] <= committed.min() + 1e-12


@pytest.mark.parametrize("method", METHODS)
def test_cache_round_trip(cache_dir: Path, method: str) -> None:
    """The cache keeps a small summary (no fight tables): a loaded solution solves the
    positions it is asked about again, to the same advice."""
    first = solve_matchup(("ken", "dudley"), {"pack": TINY_PACK}, method=method)
    assert not first.from_cache
    path = cache_path(("ken", "dudley"), first.options, method).with_suffix(".json")
    assert path.exists() and path.stat().st_size < 200_000
    again = solve_matchup(("ken", "dudley"), {"pack": TINY_PACK}, method=method)
    assert again.from_cache
    assert again.lower == first.lower and again.upper == first.upper
    assert again.setup == first.setup and again.plans == first.plans
    np.testing.assert_array_equal(again.lower_matrix, first.lower_matrix)
    # the loaded fight tables answer the same node questions
    state = GAME.new_state(3, {"characters": ["ken", "dudley"], "pack": TINY_PACK})
    state.apply({0: next(iter(first.setup[0])), 1: next(iter(first.setup[1]))})
    view = state.view(0)
    assert [a.to_json() for a in advice(view, again)] == [a.to_json() for a in advice(view, first)]


def test_cache_key_depends_on_rules_pack_and_characters() -> None:
    base = GAME.parse_options({"characters": ["ryu", "ken"]})
    keys = {
        cache_key(("ryu", "ken"), base),
        cache_key(("ken", "ryu"), base),
        cache_key(("ryu", "ken"), GAME.parse_options({"ultra_rule": "power"})),
        cache_key(("ryu", "ken"), GAME.parse_options({"pack": SHORT_PACK})),
        cache_key(("ryu", "ken"), base, "adaptive"),
    }
    assert len(keys) == 5


def test_hints_cover_every_legal_choice(shared_cache: Path) -> None:
    state = GAME.new_state(5, {"characters": ["juri", "guile"], "pack": SHORT_PACK})
    # (hints use the default method, tight)
    while state.pending():
        choices = {}
        for d in state.pending():
            hs = hints(state, d.seat)
            assert [h["choice"] for h in hs] == list(d.legal)
            assert sum(h["probability"] for h in hs) == pytest.approx(1.0)
            best = max(hs, key=lambda h: h["probability"])
            choices[d.seat] = best["choice"]
        state.apply(choices)
    assert state.outcome is not None


def test_play_advice_values_match_the_node_game(shared_cache: Path) -> None:
    """At a simultaneous round, every card in the support of the equilibrium strategy has
    the node's value, and no card is worth more (method adaptive: one node game)."""
    sol = solve_matchup(("juri", "guile"), {"pack": SHORT_PACK}, method="adaptive")
    state = GAME.new_state(1, {"characters": ["juri", "guile"], "pack": SHORT_PACK})
    state.apply({0: sol.rows[0][0], 1: sol.cols[1][0]})
    for seat in (0, 1):
        adv = advice(state.view(seat), sol)
        support = [a.value for a in adv if a.probability > 1e-9]
        best = max(a.value for a in adv)
        assert max(support) == pytest.approx(best, abs=1e-9)
        assert min(support) == pytest.approx(best, abs=1e-9)


def test_setup_advice_values_are_the_bound_game(shared_cache: Path) -> None:
    sol = solve_matchup(("juri", "guile"), {"pack": SHORT_PACK}, method="adaptive")
    state = GAME.new_state(1, {"characters": ["juri", "guile"], "pack": SHORT_PACK})
    adv = advice(state.view(0), sol)
    assert max(a.value for a in adv) == pytest.approx(solve_matrix(sol.lower_matrix).value)


def test_mirror_match_is_symmetric(cache_dir: Path) -> None:
    """The rules favour neither seat: in a mirror match the two bounds are opposite and the
    value is 0 (computed directly for seat 1 by method adaptive, so this checks the
    symmetry that method tight relies on to bound seat 1 by the mirrored matchup)."""
    sol = solve_matchup(("dudley", "dudley"), {"pack": TINY_PACK}, method="adaptive")
    assert sol.lower == pytest.approx(-sol.upper, abs=1e-12)
    assert sol.value == pytest.approx(0.0, abs=1e-12)
    # and seat 1's bound game is seat 0's, transposed and negated
    np.testing.assert_allclose(sol.upper_matrix, -sol.lower_matrix.T, atol=1e-12)


def test_a_looked_up_position_does_not_rebuild_the_stored_levels(shared_cache: Path) -> None:
    """Issue 13: every hint re-sorted a whole level of stored states (about 110 ms, seconds
    on a big matchup) although it solved nothing new. Advising at positions already solved
    must leave the stored levels as they are (the same arrays)."""
    sol = solve_matchup(("juri", "guile"), {"pack": SHORT_PACK}, method="adaptive")
    state = GAME.new_state(1, {"characters": ["juri", "guile"], "pack": SHORT_PACK})
    state.apply({0: sol.rows[0][0], 1: sol.cols[1][0]})
    for seat in (0, 1):  # solves these positions if the matchup solve did not
        advice(state.view(seat), sol)
    before = {r: (keys, vals) for r, (keys, vals) in sol.solver.levels.items()}
    solved = sol.solver.states_solved
    for seat in (0, 1):
        advice(state.view(seat), sol)
    assert sol.solver.states_solved == solved
    for r, (keys, vals) in sol.solver.levels.items():
        assert keys is before[r][0] and vals is before[r][1]


def _advised_game(sol: MatchupSolution, seed: int) -> list[list[Advice]]:
    """Every advice of both seats over one game, each seat playing its likeliest choice."""
    state = GAME.new_state(seed, {"characters": list(sol.characters), "pack": SHORT_PACK})
    out = []
    while state.pending():
        choices = {}
        for d in state.pending():
            adv = advice(state.view(d.seat), sol)
            out.append(adv)
            choices[d.seat] = max(adv, key=lambda a: a.probability).choice
        state.apply(choices)
    return out


def test_a_looked_up_decision_solves_nothing_again(
    shared_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 13: a hint / ``bounded`` decision served from a solved matchup (method tight)
    cost milliseconds: the set-up LP was solved on every set-up decision and every node of
    the seat's history was worked out again (and its solve pass run) on every call. Once a
    game's positions are solved, replaying it must solve no LP, run no solve pass and work
    out no node again — and advise exactly as before."""
    import kumite.games.sfrivals.solver.setup as setup_mod
    import kumite.games.sfrivals.solver.strategy as strategy_mod
    from kumite.games.sfrivals.solver import bounds

    sol = solve_matchup(("juri", "guile"), {"pack": SHORT_PACK})
    first = [_advised_game(sol, seed) for seed in range(3)]

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("worked out again")

    for module, name in (
        (setup_mod, "solve_matrix"),
        (strategy_mod, "solve_matrix"),
        (bounds.bk, "node"),
        (bounds.BoundSolver, "_solve"),
    ):
        if hasattr(module, name):
            monkeypatch.setattr(module, name, refused)
    assert [_advised_game(sol, seed) for seed in range(3)] == first


def test_a_kept_node_is_the_node_worked_out_again(
    shared_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The nodes ``BoundSolver.node`` keeps stay right while the solver goes on solving
    other positions (a solved state's children are solved with it, and never change)."""
    sol = solve_matchup(("juri", "guile"), {"pack": SHORT_PACK})
    side = sol.side(0)
    asked: list[int] = []
    keep = side.node
    monkeypatch.setattr(side, "node", lambda key: (asked.append(key), keep(key))[1])
    _advised_game(sol, 0)
    monkeypatch.undo()
    _advised_game(sol, 1)  # solves more positions
    assert asked
    for key in set(asked):
        a, b = side.node(key), side._node(key)
        for f in dataclasses.fields(a):
            np.testing.assert_array_equal(getattr(a, f.name), getattr(b, f.name))


def test_shipped_matchups_are_current_and_sound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every pair of characters ships solved (``solver/solved-base.json.gz``, written by
    ``python -m kumite.games.sfrivals.solver.ship``), keyed by this solver's version, the
    base pack and the default rules, so an empty cache finds them; each loads with its
    set-up mixes optimal in its bound games at exactly its certified interval, and listings
    show that figure."""
    monkeypatch.setenv("KUMITE_CACHE_DIR", str(tmp_path))
    res = resources.files("kumite.games.sfrivals.solver") / SHIPPED
    data = json.loads(gzip.decompress(res.read_bytes()))
    assert data["solver_version"] == SOLVER_VERSION
    chars = list(GAME.catalog(GAME.parse_options({})).characters)
    pairs = {(a, b) for i, a in enumerate(chars) for b in chars[i:]}
    assert {tuple(s["characters"]) for _, s in data["matchups"]} == pairs  # every pair, once
    assert len(data["matchups"]) == len(pairs) == 36
    for key, summary in data["matchups"]:
        chars = (summary["characters"][0], summary["characters"][1])
        opts = GAME.parse_options({"characters": list(chars)})
        assert key == cache_key(chars, opts)
        sol = shipped_solution(chars, opts)
        assert sol is not None and sol.method == "tight"
        assert sol.lower == summary["lower"] <= sol.upper == summary["upper"]
        assert sol.plans is not None
        x = np.array([sol.plans[0][r] for r in sol.rows[0]])
        y = np.array([sol.plans[1][c] for c in sol.cols[1]])
        assert (x @ sol.lower_matrix).min() == pytest.approx(sol.lower, abs=1e-9)
        assert (sol.upper_matrix @ y).max() == pytest.approx(sol.upper, abs=1e-9)
        assert certified(chars, {}).exploitability == pytest.approx(sol.exploitability)


HAND3_PACK = '[pack]\nid = "hand3"\ngame = "sfrivals"\n[rules]\nhand = 3\nlife = 4\n'


def _same_solution(x: MatchupSolution, y: MatchupSolution) -> None:
    assert x.characters == y.characters and x.method == y.method == "tight"
    assert (x.lower, x.upper) == (y.lower, y.upper)
    np.testing.assert_array_equal(x.lower_matrix, y.lower_matrix)
    np.testing.assert_array_equal(x.upper_matrix, y.upper_matrix)
    assert (x.rows, x.cols, x.classes) == (y.rows, y.cols, y.classes)
    assert (x.setup, x.plans) == (y.setup, y.plans)


def test_seat_swapped_matchup_is_derived_exactly(cache_dir: Path) -> None:
    """SF Rivals treats both seats alike (method tight bounds seat 1 by the mirrored
    pairing), so Zangief in seat 0 against Ryu has Ryu–Zangief's two side bounds in the
    other order: ``swapped`` gives, float for float, what solving it gives (a variant where
    the bounds differ, so the interval really flips), and a known matchup answers its
    seat-swapped order without solving."""
    opts = {"pack": HAND3_PACK}
    direct = solve_matchup(("zangief", "ryu"), opts, cache=False)
    first = solve_matchup(("ryu", "zangief"), opts)
    assert first.lower < first.upper  # not a degenerate case
    _same_solution(swapped(first), direct)
    _same_solution(swapped(swapped(first)), first)
    assert swapped(first).swapped_from == ("ryu", "zangief")  # said where it came from
    assert swapped(swapped(first)).swapped_from is None and direct.swapped_from is None

    def refuse(*args: object) -> None:
        raise AssertionError("a known matchup's seat swap was solved again")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("kumite.games.sfrivals.solver.setup._solve_tight", refuse)
        again = solve_matchup(("zangief", "ryu"), opts)
        _same_solution(again, direct)
        assert again.from_cache
        assert certified(("zangief", "ryu"), opts).exploitability == direct.exploitability
    # method adaptive bounds each seat its own way: not derived
    assert known_solution(("zangief", "ryu"), again.options, "adaptive") is None
    with pytest.raises(ValueError, match="tight"):
        swapped(solve_matchup(("ryu", "zangief"), {"pack": TINY_PACK}, method="adaptive"))


def test_every_ordered_matchup_is_known_from_the_shipped_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With an empty cache, all 64 ordered matchups of the base game are known (36 shipped,
    the other 28 their seat swaps): no player waits for a solve, whichever seat a character
    takes, and both orders certify the same figure."""
    monkeypatch.setenv("KUMITE_CACHE_DIR", str(tmp_path))
    chars = list(GAME.catalog(GAME.parse_options({})).characters)
    for a in chars:
        for b in chars:
            opts = GAME.parse_options({"characters": [a, b]})
            sol = known_solution((a, b), opts)
            assert sol is not None and sol.characters == (a, b)
            back = known_solution((b, a), GAME.parse_options({"characters": [b, a]}))
            assert back is not None
            assert (sol.lower, sol.upper) == (-back.upper, -back.lower)
            assert certified((a, b), {}).exploitability == sol.exploitability
