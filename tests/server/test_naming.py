"""One name per seat, everywhere (issue 30; docs/protocol.md, "Names"): the server names every
seat once (:mod:`kumite.server.naming`) — a person by their chosen name, a bot by its
character and level, mirror seats told apart, partners and rivals marked in a team game —
and every message and REST answer that shows a seat shows that name."""

from __future__ import annotations

import httpx
import pytest

from kumite.agents.registry import LEVELS, agent_info, level
from kumite.core.registry import specs
from kumite.server.naming import distinct, marks, result_line, seat_names
from kumite.server.storage import Seat as StoredSeat
from tests.server.live import Seat, create_table, drive
from tests.server.test_players import as_player, new_player

TOY_TEAMS = ((0, 2), (1, 3))  # the toy plugin's 2v2


def _mirror_game():
    """A game whose seats may play the same character, and one of its characters (from
    the registry: no game is named here)."""
    for spec in specs().values():
        if spec.role is not None and not spec.role.distinct:
            game = spec.load()
            names = spec.role.names.load()(game, {})
            return spec, game, next(iter(names)), names[next(iter(names))]
    pytest.skip("no game lets two seats play one character")


def test_a_person_is_called_by_the_chosen_name_and_a_bot_by_its_level():
    names = seat_names(
        "toy",
        {},
        [StoredSeat("human", "Ana", claimed=True), StoredSeat("bot", "random bot", "random")],
    )
    assert [n.name for n in names] == ["Ana", "Bot · Beginner"]
    # The technical name and what it does are in the tooltip, not the name.
    assert "random" in names[1].title and "random" not in names[1].name


def test_bot_levels_are_named_for_players():
    assert (LEVELS["random"], LEVELS["ismcts"], LEVELS["ismcts-expert"]) == (
        "Beginner",
        "Strong",
        "Expert",
    )
    for spec in specs().values():
        for bot in spec.bots:
            assert agent_info(bot.name, spec.id, {})["level"] == bot.level == level(spec, bot.name)
    # a solver bot is called a Solver, in any game that ships one
    solvers = [b for s in specs().values() for b in s.bots if b.info is not None]
    assert all(b.level == "Solver" for b in solvers)


def test_a_mirror_match_tells_its_two_seats_apart():
    spec, _, character, shown = _mirror_game()
    options = {spec.role.option: [character, character]}
    names = seat_names(spec.id, options, [StoredSeat("bot", "", "random")] * 2)
    assert [n.name for n in names] == [f"{shown} bot · Beginner", f"{shown} bot · Beginner (2)"]
    # two people of one name too, and a name that would read like a suffixed one
    assert distinct(["Ana", "ana", "Ana (2)", "Bo"]) == ["Ana", "ana (2)", "Ana (2) (2)", "Bo"]


def test_partners_and_rivals_are_marked_to_whoever_looks():
    seats = [StoredSeat("human", "Ana", claimed=True)] + [StoredSeat("bot", "", "random")] * 3
    names = seat_names("toy", {"mode": "2v2"}, seats, TOY_TEAMS)
    assert [n.team for n in names] == [0, 1, 0, 1]
    assert len({n.name for n in names}) == 4  # three bots of one level, three names
    assert marks(names, 0) == ["you", "rival", "partner", "rival"]
    assert marks(names, 1) == ["rival", "you", "rival", "partner"]
    assert marks(names, None) == ["team 1", "team 2", "team 1", "team 2"]
    line = result_line({"winners": [0, 2], "draw": False}, names, 0)
    assert line == f"Ana (you) & {names[2].name} (partner) win"
    # one seat a team: nobody is a partner, and no mark but "you"
    alone = seat_names("toy", {}, seats[:2], ((0,), (1,)))
    assert marks(alone, 1) == ["", "you"]


def test_every_message_and_answer_shows_one_name_per_seat(server):
    me = new_player(server.base, "Ana")
    seats = [{"kind": "you"}] + [{"kind": "bot", "agent": "random"}] * 3
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "toy", "seats": seats, "options": {"mode": "2v2"}},
        headers=as_player(me),
    ).json()
    table = made["id"]
    info = httpx.get(f"{server.base}/api/tables/{table}").json()
    names = [s["name"] for s in info["seats"]]
    assert names[0] == "Ana" and len(set(names)) == 4
    assert all(s["title"] for s in info["seats"][1:])  # the tooltip of each bot
    client = Seat(server.base, table, hello=False)
    client.seat = 0
    client.send({"type": "hello", "seat": 0, "key": me["key"]})
    state = client.ready()
    assert [s["name"] for s in state["seats"]] == names
    assert state["marks"] == ["you", "rival", "partner", "rival"]
    drive({0: client})
    final = client.state
    won = final["outcome"]["winners"]
    said = " & ".join(f"{names[w]} ({final['marks'][w]})" for w in won)
    assert final["result"] == ("Draw" if final["outcome"]["draw"] else f"{said} win")
    client.close()
    listed = httpx.get(f"{server.base}/api/tables").json()
    assert [s["name"] for s in next(t for t in listed if t["id"] == table)["seats"]] == names
    mine = httpx.get(f"{server.base}/api/players/me/games", headers=as_player(me)).json()
    assert [s["name"] for s in mine[0]["seats"]] == names
    replay = httpx.get(f"{server.base}/api/tables/{table}/replay").json()
    assert [s["name"] for s in replay["seats"]] == names
    assert replay["marks"] == ["team 1", "team 2", "team 1", "team 2"]


def test_a_mirror_table_names_its_bots_apart(server):
    spec, game, character, shown = _mirror_game()
    n = game.info.min_players
    made = create_table(
        server.base,
        spec.id,
        [{"kind": "bot", "agent": "random"}] * n,
        options={spec.role.option: [character] * n},
    )
    seats = httpx.get(f"{server.base}/api/tables/{made['id']}").json()["seats"]
    assert seats[0]["name"] == f"{shown} bot · Beginner"
    assert seats[1]["name"] == f"{shown} bot · Beginner (2)"


def test_a_resignation_names_the_seat_as_everywhere(server):
    me = new_player(server.base, "Ana")
    made = httpx.post(
        f"{server.base}/api/tables",
        json={"game": "toy", "seats": [{"kind": "you"}, {"kind": "bot", "agent": "random"}]},
        headers=as_player(me),
    ).json()
    out = httpx.post(
        f"{server.base}/api/tables/{made['id']}/resign", json={"seat": 0}, headers=as_player(me)
    ).json()
    assert out["outcome"]["reason"] == "Ana resigned"
    client = Seat(server.base, made["id"])
    state = client.at_step(0)
    assert state["result"] == "Bot · Beginner wins"
    client.close()
