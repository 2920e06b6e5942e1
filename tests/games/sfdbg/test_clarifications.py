"""Rulebook: Specific Card Clarifications (``sfdbg.clarify.*``)."""

from __future__ import annotations

import pytest

from kumite.games.sfdbg.scoring import deck_vp
from tests.games.sfdbg.scenario import act, ids, kinds, pending, position


def deck(s, *names):
    return [s.catalog.by_id[n].index for n in names]


def boss_on_top(s, boss="ryu"):
    h = s.catalog.hero_by_id[boss].index
    if h in s.bosses:
        s.bosses.remove(h)
    s.bosses.append(h)
    return s


# -- Akuma's Gi, Rolento's Baton ---------------------------------------------------------------


def test_clarify__akumas_gi__1_vp_per_different_attack_card_an_ultra_counts():
    """sfdbg.clarify.attack-defense-cards."""
    s = position()
    cards = deck(s, "akumas-gi", "gill", "gill", "juri", "hugo", "metsu-hadoken")
    # Gill, Juri and the Ultra have "Attack:"; Hugo does not. Gi 3 + Gill 1+1 + Juri 1
    # + Hugo 1 + Ultra 2.
    assert deck_vp(s.catalog, cards) == 3 + 2 + 1 + 1 + 2


def test_clarify__rolentos_baton__1_vp_per_different_defense_card_an_ultra_counts():
    """sfdbg.clarify.attack-defense-cards."""
    s = position()
    cards = deck(s, "rolentos-baton", "sakura", "sakura", "urien", "metsu-hadoken", "shinryuken")
    # Sakura, Urien and two Ultras: 4 different Defense cards.
    assert deck_vp(s.catalog, cards) == 4 + 1 + 1 + 1 + 2 + 2


# -- Locations ---------------------------------------------------------------------------------


def test_clarify__brazil__a_location_ability_works_the_turn_it_is_played():
    """sfdbg.clarify.locations-same-turn."""
    s = position(hands={0: ["brazil", "ryus-headband"]}, decks={0: ["punch", "kick"]})
    act(s, "play:brazil", "play:ryus-headband")
    assert len(s.hand[0]) == 2  # Headband's draw, then Brazil's


# -- Soldier of Justice ------------------------------------------------------------------------


def test_clarify__soldier_of_justice__each_card_may_cost_7_or_less_not_combined():
    """sfdbg.clarify.soldier-of-justice."""
    s = position(
        hands={0: ["soldier-of-justice"]},
        line_up=["m-bison", "tanden-engine", "seth", "rose", "juri"],
    )
    act(s, "play:soldier-of-justice")
    legal = pending(s)[2]
    assert "destroy:lineup:m-bison" in legal and "destroy:lineup:seth" not in legal
    act(s, "destroy:lineup:m-bison", "destroy:lineup:tanden-engine")
    assert ids(s.destroyed) == ["m-bison", "tanden-engine"]  # 7 + 7 = 14 combined: fine
    assert pending(s)[1] == "turn"  # up to two


# -- Cammy, Delta Red --------------------------------------------------------------------------


def test_clarify__cammy__defeating_a_stage_triggers_her_ability():
    """sfdbg.clarify.cammy-delta-red: played before the challenge, the Stage was not in the
    discard pile when she was played."""
    s = boss_on_top(position(hands={0: ["cammy-delta-red"]}, heroes=["ken", "guile"], power=6))
    act(s, "play:cammy-delta-red", "challenge", "no-defense")
    assert "take:usa" in pending(s)[2]


def test_clarify__cammy__played_after_the_stage_was_defeated():
    """sfdbg.clarify.cammy-delta-red."""
    s = boss_on_top(position(hands={0: ["cammy-delta-red"]}, heroes=["ken", "guile"], power=7))
    act(s, "challenge", "no-defense")
    assert "take:usa" not in pending(s)[2]
    act(s, "play:cammy-delta-red")
    assert "take:usa" in pending(s)[2]


