"""Rulebook: Setup For Your First Game (``sfdbg.setup.*``)."""

from __future__ import annotations

from collections import Counter

import pytest

from kumite.core.errors import OptionsError
from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.turn import owned
from tests.games.sfdbg.scenario import act, ids

CATALOG = GAME.catalog()


def test_setup__super_heroes_dealt_or_chosen_one_each():
    """sfdbg.setup.heroes: "deal one to each player or choose your favorite character"."""
    state = GAME.new_state(3, {"players": 4, "heroes": ["ryu", None, "ken", None]})
    heroes = [state.heroes[h].id for h in state.hero]
    assert heroes[0] == "ryu" and heroes[2] == "ken"
    assert len(set(heroes)) == 4
    dealt = {GAME.new_state(seed, {"players": 2}).hero[0] for seed in range(20)}
    assert len(dealt) > 3  # dealt at random


def test_setup__remaining_super_heroes_make_a_face_down_stack():
    """sfdbg.setup.heroes: "Place the remaining Super Heroes face down ... in a single stack"."""
    state = GAME.new_state(1, {"players": 3})
    assert sorted(state.bosses + state.hero) == list(range(14))
    view = state.view(0)
    assert view["bosses"]["remaining"] == 11
    assert "ryu" not in str(view["bosses"])  # identities are hidden


def test_setup__starting_deck_is_seven_punches_and_three_vulnerabilities():
    """sfdbg.setup.starting-deck."""
    state = GAME.new_state(2, {"players": 5})
    for seat in range(5):
        assert Counter(ids(owned(state, seat))) == {"punch": 7, "vulnerability": 3}
        assert len(state.hand[seat]) == 5 and len(state.deck[seat]) == 5


def test_setup__main_deck_is_the_111_other_cards():
    """sfdbg.setup.main-deck: never Stage, Punch, Vulnerability, Kick, Ultra or Weakness."""
    state = GAME.new_state(4, {"players": 2})
    main = state.main + state.lineup
    assert len(main) == 111
    assert {CATALOG.cards[c].pile for c in main} == {"main"}
    forbidden = {"punch", "vulnerability", "kick", "weakness"}
    assert not forbidden & set(ids(main))


def test_setup__each_ultra_face_up_under_its_super_hero():
    """sfdbg.setup.ultras."""
    state = GAME.new_state(5, {"players": 3, "heroes": ["zangief", "guile", "akuma"]})
    assert [ids(u) for u in state.under] == [
        ["ultimate-atomic-buster"],
        ["sonic-hurricane"],
        ["wrath-of-the-raging-demon"],
    ]
    assert state.view(1)["players"][0]["under"] == ["ultimate-atomic-buster"]


def test_setup__stages_in_order_with_america_face_up():
    """sfdbg.setup.stages: Stage 8 at the bottom, Stage 1 on top, flipped face up."""
    state = GAME.new_state(6)
    assert ids(reversed(state.stages)) == [c.id for c in CATALOG.stages]
    assert [c.stage for c in CATALOG.stages] == list(range(1, 9))
    assert state.view(0)["stages"] == {
        "top": "usa",
        "face_up": True,
        "remaining": 8,
        "can_challenge": False,
    }
    assert CATALOG.by_id["usa"].aka == "America"


def test_setup__all_16_kicks_and_20_weaknesses_in_their_stacks():
    """sfdbg.setup.stacks."""
    view = GAME.new_state(7, {"players": 4}).view(None)
    assert (view["kicks"], view["weaknesses"]) == (16, 20)


def test_setup__line_up_is_the_top_five_cards_of_the_main_deck():
    """sfdbg.setup.line-up."""
    state = GAME.new_state(8)
    assert len(state.lineup) == 5 and all(c >= 0 for c in state.lineup)
    assert len(state.main) == 106


