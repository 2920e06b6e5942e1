"""Shared fixtures: a short SF Rivals variant (two rounds, life 4) that solves in a second."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

SHORT_PACK = '[pack]\nid = "short"\ngame = "sfrivals"\n[rules]\nhand = 2\nlife = 4\n'
TINY_PACK = '[pack]\nid = "tiny"\ngame = "sfrivals"\n[rules]\nhand = 1\nlife = 3\n'


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KUMITE_CACHE_DIR", str(tmp_path))
    return tmp_path


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One cache for the session, so tests of the same short matchup solve it once."""
    path = tmp_path_factory.mktemp("solutions")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KUMITE_CACHE_DIR", str(path))
        yield path
