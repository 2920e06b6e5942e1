"""One scenario per card: the 14 Ultras and the 8 Stages.

Every Ultra also reads "Defense: You may shuffle this card into your deck to avoid an
Attack. If you do, Counter-Attack the attacker." (tested in test_rules_counter.py).
"""

from __future__ import annotations

import pytest

from tests.games.sfdbg.scenario import act, ids, pending, position

ULTRAS = [
    "metsu-hadoken",
    "shinryuken",
    "hosenka",
    "ultimate-killer-head-ram",
    "ultimate-atomic-buster",
    "sonic-hurricane",
    "yoga-catastrophe",
    "psycho-punisher",
    "violent-buffalo",
    "tiger-destruction",
    "bloody-high-claw",
    "gyro-drive-smasher",
    "rekkashingeki",
    "wrath-of-the-raging-demon",
]


@pytest.mark.parametrize("ultra", ULTRAS)
def test_every_ultra_is_also_a_defense_that_counter_attacks(ultra):
    s = position(heroes=["ken", "ryu"], hands={0: ["gill"], 1: [ultra]})
    act(s, "play:gill", f"defend:{ultra}")
    assert pending(s)[:2] == (0, "defend")  # Ryu's Counter-Attack on the attacker
    act(s, "no-defense")
    assert ids(s.discard[0]) == ["weakness"]


def test_card__metsu_hadoken():
    """+3 Power. Attack: Each foe gains a Weakness."""
    s = position(players=3, hands={0: ["metsu-hadoken"]})
    act(s, "play:metsu-hadoken", "no-defense", "no-defense")
    assert s.power == 3 and ids(s.discard[1]) == ids(s.discard[2]) == ["weakness"]


def test_card__shinryuken():
    """+2 Power. Draw a card. Attack: Each foe discards a card."""
    s = position(hands={0: ["shinryuken"], 1: ["kick"]}, decks={0: ["seth"]})
    act(s, "play:shinryuken", "no-defense", "discard:kick")
    assert s.power == 2 and ids(s.hand[0]) == ["seth"] and ids(s.discard[1]) == ["kick"]


def test_card__hosenka():
    """+2 Power. Attack: Each foe discards two cards."""
    s = position(hands={0: ["hosenka"], 1: ["kick", "punch", "seth"]})
    act(s, "play:hosenka", "no-defense", "discard:kick", "discard:punch")
    assert s.power == 2 and ids(s.hand[1]) == ["seth"]


def test_card__ultimate_killer_head_ram():
    """+4 Power. Attack: Choose a foe. That foe gains a Weakness."""
    s = position(players=3, hands={0: ["ultimate-killer-head-ram"]})
    act(s, "play:ultimate-killer-head-ram", "foe:2", "no-defense")
    assert s.power == 4 and ids(s.discard[2]) == ["weakness"] and s.discard[1] == []


def test_card__ultimate_atomic_buster():
    """+2 Power. Attack: Choose any number of foes and, for each of them, a different card in
    your hand or discard pile. Each of those foes gains the card chosen for him."""
    s = position(
        players=3,
        hands={0: ["ultimate-atomic-buster", "vulnerability"]},
        discards={0: ["weakness"]},
    )
    act(s, "play:ultimate-atomic-buster", "give:hand:vulnerability", "give:discard:weakness")
    act(s, "no-defense", "no-defense")
    assert s.power == 2
    assert ids(s.discard[1]) == ["vulnerability"] and ids(s.discard[2]) == ["weakness"]
    assert s.discard[0] == [] and s.hand[0] == []


def test_card__sonic_hurricane():
    """+3 Power. Attack: Each foe discards the top card of his deck. If it has cost 1 or
    greater, that foe also gains a Weakness."""
    s = position(players=3, hands={0: ["sonic-hurricane"]}, decks={1: ["punch"], 2: ["seth"]})
    act(s, "play:sonic-hurricane", "no-defense", "no-defense")
    assert s.power == 3
    assert ids(s.discard[1]) == ["punch"] and ids(s.discard[2]) == ["seth", "weakness"]


