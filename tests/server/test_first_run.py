"""First run (issue 18): the web table's address is printed once its port is bound, a port
in use is one clear line; /favicon.ico and the generic pages are served. Issue 30: what
`make serve` installs (no numba, SciPy, matplotlib or cma) serves and plays with the default
bots."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import httpx
import pytest

from kumite.core.registry import specs
from tests.hidden import hiding_env
from tests.server.live import Seat, create_table, free_port, wait_until_up


def serve(
    port: int, tmp_path, env: dict[str, str] | None = None, *more: str
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable, "-m", "kumite.cli.main", "serve", "--port", str(port),
            "--database-url", f"sqlite:///{tmp_path}/first.sqlite3", *more,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**(os.environ if env is None else env), "COLUMNS": "200", "NO_COLOR": "1"},
    )  # fmt: skip


def test_the_address_is_printed_once_the_port_answers_and_a_taken_port_is_one_line(tmp_path):
    port = free_port()
    first = serve(port, tmp_path)
    try:
        assert first.stdout is not None
        line = first.stdout.readline()
        assert f"kumite web table on http://127.0.0.1:{port}/" in line
        # Printed after the bind: the port takes connections at once (the app may still be
        # starting; the connection waits in the backlog).
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
        second = serve(port, tmp_path)
        out, err = second.communicate(timeout=60)
        assert second.returncode == 2
        assert "kumite web table on" not in out
        assert f"cannot listen on 127.0.0.1:{port}" in err
        assert len(err.strip().splitlines()) == 1
        assert "Traceback" not in err
    finally:
        first.terminate()
        first.wait(timeout=20)


def test_the_favicon_and_the_leaderboard_page_are_served(server):
    icon = httpx.get(f"{server.base}/favicon.ico")
    assert icon.status_code == 200
    assert icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.text.startswith("<svg")
    page = httpx.get(f"{server.base}/leaderboard")
    assert page.status_code == 200
    assert "/static/js/leaderboard.js" in page.text
    assert "<script>" not in page.text  # no inline script (the pages' policy)


@pytest.mark.parametrize("name", ["player.js", "clock.js", "leaderboard.js"])
def test_the_new_modules_are_served(server, name):
    response = httpx.get(f"{server.base}/static/js/{name}")
    assert response.status_code == 200
    assert "javascript" in response.headers["content-type"]


def test_without_the_solver_and_lab_libraries_the_server_plays_with_the_default_bots(tmp_path):
    """As after `make serve` (numba, SciPy, matplotlib and cma hidden from the server and
    its bot workers): the lobby offers every game's default bots and not those needing an
    extra, a table of the game's own first bot against random plays each game to its end,
    and asking for a bot that needs an extra is a clear 400 naming it."""
    extra_bots = {
        (spec.id, bot.name, bot.extra)
        for spec in specs().values()
        for bot in spec.bots
        if bot.extra
    }
    assert extra_bots
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve(port, tmp_path, hiding_env(tmp_path / "hidden"), "--bot-delay", "0")
    try:
        wait_until_up(base)
        for game in httpx.get(f"{base}/api/games").json():
            offered = [a["name"] for a in game["agents"]]
            assert {"random", "ismcts"} <= set(offered)
            assert not {name for g, name, _ in extra_bots if g == game["id"]} & set(offered)
            own = offered[1]  # random, then the game's own bots (agents.registry)
            seats = [{"kind": "bot", "agent": own}, {"kind": "bot", "agent": "random"}]
            made = create_table(base, game["id"], seats)
            watcher = Seat(base, made["id"])
            watcher.until(
                lambda m: m["type"] == "update" and m["state"]["outcome"] is not None, timeout=120
            )
        for game_id, name, extra in extra_bots:
            seats = [{"kind": "you"}, {"kind": "bot", "agent": name}]
            refused = httpx.post(f"{base}/api/tables", json={"game": game_id, "seats": seats})
            assert refused.status_code == 400
            assert f"pip install 'kumite[{extra}]'" in refused.text
    finally:
        server.terminate()
        _, err = server.communicate(timeout=20)
    assert "Traceback" not in err
