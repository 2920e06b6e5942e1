"""Packages hidden from imports, as on a machine without them: in this process
(:class:`Hidden`, used by ``tests/without_optional.py``) or in the commands a test runs
(:func:`hiding_env`: a ``sitecustomize`` on their ``PYTHONPATH``, so that worker processes
they spawn lack them too)."""

from __future__ import annotations

import importlib.abc
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

#: The solver's and the lab's libraries: what ``make serve`` does not install (the ``solver``
#: and ``lab`` extras, kumite.core.extras).
HEAVY = ("numba", "scipy", "matplotlib", "cma")


class Hidden(importlib.abc.MetaPathFinder):
    """A finder first on ``sys.meta_path`` that makes these top-level packages missing."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = frozenset(names)

    def find_spec(self, name: str, path: Sequence[str] | None, target: Any = None) -> None:
        if name.split(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {name!r} (hidden)", name=name)


SITECUSTOMIZE = """\
import importlib.abc, sys
NAMES = frozenset({names!r})
class _Hidden(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in NAMES:
            raise ModuleNotFoundError(f"No module named {{name!r}} (hidden)", name=name)
sys.meta_path.insert(0, _Hidden())
"""


def hiding_env(folder: Path, names: Iterable[str] = HEAVY) -> dict[str, str]:
    """The environment of a command (and its subprocesses) that cannot import ``names``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE.format(names=sorted(names)))
    paths = [str(folder), *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
