"""The cycle collector's passes stay short in a server (kumite.server.collector,
docs/protocol.md "Load"): what lives is frozen, cyclic garbage waits for the full pass, and a
table's event log holds nothing the collector must walk."""

from __future__ import annotations

import asyncio
import gc
import random
import weakref

import pytest

from kumite.server import collector
from kumite.server.hub import Hub
from kumite.server.storage import Store


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def unfrozen():
    yield
    gc.unfreeze()  # the tests' process goes on with a collector as it was


def test_run_freezes_what_lives_and_only_the_full_pass_frees_frozen_cycles(unfrozen, monkeypatch):
    monkeypatch.setattr(collector, "FREEZE_EVERY", 0.01)

    async def scenario() -> None:
        a, b = Node(), Node()
        a.other, b.other = b, a  # a cycle: reference counting never frees it
        alive = weakref.ref(a)
        running = asyncio.ensure_future(collector.run(0))
        await asyncio.sleep(0.05)  # frozen by now
        assert gc.get_freeze_count() > 0
        del a, b
        gc.collect()  # as the automatic passes: the frozen cycle is out of their reach
        assert alive() is not None
        found, pause = collector.full_pass()
        assert alive() is None and found >= 2 and pause >= 0
        running.cancel()

    asyncio.run(scenario())


def test_a_tables_event_log_holds_nothing_the_collector_tracks(tmp_path):
    """A long game's log was most of what a full pass walked at 1,000 tables (its events,
    their JSON dicts): each entry is now a bit mask and encoded JSON."""

    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path}/k.sqlite3")
        hub = Hub(store)
        human = {"kind": "human"}
        store.create_table("t", "sfdbg", 3, {}, [human] * 3, {0: "a", 1: "b", 2: "c"})
        runtime = hub.get("t")
        assert runtime is not None
        rng = random.Random(1)
        for _ in range(40):
            for decision in runtime.state.pending():
                await runtime.choose(decision.seat, runtime.step, rng.choice(decision.legal))
        assert len(runtime.log) > 40
        gc.collect()  # a pass untracks the tuples that hold only untracked objects
        assert not any(gc.is_tracked(entry) for entry in runtime.log)
        await store.aclose()
        hub.shutdown()

    asyncio.run(scenario())
