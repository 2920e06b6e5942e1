"""Crash-safe resume (issue 14): the server is killed between any two storage statements of
a step, restarted, and every game finishes with no acknowledged choice lost.

The "kill" is injected at the database driver: from the n-th statement or commit on, every
statement raises :class:`Killed` (a ``BaseException``, which nothing in the server catches),
so nothing more reaches the database, as if the process had died; the store is then dropped
and a new one opened on the same database, as a restarted server would. Every n from the
first statement of the game to its last is tried, on SQLite and on PostgreSQL, for every
registered game (simultaneous steps and turns alike), on a short game of each
(tests/conformance.py: a game's ``short`` table, else its fewest seats).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
from typing import Any

import httpx
import pytest
from sqlalchemy import event, insert

from kumite.core.registry import default_game, game_ids, get_spec
from kumite.server.hub import Hub
from kumite.server.runtime import TableRuntime
from kumite.server.storage import PartialRow, Store
from tests.conformance import short
from tests.server.live import Seat

GAMES = game_ids()
#: A game with simultaneous steps, for the tests of a step chosen in parts.
SIMULTANEOUS = next(g for g in (default_game(), *GAMES) if get_spec(g).load().info.simultaneous)


class Killed(BaseException):
    """The server process died here."""


class Crash:
    """Counts the storage statements and commits of a store's engine; at the ``at``-th the
    process "dies": that one and every later one raise :class:`Killed`."""

    def __init__(self, store: Store, at: int | None) -> None:
        self.at = at
        self.count = 0
        self.dead = False
        self.loop = asyncio.get_running_loop()
        self.died = asyncio.Event()
        event.listen(store.engine, "before_cursor_execute", self._statement)
        event.listen(store.engine, "commit", self._commit)

    def _statement(self, *_args: Any) -> None:
        self._tick()

    def _commit(self, *_args: Any) -> None:
        self._tick()

    def _tick(self) -> None:
        if self.dead:
            raise Killed
        self.count += 1
        if self.count == self.at:
            self.dead = True
            self.loop.call_soon_threadsafe(self.died.set)  # from a commit thread too
            raise Killed


def scripted(step: int, seat: int, legal: tuple[str, ...]) -> str:
    """The players: a fixed choice for each step and seat, so that a game resumed after a
    crash goes on exactly as it would have without it."""
    digest = hashlib.blake2b(f"{step}/{seat}".encode(), digest_size=4).digest()
    return legal[int.from_bytes(digest, "big") % len(legal)]


def choices_of(runtime: TableRuntime) -> list[tuple[int, int, str]]:
    """Every choice the table holds: its steps' and its partial ones, (step, seat, choice)."""
    made = [
        (index, seat, choice)
        for index, step in enumerate(runtime.state.history)
        for seat, choice in step.items()
    ]
    return made + [(runtime.step, seat, choice) for seat, choice in runtime.partial.items()]


@dataclasses.dataclass
class Run:
    """One server process's life at a table."""

    held: set[tuple[int, int, str]]
    """The choices storage held when the table was loaded."""
    acked: list[tuple[int, int, str]]
    """The choices acknowledged (committed) while it ran."""
    in_flight: tuple[int, int, str] | None
    """The choice being made when the process died (if it did)."""
    died: bool
    events: int
    """Statements and commits it ran."""
    steps: list[dict[int, str]]
    outcome: dict[str, Any] | None
    """What storage holds once the game is over (if it lived to see it)."""


