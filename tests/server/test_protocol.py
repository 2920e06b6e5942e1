"""Server-authoritative play over WebSockets: each seat gets only its view and the events it
may see; bad messages are refused with a clear error and change nothing."""

from __future__ import annotations

import json
import random

import pytest
from sqlalchemy import event

from kumite.games.sfrivals.cards import load_catalog
from tests.server.live import Seat, create_table

CATALOG = load_catalog()
# Zangief covers with a card of which he has one copy and shows another: every one of his
# unique cards is then hidden from seat 0 until he plays it.
ZANGIEF_SETUP = "setup:zangief.final-atomic-buster:zangief.long-kick"


def test_messages_to_one_seat_never_hold_the_other_seats_hidden_cards(server):
    made = create_table(
        server.base,
        "sfrivals",
        [{"kind": "you"}, {"kind": "human"}],
        options={"characters": ["ryu", "zangief"]},
        seed=11,
    )
    table = made["id"]
    tokens = {link["seat"]: link["token"] for link in made["links"]}
    seats = {0: Seat(server.base, table, 0, tokens[0]), 1: Seat(server.base, table, 1, tokens[1])}
    watcher = Seat(server.base, table)
    runtime = server.hub.tables[table]
    rng = random.Random(4)
    unique = {c.id for c in CATALOG.characters["zangief"].cards if c.copies == 1}
    revealed = {"zangief.long-kick"}
    checks = 0
    while not runtime.state.is_terminal:
        for decision in runtime.state.pending():  # who must act now (test orchestration)
            seat = seats[decision.seat]
            if decision.kind == "setup" and decision.seat == 1:
                choice = seat.choose(lambda legal: ZANGIEF_SETUP)
            else:
                choice = seat.choose(rng.choice)
            if decision.seat == 1 and choice.startswith("play:"):
                revealed.add(choice[5:])
        seats[0].at_step(runtime.step)
        watcher.at_step(runtime.step)
        for raw in seats[0].raw + watcher.raw:
            for card_id in unique - revealed:  # Zangief's cover is always among these
                assert card_id not in raw, card_id
            checks += 1
    assert seats[0].state["outcome"] is not None
    assert checks > 10
    assert not seats[0].errors and not seats[1].errors


def table_vs_human(server):
    made = create_table(
        server.base,
        "sfrivals",
        [{"kind": "you"}, {"kind": "human"}],
        options={"characters": ["ryu", "ken"]},
        seed=2,
    )
    tokens = {link["seat"]: link["token"] for link in made["links"]}
    return (
        made["id"],
        Seat(server.base, made["id"], 0, tokens[0]),
        Seat(server.base, made["id"], 1, tokens[1]),
    )


def runtime_snapshot(server, table):
    runtime = server.hub.tables[table]
    return (runtime.step, dict(runtime.partial), list(runtime.state.history))


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("{not json", "malformed"),
        (json.dumps({"type": "choose", "step": "x", "choice": 1}), "malformed"),
        (json.dumps({"type": "dance"}), "malformed"),
        (json.dumps({"type": "choose", "step": 0, "choice": "setup:ryu.x:ryu.y"}), "illegal"),
        (json.dumps({"type": "choose", "step": 5, "choice": "setup:ryu.jab:ryu.guard"}), "stale"),
        (json.dumps({"type": "hello", "seat": 0, "token": "x"}), "hello-again"),
        ("x" * 20000, "malformed"),
    ],
)
def test_bad_messages_are_refused_and_change_nothing(server, message, code):
    table, ryu, _ken = table_vs_human(server)
    ryu.ready()
    before = runtime_snapshot(server, table)
    ryu.send(message)
    error = ryu.error()
    assert error["code"] == code
    assert error["message"]
    assert runtime_snapshot(server, table) == before


def test_wrong_token_is_refused_and_the_socket_closed(server):
    table, _ryu, _ken = table_vs_human(server)
    before = runtime_snapshot(server, table)
    intruder = Seat(server.base, table, 1, "guess")
    assert intruder.error()["code"] == "bad-token"
    with pytest.raises(Exception):  # noqa: B017 - the server closed the socket
        intruder.recv(timeout=5)
    first = Seat(server.base, table, hello=False)
    first.send({"type": "choose", "step": 0, "choice": "x"})
    assert first.error()["code"] == "hello-first"
    assert runtime_snapshot(server, table) == before


