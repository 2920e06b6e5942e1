"""Browser tests' fixtures: Playwright for Python driving Debian's chromium (never a
downloaded browser), a live server, screenshots (kept in ``artifacts/screenshots/``).

Registered once for the whole suite (``tests/conftest.py``'s ``pytest_plugins``): the
browser tests of ``tests/web/`` and of ``tests/games/<id>/`` use the same fixtures."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.live import ThreadServer

CHROMIUM = os.environ.get("KUMITE_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(os.environ.get("KUMITE_ARTIFACTS", "artifacts")) / "screenshots"


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Chromium for one test module. Not for the session: an open Playwright keeps an event
    loop running in its thread, so a later test of the same worker could not start one
    (``asyncio.run``), and a second Playwright could not start at all."""
    if not shutil.which(CHROMIUM):
        pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium; .ci/run does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def web(tmp_path) -> Iterator[ThreadServer]:
    with ThreadServer(f"sqlite:///{tmp_path}/web.sqlite3", bot_delay=0.02) as live:
        yield live


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Path:
    folder = SHOTS / request.node.name.replace("[", "-").replace("]", "")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
