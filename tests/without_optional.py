"""A pytest plugin that hides every optional package (``pytest -p tests.without_optional``),
as on a machine with none of them installed: the suite must then skip what needs them and
never fail to collect (tests/test_suite.py)."""

from __future__ import annotations

import sys

from tests.hidden import Hidden
from tests.optional import OPTIONAL

sys.meta_path.insert(0, Hidden(OPTIONAL))
for _name in [m for m in sys.modules if m.split(".")[0] in OPTIONAL]:
    del sys.modules[_name]
