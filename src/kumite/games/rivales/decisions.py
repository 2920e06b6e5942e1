"""Phases of a Rivales fight and the shared (immutable) decision objects."""

from __future__ import annotations

from kumite.core.decision import new_decision
from kumite.core.game import Decision
from kumite.core.memo import Memo

FIGHTER, MARKER, ZONES, PLAY, PERSONA, ORDER, BOOST, RESOLVE, OVER = (
    "fighter",
    "marker",
    "zones",
    "play",
    "persona",
    "order",
    "boost",
    "resolve",
    "over",
)
"""Phases where players decide (``resolve`` also runs on its own until someone must;
``order``, 2vs2 only: which zone goes first)."""
SETUP, START, END = "setup", "start-clash", "end-clash"
"""Phases that run on their own: a round's set-up, a clash's start, its end."""
PHASES = (FIGHTER, MARKER, ZONES, PLAY, PERSONA, ORDER, BOOST, RESOLVE, OVER, SETUP, START, END)
"""Every phase (the observation tensor numbers them in this order)."""

_DECISIONS: Memo[tuple[int, str, tuple[str, ...], str], Decision] = Memo(50_000)


def decision(seat: int, kind: str, legal: tuple[str, ...], prompt: str) -> Decision:
    """Decisions are immutable: the engine reuses them."""
    key = (seat, kind, legal, prompt)
    found = _DECISIONS.get(key)
    if found is None:
        found = _DECISIONS.put(key, new_decision(seat, kind, legal, prompt))
    return found


PLAY_PROMPT = "Play a card face down"
