"""Where a card value comes from.

Labels (see ``../shared/card-data/README.md``):

* ``rulebook`` — stated in the game's rulebook;
* ``source`` — stated by a public source the pack lists (``source:KEY``);
* ``estimate`` — a number this project chose because no source has it;
* ``reconstructed`` — a text or ability this project wrote because no source has it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

LABELS = ("rulebook", "source", "estimate", "reconstructed")

#: The mark shown next to a value whose provenance needs the player's attention.
MARKS = {"rulebook": "", "source": "", "estimate": "*", "reconstructed": "†"}

LEGEND = {
    "estimate": "* estimate — no public source gives this value; chosen by the pack's model",
    "reconstructed": "† reconstructed — written by kumite in the game's style; no source has it",
}


@dataclasses.dataclass(frozen=True, slots=True)
class Provenance:
    """The origin of one value: a label, an optional source key and an optional note."""

    label: str
    ref: str | None = None
    note: str | None = None

    @classmethod
    def parse(cls, spec: str, note: str | None = None) -> Provenance:
        """Parse ``"rulebook"``, ``"estimate"``, ``"source:KEY"``...; raise ``ValueError``."""
        label, _, ref = spec.partition(":")
        if label not in LABELS:
            raise ValueError(f"unknown provenance {label!r} (use one of {', '.join(LABELS)})")
        if label == "source" and not ref:
            raise ValueError("a 'source' provenance must name its key, as 'source:KEY'")
        return cls(label, ref or None, note)

    @property
    def mark(self) -> str:
        return MARKS[self.label]

    def __str__(self) -> str:
        return self.label if self.ref is None else f"{self.label}:{self.ref}"

    def to_json(self) -> dict[str, str]:
        out = {"from": str(self)}
        if self.note:
            out["note"] = self.note
        return out


def mark(obj: Any, field: str) -> str:
    """The mark of ``obj.field``'s provenance (``obj.provenance``: field -> Provenance)."""
    prov = obj.provenance.get(field)
    return prov.mark if prov is not None else ""
