"""The tighter bounds (method tight, :mod:`kumite.games.sfrivals.solver.bounds`): the compiled
induction against the recursive reference, and against method adaptive, which it contains."""

from __future__ import annotations

import numpy as np
import pytest

from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver.bounds import (
    SecretSetup,
    committed_setups,
    restricted_classes,
    side_bound,
)
from kumite.games.sfrivals.solver.fight import FightSolver
from kumite.games.sfrivals.solver.hidden import mini_pack
from kumite.games.sfrivals.solver.setup import solve_matchup
from kumite.solve.matrix import solve_matrix
from tests.games.sfrivals.solver.reference_bounds import ReferenceBounds, lower_matrix

PACK3 = '[pack]\nid = "three"\ngame = "sfrivals"\n[rules]\nhand = 3\nlife = 4\n'
MINI6 = mini_pack() + "\n[rules]\nhand = 6\n"


def _fight(chars: tuple[str, str], options: dict[str, str]) -> FightSolver:
    opts = GAME.parse_options({**options, "characters": list(chars)})
    cat = GAME.catalog(opts)
    return FightSolver(cat, opts, (cat.characters[chars[0]], cat.characters[chars[1]]))


@pytest.mark.parametrize(
    ("chars", "options"),
    [
        (("ryu-mini", "ken-mini"), {"pack": MINI6}),
        (("ken-mini", "ryu-mini"), {"pack": MINI6}),
        (("ryu-mini", "ryu-mini"), {"pack": MINI6, "ultra_rule": "power"}),
        (("juri", "guile"), {"pack": PACK3}),
        pytest.param(
            ("dudley", "zangief"),
            {"pack": PACK3, "no_legal_card": "play-powerless"},
            marks=pytest.mark.slow,
        ),
    ],
)
def test_compiled_bounds_equal_the_reference(
    chars: tuple[str, str], options: dict[str, str]
) -> None:
    """Every guarantee of the set-up game — every set-up, committed and secret, against
    every (class, shown card) of the opponent — is the reference recursion's, under every
    rule option (for the full characters, a few set-ups: the reference is slow)."""
    fight = _fight(chars, options)
    a, b = fight.chars
    if "mini" in a.id:
        side = side_bound(fight)
    else:
        ultra = next(c.id for c in a.cards if c.is_ultra)
        few = [s for s in committed_setups(a) if ultra not in (s.shown, *s.cover_from)][:3]
        few += [SecretSetup(few[0].shown, (ultra, few[0].cover_from[0]))]
        side = side_bound(fight, few)
    classes = [
        frozenset(i for i in range(len(b.cards)) if (m >> i) & 1) for m in restricted_classes(b)
    ]
    ref = ReferenceBounds(fight.catalog, fight.options, (a, b), classes)
    sets = [
        (a.card(s.shown).index, frozenset(a.card(c).index for c in s.cover_from))
        for s in side.setups
    ]
    cols, want = lower_matrix(ref, sets)
    assert [(k, b.cards[j].id) for k, j in cols] == list(side.cols)
    np.testing.assert_allclose(side.matrix, want, atol=1e-9)
    assert side.solver.fallbacks == 0
    assert any(len(s.cover_from) == 2 for s in side.setups)


def test_one_class_and_committed_setups_are_method_adaptive() -> None:
    """With seat 1's cover a single class and only committed set-ups, the induction is the
    adaptive bound, to the float."""
    fight = _fight(("ryu-mini", "ken-mini"), {"pack": MINI6})
    everything = [sum(1 << c.index for c in fight.chars[1].cards)]
    side = side_bound(fight, committed_setups(fight.chars[0]), everything)
    adaptive = solve_matchup(
        ("ryu-mini", "ken-mini"), {"pack": MINI6}, cache=False, method="adaptive"
    )
    assert side.value == adaptive.lower


@pytest.mark.parametrize(
    ("pair", "tighter"), [(("ryu-mini", "ken-mini"), True), (("ryu-mini", "ryu-mini"), False)]
)
def test_tight_bounds_lie_within_the_adaptive_ones(pair: tuple[str, str], tighter: bool) -> None:
    """Method tight contains method adaptive: never looser; on six rounds of the mini pack
    strictly tighter for Ryu against Ken (the mirror match is already tight)."""
    opts = {"pack": MINI6}
    tight = solve_matchup(pair, opts, cache=False)
    adaptive = solve_matchup(pair, opts, cache=False, method="adaptive")
    assert adaptive.lower - 1e-12 <= tight.lower <= tight.upper <= adaptive.upper + 1e-12
    if tighter:
        assert tight.exploitability < adaptive.exploitability - 1e-3


def test_mirror_match_bounds_are_opposite() -> None:
    tight = solve_matchup(("ken-mini", "ken-mini"), {"pack": MINI6}, cache=False)
    assert tight.lower == pytest.approx(-tight.upper, abs=1e-12)


def test_secret_setup_names_round_trip() -> None:
    for st in (
        SecretSetup("ryu.jab", ("ryu.guard",)),
        SecretSetup("ryu.jab", ("ryu.guard", "ryu.metsu-hadouken")),
    ):
        assert SecretSetup.parse(st.name) == st
    assert SecretSetup("ryu.jab", ("ryu.guard",)).name == "setup:ryu.guard:ryu.jab"


def test_a_cover_drawn_from_a_type_not_unseen_is_refused() -> None:
    """Showing the only copy of a card and drawing the cover from it is no set-up."""
    fight = _fight(("ryu-mini", "ken-mini"), {"pack": MINI6})
    bad = SecretSetup("ryu-mini.metsu-hadouken", ("ryu-mini.metsu-hadouken", "ryu-mini.jab"))
    with pytest.raises(ValueError, match="distinct unseen types"):
        side_bound(fight, [bad])


def test_set_up_game_is_solved_exactly() -> None:
    """The side's value and mix are the LP of its matrix."""
    side = side_bound(_fight(("ryu-mini", "ken-mini"), {"pack": MINI6}))
    sol = solve_matrix(side.matrix)
    assert side.value == pytest.approx(sol.value, abs=1e-12)
    assert (side.mix @ side.matrix).min() == pytest.approx(side.value, abs=1e-9)
