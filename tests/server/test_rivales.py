"""Rivales: Capítulo 1 – Justicia at the web table, 1vs1 and 2vs2: the lobby, the cards, choice
labels, whole games over WebSockets in which no seat is sent another seat's hidden cards (in
2vs2 not even its partner's), the private team chat with the companion's limits, bad messages
refused with the state unchanged, and a game surviving SIGKILL."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import httpx
import pytest

from kumite.games.rivales.game import GAME
from kumite.games.rivales.labels import choice_labels
from kumite.games.rivales.state import RivalesState
from kumite.games.rivales.table import HIDDEN
from tests.server.live import ProcessServer, Seat, create_table, drive, logged

CATALOG = GAME.catalog()
FIGHTERS_2V2 = ["zorro", "curie", "mulan", "sombrerero"]


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
        "pinzas",
        "pinzas_dodge",
        "exchanged_card",
        "zone_order",
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
        "pinzas": "zone",
        "pinzas_dodge": "stands",
        "exchanged_card": "values",
        "zone_order": "winner",
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


def test_the_rivales_renderer_and_its_styles_are_served(server):
    script = httpx.get(server.base + "/static/games/rivales/table.js")
    assert script.status_code == 200
    assert "export function render(" in script.text
    assert "export function renderView(" in script.text
    assert httpx.get(server.base + "/static/games/rivales/rivales.css").status_code == 200


# -- whole games over WebSockets ---------------------------------------------------------------


def replayed(runtime) -> list[RivalesState]:
    """The table's state after each of its steps (index = step), replayed from the seed."""
    state = GAME.new_state(runtime.seed, runtime.options)
    states = [state.clone()]
    for choices in runtime.state.history:
        state.apply(choices)
        states.append(state.clone())
    return states


def hidden_ids(state: RivalesState, seat: int | None) -> set[str]:
    """The other seats' unique and ultra cards ``seat`` cannot see now: hands, decks, life
    markers, cards played face down (basic cards are in every deck: their ids say nothing),
    but for those the table saw go into a hand (an ultra taken face up)."""
    own = set() if seat is None or state.fighters[seat] is None else state.fighter(seat).by_id
    out: set[str] = set()
    for other in state.seats:
        if other == seat or state.fighters[other] is None:
            continue
        cards = list(state.hand[other]) + list(state.deck[other])
        marker = state.marker[other]
        if marker is not None:
            cards.append(marker)
        cards += [
            slot.card
            for zone in state.lines
            for line in zone
            for slot in line
            if slot.owner == other and slot.side == HIDDEN
        ]
        known = state.known.get((seat, other), set()) if seat is not None else set()
        known = known | state.public_held(other)  # an ultra taken into hand face up
        out |= {c.id for c in cards if not c.is_basic and c.id not in known and c.id not in own}
    return out


PRIVATE_FIELDS = {"CardsDrawn": "cards", "LifeMarkerChosen": "card", "HandShown": "cards"}


