"""kumite's rulings for SF DBG (``sfdbg.ruling.*``, docs/rulings.md): one test each."""

from __future__ import annotations

import re
from pathlib import Path

from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.rules import RULES
from kumite.games.sfdbg.scoring import winners
from tests.games.sfdbg.scenario import act, ids, pending, position


def boss_on_top(s, boss):
    h = s.catalog.hero_by_id[boss].index
    s.bosses.remove(h)
    s.bosses.append(h)
    return s


def test_every_ruling_has_a_test_and_a_docs_entry():
    text = Path(__file__).read_text()
    docs = (Path(__file__).parents[3] / "docs" / "rulings.md").read_text()
    for ref in RULES:
        if ref.startswith("sfdbg.ruling."):
            name = ref.removeprefix("sfdbg.ruling.").replace("-", "_")
            assert re.search(rf"def test_ruling__{name}\b", text), ref
            assert f"`{ref}`" in docs, ref


def test_ruling__round_limit():
    state = GAME.new_state(1, {"players": 3, "round_limit": 2})
    while not state.is_terminal:
        act(state, "end")
    assert state.turn == 6
    assert state.outcome is not None and state.outcome.rule == "sfdbg.ruling.round-limit"


def test_ruling__location_trigger():
    """The first matching card *after* the Location is in play; not the Location itself."""
    s = position(hands={0: ["rose", "usa", "rose"]}, decks={0: ["kick"] * 3})
    act(s, "play:rose", "play:usa")
    assert len(s.hand[0]) == 1  # USA did not trigger on the earlier Rose
    act(s, "play:rose")
    assert ids(s.hand[0]) == ["kick"]
    s = position(hands={0: ["united-kingdom"]}, locations={0: []}, decks={0: ["kick"]})
    act(s, "play:united-kingdom")  # cost 11, but it does not trigger on itself
    assert s.hand[0] == []


def test_ruling__defense_asked():
    s = position(hands={0: ["gill"], 1: ["punch"]})
    act(s, "play:gill")
    assert pending(s) == (1, "defend", ("no-defense",))


def test_ruling__defense_from_hand():
    s = position(heroes=["ken", "ryu"], hands={0: ["sakura", "gill"], 1: ["metsu-hadoken"]})
    act(s, "play:sakura", "play:gill", "defend:metsu-hadoken")
    assert pending(s) == (0, "defend", ("no-defense",))


def test_ruling__ultra_after_counter():
    s = position(
        heroes=["ken", "ryu"], hands={0: ["gill", "gill"], 1: ["metsu-hadoken", "metsu-hadoken"]}
    )
    act(s, "play:gill", "defend:metsu-hadoken", "no-defense")
    act(s, "play:gill", "defend:metsu-hadoken")
    assert pending(s)[1] == "turn"
    assert ids(s.discard[0]).count("weakness") == 1


def test_ruling__counter_vs_boss():
    s = boss_on_top(position(heroes=["ryu", "ken"], hands={0: ["metsu-hadoken"]}, power=7), "guile")
    act(s, "challenge", "defend:metsu-hadoken")
    assert pending(s)[1] == "turn" and s.power == 0
    assert s.ca_used == [False, False]


def test_ruling__reactions():
    # once per card per Attack, before the Defense, even when the foe cannot avoid it
    s = position(hands={0: ["hugo", "gill"], 1: ["shinku-hadoken", "sakura"]})
    act(s, "play:hugo", "play:gill")
    assert pending(s)[2] == ("reveal:shinku-hadoken", "no-defense")
    act(s, "reveal:shinku-hadoken")
    assert pending(s)[2] == ("no-defense",)
    # not against a Stage Boss
    s = boss_on_top(
        position(heroes=["ryu", "ken"], hands={0: ["shinku-hadoken"]}, power=7), "guile"
    )
    act(s, "challenge")
    assert pending(s)[2] == ("no-defense",)


def test_ruling__in_play():
    """A Location in play is "in play" for Ken's Counter-Attack."""
    s = boss_on_top(position(heroes=["ryu", "guile"], locations={0: ["japan"]}, power=7), "ken")
    act(s, "challenge", "no-defense")
    assert ids(s.destroyed) == ["japan"] and s.locs[0] == []


def test_ruling__power_floor():
    s = boss_on_top(position(heroes=["ryu", "ken"], power=8), "guile")
    act(s, "challenge", "no-defense")
    assert s.power == 0


def test_ruling__destroy_played():
    s = position(locations={0: ["india"]}, hands={0: ["punch"]})
    act(s, "play:punch", "yes")
    assert s.power == 1 and ids(s.destroyed) == ["punch"]


def test_ruling__main_top_known():
    s = position(hands={0: ["sodom"]}, main=["seth", "gill", "rose"])
    act(s, "play:sodom", "under:none")
    for seat in (0, 1, None):
        assert s.view(seat)["main_deck_top"] == "seth"
    sample = s.determinize(1, __import__("random").Random(0))
    assert ids(sample.main[-1:]) == ["seth"]
    s.lineup[0] = -1
    act(s, "end")  # the known top card refills the Line-Up
    assert s.view(1)["main_deck_top"] is None