async def play(url: str, table: str, crash_at: int | None) -> Run:
    """Load ``table`` from storage and play it on, one choice at a time, until the game is
    over or the process dies at the ``crash_at``-th storage statement or commit."""
    store = Store(url)
    hub = Hub(store)
    runtime = hub.get(table)
    assert runtime is not None
    run = Run(set(choices_of(runtime)), [], None, False, 0, [], None)
    crash = Crash(store, crash_at)
    # A commit run by the loop itself (SQLite) dies inside a callback: keep the log quiet.
    asyncio.get_running_loop().set_exception_handler(lambda _loop, context: None)
    try:
        while not runtime.state.is_terminal:
            waiting = [d for d in runtime.state.pending() if d.seat not in runtime.partial]
            assert waiting, f"table {table} at step {runtime.step} waits for nobody"
            decision = waiting[0]
            step, seat = runtime.step, decision.seat
            made = (step, seat, scripted(step, seat, decision.legal))
            choosing = asyncio.ensure_future(runtime.choose(seat, step, made[2]))
            died = asyncio.ensure_future(crash.died.wait())
            await asyncio.wait({choosing, died}, return_when=asyncio.FIRST_COMPLETED)
            died.cancel()
            if crash.dead:
                choosing.cancel()
                with contextlib.suppress(BaseException):
                    await choosing
                run.in_flight, run.died, run.events = made, True, crash.count
                return run
            choosing.result()  # acknowledged: committed
            run.acked.append(made)
        run.events = crash.count
        stored = store.load(table)
        assert stored is not None and stored.status == "finished"
        run.steps, run.outcome = stored.steps, stored.outcome
        return run
    finally:
        # Whatever was not committed is gone with the process.
        store.engine.dispose()
        with contextlib.suppress(Exception):
            hub.bots.shutdown()


def new_tables(url: str, name: str, tables: list[str]) -> None:
    """New tables of game ``name``'s short game, every seat a person's."""
    table = short(name)
    options = get_spec(name).with_seats(dict(table.options), table.seats)
    seats = [{"kind": "human", "claimed": True}] * table.seats
    store = Store(url)
    for table_id in tables:
        store.create_table(table_id, name, table.seed, options, seats, {})
    store.close()


def kill_points(events: int, window: int) -> list[int]:
    """Every kill point of the first ``window`` and the last ``window`` statements and
    commits (the first steps and the finishing one); all of them if ``window`` is 0."""
    every = range(1, events + 1)
    if not window or 2 * window >= events:
        return list(every)
    return [*every[:window], *every[-window:]]


def sweep(url: str, name: str, window: int) -> tuple[int, int]:
    """Kill a game at each kill point, restart, check and finish it. Returns the points
    tried and the statements and commits of the whole game."""
    new_tables(url, name, [f"{name}-ref"])
    reference = asyncio.run(play(url, f"{name}-ref", None))
    assert not reference.died and reference.outcome is not None
    table = short(name)
    spec = get_spec(name)
    state = spec.load().new_state(table.seed, spec.with_seats(dict(table.options), table.seats))
    for step in reference.steps:
        state.apply(step)
    assert state.outcome is not None and state.outcome.to_json() == reference.outcome
    assert reference.events > 3 * len(reference.steps)  # statements and a commit a write
    if spec.load().info.simultaneous:  # the case that could leave a table waiting for nobody
        assert any(len(step) > 1 for step in reference.steps)
    points = kill_points(reference.events, window)
    new_tables(url, name, [f"{name}-k{at}" for at in points])
    for at in points:
        table = f"{name}-k{at}"
        killed = asyncio.run(play(url, table, at))
        assert killed.died, at
        # The restart: storage holds every acknowledged choice, and nothing that was not
        # chosen (the choice in flight may or may not have been committed); then the game
        # plays on to the very end the uninterrupted game reached.
        restarted = asyncio.run(play(url, table, None))
        acked = set(killed.acked)
        assert acked <= restarted.held, f"kill at {at}: lost {acked - restarted.held}"
        assert restarted.held - acked <= {killed.in_flight}, f"kill at {at}"
        assert not restarted.died
        assert restarted.steps == reference.steps, f"kill at {at}"
        assert restarted.outcome == reference.outcome, f"kill at {at}"
    return len(points), reference.events


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_a_kill_between_any_two_storage_statements_of_the_first_and_last_steps_loses_nothing(
    database_url: str, name: str
) -> None:
    """Every kill point of a game's first steps (a simultaneous step and a turn each have
    their own statements) and of its finishing step."""
    points, events = sweep(database_url, name, window=16)
    assert points >= min(30, events)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_a_kill_between_any_two_storage_statements_of_a_whole_game_loses_nothing(
    database_url: str, name: str
) -> None:
    """Every kill point of a whole game."""
    points, events = sweep(database_url, name, window=0)
    assert points == events


