"""Bots thinking in worker processes (``kumite serve --bot-processes N``,
kumite.server.botworkers): the same moves as in a thread, on the same deadline, and a worker
that dies costs one random move, not the table."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import time

import pytest

from kumite.agents.base import decide
from kumite.agents.registry import make_agent
from kumite.core.registry import get_game
from kumite.server import botworkers
from kumite.server.bots import BotPool
from kumite.server.botworkers import Recipe

GAMES = [
    ("sfrivals", {"characters": ["ryu", "ken"]}),
    ("rivales", {}),
    ("sfdbg", {"players": 2}),
]


def recipe(game: str, options: dict[str, object], seat: int, agent: str = "greedy") -> Recipe:
    import json

    return Recipe(f"t-{game}", game, 11, json.dumps(options, sort_keys=True), agent, seat, 5)


@pytest.mark.parametrize(("game_id", "options"), GAMES)
def test_a_bot_in_a_worker_makes_the_moves_it_makes_in_a_thread(game_id, options):
    """Same make_agent call, same seed, same decide call on the same state: the same choices,
    move after move (the worker keeps the bot and brings its state up to date)."""
    game = get_game(game_id)
    state = game.new_state(11, options)
    seat = 1
    made = recipe(game_id, options, seat)
    here = make_agent("greedy", game, state.options_json, seat, 5)
    there = make_agent("greedy", game, state.options_json, seat, 5)  # the server's own copy
    pool = BotPool(threads=1, budget=5.0, processes=1)
    rng = random.Random(2)

    async def scenario() -> int:
        compared = 0
        while not state.is_terminal and compared < 12:
            choices = {}
            for decision in state.pending():
                if decision.seat == seat:
                    expected = decide(here, state, decision)
                    got = await pool.think(there, state, decision, made)
                    assert got == expected, state.step if hasattr(state, "step") else None
                    compared += 1
                    choices[seat] = got
                else:
                    choices[decision.seat] = rng.choice(decision.legal)
            state.apply(choices)
        return compared

    try:
        assert asyncio.run(scenario()) >= 3
    finally:
        pool.shutdown()


def test_a_search_bot_in_a_worker_keeps_the_deadline_it_was_asked_with():
    """Issue 19's rule holds in a worker too: the deadline is counted from the ask (by the
    pool, before the move is sent) on the machine's one monotonic clock, so a move that
    waited past it in its worker's queue is played at once, without a single iteration."""
    options = {"characters": ["ryu", "ken"]}
    made = recipe("sfrivals", options, 0, "ismcts")
    choice, _ = botworkers.think(made, [], 5.0, time.monotonic() - 0.1)  # here, not spawned
    bot = botworkers._bots[made]
    assert choice in bot.state.pending()[0].legal
    assert bot.agent.last_iterations == 0
    botworkers.think(made, [], 5.0, None)  # no deadline: it searches
    assert bot.agent.last_iterations > 0


def test_a_dead_worker_costs_one_random_move_and_is_made_again():
    game = get_game("sfrivals")
    options = {"characters": ["ryu", "ken"]}
    state = game.new_state(3, options)
    decision = state.pending()[1]
    agent = make_agent("greedy", game, state.options_json, 1, 5)
    made = recipe("sfrivals", options, 1)
    pool = BotPool(threads=1, budget=5.0, processes=1)

    async def scenario() -> None:
        assert await pool.think(agent, state, decision, made) in decision.legal
        worker = pool._workers[0]
        assert worker is not None
        for pid in list(worker._processes):  # type: ignore[union-attr]
            os.kill(pid, 9)
        assert await pool.think(agent, state, decision, made) in decision.legal  # random
        assert await pool.think(agent, state, decision, made) in decision.legal
        assert pool._workers[0] is not worker  # made again

    try:
        asyncio.run(scenario())
    finally:
        pool.shutdown()


