"""``kumite play`` of SF Rivals at a terminal (issue 30): the board is redrawn in place, not
printed again below the last one; the person is called by the name the log uses, "(you)"
beside it; Ctrl-C leaves cleanly."""

from __future__ import annotations

import io
import itertools
import os
import re
import select
import signal
import subprocess
import sys
import time

import pytest
from rich.console import Console
from typer.testing import CliRunner

import kumite.cli.play as play_module
from kumite.cli.main import app

CLEAR = "\x1b[2J"  # what Console.clear() sends a terminal


def play_at_a_terminal(monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    """``kumite play ARGS`` on a console that is a terminal; the person answers 1, 2, ... 9
    in turn (a refused or out-of-range answer is followed by the next)."""
    screen = Console(
        file=io.StringIO(), force_terminal=True, width=120, height=40, color_system=None
    )
    monkeypatch.setattr(play_module, "console", screen)
    answers = itertools.cycle(str(n) for n in range(1, 10))
    monkeypatch.setattr("builtins.input", lambda *_: next(answers))
    result = CliRunner().invoke(app, ["play", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return screen.file.getvalue()


def test_at_a_terminal_each_board_is_drawn_on_a_cleared_screen_with_the_last_actions(
    monkeypatch,
):
    """One board per screen: the screen is cleared before each board (SF Rivals: the set-up,
    then a round per card played), never a second board below the first; the last actions
    sit under it; the bots' last actions and the result end the game."""
    text = play_at_a_terminal(
        monkeypatch, "sfrivals", "--players", "human,greedy", "--characters", "ryu,ken",
        "--seed", "4",
    )  # fmt: skip
    screens = text.split(CLEAR)[1:]
    rounds = [re.findall(r"Round \d+ of 8", s) for s in screens]
    assert len(screens) >= 4
    assert "Setup" in screens[0]
    assert all(len(found) == 1 for found in rounds[1:]), rounds
    numbers = [int(found[0].split()[1]) for found in rounds[1:]]
    assert numbers == list(range(1, len(numbers) + 1))  # each round redrawn once, in order
    assert all("Last actions" in s and "reveals" in s for s in screens[2:])
    assert "Result" in screens[-1]


def test_a_pipe_gets_the_log_in_order_without_clearing():
    result = CliRunner().invoke(
        app, ["play", "sfrivals", "--players", "human,greedy", "--characters", "ryu,ken",
              "--seed", "4"], input="1\n2\n3\n" * 40,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert CLEAR not in result.output
    assert result.output.count("Round 1 of 8") == 1


def test_the_person_is_called_by_the_logs_name_with_you_beside_it():
    """The log says "Player 1": so do the seats line, the board and the prompts, with
    "(you)"; no "You" stands for the seat (the result still says "You win" to you)."""
    result = CliRunner().invoke(
        app, ["play", "sfrivals", "--players", "human,greedy", "--characters", "ryu,ken",
              "--seed", "4"], input="1\n2\n3\n" * 40,
    )  # fmt: skip
    out = result.output
    assert "Seats: Player 1 (you), Player 2 (greedy bot)" in out
    assert "Player 1 (Ryu, you) " in out
    assert "Player 1 (you): Play a card face down" in out
    assert "Player 1 reveals " in out
    assert "Player 1 covers their life gauge with " in out
    assert not re.search(r"\bYou \(|\bYou:|You cover", out)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_ctrl_c_at_a_prompt_ends_the_line_and_exits_130_without_a_traceback():
    process = subprocess.Popen(
        [sys.executable, "-m", "kumite.cli.main", "play", "sfrivals", "--players",
         "human,greedy", "--characters", "ryu,ken", "--seed", "4"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        # faulthandler: a process that does not exit can be made to print its threads' stacks
        env={**os.environ, "COLUMNS": "120", "NO_COLOR": "1", "PYTHONFAULTHANDLER": "1"},
    )  # fmt: skip
    assert process.stdout is not None
    seen = b""
    deadline = time.monotonic() + 60
    while b"Your choice: " not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 1)
        if ready:
            seen += os.read(process.stdout.fileno(), 65536)
    assert seen.endswith(b"Your choice: ")  # waiting at the prompt
    process.send_signal(signal.SIGINT)
    # Wait before closing its input (communicate would): on a loaded host the closed pipe
    # could reach the prompt first, as an end of input, where a person's Ctrl-C leaves it open.
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:  # once on a loaded CI host: say where it stood
        process.send_signal(signal.SIGABRT)
        _, err = process.communicate(timeout=30)
        pytest.fail(
            "no exit 60 s after Ctrl-C; its stacks:\n" + err.decode(errors="replace")[-3000:]
        )
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err.decode(errors="replace")[-600:]
    assert err.decode() == "\n"  # the line typed on is ended; nothing else, no traceback
