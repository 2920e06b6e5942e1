"""The declaration of rivales: its GameSpec, and the small hooks the spec names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kumite.core.errors import OptionsError
from kumite.core.game import Game
from kumite.core.spec import Bot, GameSpec, Observation, Ref, Role

SPEC = GameSpec(
    id="rivales",
    name="Rivales: Capítulo 1 – Justicia",
    order=2,
    game=Ref("kumite.games.rivales.game:GAME"),
    options=Ref("kumite.games.rivales.options:Options"),
    role=Role(
        option="fighters",
        label="Fighter",
        names=Ref("kumite.games.rivales.spec:fighter_names"),
    ),
    flags={"mode": "mode"},
    seats=Ref("kumite.games.rivales.spec:with_seats"),
    labels=Ref("kumite.games.rivales.labels:labeler"),
    bots=(
        Bot(
            "greedy",
            "rule-based: the best immediate result, knowing only its own view",
            Ref("kumite.games.rivales.bots.greedy:make"),
        ),
    ),
    search=Ref("kumite.games.rivales.bots.search:make"),
    tui=Ref("kumite.games.rivales.tui:FRONT_END"),
    lab=Ref("kumite.games.rivales.lab:ADAPTER"),
    web="kumite.games.rivales.web",
    guide="kumite.games.rivales.guide",
    table=Ref("kumite.games.rivales.web:ADAPTER"),
    observation=Observation(
        encoding=Ref("kumite.games.rivales.observation:encoding"), env_name="Rivales"
    ),
)


def fighter_names(game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
    from kumite.games.rivales.game import GAME

    catalog = GAME.catalog(options)
    return {f.id: f.name for f in catalog.fighters.values()}


def with_seats(options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """The mode follows the seats (2: 1vs1, 4: 2vs2) unless the options name it."""
    mode = options.get("mode")
    if mode is None:
        if seats not in (2, 4):
            raise OptionsError(f"Rivales is played by 2 (1vs1) or 4 (2vs2) seats, got {seats}")
        mode = "2v2" if seats == 4 else "1v1"
    if mode not in ("1v1", "2v2"):
        raise OptionsError(f"--mode must be 1v1 or 2v2, got {mode!r}")
    need = 4 if mode == "2v2" else 2
    if seats != need:
        raise OptionsError(f"Rivales {mode} needs {need} seats (players), got {seats}")
    return {**options, "mode": mode}
