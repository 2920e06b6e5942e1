"""Rulebook: Attacks and Defenses, Weakness, Resolving Card Abilities."""

from __future__ import annotations

import pytest

from kumite.core.errors import IllegalChoiceError
from tests.games.sfdbg.scenario import act, ids, kinds, pending, position


def test_attacks__each_affected_player_may_avoid_it_with_a_defense():
    """sfdbg.attack.defense."""
    s = position(players=3, hands={0: ["gill"], 1: ["sakura"], 2: ["punch"]})
    act(s, "play:gill")
    seat, kind, legal = pending(s)
    assert (seat, kind) == (1, "defend")
    assert legal == ("defend:sakura", "no-defense")


def test_attacks__a_defense_avoids_the_attack_only_for_that_player():
    """sfdbg.attack.defense."""
    s = position(players=3, hands={0: ["gill"], 1: ["sakura"], 2: ["sakura"]})
    act(s, "play:gill", "defend:sakura", "no-defense")
    assert "weakness" not in ids(s.discard[1])
    assert ids(s.discard[2]) == ["weakness"]


def test_attacks__players_who_do_not_avoid_it_are_affected():
    """sfdbg.attack.defense."""
    s = position(players=3, hands={0: ["master-of-the-fist"]})
    act(s, "play:master-of-the-fist", "no-defense", "no-defense")
    assert ids(s.discard[1]) == ["weakness"] and ids(s.discard[2]) == ["weakness"]


def test_attacks__avoiding_an_attack_does_not_negate_the_cards_other_abilities():
    """sfdbg.attack.other-abilities: Gill's +2 Power stays."""
    s = position(hands={0: ["gill"], 1: ["chun-lis-bracelets"]})
    act(s, "play:gill", "defend:chun-lis-bracelets")
    assert s.power == 2


def test_attacks__unless_an_ability_counts_the_players_hit():
    """sfdbg.attack.other-abilities: Gyro Drive Smasher counts the foes hit."""
    s = position(
        players=4,
        hands={0: ["gyro-drive-smasher"], 1: ["sakura", "punch"], 2: ["punch"], 3: ["punch"]},
    )
    act(s, "play:gyro-drive-smasher", "defend:sakura", "no-defense", "no-defense")
    # seats 2 and 3 each discard their only card (a forced choice? no: private, so asked)
    while pending(s)[1] == "discard":
        act(s, pending(s)[2][0])
    assert s.power == 2 + 2


def test_attacks__a_player_may_only_play_one_defense_per_attack():
    """sfdbg.attack.one-defense: after one Defense the next foe decides."""
    s = position(players=3, hands={0: ["gill"], 1: ["sakura", "dash-straight"], 2: []})
    act(s, "play:gill", "defend:sakura")
    seat, kind, _ = pending(s)
    assert (seat, kind) == (2, "defend")
    assert "dash-straight" in ids(s.hand[1])


def test_attacks__every_affected_player_is_asked_even_without_a_defense():
    """sfdbg.ruling.defense-asked: being asked reveals nothing about a hand."""
    s = position(hands={0: ["gill"], 1: ["punch", "punch"]})
    act(s, "play:gill")
    assert pending(s) == (1, "defend", ("no-defense",))


def test_attacks__defenses_are_asked_in_clockwise_order_from_the_attacker():
    """sfdbg.resolve.clockwise."""
    s = position(players=4, active=2, hands={2: ["gill"]})
    act(s, "play:gill")
    order = []
    while pending(s)[1] == "defend":
        order.append(pending(s)[0])
        act(s, "no-defense")
    assert order == [3, 0, 1]


def test_resolving__clockwise_order_decides_who_gets_the_last_weaknesses():
    """sfdbg.resolve.clockwise: three foes, two Weaknesses left."""
    s = position(players=4, active=1, hands={1: ["gill"]}, weaknesses=2)
    events = act(s, "play:gill", "no-defense", "no-defense", "no-defense")
    assert [ids(s.discard[p]).count("weakness") for p in range(4)] == [0, 0, 1, 1]
    assert kinds(events).count("NoWeaknessLeft") == 1  # seat 0, last clockwise from seat 1


