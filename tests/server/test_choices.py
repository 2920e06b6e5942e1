"""The decision message (docs/protocol.md, "Choices"): every legal choice with its label, its
verb and the board element it targets, and the seat's unplayable cards with the game's own
reason — for every registered game, from the deciding seat's view only; and the replay's
labels."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest

from kumite.core.registry import game_ids, get_spec
from kumite.core.spec import GameSpec
from kumite.web.table import choice_labels, decision_json
from tests.server.live import Seat, create_table

#: The target vocabulary: each key and the type of its value.
TARGET_KEYS = {"zone": str, "card": str, "cards": list, "seat": int, "index": int, "role": str}
STEPS = 300


@pytest.fixture(params=game_ids())
def spec(request: pytest.FixtureRequest) -> GameSpec:
    return get_spec(request.param)


def test_each_choice_has_its_label_verb_and_a_target_of_the_vocabulary(spec: GameSpec) -> None:
    """Every decision of a random game: one entry per legal choice, in order, whose label is
    the game's label; a target names the table in the documented vocabulary only; the whole
    message is the same in a copy where everything the seat cannot see was resampled (so no
    label, target or reason tells it more); an unplayable choice is not legal and carries the
    state's own explanation of why."""
    game = spec.load()
    labels = choice_labels(spec, game, {})
    rng = random.Random(3)
    state = game.new_state(3)
    targeted = unplayable = 0
    for _ in range(STEPS):
        if state.is_terminal:
            break
        for d in state.pending():
            view = state.view(d.seat)
            message = decision_json(labels, state, d, view)
            assert message["legal"] == list(d.legal)
            assert [c["id"] for c in message["choices"]] == list(d.legal)
            assert [c["label"] for c in message["choices"]] == labels(view, d.legal)
            for entry in [*message["choices"], *message.get("unplayable", ())]:
                target = entry["target"]
                if target is not None:
                    targeted += 1
                    assert target and set(target) <= set(TARGET_KEYS), target
                    assert all(isinstance(target[k], TARGET_KEYS[k]) for k in target), target
            for entry in message.get("unplayable", ()):
                unplayable += 1
                assert entry["id"] not in d.legal
                assert entry["reason"] == state.explain_illegal(d.seat, entry["id"])
                assert entry["reason"] != "not among the legal choices", entry
            if game.info.hidden_information:
                twin = state.determinize(d.seat, random.Random(5))
                (again,) = [x for x in twin.pending() if x.seat == d.seat]
                assert decision_json(labels, twin, again, twin.view(d.seat)) == message
        state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
    if spec.labels is not None and spec.id != "toy":
        assert targeted, "a game with a labels face targets the table"
    json.dumps(message)  # plain JSON


def test_each_seat_is_sent_its_decision_and_the_replay_labels_each_choice(server, spec) -> None:
    """Over the WebSocket, each seat's decision is the message above, made from the table's
    state and that seat's view; once the game is over (here: resigned after a few steps), the
    replay labels each step's choices as the deciding seat's decision labelled them."""
    game = spec.load()
    seats = [{"kind": "you"}, *[{"kind": "human"}] * (game.info.min_players - 1)]
    made = create_table(server.base, spec.id, seats, seed=5)
    table = made["id"]
    clients = [Seat(server.base, table, link["seat"], link["token"]) for link in made["links"]]
    runtime = server.hub.tables[table]
    labels = choice_labels(spec, game, runtime.options)
    mirror = game.new_state(runtime.seed, runtime.options)
    sent: list[dict[str, str]] = []
    for step in range(6):
        if mirror.is_terminal:
            break
        choices = {}
        for d in mirror.pending():
            state = clients[d.seat].at_step(step)
            expected = decision_json(labels, mirror, d, mirror.view(d.seat))
            assert state["decision"] == json.loads(json.dumps(expected))
            choices[d.seat] = d.legal[0]
            clients[d.seat].send({"type": "choose", "step": step, "choice": d.legal[0]})
        sent.append({str(s): labels(mirror.view(s), [c])[0] for s, c in choices.items()})
        mirror.apply(choices)
        for c in clients:
            c.at_step(step + 1)
    if not mirror.is_terminal:
        resigned = httpx.post(
            f"{server.base}/api/tables/{table}/resign",
            json={"seat": 0, "token": made["links"][0]["token"]},
        )
        assert resigned.status_code == 200, resigned.text
    frames: list[dict[str, Any]] = httpx.get(f"{server.base}/api/tables/{table}/replay").json()[
        "frames"
    ]
    assert frames[0]["labels"] == {}
    assert [f["labels"] for f in frames[1:]] == sent
