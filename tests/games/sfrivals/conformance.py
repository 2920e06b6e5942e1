"""What Street Fighter Rivals adds to the suites over every game (tests/conformance.py): a
short game for the crash sweeps (Ryu against Ken)."""

from __future__ import annotations

from tests.conformance import GameHooks, Table

HOOKS = GameHooks(short=Table(2, {"characters": ["ryu", "ken"]}, seed=4))
