"""The compiled kernels of the fight solver: the matrix-game kernel against the LP, and each
round's compiled values against their numpy twin (which is what the solver falls back on)."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver import fight
from kumite.games.sfrivals.solver.fight import FightSolver, Position, setup_hand
from kumite.solve import matrix_jit
from kumite.solve.matrix import solve_lp


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 7),
    st.integers(1, 7),
    st.sampled_from([(-1, 0, 1), (-2, -1, 0, 1, 2), (-1.0, -0.25, 0.0, 0.125, 0.5, 1.0)]),
)
def test_game_value_is_the_lp_value(
    seed: int, rows: int, cols: int, vals: tuple[float, ...]
) -> None:
    """Property: saddle point, dominance and certified kernels give the LP value of every
    small game (degenerate ones included: few distinct payoffs, many ties)."""
    rng = np.random.default_rng(seed)
    for _ in range(6):
        a = rng.choice(np.array(vals, dtype=float), size=(rows, cols))
        got = matrix_jit.game_value(a.copy())
        assert not np.isnan(got)
        assert got == pytest.approx(solve_lp(a).value, abs=1e-9)


def test_game_value_rock_paper_scissors_and_a_biased_2x2() -> None:
    rps = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
    assert matrix_jit.game_value(rps) == pytest.approx(0.0, abs=1e-12)
    assert matrix_jit.game_value(np.array([[3.0, -1.0], [-2.0, 1.0]])) == pytest.approx(1 / 7)


@pytest.mark.parametrize(
    ("chars", "opts", "adaptive", "uniform"),
    [
        (("ryu", "ken"), {}, None, None),
        (("juri", "poison"), {"ultra_rule": "power"}, 1, None),
        (("dudley", "chunli"), {"no_legal_card": "play-powerless"}, 0, None),
        (("zangief", "guile"), {"swap": "printed"}, None, 0),
        (("guile", "zangief"), {}, None, 1),
    ],
)
def test_compiled_values_match_the_numpy_twin(
    chars: tuple[str, str], opts: dict[str, str], adaptive: int | None, uniform: int | None
) -> None:
    """Every state the compiled induction solved (from round 5 of a real set-up) has the
    value the numpy evaluation with the LP gives it — the path taken for games no kernel
    certifies."""
    options = GAME.parse_options(dict(opts))
    cat = GAME.catalog(options)
    a, b = cat.characters[chars[0]], cat.characters[chars[1]]
    solver = FightSolver(cat, options, (a, b), uniform_seat=uniform)
    hands = []
    for seat, char in enumerate((a, b)):
        # an adaptive seat keeps its cover among its unseen cards; four rounds are played
        hand = list(setup_hand(char, None if adaptive == seat else char.cards[0], char.cards[1]))
        keep = 5 if adaptive == seat else 4
        for k in range(seat, len(hand)):
            while hand[k] and sum(hand) > keep:
                hand[k] -= 1
        hands.append(tuple(hand))
    pos = Position(
        (hands[0], hands[1]),
        lives=(6, 5),
        round=5,
        adaptive=(adaptive == 0, adaptive == 1),
    )
    solver.value(pos)
    checked = 0
    for r, (keys, vals) in solver.levels.items():
        np.testing.assert_allclose(solver._evaluate(r, keys), vals, atol=1e-9, rtol=0)
        checked += len(keys)
    assert checked > 50


def test_values_do_not_depend_on_the_number_of_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled induction expands and values a round's states in parallel (blocks of
    states, hash shards): every value is the same float with one thread as with all of
    Numba's threads."""
    monkeypatch.setattr(fight, "_PARALLEL_FROM", 0)  # every round in parallel
    options = GAME.parse_options({})
    cat = GAME.catalog(options)
    chars = (cat.characters["ryu"], cat.characters["ken"])
    hands = []
    for char in chars:  # three rounds played: five cards left
        hand = list(setup_hand(char, char.cards[0], char.cards[1]))
        for k in range(len(hand)):
            while hand[k] and sum(hand) > 5:
                hand[k] -= 1
        hands.append(tuple(hand))
    pos = Position((hands[0], hands[1]), lives=(7, 7), round=4)
    solved = []
    default = numba.get_num_threads()
    try:
        for threads in (1, numba.config.NUMBA_NUM_THREADS):
            numba.set_num_threads(threads)
            solver = FightSolver(cat, options, chars)
            solver.value(pos)
            solved.append(solver.levels)
    finally:
        numba.set_num_threads(default)
    assert solved[0].keys() == solved[1].keys()
    assert sum(len(keys) for keys, _ in solved[0].values()) > 1000
    for r, (keys, vals) in solved[0].items():
        np.testing.assert_array_equal(keys, solved[1][r][0])
        np.testing.assert_array_equal(vals, solved[1][r][1])
