"""Rulebook: Challenging a Stage Boss, Stage Cards in Your Deck, the FAQ on "defeat"."""

from __future__ import annotations

import pytest

from kumite.core.errors import IllegalChoiceError
from tests.games.sfdbg.scenario import act, ids, kinds, pending, position


def boss_game(boss: str = "ryu", **kw):
    """Seat 0 to play, with ``boss`` on top of the face-down Super Hero stack."""
    kw.setdefault("heroes", ["ken", "guile"] + [None] * (kw.get("players", 2) - 2))
    s = position(**kw)
    s.bosses.remove(s.catalog.hero_by_id[boss].index)
    s.bosses.append(s.catalog.hero_by_id[boss].index)
    return s


def test_boss__challenge_needs_power_at_least_the_stage_cost():
    """sfdbg.boss.challenge: "can meet or exceed its cost" (America costs 7)."""
    assert "challenge" not in pending(boss_game(power=6))[2]
    assert "challenge" in pending(boss_game(power=7))[2]
    with pytest.raises(IllegalChoiceError, match="costs 7; you have 6"):
        act(boss_game(power=6), "challenge")


def test_boss__challenging_flips_the_top_super_hero_as_the_boss():
    """sfdbg.boss.challenge."""
    s = boss_game("m-bison", power=9)
    events = act(s, "challenge")
    assert "StageChallenged" in kinds(events)
    assert s.view(1)["bosses"]["current"] == "m-bison"
    assert s.power == 2  # the Stage's cost is paid


def test_boss__its_counter_attack_hits_the_challenger_and_only_him():
    """sfdbg.boss.counter-attack: M. Bison's Counter-Attack: two Weaknesses."""
    s = boss_game("m-bison", players=3, power=7)
    act(s, "challenge")
    assert pending(s)[:2] == (0, "defend")
    act(s, "no-defense")
    assert ids(s.discard[0]).count("weakness") == 2
    assert s.discard[1] == [] and s.discard[2] == []


def test_boss__the_stage_is_not_yet_acquired_during_the_counter_attack():
    """sfdbg.boss.counter-attack: Ken's Counter-Attack destroys a card in play or discard:
    never the Stage itself."""
    s = boss_game("ken", heroes=["ryu", "guile"], played={0: ["punch"] * 7}, power=7)
    act(s, "challenge", "no-defense")
    assert ids(s.discard[0]) == ["usa"]  # nothing with cost >= 1 to destroy; USA gained after


def test_boss__the_challenger_may_defend_with_a_defense_from_his_hand():
    """sfdbg.boss.counter-attack."""
    s = boss_game("ryu", hands={0: ["sakura"]}, power=7)
    act(s, "challenge", "defend:sakura")
    assert "weakness" not in ids(s.discard[0])
    assert ids(s.discard[0]) == ["sakura", "usa"]


def test_boss__a_defense_already_played_this_turn_cannot_defend():
    """sfdbg.boss.counter-attack: "You cannot defend yourself with a Defense card that you
    have already played this turn" (sfdbg.ruling.defense-from-hand)."""
    s = boss_game("ryu", hands={0: ["sakura"]}, power=6)
    act(s, "play:sakura", "challenge")
    assert pending(s)[2] == ("no-defense",)


def test_boss__the_defeated_stage_goes_to_the_discard_pile():
    """sfdbg.boss.defeated."""
    s = boss_game("ryu", power=7)
    events = act(s, "challenge", "no-defense")
    assert ids(s.discard[0])[-1] == "usa"
    assert "StageDefeated" in kinds(events)
    assert s.view(1)["players"][0]["discard"][-1] == "usa"


def test_boss__the_defeated_boss_is_removed_and_the_next_stays_face_down():
    """sfdbg.boss.defeated."""
    s = boss_game("ryu", power=7)
    before = len(s.bosses)
    act(s, "challenge", "no-defense")
    view = s.view(1)
    assert view["bosses"]["defeated"] == ["ryu"] and view["bosses"]["current"] is None
    assert view["bosses"]["remaining"] == before - 1


def test_boss__a_player_may_only_defeat_one_stage_per_turn():
    """sfdbg.boss.one-per-turn."""
    s = boss_game("ryu", power=30)
    act(s, "challenge", "no-defense")
    assert "challenge" not in pending(s)[2]
    with pytest.raises(IllegalChoiceError, match="only defeat one Stage per turn"):
        act(s, "challenge")


def stage_under_vega(**kw):
    """Seat 0 (Vega) plays Bloody High Claw; seat 1 puts USA from his discard pile under
    Vega (issue 28: seen about once in 300 greedy games). Hong Kong is the face-up Stage."""
    kw.setdefault("hands", {0: ["bloody-high-claw"]})
    s = boss_game(
        heroes=["vega", "ken"],
        discards={1: ["usa", "gill"]},
        stages=["hong-kong", "japan", "india", "brazil", "russia", "united-kingdom", "thailand"],
        **kw,
    )
    act(s, "play:bloody-high-claw", "no-defense", "under:discard:usa")
    assert ids(s.under[0]) == ["bloody-high-claw", "usa"]
    return s