def check_messages(client: Seat, runtime, states: list[RivalesState]) -> int:
    """Everything ``client`` was sent is what its seat may know, and no more:

    * each view equals the seat's view of the table at that step *and* the view of a copy in
      which everything the seat cannot see (the other seats' hands, decks, life markers and
      face-down cards — its partner's too — and every deck order) was resampled;
    * the labels of each decision are those of the seat's own choices, the same in the copy;
    * no update names an unseen unique or ultra card of another seat;
    * the events are exactly those of the table's log the seat may see; a private event
      names only the seat's own cards, or a hand shown to it; public twins name none.
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
        text = json.dumps(snap)
        for card_id in hidden_ids(state, seat):
            assert f'"{card_id}"' not in text, (seat, snap["step"], card_id)
        for other in snap["view"]["players"]:
            if other["seat"] != seat:
                assert "hand" not in other and "marker" not in other
        decision = snap["decision"]
        if decision is not None:
            (mine,) = [d for d in twin.pending() if d.seat == seat]
            assert decision["legal"] == list(mine.legal)
            assert decision["labels"] == choice_labels(mine.legal, CATALOG, twin.view(seat))
        for pending in snap["view"]["pending"]:
            assert ("legal" in pending) == (pending["seat"] == seat)
        events += message["events"]
    expected = [data for event, data in logged(runtime) if event.visible_to(seat)]
    assert events == expected
    fighters = [f.id if f else None for f in runtime.state.fighters]
    for event in events:
        field = PRIVATE_FIELDS.get(event["type"])
        if field is None:
            continue
        value = event[field]
        ids = [] if value is None else [value] if isinstance(value, str) else value
        if "to" not in event:
            assert ids == [], event  # the public twin names no card
            continue
        assert event["to"] == [seat], event
        owner = event["seat"]
        assert owner == seat or (event["type"] == "HandShown" and event["to_seat"] == seat)
        assert all(i.startswith(("basic.", f"{fighters[owner]}.")) for i in ids), event
    return updates


def lluvia_first(rng: random.Random):
    """Random choices, but the Sombrerero shows their hand whenever they can."""

    def pick(seat: int, legal: list[str]) -> str:
        if "play:sombrerero.lluvia" in legal:
            return "play:sombrerero.lluvia"
        return rng.choice(legal)

    return pick


def play_whole_game(server, mode: str, fighters: list[str], seed: int) -> tuple[Any, dict, Seat]:
    n = len(fighters)
    made = create_table(
        server.base,
        "rivales",
        [{"kind": "you"}] + [{"kind": "human"}] * (n - 1),
        options={"fighters": fighters},
        seed=seed,
    )
    table = made["id"]
    tokens = {link["seat"]: link["token"] for link in made["links"]}
    seats = {s: Seat(server.base, table, s, tokens[s]) for s in range(n)}
    watcher = Seat(server.base, table)
    for s in seats.values():
        s.until(lambda m: m["type"] == "update")
    steps = drive(seats, lluvia_first(random.Random(seed)), limit=3000)
    runtime = server.hub.tables[table]
    assert runtime.finished and steps
    for client in (*seats.values(), watcher):
        client.at_step(runtime.step)
    return runtime, seats, watcher


def test_a_whole_1v1_fight_sends_no_seat_the_other_seats_hidden_cards(server):
    runtime, seats, watcher = play_whole_game(server, "1v1", ["sombrerero", "curie"], seed=21)
    outcome = runtime.state.outcome.to_json()
    assert seats[0].state["outcome"] == outcome
    assert outcome["mode"] == "1v1" and len(outcome["rounds_won"]) == 2
    states = replayed(runtime)
    for client in (*seats.values(), watcher):
        assert check_messages(client, runtime, states) > 20
    assert not seats[0].errors and not seats[1].errors


def test_a_whole_2v2_fight_sends_no_seat_its_partners_or_rivals_hidden_cards(server):
    """rv.2v2.communication: cards in hand may not be shown or named between players of the
    same team — the server never sends a seat its partner's hand either; Lluvia de Sombreros
    shows the Sombrerero's hand to the faced rival only."""
    runtime, seats, watcher = play_whole_game(server, "2v2", FIGHTERS_2V2, seed=5)
    outcome = runtime.state.outcome.to_json()
    assert outcome["mode"] == "2v2"
    assert seats[2].state["outcome"] == outcome
    states = replayed(runtime)
    for client in (*seats.values(), watcher):
        assert check_messages(client, runtime, states) > 20
    shown = [e for e, _ in logged(runtime) if e.kind == "HandShown" and e.to is not None]
    assert shown, "the Sombrerero (seat 4) showed a hand at least once"
    for event in shown:
        assert event.to == frozenset({event.to_seat}) and event.seat == 3
    for seat, client in seats.items():
        private = [
            e
            for m in map(json.loads, client.raw)
            if m["type"] == "update"
            for e in m["events"]
            if e["type"] == "HandShown" and e["cards"]
        ]
        # a hand shown to the faced rival reaches no one else, its partner included
        assert all(e["to_seat"] == seat for e in private), seat
    for client in seats.values():
        assert not client.errors


