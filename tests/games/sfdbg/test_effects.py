"""The closed vocabulary of effect primitives (DESIGN §3): registered, used, and tested."""

from __future__ import annotations

import typing

from kumite.games.sfdbg.effects import BLOCKING, PRIMITIVES
from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.schema import Op
from tests.games.sfdbg.scenario import act, ids, pending, position

CATALOG = GAME.catalog()


def used_ops() -> set[str]:
    ops: set[str] = set()

    def walk(effects):
        for e in effects:
            ops.add(e.op)
            walk(e.effects)
            walk(e.per_hit)

    for card in CATALOG.cards:
        walk(card.play)
        walk(card.reaction)
        if card.defense:
            walk(card.defense.effects)
        if card.ongoing:
            walk(card.ongoing.effects)
    for hero in CATALOG.heroes:
        walk(hero.counter)
    return ops


def test_every_op_of_the_schema_is_a_registered_primitive():
    assert set(typing.get_args(Op)) == set(PRIMITIVES)
    assert {"discard", "destroy", "attack", "foe", "gain"} <= BLOCKING


def test_every_primitive_is_used_by_a_card_so_its_scenario_test_covers_it():
    assert used_ops() == set(PRIMITIVES)


def test_power_only_counts_for_the_player_whose_turn_it_is():
    """A Defense's effects never give Power to the defender (Power is per turn)."""
    s = position(hands={0: ["gill"], 1: ["dash-straight"]}, decks={1: ["kick"]})
    act(s, "play:gill", "defend:dash-straight")
    assert s.power == 2  # Gill's Power only


def test_lose_power_only_hits_the_player_whose_turn_it_is():
    """A Counter-Attack back on a defender (not his turn) takes no Power from anyone."""
    s = position(
        heroes=["guile", "ryu"],
        hands={0: ["gill", "sonic-hurricane"], 1: ["metsu-hadoken"]},
        power=5,
    )
    act(s, "play:gill", "defend:metsu-hadoken", "defend:sonic-hurricane", "no-defense")
    assert s.power == 7  # Guile's Counter-Attack hit seat 1, who has no Power to lose


def test_effects_wait_for_a_decision_then_resume_in_text_order():
    """Sonic Boom: +1 Power, draw, then discard — the discard waits for the draw."""
    s = position(hands={0: ["sonic-boom"]}, decks={0: ["hadoken"]})
    act(s, "play:sonic-boom")
    assert pending(s) == (0, "discard", ("discard:hadoken",))
    act(s, "discard:hadoken")
    assert ids(s.discard[0]) == ["hadoken"] and pending(s)[1] == "turn"


def test_a_conditional_effect_is_skipped_when_its_condition_fails():
    s = position(hands={0: ["vegas-claw-and-mask"]}, decks={0: ["kick"] * 2})
    act(s, "play:vegas-claw-and-mask")
    assert s.hand[0] == [] and s.power == 2
