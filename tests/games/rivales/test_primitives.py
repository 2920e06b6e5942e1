"""The closed vocabulary of effect primitives, counts and requirements, each tested on its
own with a card rewritten by an overlay pack (so the tests hold whatever the base pack's
cards use). Every card of the base pack is also tested in ``test_cards.py``."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kumite.games.rivales.cards import ALLOWED_WHEN, Count
from kumite.games.rivales.game import GAME
from kumite.games.rivales.lines import DOWN, SPENT, UP, Slot, count
from tests.games.rivales.helpers import clash, of_kind, position, sides


def overlay(effects: str, **fields: object) -> str:
    """A pack that gives Zorro's Estocada the ``effects`` (TOML inline array)."""
    extra = "".join(f"{k} = {v!r}\n".replace("'", '"') for k, v in fields.items())
    return (
        '[pack]\nid = "test"\ngame = "rivales"\n[[cards]]\nid = "zorro.estocada"\n'
        f'text = "test"\neffects = {effects}\n{extra}'
    )


def fight(effects: str, *, lines=((), ()), rival="bloqueo", hand=("estocada",), **fields):
    state = position(
        ["zorro", "darwin"],
        lines=[list(lines[0]), list(lines[1])],
        hands=[list(hand), [rival, "golpe"]],
        options={"pack": overlay(effects, **fields)},
    )
    return state, clash(state, {0: "estocada", 1: rival})


def said(events, source="Estocada"):
    return [e.what for e in of_kind(events, "EffectApplied") if e.source == source]


COUNTS = {
    # count: (line of seat 0, line of seat 1, expected count)
    "face_down": (["v:golpe", "x:patada", "bloqueo"], [], 2),
    "face_up": (["v:golpe", "patada", "bloqueo"], [], 2),
    "rival_face_up": ([], ["golpe", "v:patada", "esquiva"], 2),
    "exhausted": (["x:golpe", "x:patada", "v:bloqueo"], [], 2),
    "energy": (["x:golpe", "v:patada", "v:bloqueo"], [], 2),
    "combo_links": (["golpe", "patada"], [], 2),
    "basic_face_up": (["golpe", "latigazo", "v:patada"], [], 1),
}


@pytest.mark.parametrize("what", sorted(COUNTS))
def test_bonus_counts_each_thing_it_can_count(what):
    mine, theirs, expected = COUNTS[what]
    _, events = fight(
        f'[{{ when = "immediate", op = "bonus", stat = "damage", amount = 1, count = "{what}" }}]',
        lines=(mine, theirs),
    )
    assert said(events) == [f"+{expected} Damage"]


def test_bonus_count_basic_in_hand():
    _, events = fight(
        '[{ when = "immediate", op = "bonus", stat = "guard", amount = 2, '
        'count = "basic_in_hand" }]',
        hand=("estocada", "golpe", "patada", "latigazo"),
    )
    assert said(events) == ["+4 Guard"]


def test_every_count_literal_is_covered():
    assert set(COUNTS) | {"basic_in_hand"} == set(Count.__args__)  # type: ignore[attr-defined]


def test_bonus_every_and_max():
    """+amount per `every` counted cards, at most `max`."""
    _, events = fight(
        '[{ when = "immediate", op = "bonus", stat = "speed", amount = 1, count = "face_up", '
        "every = 2, max = 1 }]",
        lines=(["golpe", "patada", "bloqueo", "esquiva", "latigazo"], []),
    )
    assert said(events) == ["+1 Speed"]


def test_requirement_dealt_damage_on_an_end_effect():
    effects = (
        '[{ when = "end", op = "next_card_bonus", stat = "speed", amount = 1, '
        "requires = { dealt_damage = true } }]"
    )
    state, _ = fight(effects, rival="patada")  # Estocada attacks and hits
    assert state.carry[0] == [1, 0, 0]
    state, _ = fight(effects, rival="esquiva")  # dodged: no Damage dealt
    assert state.carry[0] == [0, 0, 0]


