"""The games and modes every research interface is tested on: each game with an observation
encoding, in each of its modes (Rivales 1vs1 and 2vs2, SF DBG at 2 to 5 seats and its
variants)."""

from __future__ import annotations

from typing import Any

import pytest

MODES: list[tuple[str, dict[str, Any]]] = [
    ("sfrivals", {}),
    ("rivales", {}),
    ("rivales", {"mode": "2v2"}),
    ("sfdbg", {}),
    ("sfdbg", {"players": 3}),
    ("sfdbg", {"players": 4, "variant": "high-powered"}),
    ("sfdbg", {"players": 5, "variant": "secret-heroes"}),
]
SIMULTANEOUS = [m for m in MODES if m[0] != "sfdbg"]


def mode_id(mode: tuple[str, dict[str, Any]]) -> str:
    game, options = mode
    return "-".join([game, *(f"{k}={v}" for k, v in options.items())])


@pytest.fixture(params=MODES, ids=mode_id)
def mode(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    return request.param


@pytest.fixture(params=SIMULTANEOUS, ids=mode_id)
def simultaneous(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    return request.param
