"""The Street Fighter Deck-Building Game at the web table: the lobby, the cards, choice labels,
whole games over WebSockets in which no seat is sent another seat's hidden cards, and bad
messages refused with the state unchanged."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx
import pytest

from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.labels import choice_labels
from tests.server.live import ProcessServer, Seat, create_table, drive, logged

CATALOG = GAME.catalog()


def games(server) -> dict[str, Any]:
    return {g["id"]: g for g in httpx.get(f"{server.base}/api/games").json()}


def test_the_lobby_offers_2_to_5_seats_a_super_hero_each_and_the_variants(server):
    dbg = games(server)["sfdbg"]
    assert (dbg["min_players"], dbg["max_players"]) == (2, 5)
    assert dbg["seat_counts"] == [2, 3, 4, 5]
    field = dbg["seat_field"]
    assert field["option"] == "heroes"
    assert field["any"] == "dealt at random"
    assert len(field["choices"]) == len(CATALOG.heroes) == 14
    assert {"id": "ryu", "name": "Ryu"} in field["choices"]
    options = {o["name"]: o for o in dbg["options"]}
    assert options["variant"]["choices"] == ["standard", "high-powered", "secret-heroes"]
    assert options["variant"]["default"] == "standard"
    assert options["round_limit"] == {
        "name": "round_limit",
        "type": "int",
        "default": 60,
        "doc": options["round_limit"]["doc"],
    }
    assert "sfdbg.ruling.round-limit" in options["round_limit"]["doc"]
    assert "players" not in options  # set from the seats
    assert {"random", "greedy", "priority"} <= {a["name"] for a in dbg["agents"]}


def test_a_table_has_as_many_players_as_seats_and_the_chosen_super_heroes(server):
    seats = [{"kind": "you"}, *[{"kind": "bot", "agent": "random"}] * 3]
    made = create_table(
        server.base, "sfdbg", seats, options={"heroes": [None, "ryu", None, "ken"]}, seed=4
    )
    state = server.hub.tables[made["id"]].state
    assert state.options_json["players"] == 4
    heroes = [p["hero"] for p in state.view(None)["players"]]
    assert heroes[1] == "ryu" and heroes[3] == "ken"
    assert len(set(heroes)) == 4
    random_heroes = create_table(
        server.base, "sfdbg", seats[:2], options={"heroes": [None, None], "round_limit": 5}
    )
    options = server.hub.tables[random_heroes["id"]].state.options_json
    assert options == {"players": 2, "variant": "standard", "round_limit": 5}


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"heroes": ["ryu", "ryu"]}, "only one player"),
        ({"heroes": ["goku", None]}, "unknown Super Hero 'goku'"),
        ({"heroes": ["ryu", None], "variant": "secret-heroes"}, "Secret Heroes"),
        ({"variant": "easy"}, "sfdbg options"),
        ({"round_limit": 0}, "round_limit must be at least 1"),
    ],
)
def test_bad_sfdbg_tables_get_clear_errors(server, options, words):
    body = {"game": "sfdbg", "seats": [{"kind": "you"}, {"kind": "bot"}], "options": options}
    response = httpx.post(f"{server.base}/api/tables", json=body)
    assert response.status_code == 400
    assert words in response.json()["detail"]


def test_six_seats_are_refused(server):
    body = {"game": "sfdbg", "seats": [{"kind": "you"}] + [{"kind": "bot"}] * 5}
    response = httpx.post(f"{server.base}/api/tables", json=body)
    assert response.status_code == 400
    assert "needs 2-5 seats" in response.json()["detail"]


def test_the_cards_endpoint_lists_every_card_and_super_hero_with_provenance(server):
    made = create_table(server.base, "sfdbg", [{"kind": "you"}, {"kind": "bot"}])
    data = httpx.get(f"{server.base}/api/tables/{made['id']}/cards").json()
    assert set(data["cards"]) == {c.id for c in CATALOG.cards}
    assert sum(c["copies"] for c in data["cards"].values()) == 221
    assert set(data["heroes"]) == {h.id for h in CATALOG.heroes}
    hadoken = data["cards"]["hadoken"]
    assert (hadoken["name"], hadoken["cost"], hadoken["vp"]) == ("Hadoken", 6, 2)
    assert hadoken["provenance"]["text"]["from"] == "reconstructed"
    assert hadoken["provenance"]["cost"]["from"].startswith("source:")
    assert data["cards"]["kick"]["provenance"]["text"]["from"] == "estimate"
    assert data["heroes"]["akuma"]["counter_attack"].startswith("Counter-Attack:")
    assert data["heroes"]["akuma"]["provenance"]["counter_attack"]["from"] == "reconstructed"
    assert set(data["legend"]) == {"estimate", "reconstructed"}


# -- whole games over WebSockets ---------------------------------------------------------------

DRAWN_BY = re.compile(r"Player (\d) draws \d+ cards?: ")


def replayed(runtime) -> list[Any]:
    """The table's state after each of its steps (index = step), replayed from the seed."""
    state = GAME.new_state(runtime.seed, runtime.options)
    states = [state.clone()]
    for choices in runtime.state.history:
        state.apply(choices)
        states.append(state.clone())
    return states