def test_a_step_whose_every_choice_was_stored_as_partial_is_completed_on_load(
    database_url: str,
) -> None:
    """An earlier kumite stored the last choice of a simultaneous step as a partial choice
    and then the step; killed in between, the table waited for nobody for ever. Loading
    such a table now applies the step."""
    new_tables(database_url, SIMULTANEOUS, ["stuck"])
    store = Store(database_url)
    runtime = Hub(store).get("stuck")
    assert runtime is not None
    pending = runtime.state.pending()
    assert len(pending) >= 2
    choices = {d.seat: scripted(0, d.seat, d.legal) for d in pending}
    with store.engine.begin() as conn:
        for seat, choice in choices.items():
            conn.execute(
                insert(PartialRow),
                {"table_id": "stuck", "seat": seat, "step": 0, "choice": choice},
            )
    store.close()
    again = Store(database_url)
    resumed = Hub(again).get("stuck")
    assert resumed is not None
    assert resumed.step == 1
    assert resumed.state.history == [choices]
    assert not resumed.partial
    assert any(d.seat not in resumed.partial for d in resumed.state.pending())
    again.close()
    stored = Store(database_url)
    table = stored.load("stuck")
    stored.close()
    assert table is not None and table.steps == [choices] and not table.partial


def test_a_failing_storage_write_is_refused_cleanly_and_the_table_stays_as_stored(
    database_url: str,
) -> None:
    """A write that fails (a statement raising, the server living on): the choice is not
    acknowledged (``unavailable``), memory and storage still agree, and the same choice
    can be made again."""
    from kumite.server.protocol import ProtocolError

    new_tables(database_url, SIMULTANEOUS, ["flaky"])

    async def scenario() -> None:
        store = Store(database_url)
        hub = Hub(store)
        runtime = hub.get("flaky")
        assert runtime is not None
        failing = {"on": False}

        def fail(*_args: Any) -> None:
            if failing["on"]:
                raise RuntimeError("disk full")

        event.listen(store.engine, "before_cursor_execute", fail)
        refused = 0
        while not runtime.state.is_terminal:
            decision = next(d for d in runtime.state.pending() if d.seat not in runtime.partial)
            made = (
                runtime.step,
                decision.seat,
                scripted(runtime.step, decision.seat, decision.legal),
            )
            failing["on"] = True
            with pytest.raises(ProtocolError) as error:
                await runtime.choose(made[1], made[0], made[2])
            assert error.value.code == "unavailable"
            refused += 1
            failing["on"] = False
            fresh = Store(database_url)
            stored = fresh.load("flaky")
            fresh.close()
            assert stored is not None
            assert stored.steps == runtime.state.history
            assert {s: c for s, (_, c) in stored.partial.items()} == runtime.partial
            await runtime.choose(made[1], made[0], made[2])
        assert refused > 3
        await store.aclose()
        hub.bots.shutdown()

    asyncio.run(scenario())


def test_a_table_that_cannot_be_loaded_is_refused_as_unavailable(server) -> None:
    """The database failing (here: every read) is the server's fault, said in one line: a
    503 and an ``unavailable`` error; the server serves again once it is back."""
    store = server.hub.store
    real = store.load

    def down(table_id: str) -> Any:
        raise OSError("database unreachable\nwith more lines")

    store.load = down
    try:
        answer = httpx.get(f"{server.base}/api/tables/abc123")
        assert answer.status_code == 503
        assert answer.json()["detail"] == "the table could not be loaded; try again"
        seat = Seat(server.base, "abc123", hello=False)
        assert seat.error()["code"] == "unavailable"
    finally:
        store.load = real
    assert httpx.get(f"{server.base}/api/tables/abc123").status_code == 404
