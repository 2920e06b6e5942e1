"""``kumite report``: the HTML report of one or more simulation result files."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from kumite.sim.report import write_report
from kumite.sim.results import load, merge_documents
from kumite.tui.console import console


def run(files: Sequence[Path], out: Path | None) -> Path:
    """Read the result files (several of one game are merged, e.g. SF DBG at several player
    counts) and write one self-contained HTML page."""
    doc = merge_documents([load(f) for f in files])
    target = out if out is not None else Path(files[0]).with_suffix(".html")
    write_report(doc, target)
    console.print(f"Wrote the report to {target}")
    return target
