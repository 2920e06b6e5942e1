"""Street Fighter Rivals (Cubist/Capcom): rules, cards and the state machine."""

from kumite.games.sfrivals.cards import Card, Catalog, Character, load_catalog
from kumite.games.sfrivals.game import GAME, SFRivals
from kumite.games.sfrivals.options import Options
from kumite.games.sfrivals.resolve import Carry, RoundResult, resolve_round
from kumite.games.sfrivals.spec import SPEC
from kumite.games.sfrivals.state import SFRState

__all__ = [
    "GAME",
    "SPEC",
    "Card",
    "Carry",
    "Catalog",
    "Character",
    "Options",
    "RoundResult",
    "SFRState",
    "SFRivals",
    "load_catalog",
    "resolve_round",
]
