"""Build SF Rivals positions from plain data and play named cards — for scenario tests,
documentation and solver checks.

>>> s = position("ryu", "ken")
>>> events = clash(s, "shoryuken", "weak-shoryuken")
>>> s.lives
[8, 10]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kumite.core.events import Event
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.resolve import Carry
from kumite.games.sfrivals.state import PLAY, SFRState


def position(
    first: str,
    second: str,
    *,
    hands: tuple[Sequence[str] | None, Sequence[str] | None] = (None, None),
    lives: tuple[int, int] = (10, 10),
    round: int = 1,
    carry: tuple[tuple[int, int, int], tuple[int, int, int]] = ((0, 0, 0), (0, 0, 0)),
    reveal_first: tuple[bool, bool] = (False, False),
    options: Mapping[str, Any] | None = None,
) -> SFRState:
    """A position in the play phase. ``hands`` list card names without the character
    prefix (``"hadouken"``); ``None`` means all ten cards. ``carry`` is
    ``(initiative bonus this round, lasting initiative, lasting damage)`` per seat."""
    opts = dict(options or {})
    opts["characters"] = [first, second]
    state = GAME.new_state(0, opts)
    for seat in (0, 1):
        char = state.chars[seat]
        assert char is not None
        counts = [0] * len(char.cards)
        names = hands[seat]
        if names is None:
            counts = [c.copies for c in char.cards]
        else:
            for name in names:
                card = char.card(f"{char.id}.{name}")
                counts[card.index] += 1
                if counts[card.index] > card.copies:
                    raise ValueError(f"{char.id} has only {card.copies} {name}")
        state.hands[seat] = tuple(counts)
    state.phase = PLAY
    state.round = round
    state.lives = list(lives)
    state.carry = [Carry(*carry[0]), Carry(*carry[1])]
    state.reveal_first = list(reveal_first)
    state.hand_size = max(state.hand_size, round + max(sum(h) for h in state.hands) - 1)
    state._pending = None
    return state


def clash(state: SFRState, first: str, second: str) -> list[Event]:
    """Play one round: seat 0 plays ``first``, seat 1 plays ``second`` (card names without
    the character prefix). A "reveal first" order is respected. Returns all events."""
    names = (first, second)
    events: list[Event] = []
    while True:
        pending = state.pending()
        if not pending:
            break
        choices = {}
        for d in pending:
            char = state.chars[d.seat]
            assert char is not None
            choices[d.seat] = f"play:{char.id}.{names[d.seat]}"
        events += state.apply(choices)
        if len(pending) == 2 or all(e is None for e in state.early):
            break
    return events


def kinds(events: Sequence[Event]) -> list[str]:
    """Event class names, in order."""
    return [e.kind for e in events]
