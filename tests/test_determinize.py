"""Determinisation keeps what the table saw, in each of kumite's games (DESIGN §2: "samples
hidden cards consistent with one seat's view").

Random games, many positions, every seat: the seat's view is the same before and after
resampling, and every card the seat knows the place of is still there. What a seat knows is
read here from its view and the game's rules (not from the engine's own bookkeeping), so a
determinisation that forgets a card the table saw — a Rivales ultra taken into hand face up,
once resampled into the deck — fails. A search bot reasoning about positions the table has
ruled out plays worse, and in the end leaks nothing but plays the wrong game.

Beside the conformance suite (tests/test_conformance.py, which checks the seat's view for
every registered game): what a seat knows is each game's own, so a game not described here
(a plugin) is not checked; each of kumite's own games must be.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kumite.core.game import State
from kumite.core.registry import specs
from tests.test_conformance import every_seat_count

OWN = [s.id for s in specs().values() if s.game.target.startswith("kumite.games.")]

Facts = Counter[tuple[int | None, str, str]]
"""(owner, card id, place) -> how many copies at least are there."""

SEEDS = {"sfrivals": range(16), "rivales": range(8), "sfdbg": range(3)}
EVERY = {"sfrivals": 1, "rivales": 3, "sfdbg": 9}
"""Steps between two positions checked (games differ in length)."""


# ------------------------------------------------------------------------------ Rivales
def _rivales_places(state: Any) -> Facts:
    """Where each card is. A hand and this clash's face-down card are both ``held`` as well:
    a rival cannot tell them apart."""
    out: Facts = Counter()
    for s in state.seats:
        for c in state.hand[s]:
            out[(s, c.id, "hand")] += 1
            out[(s, c.id, "held")] += 1
        for c in state.deck[s]:
            out[(s, c.id, "deck")] += 1
        if state.marker[s] is not None:
            out[(s, state.marker[s].id, "marker")] += 1
        if state.ready[s] is not None:
            out[(s, state.ready[s].id, "ready")] += 1
        if state.ultra[s] is not None:
            out[(s, state.ultra[s].id, "aside")] += 1
    for zone in state.lines:
        for line in zone:
            for slot in line:
                if slot.side == 3:  # hidden: played face down this clash
                    out[(slot.owner, slot.card.id, "hidden")] += 1
                    out[(slot.owner, slot.card.id, "held")] += 1
                else:
                    out[(slot.owner, slot.card.id, "line")] += 1
    return out


def _rivales_known(state: Any, seat: int) -> Facts:
    """From ``seat``'s view and the rules: its own cards; a rival's ultra taken into hand
    face up (rv.end.ultra) and not played since is held; a hand shown to it (Lluvia de
    Sombreros) is held."""
    view = state.view(seat)
    out: Facts = Counter()
    me = view["players"][seat]
    if me["fighter"] is None or not state.round:
        return out
    in_sight = {
        (slot["owner"], slot["card"])
        for zone in view["zones"]
        for line in zone["lines"]
        for slot in line
        if slot["card"] is not None
    }
    for card in me["hand"]:
        out[(seat, card, "hand")] += 1
    if me["marker"]:
        out[(seat, me["marker"], "marker")] += 1
    fighter = state.catalog.fighters[me["fighter"]]
    placed = set(me["hand"]) | {me["marker"], me["ready"]} | {c for o, c in in_sight if o == seat}
    for card in fighter.cards:
        if card.id not in placed and not (card is fighter.ultra and me["ultra"] != "taken"):
            out[(seat, card.id, "deck")] += 1  # every other card of its own
    for p in view["players"]:
        o = p["seat"]
        if o == seat or p["fighter"] is None:
            continue
        ultra = state.catalog.fighters[p["fighter"]].ultra.id
        if p["ultra"] == "taken" and (o, ultra) not in in_sight and p["ready"] != ultra:
            out[(o, ultra, "held")] = 1  # a deck holds one copy of each card
        for card in p.get("known_hand", ()):
            out[(o, card, "held")] = 1
    return out


# --------------------------------------------------------------------------- SF Rivals
def _sfrivals_places(state: Any) -> Facts:
    out: Facts = Counter()
    for s in (0, 1):
        char = state.chars[s]
        if char is None:
            continue
        for card in char.cards:
            n = state.hands[s][card.index] if state.hands[s] else 0
            out[(s, card.id, "hand")] += n
            out[(s, card.id, "held")] += n
        if state.cover[s] is not None:
            out[(s, state.cover[s].id, "cover")] += 1
            out[(s, state.cover[s].id, "held")] += 1
    return out


def _sfrivals_known(state: Any, seat: int) -> Facts:
    """Its own hand and cover; the rival's held cards (hand and cover together) are its
    character's cards less those played and the one shown."""
    view = state.view(seat)
    out: Facts = Counter()
    me = view["players"][seat]
    if me.get("hand") is None:
        return out
    for card in me["hand"]:
        out[(seat, card, "hand")] += 1
    if me.get("cover"):
        out[(seat, me["cover"], "cover")] += 1
    rival = view["players"][1 - seat]
    if rival["character"] is None or state.cover[1 - seat] is None:
        return out
    char = state.catalog.characters[rival["character"]]
    gone = Counter(rival["played"]) + Counter([rival["shown"], rival["revealed"]])
    for card in char.cards:
        left = card.copies - gone[card.id]
        if left > 0:
            out[(1 - seat, card.id, "held")] += left
    return out


