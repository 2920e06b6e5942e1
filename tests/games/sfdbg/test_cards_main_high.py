"""One scenario per card: the main deck's cards of cost 4 to 8.

Each test's docstring is the card's text; the test plays it.
"""

from __future__ import annotations

from kumite.games.sfdbg.scoring import deck_vp
from tests.games.sfdbg.scenario import act, deck_top, ids, pending, position


def deck(s, *names):
    return [s.catalog.by_id[n].index for n in names]


# -- cost 4 ------------------------------------------------------------------------------------


def test_card__ken_masters():
    """+2 Power. Draw a card."""
    s = position(hands={0: ["ken-masters"]}, decks={0: ["kick"]})
    act(s, "play:ken-masters")
    assert s.power == 2 and ids(s.hand[0]) == ["kick"]


def test_card__mystic_yogi():
    """+1 Power. Draw a card. The first time you play a Mystic Yogi each turn, you may
    return it to your hand."""
    s = position(hands={0: ["mystic-yogi"]}, decks={0: ["kick", "kick"]})
    act(s, "play:mystic-yogi")
    assert pending(s)[:2] == (0, "return-to-hand")
    act(s, "no")
    assert ids(s.played[0]) == ["mystic-yogi"] and s.power == 1


def test_card__agents_of_shadaloo():
    """+1 Power. If you have already played another Agents of Shadaloo this turn, +1
    additional Power and draw a card. Each is worth VP equal to the number you own."""
    s = position(hands={0: ["agents-of-shadaloo"] * 3}, decks={0: ["punch"] * 5})
    act(s, "play:agents-of-shadaloo", "play:agents-of-shadaloo", "play:agents-of-shadaloo")
    assert s.power == 1 + 2 + 2 and ids(s.hand[0]) == ["punch", "punch"]
    assert deck_vp(s.catalog, deck(s, *["agents-of-shadaloo"] * 3)) == 9


def test_card__dash_straight():
    """+2 Power. Defense: You may discard this card to avoid an Attack. If you do, draw a card."""
    s = position(hands={0: ["rolento"], 1: ["dash-straight"]}, decks={1: ["seth"]})
    act(s, "play:rolento", "defend:dash-straight")
    assert ids(s.hand[1]) == ["seth"] and s.power == 2


def test_card__gohadoken():
    """+2 Power. You may destroy a card in your discard pile."""
    s = position(hands={0: ["gohadoken", "vulnerability"]}, discards={0: ["weakness"]})
    act(s, "play:gohadoken")
    assert pending(s)[2] == ("destroy:discard:weakness", "destroy:none")
    act(s, "destroy:discard:weakness")
    assert s.power == 2 and ids(s.destroyed) == ["weakness"]


def test_card__shinku_hadoken():
    """+2 Power. When a foe plays an Attack that affects you, you may reveal this card from
    your hand. If you do, that foe gains a Weakness."""
    s = position(hands={0: ["shinku-hadoken"]})
    act(s, "play:shinku-hadoken")
    assert s.power == 2
    s = position(hands={0: ["balrog"], 1: ["shinku-hadoken"]})
    act(s, "play:balrog", "reveal:shinku-hadoken", "no-defense")
    assert ids(s.discard[0]) == ["weakness"] and ids(s.discard[1]) == ["weakness"]
    assert ids(s.hand[1]) == ["shinku-hadoken"]


def test_card__shippu_jinraikyaku():
    """+1 Power, and +1 additional Power for each other Super Power you have played this turn."""
    s = position(
        hands={0: ["shippu-jinraikyaku", "kick", "hadoken", "punch"]}, decks={0: ["punch"]}
    )
    act(s, "play:kick", "play:hadoken", "play:punch", "play:shippu-jinraikyaku")
    assert s.power == 2 + 3 + 1 + 1 + 2


def test_card__akumas_gi():
    """+2 Power. At the end of the game, this card is worth 1 VP for each different Attack
    card in your deck."""
    s = position(hands={0: ["akumas-gi"]})
    act(s, "play:akumas-gi")
    assert s.power == 2
    assert deck_vp(s.catalog, deck(s, "akumas-gi", "akumas-gi", "gill", "balrog")) == 2 * 2 + 1 + 1


# -- cost 5 ------------------------------------------------------------------------------------


def test_card__dudley():
    """Draw two cards."""
    s = position(hands={0: ["dudley"]}, decks={0: ["kick", "seth", "punch"]})
    act(s, "play:dudley")
    assert sorted(ids(s.hand[0])) == ["kick", "seth"] and s.power == 0


