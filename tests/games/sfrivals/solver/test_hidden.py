"""The whole hidden-cover game of a small variant, exactly: the shipped mini pack, perfect
recall, the exact value (LP and CFR+), and the bounds and bound strategies against it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver.certify import certify
from kumite.games.sfrivals.solver.hidden import (
    MINI_CHARACTERS,
    build_tree,
    histories,
    infoset_key,
    mini_pack,
    solve_cfr,
    solve_exact,
    strategy_profile,
)
from kumite.games.sfrivals.solver.setup import MatchupSolution, solve_matchup
from kumite.games.sfrivals.solver.strategy import advice
from kumite.solve.best_response import best_response
from kumite.solve.sequence_form import sequence_form

PAIR = ("ryu-mini", "ken-mini")


def _pack(rounds: int) -> dict[str, str]:
    """The mini pack with a shorter fight (an overlay's [rules] table over it)."""
    return {"pack": mini_pack() + f"\n[rules]\nhand = {rounds}\n"}


def test_mini_pack_is_shipped_with_three_kinds_of_card() -> None:
    opts = GAME.parse_options({"pack": mini_pack(), "characters": list(MINI_CHARACTERS)})
    cat = GAME.catalog(opts)
    for char_id in MINI_CHARACTERS:
        char = cat.characters[char_id]
        assert len(char.cards) == 3
        assert sum(c.copies for c in char.cards) == 10
        assert sum(c.is_ultra for c in char.cards) == 1
    assert cat.rules.hand == 8 and cat.rules.life == 10  # the base game's rules
    # small enough to write out whole (docs/solver.md quotes this number)
    assert histories(PAIR, {"pack": mini_pack()}) == 117_857


def test_information_sets_are_the_views() -> None:
    """Every node of an information set shows its player the same view (so the game has
    exactly the information of the table), and the tree has perfect recall (the sequence
    form checks that every information set has one past)."""
    tree = build_tree(PAIR, _pack(4))
    sequence_form(tree)  # raises if an information set had two pasts
    seen: dict[int, Mapping[str, Any]] = {}
    for node in np.flatnonzero(tree.node_infoset >= 0).tolist():
        i = int(tree.node_infoset[node])
        view = tree.histories[node].state.view(int(tree.infoset_player[i]))
        view = {k: v for k, v in view.items() if k != "pending"}
        if i in seen:
            assert view == seen[i]
        else:
            seen[i] = view
            assert (
                infoset_key(tree.histories[node].state.view(int(tree.infoset_player[i])))
                == (tree.infoset_keys[i])
            )


def test_short_mini_fight_exact_value_and_bounds() -> None:
    """Four rounds of the mini pack: the LP's equilibrium is unexploitable and its value
    lies within the bounds (here they meet)."""
    ex = solve_exact(PAIR, _pack(4))
    assert ex.exploitability == pytest.approx(0.0, abs=1e-9)
    sol = solve_matchup(PAIR, _pack(4), cache=False)
    assert sol.lower - 1e-9 <= ex.value <= sol.upper + 1e-9


def test_exact_solve_refuses_a_game_too_big_to_hold() -> None:
    from kumite.core.errors import OptionsError

    with pytest.raises(OptionsError, match="more than 1,000 histories"):
        build_tree(("ryu", "ken"), {"pack": mini_pack() + "\n[rules]\nhand = 2\n"}, limit=1000)


def _policy(sol: MatchupSolution) -> Any:
    def policy(view: Mapping[str, Any]) -> dict[str, float]:
        seat = int(view["seat"])
        if view["phase"] == "setup":
            return sol.setup[seat]
        return {a.choice: a.probability for a in advice(view, sol)}

    return policy


@pytest.mark.slow
def test_bounds_are_reproduced_by_an_independent_best_response() -> None:
    """Six rounds of the mini pack. Both methods' bound strategies, asked at two nodes of
    every information set, answer the same (playable from a seat's view alone). An exact
    best response in the hidden-cover game — over the real information sets, sharing no
    code with the fight solver — then gives: for method adaptive, each bound strategy
    exactly its committed-opponent certificate (both set-up mixes are pure, so the
    certificate is exact) and never less than its bound; for method tight (which keeps a
    cover secret by mixing set-ups, and plays through Bayes' rule over its own plans),
    never less than its bound. The exact value (LP, and CFR+ to 1e-3) lies within both."""
    opts = _pack(6)
    tree = build_tree(PAIR, opts)
    ex = solve_exact(PAIR, opts)
    for method in ("adaptive", "tight"):
        sol = solve_matchup(PAIR, opts, cache=False, method=method)
        sigma = strategy_profile(tree, _policy(sol), check=1)
        guaranteed0 = -best_response(tree, sigma, 1)[0]
        conceded1 = best_response(tree, sigma, 0)[0]
        assert guaranteed0 >= sol.lower - 1e-9 and conceded1 <= sol.upper + 1e-9
        assert sol.lower - 1e-9 <= ex.value <= sol.upper + 1e-9
        if method == "adaptive":
            assert sol.upper - sol.lower > 0.05
            cert = certify(sol)
            assert all(cert.exact)
            assert guaranteed0 == pytest.approx(cert.lower, abs=1e-9)
            assert conceded1 == pytest.approx(cert.upper, abs=1e-9)
    run = solve_cfr(tree, target=1e-3)
    assert run.exploitability <= 1e-3
    assert run.value == pytest.approx(ex.value, abs=2e-3)
