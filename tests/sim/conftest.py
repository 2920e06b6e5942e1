"""The lab's tests keep what they cache (the batched engine's rule tables) in a folder of
their own, not the user's cache."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    if "KUMITE_CACHE_DIR" not in os.environ:
        monkeypatch.setenv("KUMITE_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))
