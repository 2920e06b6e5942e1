"""Shared fixtures: a short SF Rivals variant (two rounds, life 4) that solves in a second."""

from __future__ import annotations

from pathlib import Path

import pytest

SHORT_PACK = '[pack]\nid = "short"\ngame = "sfrivals"\n[rules]\nhand = 2\nlife = 4\n'


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KUMITE_CACHE_DIR", str(tmp_path))
    return tmp_path
