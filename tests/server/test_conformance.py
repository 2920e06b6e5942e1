"""The server conformance suite: every registered game at the web table (issue 29).

Run over every game the registry finds — kumite's own and any installed beside it (the toy
game of ``tests/plugins``) — and each number of seats it takes (its teams as declared), as
Pgx runs one shared test over every game. Each test names what the server promises for any
game: no seat is sent what it may not see, every decision comes with its labels, a bad
message changes nothing, a resignation loses for the resigning seat's whole team, and a game
survives the server being killed. A game adds its own tables, players and checks in
``tests/games/<id>/conformance.py`` (tests/conformance.py); its own server tests (its lobby
form, its cards, its chat) live in ``tests/games/<id>/test_table.py``.
"""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import Any

import httpx
import pytest

from kumite.core.choice import labels_of
from kumite.core.game import State
from kumite.core.registry import game_ids, get_spec
from tests.conformance import Table, hooks, people, seat_counts, tables
from tests.server.live import ProcessServer, Seat, create_table, drive, logged
from tests.server.test_players import as_player, new_player

CASES = [(g, t) for g in game_ids() for t in tables(g)]
SEATED = [(g, n) for g in game_ids() for n in seat_counts(g)]


def case_id(case: tuple[str, Any]) -> str:
    game, table = case
    return f"{game}-{table.id if isinstance(table, Table) else table}"


def humans(server: Any, game: str, table: Table) -> tuple[str, dict[int, Seat]]:
    """A table of ``table`` whose every seat is a person, each connected."""
    made = create_table(
        server.base,
        game,
        [{"kind": "you"}] + [{"kind": "human"}] * (table.seats - 1),
        options=dict(table.options),
        seed=table.seed,
    )
    tokens = {link["seat"]: link["token"] for link in made["links"]}
    seats = {s: Seat(server.base, made["id"], s, tokens[s]) for s in range(table.seats)}
    for client in seats.values():
        client.until(lambda m: m["type"] == "update")
    return made["id"], seats


def replayed(runtime: Any) -> list[State]:
    """The table's state after each of its steps (index = step), replayed from the seed."""
    state = runtime.game.new_state(runtime.seed, runtime.options)
    states = [state.clone()]
    for choices in runtime.state.history:
        state.apply(choices)
        states.append(state.clone())
    return states


def check_messages(game: str, client: Seat, runtime: Any, states: list[State]) -> int:
    """Everything ``client`` was sent is what its seat may know, and no more:

    * each view equals the seat's view of the table at that step *and* the view of a copy
      in which everything the seat cannot see (other hands, deck orders, hidden cards — a
      partner's too) was resampled, so no view depends on it;
    * its decision is its own pending one, the same in the copy, with the game's label for
      each legal choice, built from the seat's view (a game with no labels face the generic
      ones), and one entry of ``choices`` per legal choice;
    * a view's pending decisions show their legal choices to their own seat only;
    * the events are exactly those of the table's log the seat may see, in order;
    * and whatever the game's own ``check_update`` adds.
    Returns the number of updates checked."""
    spec = get_spec(game)
    labeler = labels_of(
        None if spec.labels is None else spec.labels.load()(runtime.game, runtime.options)
    )
    check = hooks(game).check_update
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
        decision = snap["decision"]
        if decision is not None:
            (mine,) = [d for d in twin.pending() if d.seat == seat]
            assert (decision["kind"], decision["legal"]) == (mine.kind, list(mine.legal))
            assert decision["labels"] == labeler(twin.view(seat), mine.legal)
            assert [c["id"] for c in decision["choices"]] == decision["legal"]
        for pending in snap["view"].get("pending", ()):
            assert ("legal" in pending) == (pending["seat"] == seat)
        if check is not None:
            check(seat, state, snap, raw)
        events += message["events"]
    expected = [data for event, data in logged(runtime) if event.visible_to(seat)]
    assert events == expected
    return updates


@pytest.mark.parametrize(("game", "table"), CASES, ids=list(map(case_id, CASES)))
def test_a_whole_game_sends_each_seat_only_what_it_may_see(server, game, table):
    """A whole game between people, watched by a spectator: every update of every client is
    what its seat may see and no more (:func:`check_messages`), and the result is the
    game's."""
    table_id, seats = humans(server, game, table)
    watcher = Seat(server.base, table_id)
    steps = drive(seats, people(game, random.Random(table.seed)), limit=5000)
    runtime = server.hub.tables[table_id]
    assert runtime.finished and steps
    for client in (*seats.values(), watcher):
        client.at_step(runtime.step)
    outcome = runtime.state.outcome.to_json()
    assert seats[0].state["outcome"] == watcher.state["outcome"] == outcome
    assert len(outcome["returns"]) == table.seats
    states = replayed(runtime)
    for client in (*seats.values(), watcher):
        assert check_messages(game, client, runtime, states) > len(runtime.state.history)
    check = hooks(game).check_game
    if check is not None:
        check(runtime, seats)
    for client in seats.values():
        assert not client.errors