def test_card__yoga_catastrophe():
    """+2 Power. Choose a foe. That foe gains a Weakness. Attack: Each foe discards a card."""
    s = position(players=3, hands={0: ["yoga-catastrophe"], 1: ["kick"], 2: ["punch"]})
    act(
        s,
        "play:yoga-catastrophe",
        "foe:2",
        "no-defense",
        "no-defense",
        "discard:kick",
        "discard:punch",
    )
    assert (
        s.power == 2
        and ids(s.discard[2]) == ["weakness", "punch"]
        and ids(s.discard[1]) == ["kick"]
    )


def test_card__psycho_punisher():
    """+3 Power. Attack: Name a card type. Each foe discards every card of that type from
    his hand."""
    s = position(hands={0: ["psycho-punisher"], 1: ["hadoken", "kick", "gill"]})
    act(s, "play:psycho-punisher", "no-defense")
    assert pending(s)[2][0] == "name:type:Starter" and len(pending(s)[2]) == 7
    act(s, "name:type:Super Power")
    assert s.power == 3 and sorted(ids(s.discard[1])) == ["hadoken", "kick"]


def test_card__violent_buffalo():
    """+3 Power. Attack: Each foe discards a card with cost 1 or greater. Each foe who can't
    gains a Weakness."""
    s = position(players=3, hands={0: ["violent-buffalo"], 1: ["punch", "kick"], 2: ["punch"]})
    act(s, "play:violent-buffalo", "no-defense", "no-defense")
    assert pending(s) == (1, "discard", ("discard:kick",))
    act(s, "discard:kick")
    assert pending(s) == (2, "discard", ("discard:none",))
    act(s, "discard:none")
    assert ids(s.discard[2]) == ["weakness"] and ids(s.hand[2]) == ["punch"]


def test_card__violent_buffalo__a_foe_with_an_empty_hand_cant_discard_so_gains_a_weakness():
    """ "Each foe who can't gains a Weakness": with no card in hand, a foe can't discard one."""
    s = position(players=3, hands={0: ["violent-buffalo"], 1: [], 2: ["seth"]})
    act(s, "play:violent-buffalo", "no-defense", "no-defense")
    assert ids(s.discard[1]) == ["weakness"]
    act(s, "discard:seth")
    assert ids(s.discard[2]) == ["seth"] and s.weak == 19


def test_card__tiger_destruction():
    """+3 Power. Attack: Each foe destroys a card with cost 1 or greater in his hand."""
    s = position(hands={0: ["tiger-destruction"], 1: ["punch", "seth"]})
    act(s, "play:tiger-destruction", "no-defense")
    assert pending(s) == (1, "destroy", ("destroy:hand:seth",))
    act(s, "destroy:hand:seth")
    assert s.power == 3 and ids(s.destroyed) == ["seth"]


def test_card__bloody_high_claw():
    """+3 Power. Attack: Each foe puts a card with cost 1 or greater from his discard pile
    under your Super Hero."""
    s = position(
        heroes=["vega", "ken"],
        hands={0: ["bloody-high-claw"]},
        discards={1: ["punch", "gill", "seth"]},
    )
    act(s, "play:bloody-high-claw", "no-defense", "under:discard:gill")
    assert s.power == 3 and ids(s.under[0]) == ["bloody-high-claw", "gill"]
    assert ids(s.discard[1]) == ["punch", "seth"]
    s.power = 5
    s._pending = None
    assert "buy:under:gill" in pending(s)[2]


def test_card__gyro_drive_smasher():
    """+2 Power. Attack: Each foe discards a card. +1 Power for each foe hit by this Attack."""
    s = position(players=3, hands={0: ["gyro-drive-smasher"], 1: ["punch"], 2: ["sakura"]})
    act(s, "play:gyro-drive-smasher", "no-defense", "defend:sakura", "discard:punch")
    assert s.power == 3


