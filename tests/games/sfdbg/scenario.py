"""Build SF DBG positions from plain data and act in them — for scenario tests and docs.

>>> s = position(hands={0: ["gill", "punch"]}, heroes=["ryu", "ken"])
>>> _ = act(s, "play:gill", "no-defense")
>>> ids(s.discard[1])
['weakness']
>>> s.power
2

Zones are given as lists of card ids. A deck is listed top card first. Zones not given keep
what the set-up dealt, except hands (empty unless given) and the Line-Up (given or dealt).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kumite.core.events import Event
from kumite.games.sfdbg.engine import EMPTY
from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.state import SFDBGState

SeatCards = Mapping[int, Sequence[str]]


def position(
    players: int = 2,
    *,
    active: int = 0,
    heroes: Sequence[str | None] | None = None,
    variant: str = "standard",
    hands: SeatCards | None = None,
    decks: SeatCards | None = None,
    discards: SeatCards | None = None,
    played: SeatCards | None = None,
    locations: SeatCards | None = None,
    under: SeatCards | None = None,
    line_up: Sequence[str | None] | None = None,
    main: Sequence[str] | None = None,
    stages: Sequence[str] | None = None,
    power: int = 0,
    weaknesses: int | None = None,
    kicks: int | None = None,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> SFDBGState:
    """A position at the start of ``active``'s turn (or with ``power`` and ``played`` cards
    already counted). Decks list their top card first; ``main`` too."""
    opts: dict[str, Any] = {"players": players, "variant": variant, "first_player": active}
    if heroes is not None:
        opts["heroes"] = list(heroes)
    opts.update(options or {})
    st = GAME.new_state(seed, opts)
    by_id = st.catalog.by_id

    def cards(names: Iterable[str]) -> list[int]:
        return [by_id[n].index for n in names]

    for seat in range(players):
        st.hand[seat] = cards((hands or {}).get(seat, []))
        if decks is not None and seat in decks:
            st.deck[seat] = list(reversed(cards(decks[seat])))
        if discards is not None and seat in discards:
            st.discard[seat] = cards(discards[seat])
        if played is not None and seat in played:
            st.played[seat] = cards(played[seat])
            st.plays = list(st.played[seat]) if seat == active else st.plays
        if locations is not None and seat in locations:
            st.locs[seat] = cards(locations[seat])
        if under is not None and seat in under:
            st.under[seat] = cards(under[seat])
    if line_up is not None:
        st.lineup = [EMPTY if c is None else by_id[c].index for c in line_up]
    if main is not None:
        st.main = list(reversed(cards(main)))
    if stages is not None:
        st.stages = list(reversed(cards(stages)))
    if weaknesses is not None:
        st.weak = weaknesses
    if kicks is not None:
        st.kicks = kicks
    st.power = power
    st._pending = None
    return st


def act(state: SFDBGState, *choices: str) -> list[Event]:
    """Apply ``choices`` in order, each by the seat whose decision is pending."""
    events: list[Event] = []
    for choice in choices:
        (decision,) = state.pending()
        events += state.apply({decision.seat: choice})
    return events


def pending(state: SFDBGState) -> tuple[int, str, tuple[str, ...]]:
    """(seat, kind, legal choices) of the pending decision."""
    (decision,) = state.pending()
    return decision.seat, decision.kind, decision.legal


def ids(cards: Iterable[int]) -> list[str]:
    """Card ids of a zone, in order."""
    catalog = GAME.catalog()
    return [catalog.cards[c].id for c in cards]


def deck_top(state: SFDBGState, seat: int, count: int = 1) -> list[str]:
    """The top ``count`` cards of a deck (top first)."""
    return ids(reversed(state.deck[seat][-count:]))


def kinds(events: Sequence[Event]) -> list[str]:
    """Event class names, in order."""
    return [e.kind for e in events]


def described(events: Sequence[Event]) -> str:
    """All event sentences, one per line."""
    return "\n".join(e.describe() for e in events)
