"""Rulebook: Counter-Attacks & Ultras (``sfdbg.counter.*``)."""

from __future__ import annotations

from tests.games.sfdbg.scenario import act, ids, kinds, pending, position


def test_counter__your_ultra_as_a_defense_makes_your_super_hero_counter_attack():
    """sfdbg.counter.ultra: Ryu's Counter-Attack gives the attacker a Weakness."""
    s = position(heroes=["ken", "ryu"], hands={0: ["gill"], 1: ["metsu-hadoken"]})
    events = act(s, "play:gill", "defend:metsu-hadoken")
    assert pending(s)[:2] == (0, "defend")  # the Counter-Attack is an Attack on seat 0
    act(s, "no-defense")
    assert ids(s.discard[0]) == ["weakness"]
    assert "weakness" not in ids(s.discard[1])
    assert any(e.kind == "AttackMade" and e.counter for e in events)  # type: ignore[attr-defined]


def test_counter__the_attacker_suffers_the_counter_attack_not_the_defender():
    """sfdbg.counter.ultra: Balrog's Counter-Attack: "The attacker discards his hand"."""
    s = position(
        heroes=["ken", "balrog"], hands={0: ["gill", "punch", "kick"], 1: ["violent-buffalo"]}
    )
    act(s, "play:gill", "defend:violent-buffalo", "no-defense")
    assert s.hand[0] == [] and sorted(ids(s.discard[0])) == ["kick", "punch"]
    assert s.hand[1] == []


def test_counter__the_ultra_used_as_a_defense_is_shuffled_into_the_deck():
    """sfdbg.variant.secret-heroes.defense: "discard it instead of shuffling it into your
    deck" — so in the standard game the Ultra Defense is shuffled in."""
    s = position(
        heroes=["ken", "ryu"], hands={0: ["gill"], 1: ["metsu-hadoken"]}, decks={1: ["punch"] * 4}
    )
    act(s, "play:gill", "defend:metsu-hadoken", "no-defense")
    assert "metsu-hadoken" in ids(s.deck[1]) and len(s.deck[1]) == 5
    assert "metsu-hadoken" not in ids(s.discard[1])


def test_counter__cards_in_play_or_in_the_discard_pile_are_chosen_from_both():
    """sfdbg.counter.in-play-or-discard: Ken's Counter-Attack looks at both areas."""
    s = position(
        heroes=["ryu", "ken"],
        hands={0: ["gill"], 1: ["shinryuken"]},
        played={0: ["hadoken"]},
        discards={0: ["sodom", "punch"]},
    )
    act(s, "play:gill", "defend:shinryuken", "no-defense")
    seat, kind, legal = pending(s)
    assert (seat, kind) == (0, "destroy")
    assert set(legal) == {"destroy:play:hadoken", "destroy:play:gill", "destroy:discard:sodom"}
    act(s, "destroy:discard:sodom")
    assert ids(s.destroyed) == ["sodom"]


def test_counter__the_cards_an_attacker_played_this_turn_are_in_play():
    """sfdbg.counter.in-play-or-discard."""
    s = position(heroes=["ryu", "ken"], hands={0: ["gill"], 1: ["shinryuken"]})
    act(s, "play:gill", "defend:shinryuken", "no-defense")
    # Gill is the only card in play with cost 1 or more: a forced public choice.
    assert ids(s.destroyed) == ["gill"]


def test_counter__counter_attacks_are_attacks_and_may_be_avoided():
    """sfdbg.counter.is-attack."""
    s = position(heroes=["ken", "ryu"], hands={0: ["gill", "sakura"], 1: ["metsu-hadoken"]})
    act(s, "play:gill", "defend:metsu-hadoken")
    assert "defend:sakura" in pending(s)[2]
    act(s, "defend:sakura")
    assert "weakness" not in ids(s.discard[0])


def test_counter__a_defense_already_played_cannot_avoid_a_counter_attack():
    """sfdbg.counter.is-attack: "When you know you are going to play an Attack, you may want
    to hold a Defense"."""
    s = position(heroes=["ken", "ryu"], hands={0: ["gill", "sakura"], 1: ["metsu-hadoken"]})
    act(s, "play:sakura", "play:gill", "defend:metsu-hadoken")
    assert pending(s)[2] == ("no-defense",)


def test_counter__an_ultra_defense_against_a_counter_attack_counters_back():
    """sfdbg.counter.ultra-vs-counter."""
    s = position(
        heroes=["ken", "ryu"],
        hands={0: ["gill", "shinryuken"], 1: ["metsu-hadoken"]},
        played={1: []},
    )
    act(s, "play:gill", "defend:metsu-hadoken")  # Ryu counters seat 0
    act(s, "defend:shinryuken")  # seat 0 avoids it with his Ultra: Ken counters seat 1
    assert pending(s)[:2] == (1, "defend")
    act(s, "no-defense")
    # Ken's Counter-Attack: seat 1 destroys a card with cost 1+ in play or discard: none.
    assert "weakness" not in ids(s.discard[0])


def test_counter__your_counter_attack_may_only_trigger_once_per_turn():
    """sfdbg.counter.once-per-turn (sfdbg.ruling.ultra-after-counter)."""
    s = position(heroes=["ken", "ryu"], hands={0: ["gill", "juri"], 1: ["metsu-hadoken", "punch"]})
    act(s, "play:gill", "defend:metsu-hadoken", "no-defense")
    assert s.ca_used[1]
    # Ryu's Ultra went into the deck; put it back in hand to try again this turn.
    s.deck[1].remove(s.catalog.by_id["metsu-hadoken"].index)
    s.hand[1].append(s.catalog.by_id["metsu-hadoken"].index)
    events = act(s, "play:juri", "defend:metsu-hadoken")
    assert pending(s)[1] == "turn"  # avoided, no second Counter-Attack
    assert "avoids the Attack without Counter-Attacking" in " ".join(e.describe() for e in events)


def test_counter__the_once_per_turn_limit_resets_each_turn():
    """sfdbg.counter.once-per-turn."""
    s = position(heroes=["ken", "ryu"], hands={0: ["gill"], 1: ["metsu-hadoken"]})
    act(s, "play:gill", "defend:metsu-hadoken", "no-defense", "end")
    assert s.ca_used == [False, False]


def test_counter__only_the_attacker_is_counter_attacked():
    """sfdbg.counter.ultra."""
    s = position(
        players=3, heroes=["ken", "ryu", "guile"], hands={0: ["gill"], 1: ["metsu-hadoken"], 2: []}
    )
    events = act(s, "play:gill", "defend:metsu-hadoken", "no-defense", "no-defense")
    assert ids(s.discard[0]) == ["weakness"]
    assert ids(s.discard[2]) == ["weakness"]  # Gill's Attack still hits seat 2
    assert kinds(events).count("AttackMade") == 2