def test_card__rekkashingeki():
    """+3 Power. Attack: Name a cost. Each foe discards every card with that cost from his hand."""
    s = position(hands={0: ["rekkashingeki"], 1: ["kick", "balrog", "punch"]})
    act(s, "play:rekkashingeki", "no-defense", "name:cost:3")
    assert s.power == 3 and sorted(ids(s.discard[1])) == ["balrog", "kick"]


def test_card__wrath_of_the_raging_demon():
    """+4 Power. Attack: Each foe gains a Weakness and discards a card."""
    s = position(hands={0: ["wrath-of-the-raging-demon"], 1: ["kick"]})
    act(s, "play:wrath-of-the-raging-demon", "no-defense", "discard:kick")
    assert s.power == 4 and ids(s.discard[1]) == ["weakness", "kick"]


# -- Stages ------------------------------------------------------------------------------------


def test_card__usa():
    """Ongoing: The first time you play a Hero during each of your turns, draw a card."""
    s = position(locations={0: ["usa"]}, hands={0: ["rose", "rose"]}, decks={0: ["kick"] * 3})
    act(s, "play:rose", "play:rose")
    assert ids(s.hand[0]) == ["kick"]


def test_card__hong_kong():
    """Ongoing: The first time you play a Villain during each of your turns, draw a card."""
    s = position(locations={0: ["hong-kong"]}, hands={0: ["hugo", "punch"]}, decks={0: ["kick"]})
    act(s, "play:punch", "play:hugo")  # the only foe is chosen without asking
    assert ids(s.hand[0]) == ["kick"]


def test_card__japan():
    """Ongoing: The first time you play a Super Power during each of your turns, draw a card."""
    s = position(locations={0: ["japan"]}, hands={0: ["tiger-shot"]}, decks={0: ["kick"]})
    act(s, "play:tiger-shot")
    assert ids(s.hand[0]) == ["kick"]


def test_card__india():
    """Ongoing: The first time you play a Starter during each of your turns, you may destroy it."""
    s = position(locations={0: ["india"]}, hands={0: ["vulnerability", "punch"]})
    act(s, "play:vulnerability")
    assert pending(s)[:2] == (0, "destroy-trigger")
    act(s, "yes")
    assert ids(s.destroyed) == ["vulnerability"] and s.played[0] == []
    act(s, "play:punch")
    assert pending(s)[1] == "turn"  # only the first Starter


def test_card__brazil():
    """Ongoing: The first time you play an Equipment during each of your turns, draw a card."""
    s = position(locations={0: ["brazil"]}, hands={0: ["chun-lis-bracelets"]}, decks={0: ["kick"]})
    act(s, "play:chun-lis-bracelets")
    assert ids(s.hand[0]) == ["kick"] and s.power == 2


def test_card__russia():
    """Ongoing: The first time you play an Attack card during each of your turns, +2 Power."""
    s = position(locations={0: ["russia"]}, hands={0: ["juri", "juri"], 1: ["punch", "punch"]})
    act(s, "play:juri", "no-defense", "discard:punch")
    assert s.power == 2
    act(s, "play:juri", "no-defense", "discard:punch")
    assert s.power == 2


def test_card__united_kingdom():
    """Ongoing: The first time you play a card with cost 5 or greater during each of your
    turns, draw a card."""
    s = position(
        locations={0: ["united-kingdom"]}, hands={0: ["kick", "tiger-shot"]}, decks={0: ["punch"]}
    )
    act(s, "play:kick")
    assert len(s.hand[0]) == 1
    act(s, "play:tiger-shot")
    assert ids(s.hand[0]) == ["punch"]


def test_card__thailand():
    """Ongoing: The first time you play a card with cost 6 or greater during each of your
    turns, +2 Power."""
    s = position(
        locations={0: ["thailand"]}, hands={0: ["tiger-shot", "hadoken"]}, decks={0: ["punch"]}
    )
    act(s, "play:tiger-shot", "play:hadoken")
    assert s.power == 4 + 2 + 3
