"""Durability: the server process is killed (SIGKILL) in the middle of games and restarted;
every game continues from the last acknowledged choice with nothing lost."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

from kumite.games.sfrivals.game import GAME
from tests.server.live import ProcessServer, Seat, create_table, drive


@pytest.fixture
def process(database_url: str) -> Iterator[ProcessServer]:
    live = ProcessServer(database_url)
    live.start()
    yield live
    live.stop()


@pytest.mark.slow
def test_sigkill_mid_game_loses_nothing_acknowledged(process):
    made = create_table(
        process.base,
        "sfrivals",
        [{"kind": "you"}, {"kind": "human"}],
        options={"characters": ["ryu", "ken"]},
        seed=21,
    )
    table = made["id"]
    tokens = {link["seat"]: link["token"] for link in made["links"]}
    ryu, ken = Seat(process.base, table, 0, tokens[0]), Seat(process.base, table, 1, tokens[1])
    steps = [
        {
            0: ryu.choose(lambda legal: "setup:ryu.jab:ryu.hadouken"),
            1: ken.choose(lambda legal: "setup:ken.guard:ken.weak-shoryuken"),
        },
        {
            0: ryu.choose(lambda legal: "play:ryu.shoryuken"),
            1: ken.choose(lambda legal: "play:ken.hadouken"),
        },
    ]
    half = ryu.choose(lambda legal: "play:ryu.overhead-throw")  # acknowledged, Ken not yet
    process.kill()
    process.start()  # same database, same port
    ryu, ken = Seat(process.base, table, 0, ryu.token), Seat(process.base, table, 1, ken.token)
    state = ryu.at_step(2)
    assert state["step"] == 2
    assert state["submitted"] is True  # the acknowledged half of round 2 survived
    assert state["view"]["players"][0]["life"] == ryu.state["view"]["players"][0]["life"]
    steps.append({0: half, 1: ken.choose(lambda legal: "play:ken.jigokusha")})
    # Play to the end, then check against the engine replaying the same choices.
    ryu.at_step(3)
    steps += drive({0: ryu, 1: ken})
    engine = GAME.new_state(21, {"characters": ["ryu", "ken"]})
    for step in steps:
        engine.apply(step)
    assert engine.outcome is not None
    assert ryu.state["outcome"] == engine.outcome.to_json()


def test_bots_resume_after_a_restart(process):
    made = create_table(
        process.base,
        "sfrivals",
        [{"kind": "you"}, {"kind": "bot", "agent": "greedy"}],
        options={"characters": ["guile", "juri"]},
        seed=8,
    )
    table = made["id"]
    token = made["links"][0]["token"]
    me = Seat(process.base, table, 0, token)
    me.choose()
    me.choose()
    step = me.ready()["step"]
    process.kill()
    process.start()
    me = Seat(process.base, table, 0, token)
    assert me.ready()["step"] == step
    drive({0: me})
    assert me.state["outcome"]["reason"]


def test_servers_starting_together_on_a_new_database_both_come_up(database_url):
    """Two servers (or workers) started at once on an empty database must not race to
    create the schema: both come up and see the same tables."""
    from concurrent.futures import ThreadPoolExecutor

    from sqlalchemy import inspect

    from kumite.server.storage import Base, Store

    with ThreadPoolExecutor(4) as pool:
        stores = list(pool.map(lambda _: Store(database_url), range(4)))
    try:
        for store in stores:
            assert set(Base.metadata.tables) <= set(inspect(store.engine).get_table_names())
    finally:
        for store in stores:
            store.close()


def test_switching_a_new_sqlite_file_to_wal_waits_for_the_lock(tmp_path):
    """Servers started together on a new SQLite file failed at random: switching the file
    to WAL may fail with "database is locked" without waiting the busy timeout. The switch
    is retried until the lock goes (here a connection that does not wait at all, against
    one holding the file), gives up after its time, and raises any other error as it is."""
    import threading

    from kumite.server.storage import _switch_to_wal

    path = tmp_path / "new.db"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    other = sqlite3.connect(path, isolation_level=None, timeout=0)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        other.execute("PRAGMA journal_mode=WAL")  # what happens without the retry
    threading.Timer(0.3, holder.rollback).start()
    _switch_to_wal(other.cursor())
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    holder.close()
    other.close()
    # a lock that stays: it gives up in the end
    held = sqlite3.connect(tmp_path / "held.db", isolation_level=None)
    held.execute("BEGIN EXCLUSIVE")
    waiting = sqlite3.connect(tmp_path / "held.db", isolation_level=None, timeout=0)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        _switch_to_wal(waiting.cursor(), seconds=0.2)
    held.close()
    waiting.close()
    with pytest.raises(sqlite3.OperationalError, match="syntax"):
        _switch_to_wal(FakeCursor())


class FakeCursor:
    def execute(self, sql: str) -> None:
        raise sqlite3.OperationalError('near "WAL": syntax error')
