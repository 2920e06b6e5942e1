"""The vectorised SF Rivals fight solver against a direct recursive reference, and against
the engine itself."""

from __future__ import annotations

import random

import pytest

from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.resolve import Carry
from kumite.games.sfrivals.solver.fight import FightSolver, Position, setup_hand
from tests.games.sfrivals.scenario import position
from tests.games.sfrivals.solver.reference_fight import Position as RefPosition
from tests.games.sfrivals.solver.reference_fight import ReferenceSolver


def _solvers(a: str, b: str, **opts: str) -> tuple[FightSolver, ReferenceSolver]:
    options = GAME.parse_options(dict(opts))
    cat = GAME.catalog(options)
    chars = (cat.characters[a], cat.characters[b])
    return FightSolver(cat, options, chars), ReferenceSolver(cat, options, chars)


def _late_positions(solver: FightSolver, n: int, seed: int, adaptive: int | None) -> list[Position]:
    """Random positions from round 5 on (four or five cards left), with random lives,
    carried bonuses and reveal-first flags."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        hands = []
        for seat, char in enumerate(solver.chars):
            deck = [c for c in char.cards for _ in range(c.copies)]
            keep = 5 if adaptive == seat else 4
            picked = rng.sample(deck, keep)
            hand = [0] * len(char.cards)
            for c in picked:
                hand[c.index] += 1
            hands.append(tuple(hand))
        reveal = rng.choice([(False, False), (True, False), (False, True)])
        carry = (Carry(rng.choice([0, 0, 2, 3]), 0, 0), Carry(rng.choice([0, 0, 1, 5]), 0, 0))
        out.append(
            Position(
                (hands[0], hands[1]),
                lives=(rng.randint(1, 10), rng.randint(1, 10)),
                round=5,
                carry=carry,
                reveal_first=reveal,
                adaptive=(adaptive == 0, adaptive == 1),
            )
        )
    return out


@pytest.mark.parametrize(
    ("chars", "opts", "adaptive"),
    [
        (("ryu", "ken"), {}, None),
        (("juri", "poison"), {"ultra_rule": "power"}, None),
        (("dudley", "chunli"), {"no_legal_card": "play-powerless"}, None),
        (("zangief", "guile"), {"swap": "printed"}, None),
        (("juri", "ryu"), {}, 1),
        (("poison", "zangief"), {"no_legal_card": "play-powerless"}, 0),
    ],
)
def test_vectorised_solver_matches_reference(
    chars: tuple[str, str], opts: dict[str, str], adaptive: int | None
) -> None:
    fast, ref = _solvers(*chars, **opts)
    positions = _late_positions(fast, 25, seed=hash(chars) % 1000, adaptive=adaptive)
    got = fast.values(positions)
    want = [
        ref.value(RefPosition(p.hands, p.lives, p.round, p.carry, p.reveal_first, p.adaptive))
        for p in positions
    ]
    assert got == pytest.approx(want, abs=1e-9)


def test_full_fight_value_ryu_ken_known_setup() -> None:
    """One full fight from round 1 (Ryu covers Hurricane Kick and shows the Ultra; Ken the
    same): its value, computed once by the reference solver (0.11378915...)."""
    fast, _ = _solvers("ryu", "ken")
    ryu, ken = fast.chars
    hands = (
        setup_hand(ryu, ryu.cards[0], ryu.cards[1]),
        setup_hand(ken, ken.cards[0], ken.cards[1]),
    )
    assert fast.value(Position(hands)) == pytest.approx(0.11378915032090098, abs=1e-9)


def test_node_strategies_are_optimal() -> None:
    fast, _ = _solvers("guile", "chunli")
    for pos in _late_positions(fast, 10, seed=3, adaptive=None):
        node = fast.solve_node(pos)
        x, y = node.strategies
        assert x.sum() == pytest.approx(1.0)
        assert y.sum() == pytest.approx(1.0)
        if not any(pos.reveal_first):
            assert (x @ node.matrix).min() == pytest.approx(node.value, abs=1e-9)
            assert (node.matrix @ y).max() == pytest.approx(node.value, abs=1e-9)


def test_last_round_value_follows_the_engine() -> None:
    """With one card each, the value is the engine's outcome of playing them."""
    state = position("ryu", "ken", hands=(["jab"], ["weak-shoryuken"]), lives=(3, 2), round=8)
    fast, _ = _solvers("ryu", "ken")
    ryu, ken = fast.chars
    hand0 = tuple(1 if c.id == "ryu.jab" else 0 for c in ryu.cards)
    hand1 = tuple(1 if c.id == "ken.weak-shoryuken" else 0 for c in ken.cards)
    v = fast.value(Position((hand0, hand1), lives=(3, 2), round=8))
    state.apply({0: "play:ryu.jab", 1: "play:ken.weak-shoryuken"})
    assert state.outcome is not None
    assert v == state.outcome.returns[0]


def test_adaptive_seat_is_never_weaker() -> None:
    """Holding the cover in reserve can only help: adaptive value >= committed value for
    every choice of cover (seat 1 adaptive: seat 0's value can only drop)."""
    fast, _ = _solvers("chunli", "dudley")
    b = fast.chars[1]
    pos = _late_positions(fast, 1, seed=9, adaptive=1)[0]
    committed = []
    unseen = pos.hands[1]
    for cover in b.cards:
        if unseen[cover.index]:
            hand = list(unseen)
            hand[cover.index] -= 1
            committed.append(
                fast.value(Position((pos.hands[0], tuple(hand)), pos.lives, pos.round, pos.carry))
            )
    relaxed = fast.value(
        Position(pos.hands, pos.lives, pos.round, pos.carry, adaptive=(False, True))
    )
    assert relaxed <= min(committed) + 1e-12


def test_character_tables_shared_between_pairings_give_the_same_values() -> None:
    """A character's legal-card and stuck tables do not depend on the opponent, so solvers
    may share them (the batched engine does): a mirror match reading one table for both
    seats, and a second pairing reading the first's, value every position as solvers with
    their own tables do — under an adaptive seat too (its entries are the same tables')."""
    from kumite.games.sfrivals.solver.fight import CharacterTables

    options = GAME.parse_options({})
    cat = GAME.catalog(options)
    ryu, ken = cat.characters["ryu"], cat.characters["ken"]
    tables = {c.id: CharacterTables(cat, options, c) for c in (ryu, ken)}
    for pair, adaptive in (((ryu, ryu), None), ((ryu, ken), 1), ((ken, ryu), 0)):
        shared = FightSolver(
            cat, options, pair, seat_tables=(tables[pair[0].id], tables[pair[1].id])
        )
        own = FightSolver(cat, options, pair)
        positions = _late_positions(own, 20, seed=11, adaptive=adaptive)
        assert list(shared.values(positions)) == list(own.values(positions))


def test_seat_tables_of_other_characters_are_refused() -> None:
    from kumite.games.sfrivals.solver.fight import CharacterTables

    options = GAME.parse_options({})
    cat = GAME.catalog(options)
    ryu, ken = cat.characters["ryu"], cat.characters["ken"]
    ken_tables = CharacterTables(cat, options, ken)
    with pytest.raises(ValueError, match="other characters"):
        FightSolver(cat, options, (ryu, ken), seat_tables=(ken_tables, ken_tables))
