"""The game contract, events, seeded randomness and game records. Knows no game."""

from kumite.core.errors import (
    ChoiceError,
    GameOverError,
    IllegalChoiceError,
    KumiteError,
    MalformedChoiceError,
    MissingChoiceError,
    NotPendingError,
    OptionsError,
    PackError,
    RecordError,
    UnknownGameError,
)
from kumite.core.events import Event, visible_events
from kumite.core.game import Decision, Game, GameInfo, Outcome, State
from kumite.core.record import GameRecord, replay
from kumite.core.rng import Rng, derive_seed

__all__ = [
    "ChoiceError",
    "Decision",
    "Event",
    "Game",
    "GameInfo",
    "GameOverError",
    "GameRecord",
    "IllegalChoiceError",
    "KumiteError",
    "MalformedChoiceError",
    "MissingChoiceError",
    "NotPendingError",
    "OptionsError",
    "Outcome",
    "PackError",
    "RecordError",
    "Rng",
    "State",
    "UnknownGameError",
    "derive_seed",
    "replay",
    "visible_events",
]
