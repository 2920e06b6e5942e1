"""The lobby's table list (issue 18): names, seats taken and open, age; the "waiting for
players" filter; private (unlisted) tables; pages."""

from __future__ import annotations

import datetime

import httpx
import pytest

from kumite.server.storage import Store
from tests.server.live import create_table
from tests.server.test_migration import make_legacy_database
from tests.server.test_players import as_player, new_player

BOT = {"kind": "bot", "agent": "random"}


def listed(server, query: str = "") -> list[dict]:
    response = httpx.get(f"{server.base}/api/tables{query}")
    assert response.status_code == 200, response.text
    return response.json()


def test_the_list_shows_names_seats_and_age(server):
    me = new_player(server.base, "Chun-Li")
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "sfrivals", "seats": [{"kind": "you"}, {"kind": "open"}]},
        headers=as_player(me),
    ).json()
    (row,) = listed(server)
    assert row["id"] == made["id"]
    assert [(s["kind"], s["name"], s["claimed"]) for s in row["seats"]] == [
        ("human", "Chun-Li", True),
        ("open", "Player 2", False),
    ]
    created = datetime.datetime.fromisoformat(row["created"])
    assert created.tzinfo is not None
    assert abs(datetime.datetime.now(datetime.UTC) - created).total_seconds() < 60


def test_waiting_for_players_lists_only_unfinished_tables_with_an_open_seat(server):
    full = create_table(server.base, "sfrivals", [{"kind": "you"}, BOT])["id"]
    waiting = create_table(server.base, "sfrivals", [{"kind": "you"}, {"kind": "open"}])["id"]
    assert {t["id"] for t in listed(server)} == {full, waiting}
    assert [t["id"] for t in listed(server, "?waiting=true")] == [waiting]
    # Once the open seat is taken it waits no more.
    httpx.post(f"{server.base}/api/tables/{waiting}/join", json={"seat": 1}).raise_for_status()
    assert listed(server, "?waiting=true") == []


def test_a_private_table_is_never_listed_but_its_link_works(server):
    made = create_table(server.base, "sfrivals", [{"kind": "you"}, {"kind": "open"}], private=True)
    assert listed(server) == []
    assert listed(server, "?waiting=true") == []
    info = httpx.get(f"{server.base}/api/tables/{made['id']}").json()
    assert info["private"] is True
    joined = httpx.post(f"{server.base}/api/tables/{made['id']}/join", json={"seat": 1})
    assert joined.status_code == 200  # by its link: invite-only, not closed


def test_a_database_of_the_previous_kumite_gains_private_and_lists_its_tables(database_url):
    """migrations.upgrade: kumite_tables.private is added (every older table listed)."""
    make_legacy_database(database_url)
    store = Store(database_url)
    try:
        assert {t["id"] for t in store.list_tables()} == {"playing", "done", "stuck"}
        assert all(t["private"] is False for t in store.list_tables())
        assert [t["id"] for t in store.list_tables(waiting=True)] == []
    finally:
        store.close()


def test_the_list_comes_a_page_at_a_time_latest_first(server):
    ids = [create_table(server.base, "sfrivals", [{"kind": "you"}, BOT])["id"] for _ in range(5)]
    first = [t["id"] for t in listed(server, "?limit=2")]
    second = [t["id"] for t in listed(server, "?limit=2&offset=2")]
    third = [t["id"] for t in listed(server, "?limit=2&offset=4")]
    assert first + second + third == ids[::-1]
    waiting = [
        create_table(server.base, "sfrivals", [{"kind": "you"}, {"kind": "open"}])["id"]
        for _ in range(3)
    ]
    pages = [[t["id"] for t in listed(server, f"?waiting=true&limit=2&offset={o}")] for o in (0, 2)]
    assert pages == [waiting[::-1][:2], waiting[::-1][2:]]


@pytest.mark.parametrize(
    "query",
    ["?offset=-1", "?limit=0", "?limit=101", "?offset=x", "?waiting=maybe", "?game=" + "g" * 40],
)
def test_bad_list_queries_get_a_clear_error(server, query):
    response = httpx.get(f"{server.base}/api/tables{query}")
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert detail
    assert all("msg" in d for d in detail)
