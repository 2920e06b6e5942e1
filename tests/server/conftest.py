"""Server tests run against SQLite, and against PostgreSQL too when
``KUMITE_TEST_POSTGRES_URL`` names a database (CI starts one; under CI, ``CI`` set, a
missing PostgreSQL fails these tests instead of skipping them).

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

from kumite.server.settings import ServerSettings
from tests.optional import missing_optional, skip_reason
from tests.server.live import ThreadServer

POSTGRES = os.environ.get("KUMITE_TEST_POSTGRES_URL")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/kumite.sqlite3"
        return
    if not POSTGRES:
        if IN_CI:
            pytest.fail("CI must test PostgreSQL too: .ci/run sets KUMITE_TEST_POSTGRES_URL")
        pytest.skip("set KUMITE_TEST_POSTGRES_URL to also run against PostgreSQL")
    if missing_optional("psycopg"):
        pytest.skip(skip_reason("psycopg"))
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


@pytest.fixture
def secure_server(database_url: str) -> Iterator[ThreadServer]:
    """A server with the settings ``kumite serve`` starts with (no client seeds)."""
    with ThreadServer(database_url, settings=ServerSettings()) as live:
        yield live
