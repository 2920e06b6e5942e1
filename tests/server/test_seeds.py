"""Seeds are secrets (issue 14, docs/protocol.md "Seeds"): a server draws every table's seed
itself, never sends it before the game is over, refuses a client's seed unless run with
``--dev-seeds``, and its bots draw from a secret of their own that no client ever sees.

The acceptance test plays a table of each game through the protocol against a bot and
collects everything the player was sent before the end: no answer contains the seed, and no
number in any of them rebuilds the game's hidden cards or the bot's choices -- neither used
as the game's seed nor as the bot's, directly or derived as the server once derived them.
"""

from __future__ import annotations

import base64
import binascii
import json
import random
import re
from typing import Any

import httpx
import pytest

from kumite.agents.base import decide
from kumite.agents.registry import make_agent
from kumite.core.errors import ChoiceError
from kumite.core.record import GameRecord, replay
from kumite.core.registry import get_game
from kumite.core.rng import derive_seed
from tests.server.live import Seat, create_table, drive

TABLES = {
    "sfrivals": {"characters": ["ryu", "ken"]},
    "sfdbg": {"round_limit": 3, "first_player": 0},
    "rivales": {"fighters": ["sombrerero", "curie"]},
}


def numbers_in(texts: list[str]) -> set[int]:
    """Every number a client could read out of ``texts``: JSON numbers, digit runs, hex
    runs (ids) and base64 runs (tokens), as integers."""
    found: set[int] = set()

    def walk(value: Any) -> None:
        if isinstance(value, bool):
            return
        if isinstance(value, int):
            found.add(value)
        elif isinstance(value, float) and value.is_integer():
            found.add(int(value))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            found.update(int(d) for d in re.findall(r"\d+", value))
            found.update(int(x, 16) for x in re.findall(r"[0-9a-fA-F]{6,}", value))
            for run in re.findall(r"[A-Za-z0-9_-]{16,}", value):
                try:
                    raw = base64.urlsafe_b64decode(run + "=" * (-len(run) % 4))
                except (binascii.Error, ValueError):
                    continue
                found.add(int.from_bytes(raw, "big"))

    for text in texts:
        try:
            walk(json.loads(text))
        except ValueError:
            walk(text)
    return found


def bot_decisions(game_id: str, runtime: Any, seat: int) -> list[tuple[Any, Any, str]]:
    """Each (state, decision, choice) at which the bot in ``seat`` chose, in order."""
    game = get_game(game_id)
    state = game.new_state(runtime.seed, runtime.options)
    made = []
    for choices in runtime.state.history:
        for decision in state.pending():
            if decision.seat == seat:
                made.append((state.clone(), decision, choices[seat]))
        state.apply(choices)
    return made


def bot_views(game: Any, seed: int, runtime: Any) -> list[str]:
    """The bot's views (seat 1) through the table's game dealt from ``seed``, up to the first
    choice that game refuses."""
    state = game.new_state(seed, runtime.options)
    seen = [json.dumps(state.view(1), sort_keys=True)]
    for choices in runtime.state.history:
        try:
            state.apply(choices)
        except ChoiceError:  # the cards dealt differ: a choice of the table is not legal here
            break
        seen.append(json.dumps(state.view(1), sort_keys=True))
    return seen


def reproduces_the_bot(game_id: str, runtime: Any, seat: int, seed: int, made: list) -> bool:
    """Whether a random bot seeded with ``seed`` makes every choice the table's bot made,
    and goes on choosing as the table's bot would (a short game's few choices can be
    matched by luck; 48 more choices among two or more cannot, but for 1 time in 2**48)."""
    game = get_game(game_id)
    options = runtime.state.options_json
    agent = make_agent("random", game, options, seat, seed)
    if not all(decide(agent, state, decision) == choice for state, decision, choice in made):
        return False
    real = make_agent("random", game, options, seat, derive_seed(runtime.bot_seed, "bot", seat))
    for state, decision, _ in made:
        decide(real, state, decision)
    state, decision, _ = next((s, d, c) for s, d, c in made if len(d.legal) > 1)
    return all(decide(agent, state, decision) == decide(real, state, decision) for _ in range(48))