def snapshot(server, table_id: str) -> tuple[Any, ...]:
    runtime = server.hub.tables[table_id]
    return (
        runtime.step,
        dict(runtime.partial),
        list(runtime.state.history),
        json.dumps(runtime.state.view(None)),
    )


@pytest.mark.parametrize(("game", "seats"), SEATED, ids=[f"{g}-{n}" for g, n in SEATED])
def test_bad_messages_are_refused_in_one_line_and_change_nothing(server, game, seats):
    """Bad input (docs/protocol.md): not JSON, no choice, a stale step, a choice that is not
    legal, a choice out of turn or made twice, a replay of an earlier step, a spectator's
    choice — each is refused with its code and a one-line message, and the table is as it
    was."""
    table_id, clients = humans(server, game, Table(seats))
    runtime = server.hub.tables[table_id]
    deciding = [d.seat for d in runtime.state.pending()]
    me = clients[deciding[0]]
    legal = me.ready()["decision"]["legal"][0]
    refused = [
        ("{nope", "malformed", "not valid JSON"),
        (json.dumps({"type": "choose", "step": 0}), "malformed", "bad message"),
        (json.dumps({"type": "choose", "step": 7, "choice": legal}), "stale", "step 7"),
        (json.dumps({"type": "choose", "step": 0, "choice": "no-such-choice"}), "illegal", ""),
    ]
    for message, code, words in refused:
        before = snapshot(server, table_id)
        me.send(message)
        error = me.error()
        assert error["code"] == code, (message, error)
        assert words in error["message"] and "\n" not in error["message"]
        assert snapshot(server, table_id) == before
    idle = next((s for s in clients if s not in deciding), None)
    if idle is not None:  # a seat with nothing to decide now
        before = snapshot(server, table_id)
        clients[idle].send({"type": "choose", "step": 0, "choice": legal})
        assert clients[idle].error()["code"] == "not-your-turn"
        assert snapshot(server, table_id) == before
    spectator = Seat(server.base, table_id)
    before = snapshot(server, table_id)
    spectator.send({"type": "choose", "step": 0, "choice": legal})
    assert spectator.error()["code"] == "spectator"
    assert snapshot(server, table_id) == before
    choice = me.choose(lambda legal: legal[0])
    before = snapshot(server, table_id)
    me.send({"type": "choose", "step": 0, "choice": choice})  # the same message again
    assert me.error()["code"] in ("already-chosen", "stale")
    assert snapshot(server, table_id) == before


@pytest.mark.parametrize(("game", "seats"), SEATED, ids=[f"{g}-{n}" for g, n in SEATED])
def test_resigning_loses_the_game_for_the_resigning_seats_whole_team(server, game, seats):
    """kumite.ruling.resign: the resigning seat's side — its team as the game declares it
    (``State.teams``; the seat alone where it plays alone) — loses, every other seat wins."""
    me = new_player(server.base, "Resigner")
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": game, "seats": [{"kind": "you"}] + [{"kind": "human"}] * (seats - 1)},
        headers=as_player(me),
    ).json()
    state = server.hub.tables[made["id"]].state
    resigned = httpx.post(
        f"{server.base}/api/tables/{made['id']}/resign", json={"seat": 0}, headers=as_player(me)
    ).json()["outcome"]
    losers = set(state.team(0))
    assert resigned["winners"] == [s for s in state.players if s not in losers]
    assert resigned["returns"] == [-1.0 if s in losers else 1.0 for s in state.players]


@pytest.mark.parametrize("game", game_ids())
def test_tables_of_a_seat_count_the_game_does_not_take_are_refused(server, game):
    """A table needs a number of seats the game takes: one fewer than the least, one more
    than the most (or a count between its modes) is a 400 with a one-line reason."""
    info = get_spec(game).load().info
    takes = seat_counts(game)
    for n in {info.min_players - 1, info.max_players + 1} | (set(range(2, 7)) - set(takes)):
        if n < 1:
            continue
        body = {"game": game, "seats": [{"kind": "you"}] + [{"kind": "bot"}] * (n - 1)}
        response = httpx.post(f"{server.base}/api/tables", json=body)
        assert response.status_code == 400, n
        assert response.json()["detail"] and "\n" not in response.json()["detail"]