def check_messages(client: Seat, runtime, states: list[Any]) -> int:
    """Everything ``client`` was sent is what its seat may know, and no more:

    * each view equals the seat's view of the table at that step, *and* the view of a copy
      of that state in which everything the seat cannot see (other hands, every deck order,
      the main deck, the Super Hero stack) was resampled -- so no view depends on it;
    * the labels of each decision are those of the seat's own choices, and they too are the
      same in the resampled copy;
    * the events are exactly those of the table's log the seat may see, in order, and no
      other player's drawn cards are named.
    Returns the number of updates checked."""
    seat = client.seat
    rng = random.Random(7)
    events: list[dict[str, Any]] = []
    updates = 0
    for raw in client.raw:
        message = json.loads(raw)
        if message["type"] != "update":
            continue
        updates += 1
        snap = message["state"]
        state = states[snap["step"]]
        twin = state.determinize(seat, rng) if seat is not None else state
        assert snap["view"] == state.view(seat) == twin.view(seat)
        for other in runtime.state.view(None)["players"]:
            if other["seat"] != seat:
                assert "hand" not in snap["view"]["players"][other["seat"]]
        decision = snap["decision"]
        if decision is not None:
            (mine,) = [d for d in twin.pending() if d.seat == seat]
            assert decision["legal"] == list(mine.legal)
            assert decision["labels"] == choice_labels(mine.legal, CATALOG, twin.view(seat))
        for pending in snap["view"]["pending"]:
            assert ("legal" in pending) == (pending["seat"] == seat)
        events += message["events"]
        for found in DRAWN_BY.findall(raw):
            assert int(found) - 1 == seat
    expected = [data for event, data in logged(runtime) if event.visible_to(seat)]
    assert events == expected
    return updates


def sensible(rng: random.Random):
    """A quick human: plays the Power cards, challenges, buys what it can, else anything."""

    def pick(seat: int, legal: list[str]) -> str:
        for wanted in ("play-power", "challenge"):
            if wanted in legal:
                return wanted
        plays = [c for c in legal if c.startswith("play:")]
        buys = [c for c in legal if c.startswith("buy:")]
        if plays:
            return rng.choice(plays)
        if buys:
            return rng.choice(buys)
        return rng.choice(legal)

    return pick


@pytest.mark.parametrize(
    ("variant", "round_limit"), [("standard", 60), ("secret-heroes", 6), ("high-powered", 6)]
)
def test_a_whole_3_player_game_sends_no_seat_another_seats_hidden_cards(
    server, variant, round_limit
):
    made = create_table(
        server.base,
        "sfdbg",
        [{"kind": "you"}, {"kind": "human"}, {"kind": "bot", "agent": "greedy"}],
        options={"variant": variant, "round_limit": round_limit},
        seed=13,
    )
    table = made["id"]
    tokens = {link["seat"]: link["token"] for link in made["links"]}
    seats = {0: Seat(server.base, table, 0, tokens[0]), 1: Seat(server.base, table, 1, tokens[1])}
    watcher = Seat(server.base, table)
    seats[0].until(lambda m: m["type"] == "update")
    steps = drive(seats, sensible(random.Random(3)), limit=5000)
    runtime = server.hub.tables[table]
    assert runtime.finished and steps
    final = runtime.step
    for client in (*seats.values(), watcher):
        client.at_step(final)
    assert seats[0].state["outcome"] == runtime.state.outcome.to_json()
    assert len(seats[0].state["outcome"]["returns"]) == 3
    states = replayed(runtime)
    for client in (*seats.values(), watcher):
        assert check_messages(client, runtime, states) > len(steps)
    assert not seats[0].errors and not seats[1].errors


# -- bad messages ------------------------------------------------------------------------------


def two_humans(server) -> tuple[str, Seat, Seat]:
    made = create_table(
        server.base,
        "sfdbg",
        [{"kind": "you"}, {"kind": "human"}],
        options={"heroes": ["ryu", "ken"], "first_player": 0},
        seed=5,
    )
    tokens = {link["seat"]: link["token"] for link in made["links"]}
    table = made["id"]
    return table, Seat(server.base, table, 0, tokens[0]), Seat(server.base, table, 1, tokens[1])


def runtime_snapshot(server, table):
    runtime = server.hub.tables[table]
    return (runtime.step, json.dumps(runtime.state.view(None)), list(runtime.state.history))


