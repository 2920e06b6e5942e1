"""The games and modes every research interface is tested on, drawn from the registry: each
game with an observation encoding, at each number of seats it takes (Rivales 1vs1 and 2vs2,
SF DBG 2 to 5, the toy plugin's 1v1 and 2v2), in the options its
``tests/games/<id>/conformance.py`` adds for that many seats (SF DBG's variants)."""

from __future__ import annotations

from typing import Any

import pytest

from kumite.core.registry import game_ids, get_spec
from tests.conformance import hooks, seat_counts


def modes() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for game in game_ids():
        spec = get_spec(game)
        if spec.observation is None:
            continue
        extra = {}
        for options in hooks(game).env_options:
            extra[spec.load().new_state(0, options).num_players] = dict(options)
        for n in seat_counts(game):
            out.append((game, extra.get(n) or spec.with_seats({}, n)))
    return out


MODES = modes()
SIMULTANEOUS = [m for m in MODES if get_spec(m[0]).load().info.simultaneous]


def mode_id(mode: tuple[str, dict[str, Any]]) -> str:
    game, options = mode
    return "-".join([game, *(f"{k}={v}" for k, v in options.items())])


@pytest.fixture(params=MODES, ids=mode_id)
def mode(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    return request.param


@pytest.fixture(params=SIMULTANEOUS, ids=mode_id)
def simultaneous(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    return request.param
