"""The Street Fighter Deck-Building Game (Cryptozoic, 2014): rules, cards and the engine."""

from kumite.games.sfdbg.cards import Card, Catalog, Hero, load_catalog
from kumite.games.sfdbg.game import GAME, SFDBG
from kumite.games.sfdbg.options import Options
from kumite.games.sfdbg.spec import SPEC
from kumite.games.sfdbg.state import SFDBGState

__all__ = [
    "GAME",
    "SFDBG",
    "SPEC",
    "Card",
    "Catalog",
    "Hero",
    "Options",
    "SFDBGState",
    "load_catalog",
]
