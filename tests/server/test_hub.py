"""The hub keeps live tables in memory and lets go of those nobody uses."""

from __future__ import annotations

import asyncio
import random
import time

from kumite.server.hub import IDLE_EVICT, SWEEP_EVERY, Hub
from kumite.server.ownership import Solo
from kumite.server.runtime import RESTART_CODE, Client
from kumite.server.settings import ServerSettings
from kumite.server.storage import Store

SEATS = [{"kind": "human", "claimed": False}, {"kind": "human", "claimed": False}]
OPTIONS = {"characters": ["ryu", "ken"]}


async def play_out(hub: Hub, table_id: str) -> dict[str, object]:
    runtime = hub.get(table_id)
    assert runtime is not None
    rng = random.Random(0)
    while not runtime.finished:
        for decision in runtime.state.pending():
            await runtime.choose(decision.seat, runtime.step, rng.choice(decision.legal))
    assert runtime.state.outcome is not None
    return runtime.state.outcome.to_json()


def test_idle_tables_are_let_go_and_load_again_as_they_were(database_url):
    async def scenario() -> None:
        store = Store(database_url)
        hub = Hub(store)
        store.create_table("t1", "sfrivals", 5, OPTIONS, SEATS, {0: "a", 1: "b"})
        store.create_table("t2", "sfrivals", 6, OPTIONS, SEATS, {0: "c", 1: "d"})
        outcome = await play_out(hub, "t1")
        unfinished = hub.get("t2")
        assert unfinished is not None
        await unfinished.choose(0, 0, unfinished.state.pending()[0].legal[0])  # a partial
        store.create_table("t3", "sfrivals", 7, OPTIONS, SEATS, {}, rematch_of="t1")
        hub.tables["t1"].next_table = "t3"
        later = time.monotonic() + IDLE_EVICT + 1
        assert sorted(hub.sweep(later)) == ["t1", "t2"]
        assert not hub.tables
        again = hub.get("t1")
        assert again is not None and again.finished
        assert again.state.outcome is not None
        assert again.state.outcome.to_json() == outcome
        assert again.next_table == "t3"  # a second rematch stays refused after a reload
        assert again.check_token(0, "a") and not again.check_token(0, "b")
        resumed = hub.get("t2")
        assert resumed is not None and resumed.partial == unfinished.partial
        assert resumed.bot_seed == unfinished.bot_seed  # the bots' secret is stored
        await store.aclose()

    asyncio.run(scenario())


def test_a_table_in_use_or_recently_used_is_kept(database_url):
    async def scenario() -> None:
        store = Store(database_url)
        hub = Hub(store)
        store.create_table("t1", "sfrivals", 5, OPTIONS, SEATS, {})
        await play_out(hub, "t1")
        runtime = hub.tables["t1"]
        now = time.monotonic()
        assert hub.sweep(now) == []  # used a moment ago
        runtime.holds = 1  # a connection is open (spectator, or a player reading the result)
        assert hub.sweep(now + IDLE_EVICT + 1) == []
        runtime.holds = 0
        # The scan itself runs at most every SWEEP_EVERY seconds.
        assert hub.sweep(now + IDLE_EVICT + 2) == []
        assert hub.sweep(now + IDLE_EVICT + 2 + SWEEP_EVERY) == ["t1"]
        await store.aclose()

    asyncio.run(scenario())


class Recorded(Solo):
    """Ownership that records what the hub claims and lets go of."""

    shared = True

    def __init__(self) -> None:
        self.owned: set[str] = set()
        self.lost: set[str] = set()

    def claim(self, table_id: str) -> str | None:
        self.owned.add(table_id)
        return None

    def release(self, table_id: str) -> None:
        self.owned.discard(table_id)

    def holds(self, table_id: str) -> bool:
        return table_id in self.owned and table_id not in self.lost


def test_evict_after_sets_how_long_an_unused_table_stays_and_its_lock_goes_with_it(tmp_path):
    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path}/k.sqlite3")
        owned = Recorded()
        hub = Hub(store, settings=ServerSettings(evict_after=2.0), ownership=owned)
        store.create_table("t1", "sfrivals", 5, OPTIONS, SEATS, {})
        assert hub.get("t1") is not None and owned.owned == {"t1"}
        now = time.monotonic()
        assert hub.sweep(now + 1) == []  # --evict-after 2: kept for 2 s
        assert hub.sweep(now + 3) == ["t1"]  # (the sweep runs every second then)
        assert owned.owned == set()  # let go of: another process may take it now
        assert hub.get("missing") is None and owned.owned == set()  # no lock kept for it
        await store.aclose()

    asyncio.run(scenario())


def test_a_table_whose_lock_was_lost_is_let_go_of_and_its_sockets_told(tmp_path):
    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path}/k.sqlite3")
        owned = Recorded()
        hub = Hub(store, ownership=owned)
        store.create_table("t1", "sfrivals", 5, OPTIONS, SEATS, {})
        runtime = hub.get("t1")
        assert runtime is not None
        told: list[object] = []
        closed: list[int] = []

        async def send(message: dict[str, object]) -> None:
            told.append(message["code"])

        async def close(code: int) -> None:
            closed.append(code)

        runtime.clients.add(Client(0, send, close=close))
        owned.lost.add("t1")  # its connection to PostgreSQL was cut, say
        hub.sweep()
        await asyncio.sleep(0)
        assert "t1" not in hub.tables
        assert told == ["unavailable"] and closed == [RESTART_CODE]  # reconnect elsewhere
        await store.aclose()

    asyncio.run(scenario())


def test_housekeeping_goes_on_after_a_failure(tmp_path):
    """A failing look-up of idle tables (the database busy, say) must not stop the sweeps
    for good: else no table would ever be let go of again, and memory would grow with every
    table served (found by web_load.py --churn)."""

    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path}/k.sqlite3")
        hub = Hub(store, settings=ServerSettings(evict_after=0.5))
        store.create_table("t1", "sfrivals", 5, OPTIONS, SEATS, {})
        assert hub.get("t1") is not None
        failures = []

        def busy(since: object, limit: int = 500) -> list[str]:
            failures.append(since)
            raise OSError("database is locked")

        store.idle = busy  # type: ignore[method-assign]
        maintenance = asyncio.create_task(hub.maintain())
        for _ in range(100):
            await asyncio.sleep(0.05)
            if "t1" not in hub.tables and len(failures) >= 2:
                break
        maintenance.cancel()
        assert len(failures) >= 2  # it went on after the first failure
        assert "t1" not in hub.tables  # and let go of the unused table
        await store.aclose()

    asyncio.run(scenario())
