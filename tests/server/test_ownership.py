"""Table ownership on PostgreSQL (advisory locks) and the forwarder's trust in its peers
(docs/deploy.md)."""

from __future__ import annotations

import uuid

import pytest

from kumite.server.forward import VIA, Forwarder, Peers, table_of
from kumite.server.ownership import Leases, Solo
from kumite.server.storage import Store

postgres_only = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


def fresh_id() -> str:
    """A table id no other test uses: advisory locks are shared by the whole database, and
    the suite's workers run PostgreSQL tests side by side."""
    return f"own-{uuid.uuid4().hex[:12]}"


@postgres_only
def test_one_owner_per_table_found_from_postgresql_and_freed_with_its_session(database_url):
    store = Store(database_url)
    first = Leases(store.engine, "http://127.0.0.1:8001")
    second = Leases(store.engine, "http://127.0.0.1:8002")
    t1, t2 = fresh_id(), fresh_id()
    try:
        assert first.claim(t1) is None  # nobody had it: first serves it
        assert first.claim(t1) is None  # and keeps it
        assert second.claim(t1) == "http://127.0.0.1:8001"  # the owner's address
        assert second.claim(t2) is None
        assert first.claim(t2) == "http://127.0.0.1:8002"
        first.release(t1)
        assert not first.holds(t1)
        assert second.claim(t1) is None  # let go of: the next one asked takes it
        # The owner's connection dies (its process killed, say): its tables are free.
        second.close()
        assert not second.holds(t2)
        assert first.claim(t2) is None
    finally:
        first.close()
        second.close()
        store.close()


@postgres_only
def test_a_lost_lock_connection_is_noticed(database_url):
    store = Store(database_url)
    leases = Leases(store.engine, "http://127.0.0.1:8001")
    t1 = fresh_id()
    try:
        assert leases.claim(t1) is None
        assert leases._conn is not None
        leases._conn.invalidate()  # as if PostgreSQL had dropped the session
        leases.check()
        assert not leases.holds(t1)
        assert leases.claim(t1) is None  # a fresh connection, the lock taken again
    finally:
        leases.close()
        store.close()


def test_sqlite_is_one_process_owning_everything():
    solo = Solo()
    assert not solo.shared and solo.claim("any") is None and solo.holds("any")


def test_only_a_table_s_paths_are_forwarded():
    assert table_of("/ws/abc123") == "abc123"
    assert table_of("/api/tables/abc123") == "abc123"
    assert table_of("/api/tables/abc123/record") == "abc123"
    assert table_of("/api/tables") is None
    assert table_of("/api/tables/") is None
    assert table_of("/table/abc123") is None  # a static page, served by any process
    assert table_of("/ws/" + "x" * 40) is None  # no such table id


def _forwarder(secret: str) -> Forwarder:
    async def locate(table: str) -> str | None:
        return None

    async def app(scope: object, receive: object, send: object) -> None:
        return None

    return Forwarder(app, Peers(locate, secret, 65536, frozenset()))


def test_a_peer_s_client_address_is_believed_only_when_signed_with_the_cluster_secret():
    ours, theirs = _forwarder("cluster secret"), _forwarder("another secret")
    signed = {"client": ("10.0.0.9", 5000), "headers": [(VIA.encode(), b"")]}
    signed["headers"] = [(VIA.encode(), f"203.0.113.7 {ours.sign('203.0.113.7')}".encode())]
    assert ours._forwarded_by_peer(signed)
    assert signed["client"] == ("203.0.113.7", 0)
    assert signed["headers"] == []  # not passed on to the app
    forged = {
        "client": ("198.51.100.1", 5000),
        "headers": [(VIA.encode(), f"203.0.113.7 {theirs.sign('203.0.113.7')}".encode())],
    }
    assert not ours._forwarded_by_peer(forged)
    assert forged["client"] == ("198.51.100.1", 5000)  # a client's own header: ignored


def test_no_owner_found_for_want_of_the_database_is_a_one_line_503(tmp_path):
    import asyncio

    async def locate(table: str) -> str | None:
        raise OSError("connection refused\nwith more lines")

    async def app(scope: object, receive: object, send: object) -> None:
        raise AssertionError("not served here")

    forwarder = Forwarder(app, Peers(locate, "s", 65536, frozenset()))
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {"type": "http", "path": "/api/tables/abc123", "headers": [], "method": "GET"}
    asyncio.run(forwarder(scope, receive, send))
    assert sent[0]["status"] == 503
    assert sent[1]["body"] == b'{"detail": "the table could not be loaded; try again"}'