def test_card__jungle_warrior():
    """+2 Power. At the end of the game, if you have five or more different Super Powers in
    your deck, this card is worth 5 VP."""
    s = position(hands={0: ["jungle-warrior"]})
    act(s, "play:jungle-warrior")
    assert s.power == 2
    four = ["kick", "hadoken", "tiger-shot", "sonic-boom"]
    assert deck_vp(s.catalog, deck(s, "jungle-warrior", *four)) == 1 + 2 + 2 + 1
    assert deck_vp(s.catalog, deck(s, "jungle-warrior", *four, "kick", "dudley")) == 7 + 1
    assert deck_vp(s.catalog, deck(s, "jungle-warrior", *four, "yoga-teleport")) == 5 + 6 + 1


def test_card__red_cyclone():
    """+2 Power. You may put a card with cost 5 or less from the Line-Up under your Super Hero."""
    s = position(
        heroes=["zangief", "ken"],
        hands={0: ["red-cyclone"]},
        line_up=["gill", "seth", "rose", "hadoken", "juri"],
    )
    act(s, "play:red-cyclone")
    assert set(pending(s)[2]) == {
        "under:lineup:gill",
        "under:lineup:rose",
        "under:lineup:juri",
        "under:none",
    }
    act(s, "under:lineup:gill")
    assert ids(s.under[0]) == ["ultimate-atomic-buster", "gill"] and s.lineup[0] == -1


def test_card__gill():
    """+2 Power. Attack: Each foe gains a Weakness."""
    s = position(players=3, hands={0: ["gill"]})
    act(s, "play:gill", "no-defense", "no-defense")
    assert s.power == 2 and ids(s.discard[1]) == ids(s.discard[2]) == ["weakness"]


def test_card__rolento():
    """+2 Power. Attack: Each foe discards a card."""
    s = position(hands={0: ["rolento"], 1: ["kick", "punch"]})
    act(s, "play:rolento", "no-defense", "discard:punch")
    assert s.power == 2 and ids(s.discard[1]) == ["punch"]


def test_card__sodom():
    """+2 Power. Reveal the top card of the main deck. You may put it under your Super Hero."""
    s = position(heroes=["ryu", "ken"], hands={0: ["sodom"]}, main=["seth", "gill"])
    act(s, "play:sodom")
    assert s.view(1)["main_deck_top"] == "seth"
    assert pending(s)[2] == ("under:main_top:seth", "under:none")
    act(s, "under:none")
    assert s.power == 2 and ids(s.main[-1:]) == ["seth"]


def test_card__rolentos_baton():
    """+2 Power. At the end of the game, this card is worth 1 VP for each different Defense
    card in your deck."""
    s = position(hands={0: ["rolentos-baton"]})
    act(s, "play:rolentos-baton")
    assert s.power == 2
    assert deck_vp(s.catalog, deck(s, "rolentos-baton", "sakura", "sakura", "urien")) == 2 + 3


# -- cost 6 ------------------------------------------------------------------------------------


def test_card__fei_long_hong_kong_action_hero():
    """+3 Power. If you have a Location in play, draw a card."""
    s = position(hands={0: ["fei-long-hong-kong-action-hero"]}, decks={0: ["kick"]})
    act(s, "play:fei-long-hong-kong-action-hero")
    assert s.power == 3 and s.hand[0] == []
    s = position(
        hands={0: ["fei-long-hong-kong-action-hero"]}, decks={0: ["kick"]}, locations={0: ["usa"]}
    )
    act(s, "play:fei-long-hong-kong-action-hero")
    assert "kick" in ids(s.hand[0])


def test_card__soldier_of_justice():
    """+2 Power. You may destroy up to two cards in the Line-Up, each with cost 7 or less."""
    s = position(
        hands={0: ["soldier-of-justice"]}, line_up=["gill", "seth", "rose", "hadoken", "juri"]
    )
    act(s, "play:soldier-of-justice", "destroy:lineup:gill", "destroy:none")
    assert s.power == 2 and ids(s.destroyed) == ["gill"]


def test_card__master_of_the_fist():
    """+3 Power. Attack: Each foe gains a Weakness."""
    s = position(hands={0: ["master-of-the-fist"], 1: ["sakura"]})
    act(s, "play:master-of-the-fist", "no-defense")
    assert s.power == 3 and ids(s.discard[1]) == ["weakness"]


def test_card__sagat():
    """+2 Power. Reveal the top card of the main deck. If it is a Hero or a Villain, gain it."""
    s = position(hands={0: ["sagat"]}, main=["ken-masters"])
    act(s, "play:sagat")
    assert s.power == 2 and ids(s.discard[0]) == ["ken-masters"] and s.main == []


def test_card__vega():
    """+3 Power. You may destroy a card in your hand or discard pile."""
    s = position(hands={0: ["vega", "vulnerability"]}, discards={0: ["punch"]})
    act(s, "play:vega")
    assert set(pending(s)[2]) == {
        "destroy:hand:vulnerability",
        "destroy:discard:punch",
        "destroy:none",
    }
    act(s, "destroy:hand:vulnerability")
    assert s.power == 3


