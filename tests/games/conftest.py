"""A game's own tests at the web table (``tests/games/<id>/test_table.py``) use the server
tests' fixtures: a live server on SQLite, and on PostgreSQL too where one is configured. (Its
browser tests use the suite's browser fixtures, ``tests/browser.py``.)"""

from __future__ import annotations

from tests.server.conftest import database_url, secure_server, server

__all__ = ["database_url", "secure_server", "server"]
