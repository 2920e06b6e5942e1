"""The declaration of sfdbg: its GameSpec, and the small hooks the spec names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kumite.core.game import Game
from kumite.core.spec import Bot, GameSpec, Observation, Ref, Role

SPEC = GameSpec(
    id="sfdbg",
    name="Street Fighter Deck-Building Game",
    order=3,
    game=Ref("kumite.games.sfdbg.game:GAME"),
    options=Ref("kumite.games.sfdbg.options:Options"),
    role=Role(
        option="heroes",
        label="Super Hero",
        names=Ref("kumite.games.sfdbg.spec:hero_names"),
        distinct=True,
        unset="dealt at random",
    ),
    flags={"variant": "variant"},
    seats=Ref("kumite.games.sfdbg.spec:with_seats"),
    labels=Ref("kumite.games.sfdbg.labels:labeler"),
    bots=(
        Bot(
            "greedy",
            "rule-based: the best immediate result, knowing only its own view",
            Ref("kumite.games.sfdbg.bots.greedy:make"),
        ),
        Bot(
            "priority",
            "buys by a priority list written as data (balanced strategy)",
            Ref("kumite.games.sfdbg.bots.priority:make"),
        ),
        Bot(
            "priority-power",
            "priority list, Big-Money style (Power first)",
            Ref("kumite.games.sfdbg.bots.priority:make_power"),
            rated=False,
        ),
        Bot(
            "priority-attack",
            "priority list that buys every Attack",
            Ref("kumite.games.sfdbg.bots.priority:make_attack"),
            rated=False,
        ),
    ),
    search=Ref("kumite.games.sfdbg.bots.search:make"),
    tui=Ref("kumite.games.sfdbg.tui:FRONT_END"),
    lab=Ref("kumite.games.sfdbg.lab:ADAPTER"),
    web="kumite.games.sfdbg.web",
    guide="kumite.games.sfdbg.guide",
    table=Ref("kumite.games.sfdbg.web:ADAPTER"),
    observation=Observation(
        encoding=Ref("kumite.games.sfdbg.observation:encoding"), env_name="SFDBG"
    ),
)


def hero_names(game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
    from kumite.games.sfdbg.game import GAME

    return {h.id: h.name for h in GAME.catalog(options).heroes}


def with_seats(options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """The player count is the number of seats."""
    return {**options, "players": seats}