def test_card__galactic_tornado():
    """+3 Power. When a foe plays an Attack that affects you, you may reveal this card from
    your hand. If you do, that foe discards a card."""
    s = position(hands={0: ["galactic-tornado"]})
    act(s, "play:galactic-tornado")
    assert s.power == 3
    s = position(hands={0: ["juri", "seth"], 1: ["galactic-tornado", "punch"]})
    act(s, "play:juri", "reveal:galactic-tornado", "discard:seth", "no-defense", "discard:punch")
    assert ids(s.discard[0]) == ["seth"] and ids(s.hand[1]) == ["galactic-tornado"]


def test_card__hadoken():
    """+3 Power. Draw a card."""
    s = position(hands={0: ["hadoken"]}, decks={0: ["kick"]})
    act(s, "play:hadoken")
    assert s.power == 3 and ids(s.hand[0]) == ["kick"]


def test_card__tiger_shot():
    """+4 Power."""
    s = position(hands={0: ["tiger-shot"]})
    act(s, "play:tiger-shot")
    assert s.power == 4


def test_card__vegas_claw_and_mask():
    """+2 Power. If you have already played another Equipment this turn, draw two cards."""
    s = position(hands={0: ["vegas-claw-and-mask", "chun-lis-bracelets"]}, decks={0: ["kick"] * 3})
    act(s, "play:vegas-claw-and-mask")
    assert s.power == 2 and len(s.hand[0]) == 1
    s = position(hands={0: ["vegas-claw-and-mask", "chun-lis-bracelets"]}, decks={0: ["kick"] * 3})
    act(s, "play:chun-lis-bracelets", "play:vegas-claw-and-mask")
    assert s.power == 4 and ids(s.hand[0]) == ["kick", "kick"]


# -- cost 7 and 8 ------------------------------------------------------------------------------


def test_card__strongest_woman_in_the_world():
    """+4 Power. Draw a card."""
    s = position(hands={0: ["strongest-woman-in-the-world"]}, decks={0: ["seth"]})
    act(s, "play:strongest-woman-in-the-world")
    assert s.power == 4 and ids(s.hand[0]) == ["seth"]


def test_card__m_bison():
    """+3 Power. Attack: Each foe gains a Weakness and discards a card."""
    s = position(hands={0: ["m-bison"], 1: ["kick", "punch"]})
    act(s, "play:m-bison", "no-defense", "discard:kick")
    assert s.power == 3 and ids(s.discard[1]) == ["weakness", "kick"]


def test_card__electric_thunder():
    """+3 Power. You may put a card with cost 7 or less from the Line-Up under your Super
    Hero. Defense: You may discard this card to avoid an Attack. If you do, the attacker
    gains a Weakness."""
    s = position(
        heroes=["ryu", "ken"],
        hands={0: ["electric-thunder"]},
        line_up=["seth", "m-bison", "rose", "juri", "gill"],
    )
    act(s, "play:electric-thunder", "under:lineup:m-bison")
    assert s.power == 3 and ids(s.under[0])[-1] == "m-bison"
    s = position(hands={0: ["gill"], 1: ["electric-thunder"]})
    act(s, "play:gill", "defend:electric-thunder")
    assert ids(s.discard[0]) == ["weakness"] and ids(s.discard[1]) == ["electric-thunder"]


def test_card__tanden_engine():
    """+3 Power. You may gain a card with cost 4 or less from the Line-Up."""
    s = position(
        hands={0: ["tanden-engine"]}, line_up=["ken-masters", "seth", "rose", "hadoken", "sodom"]
    )
    act(s, "play:tanden-engine")
    assert set(pending(s)[2]) == {"gain:rose", "gain:ken-masters", "gain:none"}
    act(s, "gain:ken-masters")
    assert s.power == 3 and ids(s.discard[0]) == ["ken-masters"]


def test_card__tireless_warrior():
    """+3 Power. At the end of your turn, put this card on top of your deck."""
    s = position(hands={0: ["tireless-warrior"]}, decks={0: []}, discards={0: ["punch"] * 3})
    act(s, "play:tireless-warrior")
    assert s.power == 3
    act(s, "end")
    # It went on top of the (empty) deck, was drawn, then the discard pile was reshuffled.
    assert "tireless-warrior" in ids(s.hand[0]) and len(s.hand[0]) == 4


def test_card__seth():
    """+3 Power. Draw a card. You may destroy a card in your hand or discard pile."""
    s = position(hands={0: ["seth"]}, decks={0: ["vulnerability"]})
    act(s, "play:seth", "destroy:hand:vulnerability")
    assert s.power == 3 and ids(s.destroyed) == ["vulnerability"] and s.hand[0] == []


def test_card__psycho_crusher():
    """+5 Power."""
    s = position(hands={0: ["psycho-crusher"]}, decks={0: ["punch"]})
    act(s, "play:psycho-crusher")
    assert s.power == 5 and deck_top(s, 0) == ["punch"]
