"""SF Rivals rulebook clauses, one test (or more) per clause, named after it."""

from __future__ import annotations

import pytest

from kumite.core.errors import IllegalChoiceError, MissingChoiceError
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.state import PLAY, SETUP
from tests.games.sfrivals.helpers import dmg, fight, of_kind
from tests.games.sfrivals.scenario import clash, position


def set_up(state, first="setup:ryu.jab:ryu.hadouken", second="setup:ken.guard:ken.hadouken"):
    return state.apply({0: first, 1: second})


# ----------------------------------------------------------------------------- set-up
def test_setup_choose_character__each_player_picks_one_of_8_mirror_allowed():
    """sfr.setup.choose-character: choose 1 character from among the 8 characters."""
    state = GAME.new_state(1)
    decisions = state.pending()
    assert [d.seat for d in decisions] == [0, 1]
    assert len(decisions[0].legal) == 8
    events = state.apply({0: "character:juri", 1: "character:juri"})
    assert [e.character for e in of_kind(events, "CharacterChosen")] == ["Juri", "Juri"]
    assert state.phase == SETUP


def test_setup_choose_character__fixed_by_options_skips_the_pick():
    state = GAME.new_state(1, {"characters": ["ryu", None]})
    assert [d.seat for d in state.pending()] == [1]
    state.apply({1: "character:ken"})
    assert state.phase == SETUP


def test_setup_keep_eight__cover_one_show_the_other():
    """sfr.setup.keep-eight: keep 8 of 10; one of the other two covers the life gauge face
    down, the other is revealed to the opponent."""
    state = GAME.new_state(1, {"characters": ["ryu", "ken"]})
    events = set_up(state)
    assert [sum(h) for h in state.hands] == [8, 8]
    me, them = state.view(0)["players"]
    assert me["cover"] == "ryu.jab"
    assert me["shown"] == "ryu.hadouken"
    assert len(me["hand"]) == 8
    assert "cover" not in them
    assert "hand" not in them
    assert them["shown"] == "ken.hadouken"
    assert "unseen" not in them  # derivable from public data, so not sent
    assert sorted(c.id for c in state.catalog.unseen(them)) == sorted(
        c.id for c in state.catalog.characters["ken"].deck if c.id != "ken.hadouken"
    )
    public = [e for e in events if e.to is None]
    assert {e.kind for e in public} == {"CardShown"}
    private = [e for e in events if e.to is not None]
    assert [(e.kind, e.to) for e in private] == [
        ("CoverChosen", frozenset({0})),
        ("CoverChosen", frozenset({1})),
    ]


def test_setup_keep_eight__two_copies_may_both_be_set_aside():
    """Ryu has two Hadoukens: covering one and showing the other is a legal set-up."""
    state = GAME.new_state(1, {"characters": ["ryu", "ken"]})
    assert "setup:ryu.hadouken:ryu.hadouken" in state.legal(0)
    assert "setup:ryu.jab:ryu.jab" not in state.legal(0)
    set_up(state, first="setup:ryu.hadouken:ryu.hadouken")
    assert "play:ryu.hadouken" not in state.legal(0)


# ----------------------------------------------------------------------------- rounds
def test_round_play__both_play_face_down_at_once():
    """sfr.round.play: each player plays one card face down — a simultaneous decision;
    neither choice is applied until both are made."""
    state = GAME.new_state(1, {"characters": ["ryu", "ken"]})
    set_up(state)
    assert state.phase == PLAY
    assert [d.seat for d in state.pending()] == [0, 1]
    with pytest.raises(MissingChoiceError):
        state.apply({0: "play:ryu.shoryuken"})
    assert sum(state.hands[0]) == 8


def test_round_reveal__both_cards_revealed_together():
    """sfr.round.reveal: reveal your cards at the same time."""
    state = GAME.new_state(1, {"characters": ["ryu", "ken"]})
    set_up(state)
    events = state.apply({0: "play:ryu.shoryuken", 1: "play:ken.jigokusha"})
    assert [(e.seat, e.card) for e in of_kind(events, "CardRevealed")] == [
        (0, "ryu.shoryuken"),
        (1, "ken.jigokusha"),
    ]


def test_round_higher_initiative__wins_and_deals_its_damage():
    """sfr.round.higher-initiative: the higher initiative wins; its damage is subtracted
    from the opponent's life gauge."""
    state, events = fight("ryu.jab", "ken.shoryuken")
    assert of_kind(events, "InitiativeCompared")[0].winner == 0
    assert state.lives == [10, 10 - dmg("ryu.jab")]


