"""One scenario per card: the basic cards and the main deck's cards of cost 1 to 3.

Each test's docstring is the card's text; the test plays it.
"""

from __future__ import annotations

from tests.games.sfdbg.scenario import act, ids, pending, position


def test_card__punch():
    """+1 Power"""
    s = position(hands={0: ["punch"]})
    act(s, "play:punch")
    assert s.power == 1


def test_card__vulnerability():
    """No effect."""
    s = position(hands={0: ["vulnerability"]})
    act(s, "play:vulnerability")
    assert s.power == 0 and ids(s.played[0]) == ["vulnerability"]


def test_card__kick():
    """+2 Power (estimate: the Cerberus Kick). Bought from the Kick stack for 3."""
    s = position(hands={0: ["kick"]}, kicks=16, power=3)
    act(s, "play:kick", "buy:kick")
    assert s.power == 2 and s.kicks == 15 and ids(s.discard[0]) == ["kick"]


def test_card__weakness():
    """When you play this card, return it to the Weakness stack. -1 VP."""
    s = position(hands={0: ["weakness"]}, weaknesses=0)
    act(s, "play:weakness")
    assert s.weak == 1 and s.played[0] == []


def test_card__rolling_thunder():
    """+1 Power. Defense: You may discard this card to avoid an Attack."""
    s = position(hands={0: ["rolling-thunder"]})
    act(s, "play:rolling-thunder")
    assert s.power == 1
    s = position(hands={0: ["gill"], 1: ["rolling-thunder"]})
    act(s, "play:gill", "defend:rolling-thunder")
    assert ids(s.discard[1]) == ["rolling-thunder"]


def test_card__cammy_delta_red():
    """+1 Power. If you defeat or have defeated a Stage this turn, you may put that Stage
    into your hand."""
    s = position(hands={0: ["cammy-delta-red"]}, heroes=["ken", "guile"], power=6)
    s.bosses.append(s.catalog.hero_by_id["ryu"].index)
    act(s, "play:cammy-delta-red")
    assert s.power == 7
    act(s, "challenge", "no-defense", "take:usa")
    assert ids(s.hand[0]) == ["usa"]


def test_card__rose():
    """+1 Power. Cards underneath your Super Hero cost 1 less for you to buy this turn."""
    s = position(heroes=["ryu", "ken"], hands={0: ["rose"]}, power=4)
    act(s, "play:rose")
    assert s.power == 5 and "buy:under:metsu-hadoken" in pending(s)[2]


def test_card__juri():
    """Attack: Each foe discards a card."""
    s = position(players=3, hands={0: ["juri"], 1: ["punch", "kick"], 2: ["hadoken"]})
    act(s, "play:juri", "no-defense", "no-defense", "discard:kick", "discard:hadoken")
    assert ids(s.discard[1]) == ["kick"] and ids(s.discard[2]) == ["hadoken"]
    assert s.power == 0


def test_card__yoga_teleport():
    """Draw a card."""
    s = position(hands={0: ["yoga-teleport"]}, decks={0: ["seth"]})
    act(s, "play:yoga-teleport")
    assert ids(s.hand[0]) == ["seth"]


def test_card__balrogs_gloves():
    """+1 Power. Attack: Choose a foe. That foe discards a card."""
    s = position(players=3, hands={0: ["balrogs-gloves"], 1: ["punch"], 2: ["kick", "punch"]})
    act(s, "play:balrogs-gloves")
    assert pending(s) == (0, "foe", ("foe:1", "foe:2"))
    act(s, "foe:2", "no-defense", "discard:kick")
    assert s.power == 1 and ids(s.discard[2]) == ["kick"] and s.discard[1] == []


def test_card__ryus_headband():
    """Place your deck into your discard pile. Then draw a card."""
    s = position(hands={0: ["ryus-headband"]}, decks={0: ["punch", "punch"]}, discards={0: []})
    act(s, "play:ryus-headband")
    assert ids(s.hand[0]) == ["punch"] and ids(s.deck[0]) == ["punch"] and s.discard[0] == []