def test_clarify__cammy__the_location_may_go_to_your_hand_at_any_time_of_your_turn():
    """sfdbg.clarify.cammy-delta-red."""
    s = boss_on_top(
        position(hands={0: ["cammy-delta-red", "kick"]}, heroes=["ken", "guile"], power=9)
    )
    act(s, "play:cammy-delta-red", "challenge", "no-defense", "play:kick", "buy:kick")
    act(s, "take:usa")
    assert "usa" in ids(s.hand[0])
    act(s, "play:usa")  # and it can be played this very turn
    assert ids(s.locs[0]) == ["usa"]


def test_clarify__cammy__without_her_the_stage_stays_in_the_discard_pile():
    """sfdbg.boss.defeated."""
    s = boss_on_top(position(heroes=["ken", "guile"], power=7))
    act(s, "challenge", "no-defense")
    assert not any(c.startswith("take:") for c in pending(s)[2])


# -- cards placed under your Super Hero --------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "extra"),
    [("electric-thunder", []), ("red-cyclone", [])],
)
def test_clarify__electric_thunder_red_cyclone__buy_the_card_placed_under_the_same_turn(
    card, extra
):
    """sfdbg.clarify.under-same-turn."""
    s = position(
        heroes=["ryu", "ken"], hands={0: [card]}, line_up=["gill", "seth", "rose", "juri", "hugo"]
    )
    act(s, f"play:{card}", "under:lineup:gill")
    assert ids(s.under[0]) == ["metsu-hadoken", "gill"]
    s.power = 5
    s._pending = None
    act(s, "buy:under:gill")
    assert ids(s.discard[0]) == ["gill"]


def test_clarify__sodom__buy_the_card_placed_under_the_same_turn():
    """sfdbg.clarify.under-same-turn."""
    s = position(heroes=["ryu", "ken"], hands={0: ["sodom"]}, main=["hadoken", "gill"], power=4)
    act(s, "play:sodom", "under:main_top:hadoken")
    assert ids(s.under[0])[-1] == "hadoken" and s.power == 6
    act(s, "buy:under:hadoken")
    assert ids(s.discard[0]) == ["hadoken"]


# -- attacker cannot avoid ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("defender", "how"),
    [
        ("shinku-hadoken", "reveal:shinku-hadoken"),
        ("galactic-tornado", "reveal:galactic-tornado"),
        ("electric-thunder", "defend:electric-thunder"),
    ],
)
def test_clarify__galactic_tornado_electric_thunder_shinku_hadoken__attacker_cannot_avoid(
    defender, how
):
    """sfdbg.clarify.attacker-cannot-avoid: the attacker is never offered a Defense."""
    s = position(hands={0: ["juri", "sakura", "punch"], 1: [defender, "kick"]})
    act(s, "play:juri", how)
    seat, kind, _ = pending(s)
    assert kind != "defend" or seat != 0


# -- Mystic Yogi -------------------------------------------------------------------------------


def test_clarify__mystic_yogi__effects_and_power_of_the_first_play_remain():
    """sfdbg.clarify.mystic-yogi."""
    s = position(hands={0: ["mystic-yogi"]}, decks={0: ["punch"] * 4})
    act(s, "play:mystic-yogi", "yes")
    assert s.power == 1 and sorted(ids(s.hand[0])) == ["mystic-yogi", "punch"]
    act(s, "play:mystic-yogi")
    assert s.power == 2 and sorted(ids(s.hand[0])) == ["punch", "punch"]
    assert pending(s)[1] == "turn"  # only the first Mystic Yogi of the turn returns


# -- Hugo --------------------------------------------------------------------------------------


def test_clarify__hugo__the_foe_may_not_play_a_defense_against_the_next_attack():
    """sfdbg.clarify.hugo."""
    s = position(
        players=3, hands={0: ["hugo", "gill", "juri"], 1: ["sakura"], 2: ["sakura", "kick"]}
    )
    act(s, "play:hugo", "foe:1", "play:gill")
    assert pending(s) == (1, "defend", ("no-defense",))
    act(s, "no-defense")
    assert "defend:sakura" in pending(s)[2]  # seat 2 may defend
    act(s, "defend:sakura", "play:juri")
    assert "defend:sakura" in pending(s)[2]  # only the next Attack
    assert ids(s.discard[1]) == ["weakness"]


