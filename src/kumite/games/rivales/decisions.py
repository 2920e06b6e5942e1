"""Phases of a Rivales fight and the shared (immutable) decision objects."""

from __future__ import annotations

from typing import Final

from kumite.core.decision import new_decision
from kumite.core.game import Decision
from kumite.core.memo import Memo

# Phases where players decide (``resolve`` also runs on its own until someone must; ``order``,
# 2vs2 only: which zone goes first). Each is Final: the compiled engine reads them as
# constants, not from the module's dict.
FIGHTER: Final = "fighter"
MARKER: Final = "marker"
ZONES: Final = "zones"
PLAY: Final = "play"
PERSONA: Final = "persona"
ORDER: Final = "order"
BOOST: Final = "boost"
RESOLVE: Final = "resolve"
OVER: Final = "over"
# Phases that run on their own: a round's set-up, a clash's start, its end.
SETUP: Final = "setup"
START: Final = "start-clash"
END: Final = "end-clash"
PHASES: Final = (
    FIGHTER,
    MARKER,
    ZONES,
    PLAY,
    PERSONA,
    ORDER,
    BOOST,
    RESOLVE,
    OVER,
    SETUP,
    START,
    END,
)
"""Every phase (the observation tensor numbers them in this order)."""

_DECISIONS: Final[Memo[tuple[int, str, tuple[str, ...], str], Decision]] = Memo(50_000)


def decision(seat: int, kind: str, legal: tuple[str, ...], prompt: str) -> Decision:
    """Decisions are immutable: the engine reuses them."""
    key = (seat, kind, legal, prompt)
    found = _DECISIONS.get(key)
    if found is None:
        found = _DECISIONS.put(key, new_decision(seat, kind, legal, prompt))
    return found


PLAY_PROMPT: Final = "Play a card face down"