def test_round_equal_initiative__both_players_take_damage():
    """sfr.round.equal-initiative: when the initiative is the same, both take damage."""
    state, events = fight("ryu.jab", "ken.weak-shoryuken")
    assert of_kind(events, "InitiativeCompared")[0].winner is None
    assert state.lives == [10 - dmg("ken.weak-shoryuken"), 10 - dmg("ryu.jab")]


def test_round_cards_used__cannot_be_used_again():
    """sfr.round.cards-used: cards used in a round can't be used anymore in the fight."""
    state = position("ryu", "ken")
    clash(state, "jab", "hadouken")
    assert "play:ryu.jab" not in state.legal(0)
    before = (state.hands[0], list(state.lives))
    with pytest.raises(IllegalChoiceError, match="not in your hand"):
        state.apply({0: "play:ryu.jab", 1: "play:ken.guard"})
    assert (state.hands[0], state.lives) == before
    clash(state, "hadouken", "guard")
    clash(state, "hadouken", "jigokusha")
    assert "play:ryu.hadouken" not in state.legal(0)  # both copies used


def test_life_gauge__damage_moves_the_cover_down():
    """sfr.life.gauge: each time you receive damage your life gauge goes down."""
    state, events = fight("ryu.jab", "ken.hadouken")
    (damage,) = of_kind(events, "DamageDealt")
    assert (damage.seat, damage.amount, damage.life) == (1, dmg("ryu.jab"), state.lives[1])


# --------------------------------------------------------------------- end of a fight
def test_end_ko__first_to_0_loses():
    """sfr.end.ko: the first player whose life gauge becomes 0 is knocked out."""
    state, events = fight("ryu.jab", "ken.hadouken", lives=(10, 2))
    assert state.outcome is not None
    assert (state.outcome.winners, state.outcome.rule) == ((0,), "sfr.end.ko")
    assert state.outcome.returns == (1.0, -1.0)
    assert state.pending() == ()
    assert of_kind(events, "FightEnded")[0].winner == 0


def test_end_double_ko__is_a_draw():
    """sfr.end.double-ko: if both players get KOed at the same time, it is a draw."""
    state, _ = fight("ryu.jab", "ken.weak-shoryuken", lives=(1, 1))
    assert state.outcome is not None
    assert state.outcome.draw
    assert state.outcome.rule == "sfr.end.double-ko"
    assert state.outcome.returns == (0.0, 0.0)


@pytest.mark.parametrize(
    ("lives", "winners", "draw"), [((7, 5), (0,), False), ((5, 9), (1,), False), ((4, 4), (), True)]
)
def test_end_out_of_cards__highest_life_wins_equal_is_a_draw(lives, winners, draw):
    """sfr.end.out-of-cards: all technique cards used — the higher life gauge wins; the same
    health is a draw."""
    state = position("ryu", "ryu", hands=(["shoryuken"], ["shoryuken"]), lives=lives, round=8)
    state.hand_size = 8
    clash(state, "shoryuken", "shoryuken")  # equal initiative: both take the same damage
    assert state.outcome is not None
    assert (state.outcome.winners, state.outcome.draw) == (winners, draw)
    assert state.outcome.reason == "out of cards"


def test_end_after_eight_rounds__the_fight_is_over():
    """If someone has no technique cards left, the fight is over: 8 rounds at most."""
    state = GAME.new_state(2, {"characters": ["poison", "guile"]})
    state.apply(
        {0: "setup:poison.honeytrap:poison.backflip", 1: "setup:guile.sonic-boom:guile.guard"}
    )
    rounds = 0
    while not state.is_terminal:
        state.apply({d.seat: d.legal[0] for d in state.pending()})
        rounds += 1
    assert state.outcome is not None
    assert state.outcome.detail["rounds"] <= 8
    assert sum(state.hands[0]) + len(state.played[0]) == 8


# ------------------------------------------------------------------------------ powers
def test_powers_check_printed_initiative__the_rulebook_example():
    """sfr.powers.check-printed-initiative — the rulebook's example: the opponent plays an
    initiative-1 card raised to 3 by last round's +2; your power "when your opponent's
    initiative is 3, [their] special power is cancelled" reads the printed 1 and does not
    take effect. Guile's Somersault Kick against Juri's Feng Shui Engine shows it."""
    state = position("guile", "juri", lives=(10, 5), carry=((0, 0, 0), (2, 0, 0)))
    events = clash(state, "somersault-kick", "feng-shui-engine")
    assert of_kind(events, "InitiativeBonus")[0].initiative == 3  # 1 + 2
    assert of_kind(events, "PowerCancelled") == []  # printed 1, not 3
    assert state.lives == [10, 5]  # Feng Shui Engine's "no damage" holds
    assert state.carry[1] == (0, 1, 1)