def test_boss__one_stage_per_turn__not_a_second_one_from_under_the_super_hero():
    """sfdbg.boss.one-per-turn: "A player may only defeat one Stage per turn", and you defeat
    a Stage when you buy one (sfdbg.faq.defeat): after beating the Stage Boss, the Stage
    under Vega may not be bought the same turn."""
    s = stage_under_vega(power=20)
    act(s, "challenge", "no-defense")
    assert ids(s.discard[0])[-1] == "hong-kong"
    assert "buy:under:usa" not in pending(s)[2]
    with pytest.raises(IllegalChoiceError, match="only defeat one Stage per turn"):
        act(s, "buy:under:usa")
    s.apply({0: "end"})
    assert ids(s.under[0]) == ["bloody-high-claw", "usa"]  # still there, for a later turn


def test_boss__one_stage_per_turn__no_challenge_after_buying_one_from_under_the_super_hero():
    """sfdbg.boss.one-per-turn, the other way round: a Stage bought from under your Super
    Hero is the Stage you defeat this turn; the Stage Boss may not be challenged after it."""
    s = stage_under_vega(power=20)
    events = act(s, "buy:under:usa")
    assert ids(s.discard[0]) == ["usa"]
    assert any(e.rule == "sfdbg.faq.defeat" for e in events)
    assert "challenge" not in pending(s)[2] and not s.view(1)["stages"]["can_challenge"]
    assert s.view(1)["this_turn"]["stage_defeated"] == "usa"
    with pytest.raises(IllegalChoiceError, match="only defeat one Stage per turn"):
        act(s, "challenge")


def test_faq__you_defeat_a_stage_when_you_buy_it_from_under_a_super_hero__cammy():
    """sfdbg.faq.defeat: "You 'defeat' a Boss/Super Villain/Stage when you buy or gain one":
    Cammy, Delta Red counts the Stage bought from under the Super Hero as defeated
    (sfdbg.clarify.cammy-delta-red)."""
    s = stage_under_vega(hands={0: ["bloody-high-claw", "cammy-delta-red"]}, power=20)
    act(s, "play:cammy-delta-red", "buy:under:usa")
    assert "take:usa" in pending(s)[2]
    act(s, "take:usa")
    assert "usa" in ids(s.hand[0])


def test_faq__you_defeat_a_stage_when_you_buy_it():
    """sfdbg.faq.defeat: a Counter-Attack that forbids buying also forbids a challenge."""
    s = position(hands={0: ["gill"], 1: ["metsu-hadoken"]}, heroes=["ken", "vega"], power=20)
    act(s, "play:gill", "defend:metsu-hadoken", "no-defense")  # Vega counters: no more buying
    legal = pending(s)[2]
    assert "challenge" not in legal and "buy:kick" not in legal


def test_faq__after_cant_buy_the_view_and_the_refusal_say_the_stage_cannot_be_challenged():
    """sfdbg.faq.defeat (sfdbg.ruling.cannot-buy-stage): after Vega's Counter-Attack the table
    does not offer the Stage, and a challenge is refused for that reason, not for its cost."""
    s = position(hands={0: ["gill"], 1: ["bloody-high-claw"]}, heroes=["ken", "vega"], power=20)
    assert s.view(0)["stages"]["can_challenge"] is True
    act(s, "play:gill", "defend:bloody-high-claw", "no-defense")
    assert s.view(0)["stages"]["can_challenge"] is False
    assert s.view(1)["this_turn"]["cannot_buy"] is True
    with pytest.raises(IllegalChoiceError, match=r"can.t buy.*defeating a Stage counts as buying"):
        act(s, "challenge")
    with pytest.raises(IllegalChoiceError, match="can't buy any more cards this turn"):
        act(s, "buy:kick")


# -- Stage Cards in Your Deck ------------------------------------------------------------------


def test_locations__a_played_location_stays_in_play_for_the_rest_of_the_game():
    """sfdbg.location.in-play."""
    s = position(hands={0: ["japan"]}, decks={0: ["punch"] * 10})
    act(s, "play:japan", "end")
    assert ids(s.locs[0]) == ["japan"]
    assert "japan" not in ids(s.discard[0])
    assert s.view(1)["players"][0]["locations"] == ["japan"]


def test_locations__ongoing_keeps_working_turn_after_turn():
    """sfdbg.location.in-play."""
    s = position(locations={0: ["japan"]}, hands={0: ["kick", "kick"]}, decks={0: ["punch"] * 20})
    act(s, "play:kick")
    assert len(s.hand[0]) == 2  # drew one
    act(s, "play:kick")
    assert len(s.hand[0]) == 1  # only the first Super Power each turn
    act(s, "end")
    act(s, "end")  # seat 1's turn
    s.hand[0] = [s.catalog.by_id["kick"].index]
    s._pending = None
    act(s, "play:kick")
    assert len(s.hand[0]) == 1  # triggers again the next turn


def test_locations__a_location_works_the_turn_it_is_played():
    """sfdbg.clarify.locations-same-turn (Brazil)."""
    s = position(hands={0: ["brazil", "sagats-eyepatch"]}, decks={0: ["punch"] * 3})
    events = act(s, "play:brazil", "play:sagats-eyepatch")
    assert ids(s.hand[0]) == ["punch"]  # Brazil drew a card for the Equipment
    assert "Brazil triggers on Sagat's Eyepatch." in [
        e.describe().split(": ", 1)[-1] for e in events
    ]


def test_locations__a_stage_gained_this_turn_is_in_the_discard_pile_not_in_play():
    """sfdbg.boss.defeated."""
    s = boss_game("ryu", power=7)
    act(s, "challenge", "no-defense")
    assert s.locs[0] == []