def test_card__hot_blooded_sumo():
    """+1 Power. You may destroy a Vulnerability or a Weakness in your hand or discard pile."""
    s = position(
        hands={0: ["hot-blooded-sumo", "vulnerability", "punch"]},
        discards={0: ["weakness", "kick"]},
    )
    act(s, "play:hot-blooded-sumo")
    assert set(pending(s)[2]) == {
        "destroy:hand:vulnerability",
        "destroy:discard:weakness",
        "destroy:none",
    }
    act(s, "destroy:discard:weakness")
    assert s.power == 1 and ids(s.destroyed) == ["weakness"]


def test_card__sakura():
    """+1 Power. Defense: You may discard this card to avoid an Attack. If you do, draw a card."""
    s = position(hands={0: ["gill"], 1: ["sakura"]}, decks={1: ["hadoken"]})
    act(s, "play:gill", "defend:sakura")
    assert ids(s.hand[1]) == ["hadoken"] and ids(s.discard[1]) == ["sakura"]


def test_card__balrog():
    """+1 Power. Attack: Choose a foe. That foe gains a Weakness."""
    s = position(players=3, hands={0: ["balrog"]})
    act(s, "play:balrog", "foe:1", "no-defense")
    assert s.power == 1 and ids(s.discard[1]) == ["weakness"] and s.discard[2] == []


def test_card__hugo():
    """+2 Power. Choose a foe. That foe cannot avoid the next Attack this turn, whoever it
    affects."""
    s = position(hands={0: ["hugo", "gill"], 1: ["sakura"]})
    act(s, "play:hugo", "play:gill")
    assert s.power == 4
    assert pending(s) == (1, "defend", ("no-defense",))


def test_card__urien():
    """+1 Power. Defense: You may discard this card to avoid an Attack. If you do, you may
    destroy a card in your hand or discard pile."""
    s = position(hands={0: ["gill"], 1: ["urien", "vulnerability"]})
    act(s, "play:gill", "defend:urien", "destroy:hand:vulnerability")
    assert ids(s.destroyed) == ["vulnerability"] and "weakness" not in ids(s.discard[1])


def test_card__flying_barcelona():
    """+1 Power. Draw a card."""
    s = position(hands={0: ["flying-barcelona"]}, decks={0: ["kick"]})
    act(s, "play:flying-barcelona")
    assert s.power == 1 and ids(s.hand[0]) == ["kick"]


def test_card__hundred_hand_slap():
    """+2 Power. If you have already played another Super Power this turn, +1 additional Power."""
    s = position(hands={0: ["hundred-hand-slap", "hundred-hand-slap", "kick"]})
    act(s, "play:hundred-hand-slap")
    assert s.power == 2
    act(s, "play:kick", "play:hundred-hand-slap")
    assert s.power == 2 + 2 + 3


def test_card__hyakuretsukyaku():
    """+1 Power. You may gain a Kick."""
    s = position(hands={0: ["hyakuretsukyaku"]}, kicks=5)
    act(s, "play:hyakuretsukyaku", "gain:kick")
    assert s.power == 1 and s.kicks == 4 and ids(s.discard[0]) == ["kick"]


def test_card__sonic_boom():
    """+1 Power. Draw a card, then discard a card."""
    s = position(hands={0: ["sonic-boom", "vulnerability"]}, decks={0: ["hadoken"]})
    act(s, "play:sonic-boom", "discard:vulnerability")
    assert s.power == 1 and ids(s.hand[0]) == ["hadoken"] and ids(s.discard[0]) == ["vulnerability"]


def test_card__chun_lis_bracelets():
    """+2 Power. Defense: You may discard this card to avoid an Attack."""
    s = position(hands={0: ["chun-lis-bracelets"]})
    act(s, "play:chun-lis-bracelets")
    assert s.power == 2
    s = position(hands={0: ["m-bison"], 1: ["chun-lis-bracelets", "punch"]})
    act(s, "play:m-bison", "defend:chun-lis-bracelets")
    assert ids(s.discard[1]) == ["chun-lis-bracelets"] and ids(s.hand[1]) == ["punch"]


def test_card__sagats_eyepatch():
    """+1 Power. You may destroy a card in your hand."""
    s = position(hands={0: ["sagats-eyepatch", "punch"]}, discards={0: ["vulnerability"]})
    act(s, "play:sagats-eyepatch")
    assert pending(s)[2] == ("destroy:hand:punch", "destroy:none")
    act(s, "destroy:hand:punch")
    assert s.power == 1 and ids(s.destroyed) == ["punch"]
