"""The ``tight`` strategy played from a view (:mod:`kumite.games.sfrivals.solver.tight`): the
opening states from which every later question is a look-up."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver import bounds
from kumite.games.sfrivals.solver.fight import setup_hand
from kumite.games.sfrivals.solver.hidden import mini_pack
from kumite.games.sfrivals.solver.setup import MatchupSolution, solve_matchup
from kumite.games.sfrivals.solver.tight import opening_keys, play_distribution

MINI6 = mini_pack() + "\n[rules]\nhand = 6\n"
PAIRS = [("ryu-mini", "ken-mini"), ("ken-mini", "ken-mini")]


def _covers(sol: MatchupSolution, seat: int, view: dict[str, Any]) -> list[str]:
    """The cover types the seat's played cards leave possible (its unseen cards now)."""
    char = sol.side(seat).chars[0]
    me = view["players"][seat]
    unseen = list(setup_hand(char, None, char.card(me["shown"])))
    for cid in me["played"]:
        unseen[char.card(cid).index] -= 1
    return [c.id for c in char.cards if unseen[c.index] >= 1]


@pytest.mark.parametrize("pair", PAIRS)
def test_opening_keys_leave_play_distribution_only_look_ups(
    pair: tuple[str, str], cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the opening states of every cover's plans are solved, the behaviour strategy of
    the seat, at every round of fights it plays by that strategy (the other seat playing at
    random), is looked up for every cover its plays leave possible: no solve pass runs."""
    sol = solve_matchup(pair, {"pack": MINI6})
    options = {"characters": list(pair), "pack": MINI6}
    asked = 0
    for seed in range(6):
        rng = random.Random(seed)
        me = seed % 2
        state = GAME.new_state(seed, options)
        state.quiet = True
        mix = [sol.setup[0], sol.setup[1]]
        choices = {}
        for d in state.pending():
            setups = [c for c in d.legal if mix[d.seat].get(c, 0.0) > 0]
            choices[d.seat] = rng.choices(setups, [mix[d.seat][c] for c in setups])[0]
        state.apply(choices)
        side, plans = sol.side(me), sol.plans[me] if sol.plans else sol.setup[me]
        view = state.view(me)
        shown, opp_shown = view["players"][me]["shown"], view["players"][1 - me]["shown"]
        char = side.chars[0]
        every = [c.index for c in char.cards]
        side.values(opening_keys(side, plans, shown, opp_shown, every))
        with monkeypatch.context() as m:
            m.setattr(bounds.BoundSolver, "_solve", _refused)
            while state.pending():
                choices = {}
                for d in state.pending():
                    view = state.view(d.seat)
                    if d.seat != me:
                        choices[d.seat] = rng.choice(d.legal)
                        continue
                    for cover in _covers(sol, me, view):
                        view["players"][me]["cover"] = cover
                        play_distribution(view, side, plans)
                        asked += 1
                    real = play_distribution(state.view(me), side, plans)
                    cards = {char.cards[i].id: p for i, p in real.items()}
                    legal = [c for c in d.legal if cards.get(c.partition(":")[2], 0.0) > 0]
                    weights = [cards[c.partition(":")[2]] for c in legal]
                    choices[d.seat] = rng.choices(legal, weights)[0] if legal else d.legal[0]
                state.apply(choices)
    assert asked > 0


def _refused(*args: object, **kwargs: object) -> None:
    raise AssertionError("a state outside the opening states' fights was solved")
