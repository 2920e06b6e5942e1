"""Browser tests: Playwright for Python driving Debian's chromium (never a downloaded
browser). Screenshots are kept in ``artifacts/screenshots/``."""

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


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
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