def test_clarify__hugo__the_next_attack_that_occurs_even_if_it_hits_another_foe():
    """sfdbg.clarify.hugo: "the next attack that occurs during that turn" — an Attack on
    another foe is that attack, and uses the "cannot avoid" up (sfdbg.ruling.hugo-next-attack)."""
    s = position(players=3, hands={0: ["hugo", "balrog", "gill"], 1: ["sakura"], 2: []})
    act(s, "play:hugo", "foe:1", "play:balrog", "foe:2")  # the next Attack: on seat 2
    assert s.view(0)["players"][1]["cannot_avoid"] is False
    act(s, "no-defense", "play:gill")
    assert pending(s) == (1, "defend", ("defend:sakura", "no-defense"))


# -- naming ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ultra", "name"), [("psycho-punisher", "name:type:Starter"), ("rekkashingeki", "name:cost:0")]
)
def test_clarify__psycho_punisher_rekkashingeki__defenses_are_chosen_before_naming(ultra, name):
    """sfdbg.clarify.naming."""
    s = position(players=3, hands={0: [ultra], 1: ["punch", "kick"], 2: ["sakura", "punch"]})
    act(s, f"play:{ultra}")
    assert pending(s)[:2] == (1, "defend")
    act(s, "no-defense", "defend:sakura")
    assert pending(s)[:2] == (0, "name")
    act(s, name)
    assert ids(s.hand[1]) == ["kick"] and ids(s.discard[1]) == ["punch"]
    assert "punch" in ids(s.hand[2]) and ids(s.discard[2]) == ["sakura"]  # avoided


def test_clarify__naming_is_skipped_when_every_foe_avoided_the_attack():
    """sfdbg.clarify.naming."""
    s = position(hands={0: ["psycho-punisher"], 1: ["sakura"]})
    act(s, "play:psycho-punisher", "defend:sakura")
    assert pending(s)[1] == "turn"


# -- Rose --------------------------------------------------------------------------------------


def test_clarify__rose__each_card_bought_from_under_your_super_hero_costs_1_less():
    """sfdbg.clarify.rose."""
    s = position(
        heroes=["ryu", "ken"], hands={0: ["rose"]}, under={0: ["metsu-hadoken", "gill"]}, power=8
    )
    act(s, "play:rose")
    assert s.power == 9
    act(s, "buy:under:metsu-hadoken", "buy:under:gill")
    assert s.power == 9 - 5 - 4


# -- Ryu's Headband ----------------------------------------------------------------------------


def test_clarify__ryus_headband__played_after_other_cards_the_deck_still_goes_to_discard():
    """sfdbg.clarify.ryus-headband."""
    s = position(
        hands={0: ["punch", "ryus-headband"]}, decks={0: ["kick", "seth"]}, discards={0: ["gill"]}
    )
    act(s, "play:punch", "play:ryus-headband")
    assert ids(s.played[0]) == ["punch", "ryus-headband"]  # played cards stay in play
    assert len(s.hand[0]) == 1 and len(s.deck[0]) == 2  # reshuffled: 3 cards, one drawn
    assert sorted(ids(s.hand[0] + s.deck[0])) == ["gill", "kick", "seth"]


def test_clarify__ryus_headband__if_not_played_it_is_simply_discarded_at_end_of_turn():
    """sfdbg.clarify.ryus-headband."""
    s = position(hands={0: ["ryus-headband"]}, decks={0: ["kick"] * 6})
    act(s, "end")
    assert ids(s.discard[0]) == ["ryus-headband"] and len(s.deck[0]) == 1


# -- Agents of Shadaloo ------------------------------------------------------------------------


def test_clarify__agents_of_shadaloo__the_second_one_played_gives_2_power_and_a_card():
    """sfdbg.clarify.agents-of-shadaloo."""
    s = position(hands={0: ["agents-of-shadaloo", "agents-of-shadaloo"]}, decks={0: ["punch"] * 3})
    act(s, "play:agents-of-shadaloo")
    assert s.power == 1 and len(s.hand[0]) == 1
    act(s, "play:agents-of-shadaloo")
    assert s.power == 3 and ids(s.hand[0]) == ["punch"]


def test_clarify__agents_of_shadaloo__vp_is_the_number_owned_squared():
    """sfdbg.clarify.agents-of-shadaloo."""
    s = position()
    for n in range(1, 5):
        assert deck_vp(s.catalog, deck(s, *["agents-of-shadaloo"] * n)) == n * n


