"""Dense integer action ids: every choice SF DBG can ask for, numbered once per catalog."""

from __future__ import annotations

import dataclasses

from kumite.games.sfdbg.attack import NAMEABLE_COSTS
from kumite.games.sfdbg.cards import CARD_TYPES, Catalog
from kumite.games.sfdbg.choice import (
    ZONES,
    Bottom,
    Buy,
    Challenge,
    DBGChoice,
    Defend,
    Destroy,
    Discard,
    End,
    Foe,
    Gain,
    Give,
    Name,
    No,
    NoDefense,
    Play,
    PlayPower,
    Reveal,
    Take,
    Under,
    Yes,
)

MAX_PLAYERS = 5


@dataclasses.dataclass(frozen=True)
class Vocabulary:
    choices: tuple[str, ...]
    ids: dict[str, int]


def vocabulary(catalog: Catalog) -> Vocabulary:
    """All choices, in a fixed order (their index is the action id)."""
    ids = [c.id for c in catalog.cards]
    out: list[DBGChoice] = [End(), Challenge(), Buy("kick"), Buy("ultra"), NoDefense()]
    out += [Yes(), No(), PlayPower()]
    out += [Play(i) for i in ids]
    out += [Buy("lineup", i) for i in ids]
    out += [Buy("under", i) for i in ids]
    out += [Take(i) for i in ids]
    out += [Discard(i) for i in ids] + [Discard()]
    out += [Destroy(z, i) for z in ZONES for i in ids] + [Destroy()]
    out += [Bottom(z, i) for z in ("play", "discard") for i in ids]
    out += [Under(z, i) for z in ("lineup", "main_top", "discard") for i in ids]
    out += [Under()]
    out += [Gain(i) for i in ids] + [Gain(i, under=True) for i in ids] + [Gain()]
    out += [Give(z, i) for z in ("hand", "discard") for i in ids] + [Give()]
    out += [Reveal(i) for i in ids]
    out += [Defend(i) for i in ids]
    out += [Foe(s) for s in range(MAX_PLAYERS)]
    out += [Name("type", t) for t in CARD_TYPES]
    out += [Name("cost", str(c)) for c in NAMEABLE_COSTS]
    choices = tuple(c.format() for c in out)
    return Vocabulary(choices, {c: k for k, c in enumerate(choices)})