def test_a_table_s_bots_play_from_the_worker_processes(tmp_path):
    """The server's own path: a table's bot seat moves through its recipe, in a worker."""
    from kumite.server.hub import Hub
    from kumite.server.settings import ServerSettings
    from kumite.server.storage import Store

    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path}/k.sqlite3")
        hub = Hub(store, settings=ServerSettings(bot_processes=1))
        seats = [{"kind": "human"}, {"kind": "bot", "agent": "greedy"}]
        store.create_table("t", "sfrivals", 4, {"characters": ["ryu", "ken"]}, seats, {0: "a"})
        runtime = hub.get("t")
        assert runtime is not None and set(runtime.recipes) == {1}
        rng = random.Random(0)
        for _ in range(6):
            mine = [d for d in runtime.state.pending() if d.seat == 0 and 0 not in runtime.partial]
            if mine:
                await runtime.choose(0, runtime.step, rng.choice(mine[0].legal))
            runtime.kick_bots()
            for _ in range(200):  # the bot's move, from its worker
                if any(d.seat == 0 and 0 not in runtime.partial for d in runtime.state.pending()):
                    break
                await asyncio.sleep(0.05)
        assert runtime.step >= 3
        assert hub.bots._workers[0] is not None  # it went through the worker
        hub.shutdown()
        await store.aclose()

    asyncio.run(scenario())


def test_worker_processes_start_with_the_server_not_with_their_first_move():
    """``BotPool.start`` (called as the server comes up) spawns and warms every worker, so a
    table's first bot move is answered by a process already running, not one it starts."""
    game = get_game("sfrivals")
    options = {"characters": ["ryu", "ken"]}
    state = game.new_state(3, options)
    decision = state.pending()[1]
    agent = make_agent("greedy", game, state.options_json, 1, 5)
    pool = BotPool(threads=1, budget=5.0, processes=2)
    try:
        pool.start()
        workers = list(pool._workers)
        assert all(w is not None for w in workers)
        for queued in pool._queued:
            queued[0].result(timeout=120)  # warmed: the games are loaded
        running = [set(w._processes) for w in workers]  # type: ignore[union-attr]
        assert all(running)

        made = recipe("sfrivals", options, 1)

        async def scenario() -> None:
            for table in ("t-a", "t-b", "t-c", "t-d"):  # some in each worker
                move = await pool.think(
                    agent, state, decision, dataclasses.replace(made, table=table)
                )
                assert move in decision.legal

        asyncio.run(scenario())
        assert list(pool._workers) == workers  # the same pools, the same processes
        assert [set(w._processes) for w in workers] == running  # type: ignore[union-attr]
    finally:
        pool.shutdown()


def test_a_worker_thinking_past_a_move_s_due_time_is_cut_and_made_again():
    """A process can be stopped where a thread cannot: a move still thinking in its worker
    at its due time ends that worker (issue 28: a bot thinking never delays another table's
    bot beyond its own budget); the next move starts a new one and is answered."""
    game = get_game("sfrivals")
    options = {"characters": ["ryu", "ken"]}
    state = game.new_state(3, options)
    decision = state.pending()[1]
    agent = make_agent("greedy", game, state.options_json, 1, 5)
    made = recipe("sfrivals", options, 1)
    pool = BotPool(threads=1, budget=0.5, processes=1)
    pool.start()
    pool._queued[0][0].result(timeout=120)  # started: the games loaded

    async def scenario() -> None:
        worker = pool._workers[0]
        assert worker is not None
        pids = set(worker._processes)  # type: ignore[union-attr]
        stuck = worker.submit(time.sleep, 60)  # a move that would not end in time
        time.sleep(0.5)
        assert stuck.running()
        pool._cut(made)
        assert pool._workers[0] is None
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not any(_alive(pid) for pid in pids)
        asked = time.monotonic()
        assert await pool.think(agent, state, decision, made) in decision.legal
        assert time.monotonic() - asked < 30  # a new worker, not the stuck one
        assert pool._workers[0] is not worker

    try:
        asyncio.run(scenario())
    finally:
        pool.shutdown()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:
        with open(f"/proc/{pid}/status") as status:
            return "zombie" not in status.read()
    except OSError:
        return False
