"""A pytest plugin that hides every optional package (``pytest -p tests.without_optional``),
as on a machine with none of them installed: the suite must then skip what needs them and
never fail to collect (tests/test_suite.py)."""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Sequence
from typing import Any

from tests.optional import OPTIONAL


class _Hidden(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: Sequence[str] | None, target: Any = None) -> None:
        if name.split(".")[0] in OPTIONAL:
            raise ModuleNotFoundError(f"No module named {name!r} (hidden)", name=name)


sys.meta_path.insert(0, _Hidden())
for _name in [m for m in sys.modules if m.split(".")[0] in OPTIONAL]:
    del sys.modules[_name]
