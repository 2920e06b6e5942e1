"""Issue 17 acceptance: the batched SF Rivals engine plays the scalar engine's game choice for
choice — 10^4 random batched fights, under every rule option, replayed on SFRState: every
legal set the same, and the same outcome, reason, lives and rounds."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from kumite.games.sfrivals.batch import REASONS, BatchEngine, Fights
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.state import A_PLAY

OPTIONS: list[dict[str, Any]] = [
    {},
    {"ultra_rule": "power", "swap": "printed"},
    {"no_legal_card": "play-powerless", "characters": ["zangief", "juri"]},
    {"characters": ["ryu", None], "swap": "printed", "no_legal_card": "play-powerless"},
]
FIGHTS = 2500
"""Per option set: 10^4 fights in all."""


def replay(engine: BatchEngine, fights: Fights, i: int) -> None:
    """Fight ``i``'s choices on the scalar engine, checking each legal set on the way."""
    state = GAME.new_state(0, GAME.options_to_json(engine.options))
    for r, step in enumerate(engine.action_ids(fights, i)):
        is_play = all(A_PLAY <= a < A_PLAY + 10 for a in step.values())
        while step:
            pending = {d.seat for d in state.pending()}
            now = {s: a for s, a in step.items() if s in pending}
            assert now, f"fight {i}: no seat of {step} is to decide"
            if is_play:
                rnd = r - (len(engine.action_ids(fights, i)) - int(fights.rounds[i]))
                for s in now:
                    legal = {a - A_PLAY for a in state.legal_actions(s)}
                    bits = int(fights.legal[i, s, rnd])
                    assert legal == {k for k in range(10) if bits >> k & 1}, (i, s, rnd)
            state.apply_action(now)
            step = {s: a for s, a in step.items() if s not in pending}
    outcome = state.outcome
    assert outcome is not None, f"fight {i} is not over on the scalar engine"
    winner = -1 if outcome.draw else outcome.winners[0]
    got = (winner, tuple(outcome.detail["lives"]), outcome.detail["rounds"], outcome.reason)
    want = (
        int(fights.winner[i]),
        tuple(int(x) for x in fights.lives[i]),
        int(fights.rounds[i]),
        REASONS[int(fights.reason[i])],
    )
    assert got == want, f"fight {i}"


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "base"
)
def test_batched_fights_match_the_scalar_engine(options: dict[str, Any]) -> None:
    engine = BatchEngine(GAME, options)
    fights = engine.random_fights(np.arange(FIGHTS) + 1000)
    assert len(fights) == FIGHTS
    for i in range(FIGHTS):
        replay(engine, fights, i)
    # the fights are not all alike: several outcomes and reasons occur
    assert len(set(fights.winner.tolist())) >= 2
    assert len(set(fights.reason.tolist())) >= 2


def test_a_fight_depends_only_on_its_seed() -> None:
    """Counter-based streams: the same seed gives the same fight in any batch."""
    engine = BatchEngine(GAME, {})
    alone = engine.random_fights([77])
    among = engine.random_fights([5, 77, 9, 1234])
    assert engine.action_ids(alone, 0) == engine.action_ids(among, 1)
    assert alone.lives[0].tolist() == among.lives[1].tolist()
    assert engine.action_ids(among, 0) != engine.action_ids(among, 1)


def test_random_choices_are_uniform() -> None:
    """Each legal card is drawn about equally often (round 1, fixed set-up counts)."""
    engine = BatchEngine(GAME, {"characters": ["ryu", "ken"]})
    fights = engine.random_fights(np.arange(20000))
    first = fights.played[:, 0, 0]
    legal = fights.legal[:, 0, 0]
    # condition on one legal set: the commonest
    sets, counts = np.unique(legal, return_counts=True)
    common = sets[counts.argmax()]
    picks = first[legal == common]
    slots = [k for k in range(10) if int(common) >> k & 1]
    freq = np.array([(picks == k).mean() for k in slots])
    assert np.allclose(freq, 1 / len(slots), atol=0.03)


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "base"
)
def test_tables_filled_up_front_leave_no_fight_wanting(
    options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``FightSolver.fill_committed`` fills every entry committed play can meet when the
    engine first uses a pairing: random fights then never stop to fill one."""
    from kumite.games.sfrivals.solver.fight import FightSolver

    engine = BatchEngine(GAME, options)
    for a in range(len(engine.characters)):
        for b in range(len(engine.characters)):
            engine.solver(a, b)

    def refused(self: FightSolver, round: int, states: Any) -> None:
        raise AssertionError(f"round {round}: {len(states)} fights wanted an entry")

    monkeypatch.setattr(FightSolver, "prepare", refused)
    fights = engine.random_fights(np.arange(FIGHTS) + 5000)
    assert (fights.rounds >= 1).all()
