"""Shared helpers for SF Rivals tests: cards by id and one-call scenarios."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kumite.core.events import Event
from kumite.games.sfrivals.cards import Card, load_catalog
from kumite.games.sfrivals.state import SFRState
from tests.games.sfrivals.scenario import clash, position

CATALOG = load_catalog()


def card(card_id: str) -> Card:
    return CATALOG.cards[card_id]


def dmg(card_id: str) -> int:
    return card(card_id).damage


def split(card_id: str) -> tuple[str, str]:
    char, _, name = card_id.partition(".")
    return char, name


def fight(
    mine: str,
    theirs: str,
    *,
    lives: tuple[int, int] = (10, 10),
    round: int = 1,
    carry: tuple[tuple[int, int, int], tuple[int, int, int]] = ((0, 0, 0), (0, 0, 0)),
    reveal_first: tuple[bool, bool] = (False, False),
    options: Mapping[str, Any] | None = None,
    hands: tuple[Sequence[str] | None, Sequence[str] | None] = (None, None),
) -> tuple[SFRState, list[Event]]:
    """Seat 0 plays ``mine``, seat 1 plays ``theirs`` (full card ids) from a fresh position."""
    c0, n0 = split(mine)
    c1, n1 = split(theirs)
    state = position(
        c0,
        c1,
        lives=lives,
        round=round,
        carry=carry,
        reveal_first=reveal_first,
        options=options,
        hands=hands,
    )
    return state, clash(state, n0, n1)


def next_round(state: SFRState, mine: str, theirs: str) -> list[Event]:
    return clash(state, split(mine)[1], split(theirs)[1])


def of_kind(events: Sequence[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]
