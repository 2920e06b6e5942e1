"""A game's own tests at the web table (``tests/games/<id>/test_table.py``) and in the browser
(``test_browser.py``) use the server's and the browser tests' fixtures: a live server on
SQLite (and on PostgreSQL too where one is configured), chromium, screenshots."""

from __future__ import annotations

from tests.server.conftest import database_url, secure_server, server
from tests.web.conftest import browser, shots, web

__all__ = ["browser", "database_url", "secure_server", "server", "shots", "web"]