@pytest.mark.parametrize("game_id", list(TABLES))
def test_nothing_sent_before_the_end_gives_away_the_seed_or_the_hidden_state(
    secure_server, game_id
):
    server = secure_server
    base = server.base
    answer = httpx.post(
        f"{base}/api/tables",
        json={
            "game": game_id,
            "seats": [{"kind": "you"}, {"kind": "bot", "agent": "random"}],
            "options": TABLES[game_id],
        },
    )
    assert answer.status_code == 200, answer.text
    made = answer.json()
    table = made["id"]
    seen = [answer.text]
    assert "seed" not in made
    me = Seat(base, table, 0, made["links"][0]["token"])
    me.until(lambda m: m["type"] == "update")
    for path in (f"/api/tables/{table}", "/api/tables", f"/api/tables/{table}/cards"):
        seen.append(httpx.get(base + path).text)
    for path in (f"/api/tables/{table}/record", f"/api/tables/{table}/replay"):
        early = httpx.get(base + path)
        assert early.status_code == 403
        seen.append(early.text)
    rng = random.Random(1)
    drive({0: me}, lambda _seat, legal: rng.choice(legal), limit=5000)
    runtime = server.hub.tables[table]
    assert runtime.finished
    # Everything up to the end (the last update shows the outcome: it too is checked).
    seen += me.raw
    secrets_ = {"game seed": runtime.seed, "bot seed": runtime.bot_seed}
    for name, value in secrets_.items():
        assert value.bit_length() > 64, name  # drawn by the server, 128 bits
        for form in (str(value), f"{value:x}", f"{value:X}"):
            assert not any(form in text for text in seen), name
    candidates = numbers_in(seen)
    assert len(candidates) > 20
    assert runtime.seed not in candidates and runtime.bot_seed not in candidates
    game = get_game(game_id)
    # The hidden cards at the start (the bot's hand, every deck's order), when the game
    # deals any: no number the client saw deals them again.
    start = game.new_state(runtime.seed, runtime.options)
    dealt = start.view(1) != game.new_state(runtime.seed + 1, runtime.options).view(1)
    assert dealt == (game_id != "sfrivals")  # SF Rivals deals nothing: hands are fixed
    if dealt:
        # An opening hand of a few cards can be dealt again by luck; the bot's cards through
        # the whole game cannot.
        hidden = bot_views(game, runtime.seed, runtime)
        for number in candidates:
            assert bot_views(game, number, runtime) != hidden, number
    # The bot's choices: no number seeds a bot that makes them all (the check can tell:
    # the bot's real seed does).
    made_by_bot = bot_decisions(game_id, runtime, 1)
    assert sum(len(d.legal) > 1 for _, d, _ in made_by_bot) >= 3
    real = derive_seed(runtime.bot_seed, "bot", 1)
    assert reproduces_the_bot(game_id, runtime, 1, real, made_by_bot)
    record = httpx.get(f"{base}/api/tables/{table}/record").json()  # after the end
    for number in (*candidates, record["seed"]):
        for seed in (number, derive_seed(number, "bot", 1)):
            assert not reproduces_the_bot(game_id, runtime, 1, seed, made_by_bot), number
    # Once it is over the record carries the seed, and replays the game exactly.
    assert record["seed"] == runtime.seed
    state = replay(GameRecord.from_json(json.dumps(record)), game)
    assert state.history == runtime.state.history
    assert state.outcome is not None and state.outcome.to_json() == me.state["outcome"]


def test_a_client_seed_is_refused_unless_the_server_runs_with_dev_seeds(secure_server, server):
    body = {"game": "sfrivals", "seats": [{"kind": "you"}, {"kind": "bot"}], "seed": 7}
    refused = httpx.post(f"{secure_server.base}/api/tables", json=body)
    assert refused.status_code == 400
    assert "--dev-seeds" in refused.json()["detail"]
    assert httpx.get(f"{secure_server.base}/api/tables").json() == []  # nothing was made
    assert httpx.get(f"{secure_server.base}/api/server").json()["dev_seeds"] is False
    accepted = httpx.post(f"{server.base}/api/tables", json=body)  # a --dev-seeds server
    assert accepted.status_code == 200
    assert server.hub.tables[accepted.json()["id"]].seed == 7
    for seed in (-1, 2**128, "x"):
        out_of_range = httpx.post(f"{server.base}/api/tables", json={**body, "seed": seed})
        assert out_of_range.status_code == 422, seed


def test_every_table_gets_its_own_secret_seeds(secure_server):
    seats = [{"kind": "you"}, {"kind": "human"}]
    made = [create_table(secure_server.base, "sfrivals", seats)["id"] for _ in range(3)]
    runtimes = [secure_server.hub.tables[t] for t in made]
    seeds = {r.seed for r in runtimes} | {r.bot_seed for r in runtimes}
    assert len(seeds) == 6
    stored = secure_server.hub.store.load(made[0])
    assert (stored.seed, stored.bot_seed) == (runtimes[0].seed, runtimes[0].bot_seed)


def test_a_rematch_answer_holds_the_requester_s_token_only(secure_server):
    base = secure_server.base
    made = create_table(
        base,
        "sfrivals",
        [{"kind": "you"}, {"kind": "human"}],
        options={"characters": ["ryu", "ken"]},
    )
    table = made["id"]
    tokens = {link["seat"]: link["token"] for link in made["links"]}
    seats = {0: Seat(base, table, 0, tokens[0]), 1: Seat(base, table, 1, tokens[1])}
    watcher = Seat(base, table)
    for client in (*seats.values(), watcher):
        client.until(lambda m: m["type"] == "update")
    drive(seats)
    answer = httpx.post(f"{base}/api/tables/{table}/rematch", json={"seat": 0, "token": tokens[0]})
    assert answer.status_code == 200
    rematch = answer.json()
    assert [link["seat"] for link in rematch["links"]] == [0]
    notes = {n: s.until(lambda m: m["type"] == "rematch") for n, s in seats.items()}
    watched = watcher.until(lambda m: m["type"] == "rematch")
    mine, theirs = notes[0]["url"], notes[1]["url"]
    assert mine == rematch["links"][0]["url"] and "seat=0&token=" in mine
    assert "seat=1&token=" in theirs
    their_token = theirs.split("token=")[1]
    assert watched["url"] == f"/table/{rematch['id']}"  # no token for a spectator
    # Seat 1's new token reached seat 1's socket and no one else.
    assert their_token not in answer.text
    assert not any(their_token in raw for raw in seats[0].raw + watcher.raw)
    new = secure_server.hub.tables[rematch["id"]]
    old = secure_server.hub.tables[table]
    assert new.check_token(1, their_token)
    assert new.seed != old.seed and new.bot_seed != old.bot_seed
    assert "seed" not in rematch
