"""Shared helpers for Rivales tests."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kumite.core.events import Event
from kumite.games.rivales.cards import Card, load_catalog
from kumite.games.rivales.game import GAME
from kumite.games.rivales.lines import SIDES
from kumite.games.rivales.lookahead import clash, find, position
from kumite.games.rivales.state import RivalesState

CATALOG = load_catalog()
SCRIPTS = Path(__file__).resolve().parents[3] / "scripts"

__all__ = ["CATALOG", "GAME", "clash", "find", "of_kind", "position"]


def script(name: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``scripts/<name>`` run with ``args`` in a fresh interpreter, its output captured."""
    return subprocess.run(
        [sys.executable, str(SCRIPTS / name), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def card(card_id: str) -> Card:
    return CATALOG.cards[card_id]


def sides(state: RivalesState, team: int, zone: int = 0) -> list[str]:
    """The line of ``team`` in ``zone`` as ``name/side`` strings."""
    return [f"{s.card.id.split('.')[1]}/{SIDES[s.side]}" for s in state.lines[zone][team]]


def texts(events: Sequence[Event], seat: int | None = None) -> list[str]:
    return [e.describe() for e in events if seat is None or e.visible_to(seat)]


def random_play(state: RivalesState, rng: random.Random, until: Any = None) -> None:
    """Random legal choices until the fight ends (or ``until(state)`` holds)."""
    while not state.is_terminal and not (until and until(state)):
        state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})


def kinds(events: Sequence[Event]) -> list[str]:
    """Event class names, in order."""
    return [e.kind for e in events]


def of_kind(events: Sequence[Event], kind: str) -> list[Any]:
    return [e for e in events if e.kind == kind]


def curie_cut_then_flipped_up(
    options: dict[str, Any] | None = None,
) -> tuple[RivalesState, list[Event]]:
    """Curie closes her maximum combo with Polonio (cut); one clash later her passive flips
    the most recent energy card of an earlier clash face up: Polonio. Salto Analítico, two
    clashes after the cut, links to Isótopos Cargados, and to Polonio only if the cut is
    undone (issue 28)."""
    state = position(
        ["curie", "darwin"],
        lines=[["v:bloqueo", "v:esquiva", "golpe", "patada"], []],
        hands=[["polonio", "isotopos", "salto"], ["bloqueo", "caparazon", "golpe"]],
        options=options,
    )
    events = clash(state, {0: "polonio", 1: "bloqueo"})
    assert of_kind(events, "ComboFormed")[0].maximum
    clash(state, {0: "isotopos", 1: "caparazon"})
    assert sides(state, 0)[-3:] == ["patada/up", "polonio/up", "isotopos/up"]  # the passive
    return state, clash(state, {0: "salto", 1: "golpe"})
