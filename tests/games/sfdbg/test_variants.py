"""Rulebook: Variant Games — High-Powered Heroes and Secret Heroes."""

from __future__ import annotations

import random
from collections import Counter

from kumite.games.sfdbg.game import GAME
from tests.games.sfdbg.scenario import act, ids, kinds, pending, position

# -- High-Powered Heroes -----------------------------------------------------------------------


def hp(**kw):
    kw.setdefault("heroes", ["ryu", "ken"])
    return position(variant="high-powered", **kw)


def test_high_powered__a_played_ultra_may_be_shuffled_into_the_deck_at_end_of_turn():
    """sfdbg.variant.high-powered."""
    s = hp(hands={0: ["metsu-hadoken"]}, decks={0: ["punch"] * 3})
    act(s, "play:metsu-hadoken", "no-defense", "end")
    assert pending(s)[:2] == (0, "hp-ultra")
    act(s, "yes")
    assert "metsu-hadoken" not in ids(s.discard[0])
    assert "metsu-hadoken" in ids(s.hand[0] + s.deck[0])


def test_high_powered__or_discarded_as_usual():
    """sfdbg.variant.high-powered."""
    s = hp(hands={0: ["metsu-hadoken"]}, decks={0: ["punch"] * 5})
    act(s, "play:metsu-hadoken", "no-defense", "end", "no")
    assert "metsu-hadoken" in ids(s.discard[0])


def test_high_powered__only_your_own_super_heros_ultra():
    """sfdbg.variant.high-powered."""
    s = hp(hands={0: ["shinryuken"]}, decks={0: ["punch"] * 10})
    act(s, "play:shinryuken", "no-defense", "end")
    assert s.active == 1  # no question asked
    assert "shinryuken" in ids(s.discard[0])


def test_high_powered__not_in_the_standard_game():
    """sfdbg.variant.high-powered."""
    s = position(heroes=["ryu", "ken"], hands={0: ["metsu-hadoken"]}, decks={0: ["punch"] * 5})
    act(s, "play:metsu-hadoken", "no-defense", "end")
    assert s.active == 1 and "metsu-hadoken" in ids(s.discard[0])


# -- Secret Heroes -----------------------------------------------------------------------------


def secret(players: int = 3, seed: int = 1):
    return GAME.new_state(seed, {"players": players, "variant": "secret-heroes"})


def test_secret_heroes__super_heroes_are_dealt_face_down():
    """sfdbg.variant.secret-heroes.setup (sfdbg.ruling.secret-unknown)."""
    s = secret()
    for seat in range(3):
        entry = s.view(seat)["players"][seat]
        assert entry["hero"] is None and entry["hero_face_up"] is False
        assert entry["counter_attack"] is None


def test_secret_heroes__three_ultras_face_down_under_each_super_hero():
    """sfdbg.variant.secret-heroes.setup."""
    s = secret(4)
    assert [len(u) for u in s.ultras] == [3, 3, 3, 3]
    assert s.under == [[], [], [], []]
    assert s.view(0)["players"][1]["ultra_stack"] == 3
    assert "ultra_stack" not in GAME.new_state(1, {"players": 4}).view(0)["players"][1]
    owners = Counter(s.cards[u].owner for zone in s.ultras for u in zone)
    assert sum(owners.values()) == 12  # any Super Hero's Ultras, shuffled


def test_secret_heroes__five_players_share_the_fourteen_ultras():
    """sfdbg.ruling.secret-five-players: the last player in clockwise order gets two."""
    s = GAME.new_state(3, {"players": 5, "variant": "secret-heroes", "first_player": 1})
    assert [len(u) for u in s.ultras] == [2, 3, 3, 3, 3]


def test_secret_heroes__the_remaining_super_heroes_stay_in_their_stack():
    """sfdbg.variant.secret-heroes.setup."""
    s = secret(3)
    assert len(s.bosses) == 11


def test_secret_heroes__buy_the_top_card_of_your_ultra_stack():
    """sfdbg.variant.secret-heroes.buy."""
    s = position(variant="secret-heroes", power=6)
    top = s.ultras[0][-1]
    assert "buy:ultra" in pending(s)[2]
    act(s, "buy:ultra")
    assert s.discard[0] == [top] and len(s.ultras[0]) == 2


def test_secret_heroes__a_player_may_buy_all_three_ultras():
    """sfdbg.variant.secret-heroes.buy."""
    s = position(variant="secret-heroes", power=18)
    act(s, "buy:ultra", "buy:ultra", "buy:ultra")
    assert len(s.discard[0]) == 3 and s.ultras[0] == []
    assert "buy:ultra" not in pending(s)[2]


def test_secret_heroes__an_ultra_defense_is_discarded_then_the_hero_flips_and_is_replaced():
    """sfdbg.variant.secret-heroes.defense."""
    s = position(variant="secret-heroes", hands={0: ["gill"], 1: ["metsu-hadoken"]})
    old = s.hero[1]
    events = act(s, "play:gill", "defend:metsu-hadoken")
    assert ids(s.discard[1]) == ["metsu-hadoken"]  # discarded, not shuffled in
    assert "HeroRevealed" in kinds(events)
    assert s.hero_up[1] is True  # face up while its Counter-Attack resolves
    assert pending(s)[:2] == (0, "defend")
    events = act(s, "no-defense")
    assert "HeroReplaced" in kinds(events)
    assert s.hero[1] != old and s.hero_up[1] is False
    assert s.hero_discard == [old]
    assert s.view(0)["bosses"]["hero_discard"] == [s.heroes[old].id]


def test_secret_heroes__the_super_hero_discard_pile_is_reshuffled_when_the_stack_runs_out():
    """sfdbg.variant.secret-heroes.defense."""
    s = position(variant="secret-heroes", hands={0: ["gill"], 1: ["metsu-hadoken"]})
    spare = s.bosses[:]
    s.hero_discard = spare[:-1]
    s.bosses = []
    s.hero_discard.append(spare[-1])
    act(s, "play:gill", "defend:metsu-hadoken", "no-defense")
    assert s.hero[1] in spare
    assert len(s.bosses) + len(s.hero_discard) == len(spare)


def test_secret_heroes__a_defeated_boss_does_not_go_to_the_super_hero_discard_pile():
    """sfdbg.ruling.secret-defeated-boss."""
    s = position(variant="secret-heroes", power=7)
    act(s, "challenge", "no-defense")
    if pending(s)[1] != "turn":  # some Counter-Attacks ask the challenger to choose
        act(s, pending(s)[2][0])
    assert s.hero_discard == [] and len(s.defeated) == 1


def test_secret_heroes__random_games_end_with_every_card_accounted_for():
    """sfdbg.variant.secret-heroes.setup."""
    for seed in range(3):
        s = GAME.new_state(seed, {"players": 5, "variant": "secret-heroes", "round_limit": 12})
        rng = random.Random(seed)
        while not s.is_terminal:
            (d,) = s.pending()
            s.apply({d.seat: rng.choice(d.legal)})
        assert s.outcome is not None
        assert len(set(s.hero)) == 5