def test_requirement_min_energy_counts_energy_not_exhausted_cards():
    effects = (
        '[{ when = "immediate", op = "bonus", stat = "damage", amount = 3, '
        "requires = { min_energy = 2 } }]"
    )
    _, events = fight(effects, lines=(["v:golpe", "x:patada"], []))
    assert of_kind(events, "RequirementUnmet")
    _, events = fight(effects, lines=(["v:golpe", "v:patada"], []))
    assert said(events) == ["+3 Damage"]


def test_requirement_card_type_and_rival_type():
    effects = (
        '[{ when = "immediate", op = "bonus", stat = "speed", amount = 1, '
        'requires = { card_type = "unique" } },'
        ' { when = "immediate", op = "bonus", stat = "speed", amount = 2, '
        'requires = { rival_type = "unique" } }]'
    )
    _, events = fight(effects, rival="bloqueo")
    assert said(events) == ["+1 Speed"]
    _, events = fight(effects, rival="pinzon")
    assert said(events) == ["+1 Speed", "+2 Speed"]


def test_flip_energy_up_without_choice_flips_the_most_recent():
    state, _ = fight(
        '[{ when = "immediate", op = "flip_energy_up", amount = 2, choose = false }]',
        lines=(["v:golpe", "v:patada", "v:bloqueo"], []),
    )
    assert [s.side for s in state.lines[0][0][:3]] == [DOWN, UP, UP]


def test_refresh_the_most_recent_exhausted_first():
    state, _ = fight(
        '[{ when = "immediate", op = "refresh", amount = 1 }]',
        lines=(["x:golpe", "x:patada"], []),
    )
    assert [s.side for s in state.lines[0][0][:2]] == [SPENT, DOWN]


def test_flip_previous_up_does_nothing_when_the_previous_card_is_face_up():
    _, events = fight('[{ when = "immediate", op = "flip_previous_up" }]', lines=(["golpe"], []))
    assert said(events) == ["the previous card is not face down: nothing to flip"]


def test_no_basic_next_clash_and_flip_self_down_act_only_while_face_up():
    effects = (
        '[{ when = "end", op = "no_basic_next_clash" }, { when = "end", op = "flip_self_down" }]'
    )
    state, events = fight(effects, rival="bloqueo")  # Estocada attacks: it stays face up
    assert of_kind(events, "NoBasicNextClash")
    assert sides(state, 0)[-1] == "estocada/down"
    state, events = fight(effects, rival="golpe", speed=0, guard=0)  # hit: flipped by Damage
    assert of_kind(events, "DamageTaken")[0].seat == 0
    assert not of_kind(events, "NoBasicNextClash")  # its end effects are cancelled


def test_every_primitive_is_allowed_somewhere_and_documented():
    """Each primitive has a row in docs/packs.md's table of Rivales primitives (the module
    docstring of ``effects`` lists them too, but a compiled module keeps no docstring)."""
    packs = (Path(__file__).parents[3] / "docs" / "packs.md").read_text()
    rivales = packs[packs.index("Effects are lists of primitives (`kumite.games.rivales") :]
    for op in ALLOWED_WHEN:
        assert f"| `{op}`" in rivales, op


CARDS = list(GAME.catalog({}).cards.values())


@given(
    st.lists(
        st.tuples(st.sampled_from(CARDS), st.integers(0, 3), st.sampled_from([UP, DOWN, SPENT])),
        max_size=8,
    ),
    st.sampled_from(["face_down", "face_up", "exhausted", "energy", "basic_face_up"]),
    st.none() | st.integers(0, 3),
    st.none() | st.integers(-9, 9),
)
def test_count_reads_the_cards_of_line_upto_as_the_slice_would(raw, what, owner, upto):
    """rv.ruling.counts: a count reads the cards of ``line[:upto]`` (the earlier clashes'
    when ``upto`` is the last index) of ``owner`` if given, by side (and, for
    basic_face_up, type); it walks them by index, the slice's bounds included."""
    line = [Slot(card, seat, side) for card, seat, side in raw]
    wanted = {"energy": {DOWN}, "exhausted": {SPENT}, "face_up": {UP}, "face_down": {DOWN, SPENT}}
    expected = sum(
        1
        for slot in line[:upto]
        if (owner is None or slot.owner == owner)
        and (
            slot.side == UP and slot.card.is_basic
            if what == "basic_face_up"
            else slot.side in wanted[what]
        )
    )
    assert count(line, what, owner, upto) == expected
