"""Prompts that explain (issue 30): an Attack's prompt says what the Attack does to the seat
asked and what avoiding it takes; a Defense's label says what it gives besides; a forced
destroy never reads "at most" (nothing to choose fewer with)."""

from __future__ import annotations

from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.labels import choice_label
from tests.games.sfdbg.scenario import act, position

CATALOG = GAME.catalog()


def test_an_attack_prompt_says_what_the_attack_does_and_what_defending_takes():
    s = position(hands={0: ["tiger-destruction"], 1: ["sakura", "seth"]})
    act(s, "play:tiger-destruction")
    (decision,) = s.pending()
    assert decision.kind == "defend" and decision.seat == 1
    assert "Each foe destroys a card with cost 1 or greater in his hand" in decision.prompt
    assert "A Defense from your hand avoids it" in decision.prompt


def test_an_attack_prompt_tells_nothing_of_the_hand_it_is_asked_of():
    """Every seat's view shows the pending prompt: it is the same with or without a Defense
    in the hand of the seat asked (hidden information)."""
    prompts = []
    for hand in (["sakura", "seth"], ["punch", "seth"]):
        s = position(hands={0: ["tiger-destruction"], 1: hand})
        act(s, "play:tiger-destruction")
        prompts.append(s.pending()[0].prompt)
    assert prompts[0] == prompts[1]


def test_a_counter_attack_prompt_quotes_the_super_heros_counter_attack():
    s = position(heroes=["ryu", "vega"], hands={0: ["gill"], 1: ["sakura", "punch"]})
    act(s, "play:gill")
    (decision,) = s.pending()
    assert "attacks you with" in decision.prompt and "(" in decision.prompt


def test_a_defense_label_says_what_it_gives():
    s = position(hands={0: ["tiger-destruction"], 1: ["sakura", "seth"]})
    label = choice_label("defend:sakura", CATALOG, s.view(1))
    assert label == "Avoid the Attack with Sakura, then draw a card"


def test_a_forced_destroy_does_not_read_at_most():
    s = position(hands={0: ["tiger-destruction"], 1: ["punch", "seth"]})
    act(s, "play:tiger-destruction", "no-defense")
    (decision,) = s.pending()
    assert decision.kind == "destroy" and decision.legal == ("destroy:hand:seth",)
    assert "at most" not in decision.prompt and decision.prompt.endswith("destroy a card")