def test_powers_check_printed_initiative__example_with_the_literal_power():
    """The same example with a card whose power is literally "When your opponent's initiative
    is 3, that card's special power is cancelled" (an overlay pack gives Ken's Hadouken that
    power) against an initiative-1 card raised to 3."""
    overlay = (
        '[pack]\nid="example"\ngame="sfrivals"\nbase="sfrivals-base"\n'
        '[[cards]]\nid="ken.hadouken"\n'
        'effects=[{op="cancel_opponent_power", if_opponent_printed=3}]\n'
    )
    state = position(
        "ken", "ryu", lives=(10, 5), carry=((0, 0, 0), (2, 0, 0)), options={"pack": overlay}
    )
    events = clash(state, "hadouken", "metsu-hadouken")
    assert of_kind(events, "PowerCancelled") == []
    # A printed 3 is cancelled.
    state = position("ken", "ryu", options={"pack": overlay})
    events = clash(state, "hadouken", "saving-attack")
    assert of_kind(events, "PowerCancelled")[0].seat == 1


def test_layout_ultra_combo__usable_at_life_5_or_under():
    """sfr.layout.ultra-combo: when your own life gauge is 5 or under, you can use it."""
    state = position("ryu", "ken", lives=(6, 10))
    assert "play:ryu.metsu-hadouken" not in state.legal(0)
    with pytest.raises(IllegalChoiceError, match="life is 5 or under"):
        state.apply({0: "play:ryu.metsu-hadouken", 1: "play:ken.hadouken"})
    state = position("ryu", "ken", lives=(5, 10))
    assert "play:ryu.metsu-hadouken" in state.legal(0)


def test_layout_super_combo__only_from_round_5():
    """sfr.layout.super-combo: a Super Combo can only be used in the 5th round or later."""
    state = position("ryu", "ken", round=4)
    with pytest.raises(IllegalChoiceError, match="from round 5"):
        state.apply({0: "play:ryu.shinkuu-hadouken", 1: "play:ken.hadouken"})
    clash(state, "jab", "hadouken")
    assert state.round == 5
    assert "play:ryu.shinkuu-hadouken" in state.legal(0)


def test_reveal_first__opponent_reveals_before_you_choose():
    """ "Your opponent must reveal their technique card first in the next round, before you
    choose yours": the next round is two steps, and you see their card before choosing."""
    state, _ = fight("ryu.guard", "ken.hadouken")
    assert [(d.seat, d.kind) for d in state.pending()] == [(1, "play-first")]
    events = state.apply({1: "play:ken.shoryuken"})
    (revealed,) = of_kind(events, "CardRevealed")
    assert revealed.early is True
    assert revealed.to is None
    assert state.view(0)["players"][1]["revealed"] == "ken.shoryuken"
    assert [(d.seat, d.kind) for d in state.pending()] == [(0, "play")]
    events = state.apply({0: "play:ryu.jab"})
    assert of_kind(events, "InitiativeCompared")[0].initiatives == (7, 4 + 2)  # Hadouken's +2


LATER_ROUNDS = {"NextRoundBonus", "RevealFirstNext", "RevealFirstVoided", "LastingEffect"}


def _last_rounds(reason: str, wanted: int = 5):
    """Final rounds of random fights that end by ``reason`` and in which a power took effect
    on a later round (a bonus, a reveal-first or a lasting bonus was carried)."""
    import random

    found = []
    for seed in range(3000):
        state = GAME.new_state(seed)
        rng = random.Random(seed)
        events = []
        while not state.is_terminal:
            events = state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
        carried = any(c.bonus for c in state.carry) or any(state.reveal_first)
        if state.outcome.reason == reason and carried:
            found.append(events)
            if len(found) == wanted:
                break
    assert len(found) == wanted
    return found


def test_end_ko__no_next_round_announcement_after_the_ko():
    """sfr.end.ko: the fight is over, so "+2 initiative next round" would be false."""
    for events in _last_rounds("KO"):
        assert events[-1].kind == "FightEnded"
        assert not [e.describe() for e in events if e.kind in LATER_ROUNDS]


def test_end_out_of_cards__no_next_round_announcement_after_the_last_round():
    for events in _last_rounds("out of cards"):
        assert events[-1].kind == "FightEnded"
        assert not [e.describe() for e in events if e.kind in LATER_ROUNDS]


def test_next_round_announcement_stays_while_the_fight_goes_on():
    _, events = fight("ryu.hadouken", "ken.weak-shoryuken")
    assert [e.kind for e in events if e.kind in LATER_ROUNDS] == ["NextRoundBonus"]
