"""Several ``kumite serve`` processes on one PostgreSQL database (docs/deploy.md): each table
is owned by one process at a time, a socket landing on another is forwarded to the owner,
and when the owner dies another process takes the table over from storage."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from kumite.core.registry import get_game
from tests.server.live import ProcessServer, Seat, create_table, drive

GAME = get_game("sfrivals")
OPTIONS = {"characters": ["ryu", "ken"]}
postgres_only = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


@pytest.fixture
def two(database_url: str) -> Iterator[tuple[ProcessServer, ProcessServer]]:
    first, second = ProcessServer(database_url), ProcessServer(database_url)
    first.start()
    second.start()
    yield first, second
    first.stop()
    second.stop()


def replayed(steps: list[dict[int, str]]) -> dict[str, object]:
    engine = GAME.new_state(21, OPTIONS)
    for step in steps:
        engine.apply(step)
    assert engine.outcome is not None
    return engine.outcome.to_json()


@postgres_only
def test_two_processes_play_one_table_to_the_end(two):
    owner, other = two
    made = create_table(owner.base, "sfrivals", [{"kind": "human"}] * 2, options=OPTIONS, seed=21)
    table, tokens = made["id"], {link["seat"]: link["token"] for link in made["links"]}
    # Seat 1's socket lands on the other process: forwarded to the owner, same game.
    ryu, ken = Seat(owner.base, table, 0, tokens[0]), Seat(other.base, table, 1, tokens[1])
    ryu.ready(), ken.ready()
    steps = drive({0: ryu, 1: ken})
    assert ryu.state is not None and ken.state is not None
    assert ryu.state["outcome"] == ken.state["outcome"] == replayed(steps)
    # Each seat was sent its own view: Ken's socket on the other process saw Ken's hand.
    assert ken.state["seat"] == 1 and ryu.state["seat"] == 0
    # REST calls about the table are forwarded too: the record, from either process.
    for base in (owner.base, other.base):
        record = httpx.get(f"{base}/api/tables/{table}/record").json()
        assert [{int(k): v for k, v in s.items()} for s in record["steps"]] == steps


@pytest.mark.slow
@postgres_only
def test_killing_the_owner_mid_game_loses_no_acknowledged_choice(two):
    owner, other = two
    made = create_table(owner.base, "sfrivals", [{"kind": "human"}] * 2, options=OPTIONS, seed=21)
    table, tokens = made["id"], {link["seat"]: link["token"] for link in made["links"]}
    ryu, ken = Seat(owner.base, table, 0, tokens[0]), Seat(other.base, table, 1, tokens[1])
    steps = [{0: ryu.choose(), 1: ken.choose()}, {0: ryu.choose(), 1: ken.choose()}]
    half = ryu.choose()  # acknowledged; Ken has not chosen yet
    owner.kill()
    # Ken's forwarded socket is told to reconnect (1012); both come back to the survivor.
    assert ken.error()["code"] == "unavailable"
    ryu = Seat(other.base, table, 0, ryu.token)  # each seat's token since it was taken
    ken = Seat(other.base, table, 1, ken.token)
    state = ryu.at_step(2)
    assert state["submitted"] is True  # the acknowledged half of step 2 survived the kill
    steps.append({0: half, 1: ken.choose()})
    ryu.at_step(3)
    steps += drive({0: ryu, 1: ken})
    assert ryu.state is not None and ryu.state["outcome"] == replayed(steps)
    record = httpx.get(f"{other.base}/api/tables/{table}/record").json()
    assert [{int(k): v for k, v in s.items()} for s in record["steps"]] == steps


@pytest.mark.slow
@postgres_only
def test_a_table_nobody_owns_is_served_where_it_is_asked_for(two):
    first, second = two
    made = create_table(first.base, "sfrivals", [{"kind": "human"}] * 2, options=OPTIONS, seed=21)
    table, tokens = made["id"], {link["seat"]: link["token"] for link in made["links"]}
    first.kill()  # the owner dies before anyone said hello
    ryu, ken = Seat(second.base, table, 0, tokens[0]), Seat(second.base, table, 1, tokens[1])
    ryu.ready(), ken.ready()
    steps = drive({0: ryu, 1: ken})
    assert ryu.state is not None and ryu.state["outcome"] == replayed(steps)
