"""Replays (issue 18): a slider, a jump to each round or turn, labelled steps (card names,
not raw ids like ``play:punch``), arrow keys, and one file name for every download."""

from __future__ import annotations

import re
import time

import httpx
import pytest
from websockets.sync.client import connect

from tests.web.test_browser import open_page


def finished_sfrivals_table(web) -> str:
    """A short SF Rivals fight between two bots, played to the end."""
    made = httpx.post(
        web.base + "/api/tables",
        json={
            "game": "sfrivals",
            "seats": [{"kind": "bot", "agent": "greedy"}, {"kind": "bot", "agent": "random"}],
            "options": {"characters": ["ryu", "ken"]},
            "seed": 8,
        },
    ).json()
    table = made["id"]
    # a spectator's hello starts the bots (docs/protocol.md, "Durability")
    with connect(web.base.replace("http", "ws") + f"/ws/{table}") as ws:
        ws.send('{"type": "hello"}')
        deadline = time.monotonic() + 30
        while not httpx.get(f"{web.base}/api/tables/{table}").json()["finished"]:
            assert time.monotonic() < deadline, "the bots did not finish"
            ws.recv(timeout=15)
    return table


@pytest.mark.slow
def test_the_replay_slider_jump_keys_and_labels(browser, web, shots):
    table = finished_sfrivals_table(web)
    page, errors = open_page(browser, f"{web.base}/replay/{table}")
    page.wait_for_selector("#board .player")
    last = int(page.get_attribute("#slider", "max"))
    assert last >= 2
    assert page.inner_text("#position") == f"step {last} of {last}"
    # the arrow keys step, Home goes to the start
    page.keyboard.press("Home")
    assert page.inner_text("#position") == f"step 0 of {last}"
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#position") == f"step 1 of {last}"
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#position") == f"step 0 of {last}"
    # the slider
    page.fill("#slider", "2")
    assert page.inner_text("#position") == f"step 2 of {last}"
    # a jump to a round: one option per round, each landing on its step
    options = page.query_selector_all("#jump option[value]:not([value=''])")
    assert len(options) >= 2 and "Round" in options[1].inner_text()
    page.select_option("#jump", options[1].get_attribute("value"))
    assert page.inner_text("#position").startswith(f"step {options[1].get_attribute('value')} ")
    # labelled steps: the choices by the cards' names, never a raw id
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    choices = page.locator("#log li.dim").all_inner_texts()
    assert choices and all("play:" not in c and "ryu." not in c for c in choices), choices
    assert any(c.split(": ", 1)[1].startswith("Play ") for c in choices)
    page.screenshot(path=shots / "replay.png")
    # Issue 30: the "Last clash" panel calls each seat by the server's name, as the live table
    # does, never the rules' "Player 1" or "P1"
    names = [s["name"] for s in httpx.get(f"{web.base}/api/tables/{table}").json()["seats"]]
    step = last
    while not page.locator("#latest #clash").count():
        step -= 1
        assert step > 0, "no step of the replay shows a clash"
        page.keyboard.press("ArrowLeft")
    clash = page.inner_text("#latest #clash")
    assert not re.search(r"\bPlayer \d|\bP\d\b", clash), clash
    assert sorted(page.locator("#clash .reveal .dim").all_inner_texts()) == sorted(names)
    steps = page.locator("#clash ol li").all_inner_texts()
    assert steps and any(name in text for text in steps for name in names), steps
    # one file name scheme for every download
    assert page.get_attribute("#download", "download") == f"kumite-sfrivals-{table}.json"
    assert not errors, errors
