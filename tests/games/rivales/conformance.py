"""What Rivales adds to the suites over every game (tests/conformance.py): a 1vs1 and a 2vs2
fight in which the Sombrerero shows their hand whenever they can, and the checks that need
Rivales' cards: no update names an unseen unique or ultra card of another seat (in 2vs2 not
even the partner's), a private event names only the seat's own cards, and Lluvia de
Sombreros shows a hand to the faced rival alone."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from kumite.games.rivales.lines import HIDDEN
from kumite.games.rivales.state import RivalesState
from tests.conformance import Chooser, GameHooks, Table

FIGHTERS_2V2 = ["zorro", "curie", "mulan", "sombrerero"]
PRIVATE_FIELDS = {"CardsDrawn": "cards", "LifeMarkerChosen": "card", "HandShown": "cards"}


def lluvia_first(rng: random.Random) -> Chooser:
    """Random choices, but the Sombrerero shows their hand whenever they can."""

    def pick(seat: int, legal: list[str]) -> str:
        if "play:sombrerero.lluvia" in legal:
            return "play:sombrerero.lluvia"
        return rng.choice(legal)

    return pick


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


def check_update(seat: int | None, state: Any, snap: dict[str, Any], raw: str) -> None:
    """No unseen card of another seat is named, no other seat's hand or marker is shown, and
    a private event names only the seat's own cards (or a hand shown to it); its public twin
    names none."""
    text = json.dumps(snap)
    for card_id in hidden_ids(state, seat):
        assert f'"{card_id}"' not in text, (seat, snap["step"], card_id)
    for other in snap["view"]["players"]:
        if other["seat"] != seat:
            assert "hand" not in other and "marker" not in other
    fighters = [f.id if f else None for f in state.fighters]
    for event in json.loads(raw)["events"]:
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


def check_game(runtime: Any, clients: Mapping[int, Any]) -> None:
    """rv.2v2.communication: cards in hand may not be shown or named between players of the
    same team — a hand shown by Lluvia de Sombreros reaches the faced rival alone, never the
    Sombrerero's partner."""
    from tests.server.live import logged

    outcome = runtime.state.outcome.to_json()
    assert outcome["mode"] == runtime.options["mode"] and len(outcome["rounds_won"]) == 2
    shown = [e for e, _ in logged(runtime) if e.kind == "HandShown" and e.to is not None]
    if runtime.options["mode"] == "2v2":
        assert shown, "the Sombrerero (seat 4) showed a hand at least once"
    for event in shown:  # rv.sombrerero.lluvia: to the rival faced, by the Sombrerero
        assert event.to == frozenset({event.to_seat})
        assert runtime.state.fighters[event.seat].id == "sombrerero"
    for seat, client in clients.items():
        private = [
            e
            for m in map(json.loads, client.raw)
            if m["type"] == "update"
            for e in m["events"]
            if e["type"] == "HandShown" and e["cards"]
        ]
        assert all(e["to_seat"] == seat for e in private), seat


HOOKS = GameHooks(
    tables=(
        Table(2, {"fighters": ["sombrerero", "curie"]}, seed=21),
        Table(4, {"fighters": FIGHTERS_2V2}, seed=5),
    ),
    people=lluvia_first,
    check_update=check_update,
    check_game=check_game,
    short=Table(2, {"mode": "1v1", "fighters": ["curie", "darwin"]}, seed=2),
)