def test_weakness__comes_from_the_weakness_stack():
    """sfdbg.weakness.from-stack."""
    s = position(hands={0: ["gill", "weakness"]}, weaknesses=5)
    act(s, "play:gill", "no-defense")
    assert s.weak == 4
    assert ids(s.hand[0]) == ["weakness"]  # not the attacker's own Weakness


def test_weakness__when_the_stack_runs_out_other_effects_still_resolve():
    """sfdbg.weakness.runs-out: M. Bison with no Weakness left still makes foes discard."""
    s = position(hands={0: ["m-bison"], 1: ["punch", "kick"]}, weaknesses=0)
    events = act(s, "play:m-bison", "no-defense", "discard:kick")
    assert "weakness" not in ids(s.discard[1])
    assert ids(s.discard[1]) == ["kick"]
    assert "NoWeaknessLeft" in kinds(events)
    assert s.power == 3


def test_weakness__a_player_may_still_defend_when_no_weakness_is_left():
    """sfdbg.weakness.runs-out."""
    s = position(hands={0: ["gill"], 1: ["sakura"]}, weaknesses=0)
    act(s, "play:gill")
    assert "defend:sakura" in pending(s)[2]


def test_weakness__a_played_weakness_returns_to_the_weakness_stack():
    """sfdbg.weakness.returned."""
    s = position(hands={0: ["weakness", "punch"]}, weaknesses=3)
    act(s, "play:weakness")
    assert s.weak == 4
    assert "weakness" not in ids(s.played[0] + s.discard[0] + s.hand[0])
    act(s, "end")
    assert "weakness" not in ids(s.discard[0])


def test_weakness__each_weakness_in_your_deck_is_minus_one_vp():
    """sfdbg.end.weakness."""
    from kumite.games.sfdbg.scoring import deck_vp

    s = position()
    by_id = s.catalog.by_id
    assert deck_vp(s.catalog, [by_id["weakness"].index] * 3 + [by_id["kick"].index]) == -2


def refusal(s, choice: str) -> str:
    """The message an illegal choice of the pending seat is refused with (nothing changes)."""
    (decision,) = s.pending()
    before = (repr(s.hand), repr(s.stack), repr(s.request))
    with pytest.raises(IllegalChoiceError) as info:
        s.apply({decision.seat: choice})
    assert (repr(s.hand), repr(s.stack), repr(s.request)) == before
    return str(info.value)


def test_attacks__an_illegal_defense_is_refused_saying_why():
    """sfdbg.attack.defense: "avoid it with a card that has a Defense ability" — from the
    hand (sfdbg.ruling.defense-from-hand), not when it cannot be avoided (sfdbg.clarify.hugo);
    reactions only against a player (sfdbg.ruling.reactions), once per Attack."""
    s = position(hands={0: ["sakura", "gill"], 1: ["kick", "shinku-hadoken"]})
    act(s, "play:sakura", "play:gill")
    assert "Sakura is not in your hand" in refusal(s, "defend:sakura")
    assert "Kick has no Defense" in refusal(s, "defend:kick")
    assert "no card 'nope'" in refusal(s, "defend:nope")
    assert "Kick can't be revealed" in refusal(s, "reveal:kick")
    act(s, "reveal:shinku-hadoken")
    assert "already revealed Shinku Hadoken" in refusal(s, "reveal:shinku-hadoken")
    assert "defend:<card>" in refusal(s, "end")
    s = position(hands={0: ["hugo", "gill"], 1: ["sakura"]})
    act(s, "play:hugo", "play:gill")
    assert "cannot avoid this Attack" in refusal(s, "defend:sakura")
    s = position(heroes=["ryu", "ken"], hands={0: ["sakura", "gill"], 1: ["metsu-hadoken"]})
    act(s, "play:sakura", "play:gill", "defend:metsu-hadoken")  # Ryu counters seat 0
    assert "already played Sakura this turn" in refusal(s, "defend:sakura")


def test_attacks__a_refused_defense_tells_nothing_of_another_hand():
    """The reason names only the deciding seat's own cards and the table's."""
    s = position(hands={0: ["gill"], 1: ["punch"]}, discards={0: ["sakura"]})
    act(s, "play:gill")
    message = refusal(s, "defend:sakura")
    assert message.endswith("Sakura is not in your hand")
