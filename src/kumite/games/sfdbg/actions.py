"""Dense integer action ids: every choice string SF DBG can ask for, numbered once per catalog."""

from __future__ import annotations

import dataclasses

from kumite.games.sfdbg.attack import NAMEABLE_COSTS
from kumite.games.sfdbg.cards import CARD_TYPES, Catalog

MAX_PLAYERS = 5
ZONES = ("hand", "discard", "play", "lineup")


@dataclasses.dataclass(frozen=True)
class Vocabulary:
    choices: tuple[str, ...]
    ids: dict[str, int]


def vocabulary(catalog: Catalog) -> Vocabulary:
    """All choices, in a fixed order (their index is the action id)."""
    ids = [c.id for c in catalog.cards]
    out: list[str] = [
        "end",
        "challenge",
        "buy:kick",
        "buy:ultra",
        "no-defense",
        "yes",
        "no",
        "play-power",
    ]
    out += [f"play:{i}" for i in ids]
    out += [f"buy:lineup:{i}" for i in ids]
    out += [f"buy:under:{i}" for i in ids]
    out += [f"take:{i}" for i in ids]
    out += [f"discard:{i}" for i in ids] + ["discard:none"]
    out += [f"destroy:{z}:{i}" for z in ZONES for i in ids] + ["destroy:none"]
    out += [f"bottom:{z}:{i}" for z in ("play", "discard") for i in ids]
    out += [f"under:{z}:{i}" for z in ("lineup", "main_top", "discard") for i in ids]
    out += ["under:none"]
    out += [f"gain:{i}" for i in ids] + [f"gain:under:{i}" for i in ids] + ["gain:none"]
    out += [f"give:{z}:{i}" for z in ("hand", "discard") for i in ids] + ["give:none"]
    out += [f"reveal:{i}" for i in ids]
    out += [f"defend:{i}" for i in ids]
    out += [f"foe:{s}" for s in range(MAX_PLAYERS)]
    out += [f"name:type:{t}" for t in CARD_TYPES]
    out += [f"name:cost:{c}" for c in NAMEABLE_COSTS]
    choices = tuple(out)
    return Vocabulary(choices, {c: k for k, c in enumerate(choices)})
