"""The declaration of sfrivals: its GameSpec, and the small hooks the spec names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kumite.core.game import Game
from kumite.core.spec import Bot, GameSpec, Observation, Ref, Role

SPEC = GameSpec(
    id="sfrivals",
    name="Street Fighter Rivals",
    order=1,
    game=Ref("kumite.games.sfrivals.game:GAME"),
    options=Ref("kumite.games.sfrivals.options:Options"),
    role=Role(
        option="characters",
        label="Character",
        names=Ref("kumite.games.sfrivals.spec:character_names"),
    ),
    labels=Ref("kumite.games.sfrivals.labels:labeler"),
    bots=(
        Bot(
            "greedy",
            "rule-based: the best immediate result, knowing only its own view",
            Ref("kumite.games.sfrivals.bots.greedy:make"),
        ),
        Bot(
            "bounded",
            "the solver's bound strategy, certified to give up at most its matchup's "
            "exploitability (kumite solve prints it)",
            Ref("kumite.games.sfrivals.solver.equilibrium:make_bounded"),
            rated=False,
            level="Solver",
            extra="solver",
            info=Ref("kumite.games.sfrivals.solver.offer:bounded_info"),
        ),
        Bot(
            "belief",
            "tracks the odds of the opponent's hidden cover from its plays and answers with "
            "exact fight values",
            Ref("kumite.games.sfrivals.solver.belief:make"),
            rated=False,
            level="Solver",
            extra="solver",
            info=Ref("kumite.games.sfrivals.solver.offer:belief_info"),
        ),
        Bot(
            "belief-safe",
            "belief, but it follows its model of the opponent only as far as its guarantee "
            "against any answer stays within 0.1 of the safe one",
            Ref("kumite.games.sfrivals.solver.belief:make_safe"),
            rated=False,
            level="Solver",
            extra="solver",
            info=Ref("kumite.games.sfrivals.solver.offer:belief_safe_info"),
        ),
        Bot(
            "equilibrium",
            "a strategy certified within 0.05 of an equilibrium — only where one is (e.g. the "
            "mini pack, solved exactly); else play bounded",
            Ref("kumite.games.sfrivals.solver.equilibrium:make"),
            rated=False,
            level="Solver",
            extra="solver",
            info=Ref("kumite.games.sfrivals.solver.offer:equilibrium_info"),
        ),
    ),
    tui=Ref("kumite.games.sfrivals.tui:FRONT_END"),
    solver=Ref("kumite.games.sfrivals.solver.command:app"),
    lab=Ref("kumite.games.sfrivals.lab:ADAPTER"),
    web="kumite.games.sfrivals.web",
    guide="kumite.games.sfrivals.guide",
    table=Ref("kumite.games.sfrivals.web:ADAPTER"),
    observation=Observation(
        encoding=Ref("kumite.games.sfrivals.observation:encoding"),
        env_name="SFRivals",
        batch=Ref("kumite.games.sfrivals.batch:make"),
        vector=Ref("kumite.games.sfrivals.vector:make"),
        exploit=Ref("kumite.games.sfrivals.responder:hook"),
    ),
)


def character_names(game: Game[Any], options: Mapping[str, Any]) -> dict[str, str]:
    from kumite.games.sfrivals.game import GAME

    catalog = GAME.catalog(options)
    return {c.id: c.name for c in catalog.characters.values()}
