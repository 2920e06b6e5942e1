"""Server tests run against SQLite, and against PostgreSQL too when
``KUMITE_TEST_POSTGRES_URL`` names a database (CI starts one)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine

from kumite.server.storage import Base
from tests.server.live import ThreadServer

POSTGRES = os.environ.get("KUMITE_TEST_POSTGRES_URL")


@pytest.fixture(
    params=["sqlite", pytest.param("postgresql", marks=pytest.mark.xdist_group("postgres"))]
)
def database_url(request: pytest.FixtureRequest, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/kumite.sqlite3"
    if not POSTGRES:
        pytest.skip("set KUMITE_TEST_POSTGRES_URL to also run against PostgreSQL")
    engine = create_engine(POSTGRES)
    Base.metadata.drop_all(engine)  # a clean database for each test
    engine.dispose()
    return POSTGRES


@pytest.fixture
def server(database_url: str) -> Iterator[ThreadServer]:
    with ThreadServer(database_url) as live:
        yield live