# -- reactions ---------------------------------------------------------------------------------


def test_clarify__shinku_hadoken_galactic_tornado__revealed_before_a_defense():
    """sfdbg.clarify.reveal-before-defense: they are not Defenses, so a Defense may follow."""
    s = position(hands={0: ["gill", "punch"], 1: ["shinku-hadoken", "galactic-tornado", "sakura"]})
    act(s, "play:gill", "reveal:shinku-hadoken")
    assert ids(s.discard[0]) == ["weakness"]  # the attacker gains it
    legal = pending(s)[2]
    assert "reveal:shinku-hadoken" not in legal and "reveal:galactic-tornado" in legal
    act(s, "reveal:galactic-tornado", "discard:punch")  # the attacker discards
    act(s, "defend:sakura")
    assert "weakness" not in ids(s.discard[1])
    assert {"galactic-tornado", "shinku-hadoken"} <= set(ids(s.hand[1]))  # kept


# -- Ultimate Atomic Buster --------------------------------------------------------------------


def uab(players=4, **kw):
    hands = {
        0: ["ultimate-atomic-buster", "vulnerability", "weakness"],
        1: ["sakura"],
        2: ["sakura"],
        3: ["sakura"],
    }
    return position(players=players, heroes=["zangief"] + [None] * (players - 1), hands=hands, **kw)


def test_clarify__ultimate_atomic_buster__name_each_foe_and_choose_each_card_first():
    """sfdbg.clarify.ultimate-atomic-buster."""
    s = uab()
    act(s, "play:ultimate-atomic-buster")
    assert pending(s)[:2] == (0, "give")
    act(s, "give:hand:weakness", "give:none", "give:hand:vulnerability")
    assert ids(s.aside) == ["weakness", "vulnerability"]
    assert pending(s)[:2] == (1, "defend")  # then the defenses, clockwise


def test_clarify__ultimate_atomic_buster__a_foe_given_no_card_cannot_defend():
    """sfdbg.clarify.ultimate-atomic-buster."""
    s = uab()
    act(s, "play:ultimate-atomic-buster", "give:hand:weakness", "give:none", "give:none")
    act(s, "no-defense")
    assert pending(s)[1] == "turn"  # seats 2 and 3 were never asked
    assert ids(s.discard[1]) == ["weakness"]


def test_clarify__ultimate_atomic_buster__an_avoided_gift_goes_back_where_it_started():
    """sfdbg.clarify.ultimate-atomic-buster."""
    s = uab(discards={0: ["kick"]})
    act(s, "play:ultimate-atomic-buster", "give:hand:weakness", "give:discard:kick", "give:none")
    act(s, "defend:sakura", "no-defense")
    assert "weakness" in ids(s.hand[0])  # back in the hand
    assert ids(s.discard[2]) == ["kick"]
    assert s.aside == []


def test_clarify__ultimate_atomic_buster__effects_resolve_clockwise():
    """sfdbg.clarify.ultimate-atomic-buster."""
    s = uab()
    # After two gifts seat 0 has no card left to give: seat 3 is skipped (public).
    events = act(s, "play:ultimate-atomic-buster", "give:hand:weakness", "give:hand:vulnerability")
    events = act(s, "no-defense", "no-defense")
    gains = [e.seat for e in events if e.kind == "CardMoved" and e.verb == "gains"]  # type: ignore[attr-defined]
    assert gains == [1, 2]


# -- Yoga Catastrophe --------------------------------------------------------------------------


def test_clarify__yoga_catastrophe__the_first_weakness_cannot_be_avoided():
    """sfdbg.clarify.yoga-catastrophe."""
    s = position(heroes=["dhalsim", "ken"], hands={0: ["yoga-catastrophe"], 1: ["sakura", "punch"]})
    events = act(s, "play:yoga-catastrophe")
    assert "weakness" in ids(s.discard[1])  # the first sentence: no Defense asked
    assert "WeaknessGained" in kinds(events)
    act(s, "defend:sakura")  # the Attack itself can be avoided
    assert ids(s.discard[1]) == ["weakness", "sakura"]  # nothing discarded by the Attack