def test_replayed_and_out_of_turn_messages_are_refused(server):
    table, ryu, ken = table_vs_human(server)
    ryu.ready()
    choice = "setup:ryu.jab:ryu.hadouken"
    ryu.send({"type": "choose", "step": 0, "choice": choice})
    ryu.until(lambda m: m["type"] == "ack")
    before = runtime_snapshot(server, table)
    ryu.send({"type": "choose", "step": 0, "choice": choice})  # the same message again
    assert ryu.error()["code"] == "already-chosen"
    assert runtime_snapshot(server, table) == before
    ken.choose(lambda legal: "setup:ken.guard:ken.weak-shoryuken")
    # Round 1: Ryu plays Guard, Ken must reveal first in round 2.
    ryu.choose(lambda legal: "play:ryu.guard")
    ken.choose(lambda legal: "play:ken.hadouken")
    ryu.at_step(2)
    before = runtime_snapshot(server, table)
    ryu.send({"type": "choose", "step": 2, "choice": "play:ryu.jab"})
    assert ryu.error()["code"] == "not-your-turn"
    ryu.send({"type": "choose", "step": 1, "choice": "play:ryu.guard"})  # replay of round 1
    assert ryu.error()["code"] == "stale"
    assert runtime_snapshot(server, table) == before
    spectator = Seat(server.base, table)
    spectator.send({"type": "choose", "step": 2, "choice": "play:ken.jigokusha"})
    assert spectator.error()["code"] == "spectator"
    assert runtime_snapshot(server, table) == before


def test_waiting_for_the_opponent_is_shown_without_their_choice(server):
    _table, ryu, ken = table_vs_human(server)
    ryu.choose(lambda legal: "setup:ryu.jab:ryu.hadouken")
    update = ken.until(lambda m: m["type"] == "update" and m["state"]["waiting"] == [1])
    assert "ryu.jab" not in json.dumps(update)  # Ryu's cover is not in Ken's messages
    assert ryu.state["submitted"]  # the update before the ack
    assert ryu.state["decision"] is None
    assert ryu.state["waiting"] == [1]


def test_chat_reaches_the_table_and_is_kept(server):
    table, ryu, ken = table_vs_human(server)
    ken.until(lambda m: m["type"] == "welcome")  # Ken's socket is at the table: he hears it
    ryu.send({"type": "chat", "text": "good luck"})
    line = ken.until(lambda m: m["type"] == "chat")
    assert (line["seat"], line["text"]) == (0, "good luck")
    later = Seat(server.base, table, 1, ken.token)  # the seat's fresh token, once taken
    welcome = later.until(lambda m: m["type"] == "welcome")
    assert welcome["chat"]["history"][0]["text"] == "good luck"
    # a spectator talks on the spectators' channel (tests/server/test_spectators.py)
    watcher = Seat(server.base, table)
    assert watcher.until(lambda m: m["type"] == "welcome")["chat"]["channel"] == "spectators"
    stored = server.hub.store.load(table)  # what a restarted server would read
    assert [(m["seat"], m["text"]) for m in stored.chat["table"]] == [(0, "good luck")]


def test_a_hello_reads_nothing_from_the_database(server):
    """docs/protocol.md, Load: 400 clients saying hello at once queued 1,200 queries ahead of
    the choices' commits. A hello's only write is the taking of an invited seat (its fresh
    token, its holder, the seats), group-committed in one transaction."""
    made = create_table(server.base, "sfrivals", [{"kind": "human"}, {"kind": "human"}], seed=3)
    statements: list[str] = []

    def seen(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    engine = server.hub.store.engine
    event.listen(engine, "before_cursor_execute", seen)
    try:
        seats = [Seat(server.base, made["id"], x["seat"], x["token"]) for x in made["links"]]
        for seat in seats:
            seat.ready()
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    ours = [" ".join(s.split()) for s in statements if "kumite_" in s]
    assert ours  # the takes
    takes = (
        "UPDATE kumite_tokens SET",
        "DELETE FROM kumite_seat_holders",
        "UPDATE kumite_tables SET seats=",
    )
    assert all(s.startswith(takes) for s in ours), ours
    assert all(s.claimed for s in server.hub.store.load(made["id"]).seats)
