"""Server tests run against SQLite, and against PostgreSQL too when
``KUMITE_TEST_POSTGRES_URL`` names a database (CI starts one).

Each PostgreSQL test gets a database of its own, created from that URL and dropped after,
so tests can run in parallel and a server left over from one test never touches another's.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.server.live import ThreadServer

POSTGRES = os.environ.get("KUMITE_TEST_POSTGRES_URL")


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/kumite.sqlite3"
        return
    if not POSTGRES:
        pytest.skip("set KUMITE_TEST_POSTGRES_URL to also run against PostgreSQL")
    name = f"kumite_t_{uuid.uuid4().hex[:16]}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def server(database_url: str) -> Iterator[ThreadServer]:
    with ThreadServer(database_url) as live:
        yield live
