"""Spectators (issue 30; docs/protocol.md, "Chat"): every update says who is watching (how
many, and the names of those who said hello with a player key); spectators talk on a channel
of their own, which the players never receive, and read the players' table talk. A seat
nobody has sat at yet is not offered to a bot at table start (``absent_in``)."""

from __future__ import annotations

import json
from typing import Any

from kumite.core.registry import default_game
from tests.server.live import Seat, create_table
from tests.server.test_players import new_player


def two_people(server) -> tuple[str, Seat, Seat]:
    """A table of the default game for two people, both connected."""
    made = create_table(server.base, default_game(), [{"kind": "you"}, {"kind": "human"}], seed=3)
    tokens = {link["seat"]: link["token"] for link in made["links"]}
    a = Seat(server.base, made["id"], 0, tokens[0])
    b = Seat(server.base, made["id"], 1, tokens[1])
    for seat in (a, b):
        seat.until(lambda m: m["type"] == "welcome")
    return made["id"], a, b


def watcher(server, table: str, key: str | None = None) -> Seat:
    spectator = Seat(server.base, table, hello=False)
    spectator.send({"type": "hello", **({"key": key} if key else {})})
    return spectator


def watching(seat: Seat, count: int) -> dict[str, Any]:
    seat.until(lambda m: m["type"] == "update" and m["state"]["watching"]["count"] == count)
    assert seat.state is not None
    found: dict[str, Any] = seat.state["watching"]
    return found


def test_who_is_watching_is_shown_with_names_and_guests(server):
    table, a, _b = two_people(server)
    ana = new_player(server.base, "Ana")
    named = watcher(server, table, ana["key"])
    assert watching(a, 1) == {"count": 1, "names": ["Ana"]}
    guest = watcher(server, table)
    assert watching(a, 2) == {"count": 2, "names": ["Ana"]}  # a guest is counted, not named
    guest.close()
    named.close()
    assert watching(a, 0) == {"count": 0, "names": []}


def test_spectators_talk_apart_and_read_the_table_talk(server):
    table, a, b = two_people(server)
    ana = new_player(server.base, "Ana")
    spectator = watcher(server, table, ana["key"])
    welcome = spectator.until(lambda m: m["type"] == "welcome")
    assert welcome["chat"]["channel"] == "spectators"
    assert "do not read it" in welcome["chat"]["rules"]
    # The table talk reaches the spectator.
    a.send({"type": "chat", "text": "good luck"})
    heard = spectator.until(lambda m: m["type"] == "chat")
    assert (heard["seat"], heard["text"]) == (0, "good luck")
    # The spectators' talk reaches spectators only, named by its speaker.
    other = watcher(server, table)
    other.until(lambda m: m["type"] == "welcome")
    spectator.send({"type": "chat", "text": "Ryu will win this"})
    line = other.until(lambda m: m["type"] == "chat" and m["channel"] == "spectators")
    assert (line["seat"], line["name"], line["text"]) == (None, "Ana", "Ryu will win this")
    # Then a player speaks: the players' next chat line is theirs, never the spectators'.
    b.send({"type": "chat", "text": "thanks"})
    for player in (a, b):
        got = player.until(lambda m: m["type"] == "chat" and m["text"] == "thanks")
        assert got["seat"] == 1
        said = [m for m in map(json.loads, player.raw) if m["type"] == "chat"]
        assert all(m.get("channel") != "spectators" for m in said)
        assert "Ryu will win this" not in "".join(player.raw)
    # A spectator who comes later reads both, in order; the players' history holds none of it.
    late = watcher(server, table)
    history = late.until(lambda m: m["type"] == "welcome")["chat"]["history"]
    assert [x["text"] for x in history] == ["good luck", "Ryu will win this", "thanks"]
    again = Seat(server.base, table, 1, b.token)
    mine = again.until(lambda m: m["type"] == "welcome")["chat"]["history"]
    assert [x["text"] for x in mine] == ["good luck", "thanks"]
    # Not written to the table's record.
    stored = server.hub.store.load(table)
    assert "spectators" not in stored.chat


def test_a_seat_nobody_sat_at_is_not_offered_to_a_bot_at_table_start(server):
    made = create_table(server.base, default_game(), [{"kind": "you"}, {"kind": "human"}], seed=3)
    token = next(link["token"] for link in made["links"] if link["seat"] == 0)
    me = Seat(server.base, made["id"], 0, token)
    me.until(lambda m: m["type"] == "update")
    assert me.state is not None
    seats = me.state["seats"]
    assert seats[0]["absent_in"] == 0.0  # connected
    # the invitee has not come yet: the others wait the server's absent_after first
    assert seats[1]["absent_in"] > server.hub.settings.absent_after - 30
