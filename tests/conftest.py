"""The suite's test plugins: ``tests/plugins`` holds distributions laid out as pip installs
them (a package beside its ``*.dist-info`` with ``entry_points.txt``), such as the toy game
``kumite_toy``. The folder is put on ``sys.path`` (and ``PYTHONPATH``, for the commands
tests run), so kumite finds them through their entry points as it would any installed game.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

PLUGINS = str(Path(__file__).parent / "plugins")

if PLUGINS not in sys.path:
    sys.path.insert(0, PLUGINS)
os.environ["PYTHONPATH"] = os.pathsep.join(
    [PLUGINS, *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)]
)
