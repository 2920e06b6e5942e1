"""What the whole suite shares: the test plugins, the markers, and optional packages.

``tests/plugins`` holds distributions laid out as pip installs them (a package beside its
``*.dist-info`` with ``entry_points.txt``), such as the toy game ``kumite_toy``. The folder is
put on ``sys.path`` (and ``PYTHONPATH``, for the commands tests run), so kumite finds them
through their entry points as it would any installed game.

Markers (``make test-quick`` deselects both): ``slow`` for a test of more than about 20 s,
``browser`` for one that drives chromium (given to every test that uses the ``browser``
fixture, here).

Optional packages (:data:`tests.optional.OPTIONAL`) are skipped the same way everywhere: a
test module that imports one the environment lacks is skipped as a whole, with the extra
that installs it — never a collection error; a test that needs one only when it runs says so
with ``@pytest.mark.needs("package")``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.optional import OPTIONAL, missing_optional, skip_reason

pytest_plugins = ["tests.browser"]

PLUGINS = str(Path(__file__).parent / "plugins")

if PLUGINS not in sys.path:
    sys.path.insert(0, PLUGINS)
os.environ["PYTHONPATH"] = os.pathsep.join(
    [PLUGINS, *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)]
)


class OptionalModule(pytest.Module):
    """A test module, skipped as a whole if it imports an optional package that is missing."""

    def _getobj(self) -> Any:
        try:
            return super()._getobj()
        except pytest.Collector.CollectError as error:
            cause = error.__cause__
            if isinstance(cause, ModuleNotFoundError):
                top = (cause.name or "").split(".")[0]
                if top in OPTIONAL:
                    pytest.skip(skip_reason(top), allow_module_level=True)
            raise


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.Module:
    return OptionalModule.from_parent(parent, path=module_path)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if isinstance(item, pytest.Function) and "browser" in item.fixturenames:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.needs("playwright"))


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("needs"):
        name = missing_optional(*mark.args)
        if name is not None:
            pytest.skip(skip_reason(name))