@pytest.mark.parametrize(
    ("message", "code", "words"),
    [
        ("[1, 2", "malformed", "not valid JSON"),
        (json.dumps({"type": "choose", "step": 0}), "malformed", "bad message"),
        (json.dumps({"type": "choose", "step": 0, "choice": "play:hadoken"}), "illegal", "hand"),
        (json.dumps({"type": "choose", "step": 0, "choice": "challenge"}), "illegal", "Power"),
        (
            json.dumps({"type": "choose", "step": 0, "choice": "buy:kick"}),
            "illegal",
            "a Kick costs 3",
        ),
        (json.dumps({"type": "choose", "step": 0, "choice": "foe:1"}), "illegal", "legal"),
        (json.dumps({"type": "choose", "step": 3, "choice": "end"}), "stale", "step 3"),
    ],
)
def test_bad_sfdbg_messages_are_refused_and_change_nothing(server, message, code, words):
    table, first, _second = two_humans(server)
    first.ready()
    before = runtime_snapshot(server, table)
    first.send(message)
    error = first.error()
    assert error["code"] == code
    assert words in error["message"]
    assert runtime_snapshot(server, table) == before


def test_out_of_turn_and_replayed_sfdbg_choices_are_refused(server):
    table, first, second = two_humans(server)
    first.ready()
    second.until(lambda m: m["type"] == "update")
    assert second.state["decision"] is None  # Player 1 goes first
    before = runtime_snapshot(server, table)
    second.send({"type": "choose", "step": 0, "choice": "end"})
    assert second.error()["code"] == "not-your-turn"
    assert runtime_snapshot(server, table) == before
    first.choose(lambda legal: "play-power")
    step = first.ready()["step"]
    before = runtime_snapshot(server, table)
    first.send({"type": "choose", "step": 0, "choice": "play-power"})  # the same message again
    assert first.error()["code"] == "stale"
    assert runtime_snapshot(server, table) == before
    first.choose(lambda legal: "end")
    assert second.ready()["decision"]["kind"] == "turn"
    before = runtime_snapshot(server, table)
    first.send({"type": "choose", "step": step + 1, "choice": "end"})
    assert first.error()["code"] == "not-your-turn"
    assert runtime_snapshot(server, table) == before


def test_every_decision_carries_a_label_per_legal_choice(server):
    table, first, second = two_humans(server)
    state = first.ready()
    decision = state["decision"]
    assert len(decision["labels"]) == len(decision["legal"])
    labels = dict(zip(decision["legal"], decision["labels"], strict=True))
    assert labels["end"] == "End your turn"
    me = next(p for p in state["view"]["players"] if "hand" in p)
    punches = me["hand"].count("punch")  # move lists show the copies held
    assert labels["play:punch"] == ("Play Punch" if punches == 1 else f"Play Punch (×{punches})")
    assert labels["play-power"] == "Play every card in your hand that only gives Power"
    second.until(lambda m: m["type"] == "update")
    assert second.state["decision"] is None
    assert "labels" not in json.dumps(second.raw)
    assert table


def test_the_sfdbg_renderer_and_its_styles_are_served(server):
    for path in ("/static/games/sfdbg/table.js", "/static/games/sfdbg/sfdbg.css"):
        response = httpx.get(server.base + path)
        assert response.status_code == 200, path
    assert "export function render(" in httpx.get(server.base + "/static/games/sfdbg/table.js").text
    assert (
        "export function renderView("
        in httpx.get(server.base + "/static/games/sfdbg/table.js").text
    )


def test_an_sfdbg_game_survives_the_server_being_killed(database_url):
    """SIGKILL mid-game: the table resumes at the last acknowledged choice, the bot plays on,
    and the game ends exactly as the engine replaying the same choices says."""
    live = ProcessServer(database_url)
    live.start()
    try:
        made = create_table(
            live.base,
            "sfdbg",
            [{"kind": "you"}, {"kind": "bot", "agent": "greedy"}, {"kind": "human"}],
            options={"round_limit": 3, "first_player": 0},
            seed=17,
        )
        table = made["id"]
        tokens = {link["seat"]: link["token"] for link in made["links"]}
        me = Seat(live.base, table, 0, tokens[0])
        me.choose(lambda legal: "play-power")
        view = me.ready()["view"]
        step = me.state["step"]
        live.kill()
        live.start()
        me = Seat(live.base, table, 0, tokens[0])
        again = me.ready()
        assert again["step"] == step
        assert again["view"] == view
        friend = Seat(live.base, table, 2, tokens[2])
        drive({0: me, 2: friend}, sensible(random.Random(1)), limit=2000)
        record = httpx.get(f"{live.base}/api/tables/{table}/record").json()
    finally:
        live.stop()
    engine = GAME.new_state(17, record["options"])
    for choices in record["steps"]:
        engine.apply({int(seat): choice for seat, choice in choices.items()})
    assert engine.outcome is not None
    assert me.state["outcome"] == engine.outcome.to_json()
