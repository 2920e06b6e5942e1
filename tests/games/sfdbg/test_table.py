"""The Street Fighter Deck-Building Game at the web table: the lobby, the cards, its tables'
options, the reasons bad choices are refused with, and the labels of its decisions. What the
server promises every game — whole games sending no seat another's hidden cards, bad messages
changing nothing, a game surviving SIGKILL — is tests/server/test_conformance.py, with SF
DBG's own tables and checks from tests/games/sfdbg/conformance.py."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from kumite.games.sfdbg.game import GAME
from tests.server.live import Seat, create_table

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
    ("choice", "words"),
    [
        ("play:hadoken", "hand"),
        ("challenge", "Power"),
        ("buy:kick", "a Kick costs 3"),
        ("foe:1", "legal"),
    ],
)
def test_an_illegal_sfdbg_choice_is_refused_with_its_reason(server, choice, words):
    """The reason comes from the rules (``explain_illegal``): a card not in your hand, a
    challenge without the Power, a Kick you cannot afford."""
    table, first, _second = two_humans(server)
    first.ready()
    before = runtime_snapshot(server, table)
    first.send({"type": "choose", "step": 0, "choice": choice})
    error = first.error()
    assert error["code"] == "illegal"
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
