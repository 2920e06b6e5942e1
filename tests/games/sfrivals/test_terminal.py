"""SF Rivals at the terminal: the menus, the move lists, the result, the marks and copies."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kumite.cli.main import app
from kumite.cli.play import result_head
from kumite.core.game import Outcome
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.tui import HumanSFRivals, cards_table, render

runner = CliRunner()


def console() -> Console:
    return Console(file=io.StringIO(), width=200, color_system=None, highlight=False)


def answers(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    feed: Iterator[str] = iter(lines)
    monkeypatch.setattr("builtins.input", lambda *_: next(feed))


def round_one(setup: str = "setup:ryu.hurricane-kick:ryu.guard"):
    """Ryu against Ken in round 1: the Ultra and the Super Combo still in Ryu's hand."""
    state = GAME.new_state(1, {"characters": ["ryu", "ken"]})
    state.apply({0: setup, 1: "setup:ken.hurricane-kick:ken.guard"})
    return state


def ask(state, monkeypatch, *lines: str) -> tuple[str, str]:
    out = console()
    human = HumanSFRivals(out, GAME.catalog(), "You")
    answers(monkeypatch, *lines)
    choice = human.choose(state.view(0), state.pending()[0])
    return choice, out.file.getvalue()


def menu_line(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if re.match(rf"\s+\d+\. {name}", line))


def test_ultra_combo_stays_in_the_menu_greyed_with_life_5_and_a_pick_of_it_is_refused(
    monkeypatch,
):
    """sfr.layout.ultra-combo: "when your own life-gauge is 5 or under, you can use it"."""
    choice, text = ask(round_one(), monkeypatch, "1", "2")
    assert "(not now: life ≤ 5)" in menu_line(text, "Destroy Hadouken")
    assert "1 cannot be chosen now: life ≤ 5." in text
    assert choice == "play:ryu.saving-attack"


def test_super_combo_stays_in_the_menu_greyed_until_round_5_and_a_pick_of_it_is_refused(
    monkeypatch,
):
    """sfr.layout.super-combo: "it can only be used in the 5th round or later"."""
    choice, text = ask(round_one(), monkeypatch, "7", "3")
    line = menu_line(text, "Shinkuu Hadouken")
    assert line.lstrip().startswith("7.") and "(not now: from round 5)" in line
    assert "7 cannot be chosen now: from round 5." in text
    assert choice == "play:ryu.shoryuken"


def test_ultra_combo_is_offered_plainly_at_life_5(monkeypatch):
    state = round_one()
    state.lives[0] = 5
    state._pending = None
    choice, text = ask(state, monkeypatch, "1")
    assert "not now" not in menu_line(text, "Destroy Hadouken")
    assert choice == "play:ryu.metsu-hadouken"


def test_character_choice_lists_names_and_the_set_up_shows_the_matchups_two_move_lists():
    result = runner.invoke(
        app,
        ["play", "--players", "human,greedy", "--characters", "-,ken", "--seed", "4"],
        input="1\n" * 40,
    )
    assert result.exit_code == 0, result.output
    before = result.output.split("choose your character")[0]
    assert len(before.splitlines()) < 5  # the title and the seats, no move list
    titles = re.findall(r"(Your (?:opponent's )?move list: \w+)", result.output)
    assert titles == ["Your move list: Ryu", "Your opponent's move list: Ken"]


def test_mirror_match_shows_one_move_list():
    result = runner.invoke(
        app,
        ["play", "--players", "human,greedy", "--characters", "ryu,ryu", "--seed", "4"],
        input="1\n" * 40,
    )
    assert result.exit_code == 0, result.output
    assert result.output.count("move list") == 1
    assert "Ryu's move list (both of you)" in result.output


def outcome(winners: tuple[int, ...]) -> Outcome:
    return Outcome(
        winners=winners,
        draw=not winners,
        returns=(0.0, 0.0),
        reason="KO",
        rule="sfr.end.ko",
        detail={},
    )


def test_result_says_you_win_you_lose_or_draw_to_the_one_player():
    labels = ["Player 1 (Ryu, human)", "Player 2 (Ken, greedy)"]
    assert result_head(outcome((0,)), labels, viewer=0) == "You win"
    assert result_head(outcome((1,)), labels, viewer=0) == "You lose"
    assert result_head(outcome(()), labels, viewer=0) == "Draw"
    # hot-seat and bot against bot: who won, by name
    assert result_head(outcome((1,)), labels, viewer=None) == "Player 2 (Ken, greedy) wins"


def test_play_result_panel_names_the_winner_or_addresses_you():
    lost = runner.invoke(
        app,
        ["play", "--players", "human,greedy", "--characters", "ryu,ryu", "--seed", "4"],
        input="1\n" * 40,
    )
    assert re.search(r"│ You (win|lose) — ", lost.output) or "│ Draw — " in lost.output
    bots = runner.invoke(
        app, ["play", "--players", "greedy,random", "--characters", "ken,guile", "--seed", "4"]
    )
    assert re.search(r"│ (Player 1 \(Ken, greedy\)|Player 2 \(Guile, random\)) wins", bots.output)


def test_move_lists_and_cards_listing_show_copies():
    ryu = GAME.catalog().characters["ryu"]
    out = console()
    out.print(cards_table(list(ryu.cards), "Ryu"))
    assert "Hadouken ×2" in out.file.getvalue()
    listing = runner.invoke(app, ["cards", "sfrivals", "--only", "ryu"]).output
    assert "Hadouken ×2" in listing
    assert "Shoryuken ×" not in listing  # one copy: no ×1


def test_your_hand_shows_each_card_once_with_its_copies():
    view = round_one(setup="setup:ryu.hurricane-kick:ryu.guard").view(0)
    out = console()
    out.print(render(view, GAME.catalog()))
    text = out.file.getvalue()
    assert "Hadouken ×2" in text
    assert not re.search(r"│ Hadouken +│", text)  # not two rows of one card


def test_the_table_view_carries_the_legend_of_the_marks_it_shows():
    out = console()
    out.print(render(round_one().view(0), GAME.catalog()))
    text = out.file.getvalue()
    assert "2*" in text
    assert "* estimate — no public source gives this value" in text
    assert "† reconstructed" not in text  # no reconstructed value is shown


def test_a_reconstructed_power_is_marked_and_explained(tmp_path):
    from kumite.games.sfrivals.cards import load_catalog

    overlay = (
        '[pack]\nid="m"\ngame="sfrivals"\nbase="sfrivals-base"\n[[cards]]\nid="ryu.jab"\n'
        'text={ value = "A quick jab.", from = "reconstructed" }\n'
    )
    catalog = load_catalog(overlay, "m.toml")
    state = GAME.new_state(1, {"characters": ["ryu", "ken"], "pack": overlay})
    state.apply({0: "setup:ryu.hurricane-kick:ryu.guard", 1: "setup:ken.hurricane-kick:ken.guard"})
    out = console()
    out.print(render(state.view(0), catalog))
    text = out.file.getvalue()
    assert "A quick jab.†" in text
    assert "† reconstructed — written by kumite" in text


def test_bot_game_prints_the_legend_with_the_marked_values_of_its_events():
    result = runner.invoke(app, ["play", "--players", "greedy,greedy", "--seed", "1"])
    assert "damage 2*" in result.output or "damage 1*" in result.output
    assert "* estimate — no public source gives this value" in result.output
