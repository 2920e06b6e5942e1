"""The group committer acknowledges a write only once it is committed, and never leaves
one behind (protocol: "every accepted choice is committed before it is acknowledged")."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine

from kumite.server.storage import GroupCommitter, Store

CREATE = "CREATE TABLE t (v INTEGER UNIQUE, w INTEGER NOT NULL DEFAULT 0)"
INSERT = text("INSERT INTO t (v) VALUES (:v)")
UPDATE = text("UPDATE t SET w = :w WHERE v = :v")


def _insert(value: int) -> list[tuple[object, dict[str, int]]]:
    return [(INSERT, {"v": value})]


async def _scenario(committer: GroupCommitter) -> None:
    # A write submitted just as a flush ends (its waiter resumes before the flush
    # task's own clean-up) must start a flush of its own, not wait forever.
    await committer.submit(_insert(1))  # awaited directly: resumes right after the flush
    await asyncio.wait_for(committer.submit(_insert(2)), 5)
    # Writes gathered together; a bad one fails alone.
    results = await asyncio.wait_for(
        asyncio.gather(
            *(committer.submit(_insert(v)) for v in (3, 4, 1, 5)), return_exceptions=True
        ),
        5,
    )
    assert [r is None for r in results] == [True, True, False, True]
    # Gathered writes of one statement run in the order they were submitted, each
    # write's statements in its own order.
    await asyncio.wait_for(
        asyncio.gather(
            committer.submit([(INSERT, {"v": 6}), (UPDATE, {"v": 6, "w": 1})]),
            committer.submit([(UPDATE, {"v": 5, "w": 1})]),
            committer.submit([(UPDATE, {"v": 5, "w": 2})]),
        ),
        5,
    )


def _rows(engine: Engine) -> list[tuple[int, int]]:
    with engine.connect() as conn:
        return sorted((v, w) for v, w in conn.execute(text("SELECT v, w FROM t")))


EXPECTED = [(1, 0), (2, 0), (3, 0), (4, 0), (5, 2), (6, 1)]


@pytest.mark.parametrize("inline", [True, False], ids=["on-the-loop", "in-a-thread"])
def test_every_write_is_committed_and_acknowledged(tmp_path, inline: bool) -> None:
    engine = create_engine(f"sqlite:///{tmp_path}/c.sqlite3")
    with engine.begin() as conn:
        conn.execute(text(CREATE))
    committer = GroupCommitter(engine, inline=inline)
    asyncio.run(_scenario(committer))
    assert _rows(engine) == EXPECTED
    engine.dispose()


def test_every_write_is_committed_and_acknowledged_by_the_store(database_url: str) -> None:
    """The store's own committer: on the loop for SQLite, in a thread for PostgreSQL."""
    store = Store(database_url)
    assert store.writer.inline == (store.dialect == "sqlite")
    with store.engine.begin() as conn:
        conn.execute(text(CREATE))

    async def scenario() -> None:
        await _scenario(store.writer)
        await store.aclose()

    asyncio.run(scenario())
    assert _rows(store.engine) == EXPECTED
    store.engine.dispose()
