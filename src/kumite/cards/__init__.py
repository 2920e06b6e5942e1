"""Card-pack schema, loader and provenance (game-agnostic)."""

from kumite.cards.pack import (
    PackData,
    check_sources,
    convert,
    merge,
    parse_toml,
    read_pack,
    split_values,
)
from kumite.cards.provenance import LABELS, LEGEND, MARKS, Provenance

__all__ = [
    "LABELS",
    "LEGEND",
    "MARKS",
    "PackData",
    "Provenance",
    "check_sources",
    "convert",
    "merge",
    "parse_toml",
    "read_pack",
    "split_values",
]