def test_setup__a_random_player_goes_first_then_clockwise():
    """sfdbg.setup.first-player."""
    firsts = {GAME.new_state(seed, {"players": 4}).active for seed in range(30)}
    assert firsts == {0, 1, 2, 3}
    state = GAME.new_state(0, {"players": 4, "first_player": 2})
    assert state.active == 2
    act(state, "end")
    assert state.active == 3
    act(state, "end")
    assert state.active == 0


def test_setup__every_player_starts_with_a_hand_of_five():
    """sfdbg.setup.hand."""
    state = GAME.new_state(9, {"players": 3})
    assert [len(h) for h in state.hand] == [5, 5, 5]


@pytest.mark.parametrize("players", [1, 6])
def test_setup__the_game_is_for_two_to_five_players(players):
    """sfdbg.setup.heroes (2-5 players)."""
    with pytest.raises(OptionsError, match="2 to 5 players"):
        GAME.new_state(0, {"players": players})


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"players": 2, "heroes": ["ryu"]}, "one Super Hero per seat"),
        ({"players": 2, "heroes": ["ryu", "ryu"]}, "only one player"),
        ({"players": 2, "heroes": ["ryu", "blanka"]}, "unknown Super Hero"),
        ({"players": 2, "variant": "secret-heroes", "heroes": ["ryu", "ken"]}, "face down"),
        ({"players": 2, "variant": "turbo"}, "variant"),
        ({"players": 2, "first_player": 2}, "first_player"),
    ],
)
def test_setup__bad_options_are_rejected_with_a_reason(options, words):
    """sfdbg.setup.heroes."""
    with pytest.raises(OptionsError, match=words):
        GAME.new_state(0, options)


def test_setup__the_same_seed_deals_the_same_game():
    """sfdbg.setup.main-deck (shuffles come from the seed)."""
    a, b = GAME.new_state(42, {"players": 4}), GAME.new_state(42, {"players": 4})
    assert a.view(None) == b.view(None)
    assert a.hand == b.hand and a.deck == b.deck and a.main == b.main


#: A user's pack whose Dhalsim puts *any* card of his on the bottom of the main deck.
ANY_CARD_TO_MAIN = """
[pack]
id = "loose-dhalsim"
game = "sfdbg"
base = "sfdbg-base"

[[heroes]]
id = "dhalsim"
counter_attack = "Counter-Attack: The attacker puts any card of his under the main deck."
counter = [{ op = "to_main_bottom", zones = ["play", "discard"] }]
"""


def test_setup__main_deck__no_kick_stage_or_ultra_is_ever_put_into_it_whatever_the_pack():
    """sfdbg.setup.main-deck: "None of the following cards should ever be placed into the
    main deck: Stage, Punch, Vulnerability, Kick, Ultra, Weakness" — the engine's rule, even
    when a pack's effect would put them there (sfdbg.ruling.never-into-main-deck)."""
    from tests.games.sfdbg.scenario import pending, position

    def dhalsim_counters(discards: list[str]):
        s = position(
            heroes=["ryu", "dhalsim"],
            hands={0: ["metsu-hadoken"], 1: ["yoga-catastrophe"]},
            played={0: ["punch"]},
            locations={0: ["usa"]},
            discards={0: discards},
            options={"pack": ANY_CARD_TO_MAIN},
        )
        act(s, "play:metsu-hadoken", "defend:yoga-catastrophe", "no-defense")
        return s

    s = dhalsim_counters(["kick", "vulnerability", "weakness", "shinryuken", "sodom"])
    # Only Sodom started in the main deck; with it the only choice, nobody is asked.
    assert ids(s.main[:1]) == ["sodom"]
    s = dhalsim_counters(["kick", "vulnerability", "weakness", "shinryuken", "hong-kong"])
    before = list(s.main)
    assert pending(s)[1] == "turn" and s.main == before
    assert "kick" in ids(s.discard[0]) and ids(s.locs[0]) == ["usa"]
    assert ids(s.played[0]) == ["punch", "metsu-hadoken"]
