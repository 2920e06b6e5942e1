"""The SF DBG terminal front end: table rendering, choice labels, the human agent."""

from __future__ import annotations

import io
import random

from rich.console import Console

from kumite.cli.options import game_options, settings_from
from kumite.core.registry import get_spec
from kumite.games.sfdbg import tui
from kumite.games.sfdbg.actions import vocabulary
from kumite.games.sfdbg.game import GAME

CATALOG = GAME.catalog()


def text(renderable) -> str:
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def played(seed: int, variant: str = "standard", steps: int = 150):
    state = GAME.new_state(seed, {"players": 3, "variant": variant})
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        (d,) = state.pending()
        state.apply({d.seat: rng.choice(d.legal)})
    return state


def test_every_choice_has_a_plain_english_label():
    view = GAME.new_state(1, {"players": 2}).view(0)
    for choice in vocabulary(CATALOG).choices:
        assert str(tui.label(choice, CATALOG, view)).strip(), choice


def test_the_table_shows_hand_power_line_up_stacks_and_players():
    state = played(2)
    view = state.view(0)
    out = text(tui.render(view, CATALOG))
    assert "Power" in out and "Line-Up" in out and "Kicks" in out and "Your hand" in out
    assert "Player 2" in out and "Player 3" in out
    for card in view["players"][0]["hand"]:
        assert CATALOG.by_id[card].name in out


def test_face_down_super_heroes_stay_face_down_on_the_table():
    out = text(tui.render(played(3, "secret-heroes", 5).view(1), CATALOG))
    assert "(face-down Super Hero)" in out and "face-down Ultras" in out


def test_the_end_of_the_game_shows_each_players_vp():
    state = GAME.new_state(4, {"players": 2, "round_limit": 1})
    while not state.is_terminal:
        (d,) = state.pending()
        state.apply({d.seat: "end"})
    out = text(tui.render(state.view(None), CATALOG))
    assert "Game over" in out and "VP" in out


def test_the_human_agent_answers_from_the_menu(monkeypatch):
    state = GAME.new_state(5, {"players": 2})
    (decision,) = state.pending()
    monkeypatch.setattr(tui, "pick", lambda console, title, options, label: options[-1])
    human = tui.HumanSFDBG(Console(file=io.StringIO()), CATALOG)
    assert human.choose(state.view(decision.seat), decision) == "end"


def test_a_single_choice_is_answered_without_asking(monkeypatch):
    from kumite.games.sfdbg.scenario import act, position

    s = position(hands={0: ["gill"], 1: ["punch"]})
    act(s, "play:gill")
    (decision,) = s.pending()

    def no_menu(*args):
        raise AssertionError("asked")

    monkeypatch.setattr(tui, "pick", no_menu)
    human = tui.HumanSFDBG(Console(file=io.StringIO()), CATALOG)
    assert human.choose(s.view(1), decision) == "no-defense"


def test_command_line_settings_become_options():
    spec = get_spec("sfdbg")
    extra = ["--heroes", "ryu,-,any", "--variant=high-powered"]
    settings = settings_from(spec, None, ["round_limit=12"], None, extra)
    options = game_options(spec, GAME, settings, 3)
    assert options == {
        "players": 3,
        "round_limit": 12,
        "heroes": ["ryu", None, None],
        "variant": "high-powered",
    }
    GAME.new_state(0, options)
