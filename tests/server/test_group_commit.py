"""The group committer acknowledges a write only once it is committed, and never leaves
one behind (protocol: "every accepted choice is committed before it is acknowledged")."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection

from kumite.server.storage import GroupCommitter


def _insert(value: int):
    def write(conn: Connection) -> None:
        conn.execute(text("INSERT INTO t (v) VALUES (:v)"), {"v": value})

    return write


@pytest.mark.parametrize("inline", [True, False], ids=["on-the-loop", "in-a-thread"])
def test_every_write_is_committed_and_acknowledged(tmp_path, inline: bool) -> None:
    engine = create_engine(f"sqlite:///{tmp_path}/c.sqlite3")
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (v INTEGER UNIQUE)"))
    committer = GroupCommitter(engine, inline=inline)

    async def scenario() -> None:
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

    asyncio.run(scenario())
    with engine.connect() as conn:
        assert sorted(conn.execute(text("SELECT v FROM t")).scalars()) == [1, 2, 3, 4, 5]
    engine.dispose()
