"""The hub keeps live tables in memory and lets go of those nobody uses."""

from __future__ import annotations

import asyncio
import random
import time

from kumite.server.runtime import IDLE_EVICT, SWEEP_EVERY, Hub
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
