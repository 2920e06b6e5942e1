"""One scenario per Super Hero: its Counter-Attack, as a Stage Boss against the challenger
(``sfdbg.boss.counter-attack``) or from a player's Ultra Defense (``sfdbg.counter.ultra``)."""

from __future__ import annotations

from kumite.games.sfdbg.game import GAME
from tests.games.sfdbg.scenario import act, ids, pending, position


def challenged_by(boss: str, **kw):
    """Seat 0 challenges America (cost 7) and ``boss`` is the Stage Boss."""
    kw.setdefault("heroes", ["ryu", "ken"] if boss not in ("ryu", "ken") else ["guile", "sagat"])
    kw.setdefault("power", 7)
    s = position(**kw)
    h = s.catalog.hero_by_id[boss].index
    s.bosses.remove(h)
    s.bosses.append(h)
    act(s, "challenge")
    return s


def test_every_super_hero_has_an_ultra_and_a_counter_attack():
    catalog = GAME.catalog()
    assert len(catalog.heroes) == 14
    for hero in catalog.heroes:
        assert catalog.by_id[hero.ultra].owner == hero.id
        assert hero.counter_text.startswith("Counter-Attack: The attacker")


def test_hero__akuma():
    """The attacker destroys a card with cost 1 or greater in play or in his discard pile,
    then gains a Weakness."""
    s = challenged_by("akuma", played={0: ["hadoken", "punch"]})
    act(s, "no-defense")
    assert ids(s.destroyed) == ["hadoken"]  # the only choice
    assert ids(s.discard[0]) == ["weakness", "usa"]


def test_hero__balrog():
    """The attacker discards his hand."""
    s = challenged_by("balrog", hands={0: ["kick", "sakura"]})
    act(s, "no-defense")
    assert s.hand[0] == [] and sorted(ids(s.discard[0])) == ["kick", "sakura", "usa"]


def test_hero__cammy():
    """The attacker destroys a card with cost 1 or greater in his hand."""
    s = challenged_by("cammy", hands={0: ["kick", "punch"]})
    act(s, "no-defense")
    assert pending(s) == (0, "destroy", ("destroy:hand:kick",))
    act(s, "destroy:hand:kick")
    assert ids(s.destroyed) == ["kick"]


def test_hero__chun_li():
    """The attacker discards two cards."""
    s = challenged_by("chun-li", hands={0: ["kick", "punch", "seth"]})
    act(s, "no-defense", "discard:punch", "discard:kick")
    assert ids(s.hand[0]) == ["seth"]


def test_hero__dhalsim():
    """The attacker puts a card with cost 1 or greater from in play or his discard pile on the
    bottom of the main deck. It can't be a Kick, a Stage or an Ultra: they never go into the
    main deck (sfdbg.setup.main-deck)."""
    s = challenged_by(
        "dhalsim",
        played={0: ["punch", "kick"]},
        locations={0: ["japan"]},
        discards={0: ["gill", "seth", "kick", "hong-kong", "metsu-hadoken"]},
    )
    act(s, "no-defense")
    assert set(pending(s)[2]) == {"bottom:discard:gill", "bottom:discard:seth"}
    act(s, "bottom:discard:gill")
    assert ids(s.main[:1]) == ["gill"]


def test_hero__e_honda():
    """The attacker discards the top two cards of his deck and gains a Weakness for each of
    them with cost 1 or greater."""
    s = challenged_by("e-honda", decks={0: ["seth", "punch", "kick"]})
    act(s, "no-defense")
    assert ids(s.discard[0]) == ["seth", "weakness", "punch", "usa"]


def test_hero__fei_long():
    """The attacker discards a card and loses 1 Power."""
    s = challenged_by("fei-long", hands={0: ["kick", "punch"]}, power=9)
    act(s, "no-defense", "discard:punch")
    assert s.power == 1 and ids(s.hand[0]) == ["kick"]


def test_hero__guile():
    """The attacker loses 3 Power (sfdbg.ruling.power-floor: not below 0)."""
    s = challenged_by("guile", power=9)
    act(s, "no-defense")
    assert s.power == 0


def test_hero__ken():
    """The attacker destroys a card with cost 1 or greater in play or in his discard pile."""
    s = challenged_by("ken", played={0: ["kick"]}, discards={0: ["gill"]})
    act(s, "no-defense", "destroy:discard:gill")
    assert ids(s.destroyed) == ["gill"] and ids(s.played[0]) == ["kick"]


def test_hero__m_bison():
    """The attacker gains two Weaknesses."""
    s = challenged_by("m-bison")
    act(s, "no-defense")
    assert ids(s.discard[0]) == ["weakness", "weakness", "usa"]


def test_hero__ryu():
    """The attacker gains a Weakness."""
    s = challenged_by("ryu")
    act(s, "no-defense")
    assert ids(s.discard[0]) == ["weakness", "usa"]


def test_hero__sagat():
    """The attacker loses 2 Power and gains a Weakness."""
    s = challenged_by("sagat", power=10)
    act(s, "no-defense")
    assert s.power == 1 and ids(s.discard[0]) == ["weakness", "usa"]


def test_hero__vega():
    """The attacker can't buy any more cards this turn."""
    s = challenged_by("vega", power=20)
    act(s, "no-defense")
    assert not any(c.startswith("buy:") for c in pending(s)[2])


def test_hero__zangief():
    """The attacker gains a Weakness and discards a card."""
    s = challenged_by("zangief", hands={0: ["kick"]})
    act(s, "no-defense", "discard:kick")
    assert ids(s.discard[0]) == ["weakness", "kick", "usa"]


def test_hero__counter_attack_from_a_players_ultra_defense():
    """The same text hits an attacking player (Zangief's Ultra Defense against Gill)."""
    s = position(
        heroes=["ryu", "zangief"], hands={0: ["gill", "seth"], 1: ["ultimate-atomic-buster"]}
    )
    act(s, "play:gill", "defend:ultimate-atomic-buster", "no-defense", "discard:seth")
    assert ids(s.discard[0]) == ["weakness", "seth"]