# ------------------------------------------------------------------------------- SF DBG
def _sfdbg_places(state: Any) -> Facts:
    out: Facts = Counter()
    cards = state.cards
    for s in range(state.seat_count):
        for c in state.hand[s]:
            out[(s, cards[c].id, "hand")] += 1
            out[(s, cards[c].id, "hand+deck")] += 1
        for c in state.deck[s]:
            out[(s, cards[c].id, "hand+deck")] += 1
    if state.main:
        out[(None, cards[state.main[-1]].id, "main-top")] += 1
    return out


def _sfdbg_known(state: Any, seat: int) -> Facts:
    """Its own hand; cards known to be in another hand; the top of the main deck when
    revealed; and every player's hand and deck together (every card entering or leaving a
    player's cards is announced by name, only draws are private)."""
    view = state.view(seat)
    out: Facts = Counter()
    for card in view["players"][seat].get("hand", ()):
        out[(seat, card, "hand")] += 1
    for p in view["players"]:
        if p["seat"] != seat:
            for card in p["known_in_hand"]:
                out[(p["seat"], card, "hand")] += 1
    if view["main_deck_top"]:
        out[(None, view["main_deck_top"], "main-top")] += 1
    for key, n in _sfdbg_places(state).items():
        if key[2] == "hand+deck":
            out[key] = n
    return out


PLACES: dict[str, Callable[[Any], Facts]] = {
    "rivales": _rivales_places,
    "sfrivals": _sfrivals_places,
    "sfdbg": _sfdbg_places,
}
KNOWN: dict[str, Callable[[Any, int], Facts]] = {
    "rivales": _rivales_known,
    "sfrivals": _sfrivals_known,
    "sfdbg": _sfdbg_known,
}


def _positions(game_id: str, seed: int) -> Iterator[State]:
    return every_seat_count(specs()[game_id], seed, EVERY[game_id])


def test_each_of_kumites_games_has_its_knowledge_described_here():
    assert OWN and set(OWN) <= set(PLACES) == set(KNOWN)


@pytest.mark.parametrize("game_id", OWN)
def test_determinize__the_seats_view_is_unchanged(game_id):
    """Resampling changes nothing ``seat`` can see (more positions than the conformance
    suite's check)."""
    checked = 0
    for seed in SEEDS[game_id]:
        rng = random.Random(seed)
        for state in _positions(game_id, seed):
            for seat in state.players:
                other = state.determinize(seat, rng)
                assert other.view(seat) == state.view(seat), (game_id, seed, seat)
                checked += 1
    assert checked >= 200


@pytest.mark.parametrize("game_id", OWN)
def test_determinize__cards_shown_to_a_seat_stay_where_the_table_saw_them(game_id):
    """Every card ``seat`` knows the place of (from its view and the rules) is still there
    after resampling."""
    places, known = PLACES[game_id], KNOWN[game_id]
    checked = 0
    for seed in SEEDS[game_id]:
        rng = random.Random(seed + 1)
        for state in _positions(game_id, seed):
            before = places(state)
            for seat in state.players:
                facts = known(state, seat)
                wrong = {k: n for k, n in facts.items() if before[k] < n}
                assert not wrong, f"the facts themselves are wrong: {wrong}"
                after = places(state.determinize(seat, rng))
                moved = {k: (n, after[k]) for k, n in facts.items() if after[k] < n}
                assert not moved, (
                    f"{game_id} seed {seed} step {len(state.history)} seat {seat}: {moved}"
                )
                checked += len(facts)
    assert checked >= 500