# -- the team chat -----------------------------------------------------------------------------


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
    table, seats, tokens = four_humans(server)
    watcher = Seat(server.base, table)
    welcome = watcher.until(lambda m: m["type"] == "welcome")
    assert welcome["chat"] == {"channel": None, "rules": None, "history": []}
    seats[0].send({"type": "chat", "text": "take zone 2, their energy is there"})
    line = seats[1].until(lambda m: m["type"] == "chat")
    assert (line["seat"], line["channel"]) == (0, "team-a")
    seats[3].send({"type": "chat", "text": "I go left"})
    assert seats[2].until(lambda m: m["type"] == "chat")["text"] == "I go left"
    settle(*seats.values(), watcher)
    assert chats(seats[0]) == chats(seats[1]) == ["take zone 2, their energy is there"]
    assert chats(seats[2]) == chats(seats[3]) == ["I go left"]
    assert chats(watcher) == []
    later = Seat(server.base, table, 2, tokens[2])
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
    ("message", "code", "words"),
    [
        ("{nope", "malformed", "not valid JSON"),
        (json.dumps({"type": "choose", "step": 0}), "malformed", "bad message"),
        (json.dumps({"type": "choose", "step": 2, "choice": "marker:basic.golpe"}), "stale", ""),
        (
            json.dumps({"type": "choose", "step": 0, "choice": "marker:zorro.nada"}),
            "illegal",
            "marker",
        ),
        (json.dumps({"type": "choose", "step": 0, "choice": "zone:1"}), "illegal", "marker"),
        (json.dumps({"type": "choose", "step": 0, "choice": "play:x"}), "illegal", "rejected"),
    ],
)
def test_bad_rivales_messages_are_refused_and_change_nothing(server, message, code, words):
    table, seats, _tokens = four_humans(server)
    seats[0].ready()
    before = runtime_snapshot(server, table)
    seats[0].send(message)
    error = seats[0].error()
    assert error["code"] == code
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


# -- durability --------------------------------------------------------------------------------


def test_a_rivales_2v2_game_survives_the_server_being_killed(database_url):
    """SIGKILL mid-clash with one seat's simultaneous choice acknowledged: the table resumes at
    the last acknowledged choice, the bots play on, and the fight ends exactly as the engine
    replaying the same choices says."""
    live = ProcessServer(database_url)
    live.start()
    try:
        made = create_table(
            live.base,
            "rivales",
            [
                {"kind": "you"},
                {"kind": "bot", "agent": "greedy"},
                {"kind": "human"},
                {"kind": "bot", "agent": "random"},
            ],
            options={"fighters": ["hansel-gretel", "darwin", "curie", None]},
            seed=19,
        )
        table = made["id"]
        tokens = {link["seat"]: link["token"] for link in made["links"]}
        me = Seat(live.base, table, 0, tokens[0])
        rival = Seat(live.base, table, 2, tokens[2])
        me.choose(lambda legal: legal[0])  # my life marker: acknowledged, the rival's not yet
        rival.ready()
        view, step = rival.state["view"], rival.state["step"]
        assert rival.state["decision"]["kind"] == "marker"
        live.kill()
        live.start()
        me = Seat(live.base, table, 0, tokens[0])
        again = me.until(lambda m: m["type"] == "update")["state"]
        assert (again["step"], again["submitted"]) == (step, True)  # the acknowledged half
        rival = Seat(live.base, table, 2, tokens[2])
        resumed = rival.ready()
        assert resumed["step"] == step and resumed["view"]["players"] == view["players"]
        drive({0: me, 2: rival}, lluvia_first(random.Random(2)), limit=3000)
        record = httpx.get(f"{live.base}/api/tables/{table}/record").json()
    finally:
        live.stop()
    engine = GAME.new_state(19, record["options"])
    for choices in record["steps"]:
        engine.apply({int(seat): choice for seat, choice in choices.items()})
    assert engine.outcome is not None
    assert me.state["outcome"] == engine.outcome.to_json()
    assert record["options"]["mode"] == "2v2"