def test_ruling__known_in_hand():
    import random

    s = position(hands={0: ["gill", "juri"], 1: ["shinku-hadoken", "punch", "kick"]})
    act(s, "play:gill", "reveal:shinku-hadoken", "no-defense")
    assert s.view(0)["players"][1]["known_in_hand"] == ["shinku-hadoken"]
    for k in range(10):
        sample = s.determinize(0, random.Random(k))
        assert "shinku-hadoken" in ids(sample.hand[1])
    act(s, "play:juri", "reveal:shinku-hadoken")  # revealed again: still one known card
    assert s.view(0)["players"][1]["known_in_hand"] == ["shinku-hadoken"]
    act(s, "no-defense", "discard:shinku-hadoken")
    assert s.view(0)["players"][1]["known_in_hand"] == []
    s = position(hands={0: ["tireless-warrior"]}, decks={0: ["punch"] * 8})
    act(s, "play:tireless-warrior", "end")
    assert s.view(1)["players"][0]["known_in_hand"] == ["tireless-warrior"]


def test_ruling__tie():
    assert winners([(9, 1, 20), (9, 1, 20)]) == (0, 1)


def test_ruling__secret_five_players():
    s = GAME.new_state(0, {"players": 5, "variant": "secret-heroes", "first_player": 0})
    assert [len(u) for u in s.ultras] == [3, 3, 3, 3, 2]
    assert not any(s.cards[c].pile == "ultra" for c in s.box)


def test_ruling__secret_unknown():
    s = GAME.new_state(0, {"players": 3, "variant": "secret-heroes"})
    me = s.view(0)["players"][0]
    assert me["hero"] is None and me["ultra_stack"] == 3 and "ultras" not in me


def test_ruling__secret_defeated_boss():
    s = position(variant="secret-heroes", power=7)
    act(s, "challenge", "no-defense")
    while pending(s)[1] != "turn":
        act(s, pending(s)[2][0])
    assert s.hero_discard == [] and len(s.defeated) == 1


def test_ruling__end_of_turn_order():
    s = position(hands={0: ["tireless-warrior"]}, decks={0: ["punch"] * 8})
    act(s, "play:tireless-warrior", "end")
    assert "tireless-warrior" in ids(s.hand[0])


def test_ruling__returns():
    s = position(players=3, line_up=["rose"] * 5, main=[], power=2)
    act(s, "buy:lineup:rose", "end")
    outcome = s.outcome
    assert outcome is not None
    assert sorted(outcome.returns) == [-1.0, -1.0, 1.0] or len(outcome.winners) > 1


def test_ruling__never_into_main_deck():
    """Dhalsim's Counter-Attack may not choose a Kick, Stage or Ultra: with nothing else to
    choose, it does nothing."""
    s = position(
        heroes=["ryu", "dhalsim"],
        hands={0: ["metsu-hadoken"], 1: ["yoga-catastrophe"]},
        played={0: ["kick"]},
        locations={0: ["usa"]},
        discards={0: ["kick", "shinryuken"]},
    )
    main = list(s.main)
    act(s, "play:metsu-hadoken", "defend:yoga-catastrophe", "no-defense")
    assert pending(s)[1] == "turn" and s.main == main


def test_ruling__hugo_next_attack():
    """A Stage Boss's Counter-Attack on the player who played Hugo is the next Attack too."""
    s = boss_on_top(
        position(heroes=["ryu", "ken"], hands={0: ["hugo", "gill"], 1: ["sakura"]}, power=5),
        "guile",
    )
    act(s, "play:hugo", "challenge", "no-defense", "play:gill")
    assert pending(s) == (1, "defend", ("defend:sakura", "no-defense"))


def test_ruling__cannot_buy_stage():
    s = position(hands={0: ["gill"], 1: ["bloody-high-claw"]}, heroes=["ken", "vega"], power=20)
    act(s, "play:gill", "defend:bloody-high-claw", "no-defense")
    assert "challenge" not in pending(s)[2] and not s.view(0)["stages"]["can_challenge"]
    assert s.explain_illegal(0, "challenge").startswith("you can't buy any more cards")


def test_ruling__stage_by_any_route():
    """A Stage gained by a foe from Ultimate Atomic Buster is the Stage that foe defeats this
    turn (sfdbg.faq.defeat): a second Attack the same turn may not give him another
    (sfdbg.boss.one-per-turn); the gift of any other card still may."""
    s = position(
        heroes=["zangief", "ken"],
        hands={0: ["ultimate-atomic-buster", "ultimate-atomic-buster"]},
        discards={0: ["usa", "japan", "gill"]},
    )
    events = act(s, "play:ultimate-atomic-buster", "give:discard:usa", "no-defense")
    assert ids(s.discard[1]) == ["usa"]
    assert any(e.rule == "sfdbg.faq.defeat" and e.seat == 1 for e in events)
    assert s.view(0)["this_turn"]["stage_defeated"] is None  # the active player's: none yet
    act(s, "play:ultimate-atomic-buster")
    assert pending(s) == (0, "give", ("give:discard:gill", "give:none"))
    act(s, "give:discard:gill", "no-defense")
    assert ids(s.discard[1]) == ["usa", "gill"]
    s.power = 20  # the foe's Stage does not count against the active player's own limit
    s._pending = None
    assert "challenge" in pending(s)[2]
