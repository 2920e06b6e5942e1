"""Rivales: Capítulo 1 – Justicia at the web table, 1vs1 and 2vs2: the lobby, the cards, the
private team chat with the companion's limits, the reasons bad choices are refused with, and
the labels of its decisions. What the server promises every game — whole games sending no
seat another's hidden cards (in 2vs2 not even its partner's), bad messages changing nothing,
a game surviving SIGKILL — is tests/server/test_conformance.py, with Rivales' own tables and
checks from tests/games/rivales/conformance.py."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest

from kumite.games.rivales.game import GAME
from tests.games.rivales.conformance import FIGHTERS_2V2
from tests.server.live import Seat, create_table

CATALOG = GAME.catalog()


def games(server) -> dict[str, Any]:
    return {g["id"]: g for g in httpx.get(f"{server.base}/api/games").json()}


def test_the_lobby_offers_1vs1_and_2vs2_a_fighter_per_seat_and_the_rule_options(server):
    rv = games(server)["rivales"]
    assert (rv["min_players"], rv["max_players"]) == (2, 4)
    assert rv["seat_counts"] == [2, 4]
    modes = {m["id"]: m for m in rv["modes"]}
    assert modes["1v1"]["seats"] == 2
    assert modes["2v2"]["seats"] == 4
    assert rv["teams"] == {"4": [[0, 1], [2, 3]]}  # rv.2v2.teams, as the game declares them
    assert rv["mode_option"] == "mode"
    field = rv["seat_field"]
    assert field["option"] == "fighters"
    assert field["any"] == "chosen at the table"
    assert {"id": "random", "name": "Random fighter"} in field["choices"]
    assert {"id": "hansel-gretel", "name": "Hansel & Gretel"} in field["choices"]
    assert len(field["choices"]) == 1 + len(CATALOG.fighters) == 7
    options = {o["name"]: o for o in rv["options"]}
    assert set(options) == {
        "clash_winner",
        "max_combo_card",
        "max_combo_cut",
        "pinzas",
        "pinzas_dodge",
        "exchanged_card",
        "zone_order",
        "final_round_zones",
        "final_round_limit",
    }
    assert options["pinzas"]["choices"] == ["zone", "facing"]
    assert "rv.ruling.pinzas-2v2" in options["pinzas"]["doc"]
    assert options["final_round_limit"]["type"] == "int"
    assert {"random", "greedy"} <= {a["name"] for a in rv["agents"]}


def test_a_table_takes_its_mode_from_its_seats_and_draws_random_fighters(server):
    seats4 = [{"kind": "you"}, *[{"kind": "bot", "agent": "random"}] * 3]
    made = create_table(
        server.base,
        "rivales",
        seats4,
        options={"fighters": ["random", "zorro", None, "random"], "pinzas": "facing"},
        seed=3,
    )
    options = server.hub.tables[made["id"]].state.options_json
    assert options["mode"] == "2v2" and options["pinzas"] == "facing"
    fighters = options["fighters"]
    assert fighters[1] == "zorro" and fighters[2] is None
    assert fighters[0] in CATALOG.fighters and fighters[0] != "zorro"  # not the partner's
    assert fighters[3] in CATALOG.fighters
    duel = create_table(
        server.base, "rivales", seats4[:2], options={"fighters": [None, None]}, seed=3
    )
    assert server.hub.tables[duel["id"]].state.options_json == {
        "mode": "1v1",
        "clash_winner": "damage",
        "max_combo_card": "energy",
        "max_combo_cut": "holds",
        "pinzas": "zone",
        "pinzas_dodge": "stands",
        "exchanged_card": "values",
        "zone_order": "winner",
        "final_round_zones": "in-order",
        "final_round_limit": 3,
    }


@pytest.mark.parametrize(
    ("seats", "options", "words"),
    [
        (4, {"fighters": ["zorro", "zorro", None, None]}, "rv.2v2.different-fighters"),
        (2, {"fighters": ["goku", None]}, "unknown fighter 'goku'"),
        (2, {"mode": "2v2"}, "needs 4 seats"),
        (3, {}, "2 (1vs1) or 4 (2vs2) seats"),
        (2, {"final_round_limit": 0}, "final_round_limit must be 1..10"),
        (2, {"clash_winner": "nobody"}, "rivales options"),
    ],
)
def test_bad_rivales_tables_get_clear_errors(server, seats, options, words):
    body = {
        "game": "rivales",
        "seats": [{"kind": "you"}] + [{"kind": "bot"}] * (seats - 1),
        "options": options,
    }
    response = httpx.post(f"{server.base}/api/tables", json=body)
    assert response.status_code == 400
    assert words in response.json()["detail"]


def test_the_cards_endpoint_lists_every_card_and_fighter_with_provenance(server):
    made = create_table(server.base, "rivales", [{"kind": "you"}, {"kind": "bot"}])
    data = httpx.get(f"{server.base}/api/tables/{made['id']}/cards").json()
    assert set(data["cards"]) == set(CATALOG.cards)
    assert set(data["fighters"]) == set(CATALOG.fighters)
    assert data["basics"] == ["basic.golpe", "basic.patada", "basic.bloqueo", "basic.esquiva"]
    latigazo = data["cards"]["zorro.latigazo"]
    assert (latigazo["type"], latigazo["link"], latigazo["immediate"]) == ("unique", True, True)
    assert latigazo["requirements"] == ["the previous card is face up"]
    assert latigazo["provenance"]["name"]["from"] == "rulebook"
    assert latigazo["provenance"]["speed"]["from"] == "reconstructed"
    assert "effects" not in latigazo
    zorro = data["fighters"]["zorro"]
    assert zorro["cards"][-1] == "zorro.la-marca"
    assert (zorro["life"], zorro["ultra_at"], zorro["max_combo"]) == (9, 4, 2)
    assert zorro["provenance"]["passive"]["from"] == "reconstructed"
    assert data["rules"]["clashes_per_round"] == 7 and data["rules"]["rounds_to_win"] == 2
    assert set(data["legend"]) == {"estimate", "reconstructed"}


def four_humans(server, seed: int = 8) -> tuple[str, dict[int, Seat], dict[int, str]]:
    made = create_table(
        server.base,
        "rivales",
        [{"kind": "you"}] + [{"kind": "human"}] * 3,
        options={"fighters": FIGHTERS_2V2},
        seed=seed,
    )
    tokens = {link["seat"]: link["token"] for link in made["links"]}
    seats = {s: Seat(server.base, made["id"], s, tokens[s]) for s in range(4)}
    for s in seats.values():
        s.until(lambda m: m["type"] == "update")
    return made["id"], seats, tokens


def chats(client: Seat) -> list[str]:
    return [json.loads(r)["text"] for r in client.raw if json.loads(r)["type"] == "chat"]


def settle(*clients: Seat) -> None:
    """Give the server time to deliver anything still on its way, then read it."""
    time.sleep(0.3)
    for client in clients:
        client.send({"type": "ping"})
        client.until(lambda m: m["type"] == "pong")


def test_team_chat_reaches_only_the_teammate(server):
    """rv.2v2.communication: communication may be private between the players of a team."""
    table, seats, _tokens = four_humans(server)
    watcher = Seat(server.base, table)
    welcome = watcher.until(lambda m: m["type"] == "welcome")
    # spectators talk among themselves (issue 30), and read no team's private talk
    assert welcome["chat"]["channel"] == "spectators" and welcome["chat"]["history"] == []
    assert "private to their teams" in welcome["chat"]["rules"]
    seats[0].send({"type": "chat", "text": "take zone 2, their energy is there"})
    line = seats[1].until(lambda m: m["type"] == "chat")
    assert (line["seat"], line["channel"]) == (0, "team-a")
    seats[3].send({"type": "chat", "text": "I go left"})
    assert seats[2].until(lambda m: m["type"] == "chat")["text"] == "I go left"
    settle(*seats.values(), watcher)
    assert chats(seats[0]) == chats(seats[1]) == ["take zone 2, their energy is there"]
    assert chats(seats[2]) == chats(seats[3]) == ["I go left"]
    assert chats(watcher) == []
    later = Seat(server.base, table, 2, seats[2].token)  # the seat's token since it was taken
    welcome = later.until(lambda m: m["type"] == "welcome")
    assert welcome["chat"]["channel"] == "team-b"
    assert [m["text"] for m in welcome["chat"]["history"]] == ["I go left"]
    assert "Team talk (2vs2 rules)" in welcome["chat"]["rules"]
    assert "is not sent" in welcome["chat"]["rules"]


def test_team_chat_refuses_naming_a_card_that_could_be_in_your_hand(server):
    """rv.2v2.communication: cards in hand may not be shown or named between players of the
    same team. Refused messages reach nobody and are not kept."""
    table, seats, _tokens = four_humans(server)
    runtime = server.hub.tables[table]
    hand = runtime.state.view(0)["players"][0]["hand"]
    in_hand = CATALOG.cards[hand[0]].name
    seats[0].send({"type": "chat", "text": f"I have {in_hand.upper()} ready"})
    error = seats[0].error()
    assert error["code"] == "chat-refused"
    assert in_hand in error["message"] and "not sent" in error["message"]
    in_deck = next(c for c in CATALOG.fighters["zorro"].cards[:-1] if c.id not in hand)
    seats[0].send({"type": "chat", "text": f"no {in_deck.name} for me"})
    assert seats[0].error()["code"] == "chat-refused"  # could be in hand: refused as well
    seats[0].send({"type": "chat", "text": "their Curie ultra is still aside: La Marca is ours"})
    assert seats[1].until(lambda m: m["type"] == "chat")["seat"] == 0
    settle(*seats.values())
    assert chats(seats[1]) == ["their Curie ultra is still aside: La Marca is ours"]
    assert [m["text"] for m in runtime.chat_history(1)] == chats(seats[1])


def test_1v1_table_talk_reaches_the_rival_unfiltered(server):
    made = create_table(
        server.base,
        "rivales",
        [{"kind": "you"}, {"kind": "human"}],
        options={"fighters": ["zorro", "curie"]},
        seed=2,
    )
    tokens = {link["seat"]: link["token"] for link in made["links"]}
    zorro = Seat(server.base, made["id"], 0, tokens[0])
    curie = Seat(server.base, made["id"], 1, tokens[1])
    welcome = curie.until(lambda m: m["type"] == "welcome")
    assert welcome["chat"]["channel"] == "table"
    assert "bluffing" in welcome["chat"]["rules"]
    zorro.send({"type": "chat", "text": "I hold Latigazo, watch out"})  # a bluff, or not
    assert curie.until(lambda m: m["type"] == "chat")["text"] == "I hold Latigazo, watch out"


# -- bad messages ------------------------------------------------------------------------------


def runtime_snapshot(server, table):
    runtime = server.hub.tables[table]
    return (
        runtime.step,
        dict(runtime.partial),
        list(runtime.state.history),
        json.dumps(runtime.state.view(None)),
    )


@pytest.mark.parametrize(
    ("choice", "words"),
    [("marker:zorro.nada", "marker"), ("zone:1", "marker"), ("play:x", "rejected")],
)
def test_an_illegal_rivales_choice_is_refused_with_its_reason(server, choice, words):
    """The reason comes from the rules (``explain_illegal``): a life marker must be a card of
    your hand; no zone is called before the markers are down."""
    table, seats, _tokens = four_humans(server)
    seats[0].ready()
    before = runtime_snapshot(server, table)
    seats[0].send({"type": "choose", "step": 0, "choice": choice})
    error = seats[0].error()
    assert error["code"] == "illegal"
    assert words in error["message"]
    assert runtime_snapshot(server, table) == before


def test_out_of_turn_replayed_and_spectator_rivales_choices_are_refused(server):
    table, seats, _tokens = four_humans(server, seed=4)
    runtime = server.hub.tables[table]
    marker = seats[0].choose(lambda legal: legal[0])
    before = runtime_snapshot(server, table)
    seats[0].send({"type": "choose", "step": 0, "choice": marker})  # the same message again
    assert seats[0].error()["code"] == "already-chosen"
    assert runtime_snapshot(server, table) == before
    for s in (1, 2, 3):
        seats[s].choose(lambda legal: legal[-1])
    step = seats[0].at_step(1)["step"]
    callers = {d.seat for d in runtime.state.pending()}
    assert {d.kind for d in runtime.state.pending()} == {"zones"} and len(callers) == 2
    idle = next(s for s in (0, 1) if s not in callers)  # the partner who does not call
    before = runtime_snapshot(server, table)
    seats[idle].send({"type": "choose", "step": step, "choice": "zone:1"})
    assert seats[idle].error()["code"] == "not-your-turn"
    seats[0].send({"type": "choose", "step": 0, "choice": marker})  # a replay of step 0
    assert seats[0].error()["code"] == "stale"
    spectator = Seat(server.base, table)
    spectator.send({"type": "choose", "step": step, "choice": "zone:1"})
    assert spectator.error()["code"] == "spectator"
    assert runtime_snapshot(server, table) == before


def test_every_rivales_decision_carries_a_label_per_legal_choice(server):
    table, seats, _tokens = four_humans(server, seed=6)
    state = seats[0].ready()
    decision = state["decision"]
    assert decision["kind"] == "marker"
    assert len(decision["labels"]) == len(decision["legal"]) == 5
    assert all(label.startswith("Cover your life bar with ") for label in decision["labels"])
    assert table