@pytest.mark.parametrize("game", game_ids())
def test_the_lobby_form_is_the_games_declaration(server, game):
    """The lobby's data for a game come from what it declares: the seat counts it takes, the
    teams of each (where a team has several seats: ``State.teams``, never a guess), and every
    option a form can hold — numbers, yes-or-no, text and choices."""
    spec = get_spec(game)
    data = next(g for g in httpx.get(f"{server.base}/api/games").json() if g["id"] == game)
    assert data["seat_counts"] == seat_counts(game)
    for n in seat_counts(game):
        teams = spec.load().new_state(0, spec.with_seats({}, n)).teams
        grouped = [list(t) for t in teams] if any(len(t) > 1 for t in teams) else None
        assert data.get("teams", {}).get(str(n)) == grouped
    declared = spec.option_fields(tuple(data["set_by_table"]))
    assert [o["name"] for o in data["options"]] == [f.name for f in declared if f.kind != "other"]


@pytest.mark.parametrize("game", [g for g in game_ids() if get_spec(g).web is not None])
def test_a_games_own_browser_files_are_served(server, game):
    """A game's browser face (its spec's ``web`` package): each of its scripts and styles is
    served at /static/games/<id>/, its table.js exporting ``renderView`` (docs/protocol.md,
    "Game renderers"; the page redraws, the shared static/js/face.js builds its context)."""
    folder = resources.files(get_spec(game).web)
    names = [f.name for f in folder.iterdir() if f.name.endswith((".js", ".css"))]
    assert "table.js" in names
    for name in names:
        response = httpx.get(f"{server.base}/static/games/{game}/{name}")
        assert response.status_code == 200, name
    script = httpx.get(f"{server.base}/static/games/{game}/table.js").text
    assert "export function renderView(" in script


def settled(watcher: Seat, people_seats: set[int]) -> dict[str, Any]:
    """Wait until the table waits for people alone (the bots have played), and return the
    watcher's state then."""
    while True:
        state = watcher.state
        if state is not None and (state["outcome"] or set(state["waiting"]) <= people_seats):
            return state
        watcher.until(lambda m: m["type"] == "update")


@pytest.mark.slow
@pytest.mark.parametrize("game", game_ids())
def test_a_game_survives_the_server_being_killed(database_url, game):
    """SIGKILL with a choice acknowledged (in a simultaneous step, before the other people
    have chosen): the restarted server resumes every seat at the last acknowledged choice,
    the bots play on, and the game ends exactly as the engine replaying the record says."""
    table = tables(game)[-1]  # the most seats: every team of the game
    bots = {1}  # a bot among the people
    live = ProcessServer(database_url)
    live.start()
    try:
        made = create_table(
            live.base,
            game,
            [{"kind": "bot", "agent": "random"} if s in bots else {"kind": "human"}
             for s in range(table.seats)],
            options=dict(table.options),
            seed=table.seed,
        )  # fmt: skip
        table_id = made["id"]
        tokens = {link["seat"]: link["token"] for link in made["links"]}
        mine = {s: Seat(live.base, table_id, s, tokens[s]) for s in tokens}
        watcher = Seat(live.base, table_id)
        watcher.until(lambda m: m["type"] == "update")
        state = settled(watcher, set(mine))
        first = min(state["waiting"])
        mine[first].choose(lambda legal: legal[0])  # acknowledged: committed
        watcher.until(
            lambda m: (
                m["type"] == "update"
                and (m["state"]["step"] > state["step"] or first not in m["state"]["waiting"])
            )
        )
        before = settled(watcher, set(mine))
        partial = before["step"] == state["step"]  # the others of its step still to choose
        seen = {s: mine[s].at_step(before["step"]) for s in mine}
        live.kill()
        live.start()
        # each seat's token since it was taken (an invite's token is replaced on first use)
        again = {s: Seat(live.base, table_id, s, mine[s].token) for s in mine}
        for s, client in again.items():
            resumed = client.until(lambda m: m["type"] == "update")["state"]
            assert resumed["step"] == before["step"]
            assert resumed["view"] == seen[s]["view"]
            assert resumed["submitted"] == (partial and s == first)
        drive(again, people(game, random.Random(table.seed)), limit=5000)
        record = httpx.get(f"{live.base}/api/tables/{table_id}/record").json()
        final = again[min(again)].state
    finally:
        live.stop()
    engine = get_spec(game).load().new_state(table.seed, record["options"])
    for choices in record["steps"]:
        engine.apply({int(seat): choice for seat, choice in choices.items()})
    assert engine.outcome is not None
    assert final["outcome"] == engine.outcome.to_json()
