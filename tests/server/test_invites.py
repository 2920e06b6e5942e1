"""Invite links carry the person (issue 30; docs/protocol.md, "Players"): the hello that takes
an invited seat with its token and the invitee's player key binds the seat to that player —
their name at the seat, the table in their "My games" (reached again by key alone), and the
game rated for both players."""

from __future__ import annotations

import httpx

from tests.server.live import Seat, drive
from tests.server.test_players import as_player, key_hello, new_player
from tests.server.test_ratings import rated


def test_an_invitee_with_a_key_is_seated_listed_and_rated(server):
    host, guest = new_player(server.base, "Ryu"), new_player(server.base, "Ken")
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "toy", "seats": [{"kind": "you"}, {"kind": "human"}]},
        headers=as_player(host),
    ).json()
    table = made["id"]
    invite = next(link for link in made["links"] if not link["you"])
    # The invitee opens the link: the hello sends the link's token and their key.
    taker = Seat(server.base, table, hello=False)
    taker.seat = 1
    taker.send({"type": "hello", "seat": 1, "token": invite["token"], "key": guest["key"]})
    state = taker.at_step(0)
    assert [s["name"] for s in state["seats"]] == ["Ryu", "Ken"]
    taker.close()
    # The invitee's own key opens the seat again (a closed and reopened browser), and the
    # table is among their games.
    mine = httpx.get(f"{server.base}/api/players/me/games", headers=as_player(guest)).json()
    assert [(g["id"], g["seat"]) for g in mine] == [(table, 1)]
    seats = {0: key_hello(server.base, table, 0, host["key"])}
    seats[1] = key_hello(server.base, table, 1, guest["key"])
    for client in seats.values():
        client.at_step(0)
    drive(seats)
    assert seats[1].state["seats"][1]["name"] == "Ken"
    for client in seats.values():
        client.close()
    by_id = rated(server, "toy", 2)  # ratings are stored in the background
    assert by_id[host["id"]]["games"] == by_id[guest["id"]]["games"] == 1
    outcome = httpx.get(f"{server.base}/api/tables/{table}").json()["outcome"]
    if not outcome["draw"]:
        # the winner rose above the loser: both moved from the same start
        winner, loser = (host, guest) if 0 in outcome["winners"] else (guest, host)
        assert by_id[winner["id"]]["mu"] > by_id[loser["id"]]["mu"]
