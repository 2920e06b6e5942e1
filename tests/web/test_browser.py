"""Play whole games in the browser by clicking, against the AI."""

from __future__ import annotations

import json
import time

import httpx


def open_page(browser, url, width=1280, height=900):
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # console errors too (a refused resource, a CSP violation): no page may log one
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    return page, errors


def wait_for_step(page, step: int, timeout: float = 15000) -> None:
    """Wait until the page shows a step after ``step``. Polled from here: the pages'
    Content-Security-Policy forbids the string evaluation ``wait_for_function`` does."""
    deadline = time.monotonic() + timeout / 1000
    while int(page.get_attribute("body", "data-step") or -1) <= step:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the page did not pass step {step}")
        page.wait_for_timeout(20)


def wait_for_answer(page, step: int, timeout: float = 20000) -> None:
    """Wait until the server has taken the choice just clicked at ``step``: the page shows a
    later step, or (a simultaneous step waiting for other seats) no decision of its own."""
    deadline = time.monotonic() + timeout / 1000
    while int(page.get_attribute("body", "data-step") or -1) <= step and page.get_attribute(
        "body", "data-decision"
    ):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the choice clicked at step {step} was not answered")
        page.wait_for_timeout(20)


def rule_tags(page) -> list[str]:
    """The references the log's rule tags link to (shown as "§", titled with plain names)."""
    return [
        a.get_attribute("href").split("#", 1)[1] for a in page.query_selector_all("#log a.rule")
    ]


def create_from_lobby(page, game):
    page.wait_for_selector(f"#game option[value={game}]", state="attached")
    page.select_option("#game", game)
    page.click("#create-table")
    page.wait_for_selector("#go")
    page.click("#go")


def test_sfrivals_full_game_against_the_ai_by_clicking(browser, web, shots):
    page, errors = open_page(browser, web.base + "/")
    page.wait_for_selector("#game option[value=sfrivals]", state="attached")
    page.select_option("#game", "sfrivals")
    page.wait_for_selector(".seat-row")
    page.screenshot(path=shots / "0-lobby.png", full_page=True)  # the form, filled in
    create_from_lobby(page, "sfrivals")
    page.wait_for_selector("#decision .character-grid button")
    page.screenshot(path=shots / "1-characters.png", full_page=True)
    page.click("#decision .character-grid button >> nth=2")
    page.wait_for_selector("#confirm-setup")
    page.click("#decision .card >> nth=-1")  # cover: the Super Combo
    page.click("#decision .card >> nth=-2")  # show the next one
    page.screenshot(path=shots / "2-setup.png", full_page=True)
    page.click("#confirm-setup")
    rounds = 0
    while True:
        page.wait_for_selector("#hand button.card:not([disabled]), #outcome", timeout=15000)
        if page.query_selector("#outcome"):
            break
        step = int(page.get_attribute("body", "data-step"))
        page.click("#hand button.card:not([disabled]) >> nth=0")
        rounds += 1
        wait_for_step(page, step)
        if rounds == 2:
            page.screenshot(path=shots / "3-round.png", full_page=True)
    page.screenshot(path=shots / "4-result.png", full_page=True)
    assert rounds >= 1
    assert "wins" in page.inner_text("#outcome") or "Draw" in page.inner_text("#outcome")
    log = page.inner_text("#log")
    assert "reveals" in log
    assert "sfr.round." not in log  # a rule tag is a link, its reference is not shown
    assert any(ref.startswith("sfr.round.") for ref in rule_tags(page))
    # The record download and the replay.
    href = page.get_attribute("#download", "href")
    record = httpx.get(web.base + href).json()
    assert record["game"] == "sfrivals"
    page.click("#replay")
    page.wait_for_selector("#board .player")
    page.click("#first")
    assert page.inner_text("#position").startswith("step 0")
    page.click("#next")
    page.screenshot(path=shots / "5-replay.png", full_page=True)
    assert not errors, errors


def test_table_page_fits_a_phone(browser, web, shots):
    made = httpx.post(
        web.base + "/api/tables",
        json={
            "game": "sfrivals",
            "seats": [{"kind": "you"}, {"kind": "bot", "agent": "greedy"}],
            "options": {"characters": ["chunli", "dudley"]},
            "seed": 2,
        },
    ).json()
    link = next(x for x in made["links"] if x["you"])
    page, errors = open_page(browser, web.base + link["url"], width=390, height=844)
    page.wait_for_selector("#confirm-setup")
    page.click("#decision .card >> nth=0")
    page.click("#decision .card >> nth=1")
    page.click("#confirm-setup")
    page.wait_for_selector("#hand button.card:not([disabled])")
    page.screenshot(path=shots / "phone.png", full_page=True)
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 1
    assert not errors, errors


def test_spectator_sees_no_hand(browser, web, shots):
    made = httpx.post(
        web.base + "/api/tables",
        json={
            "game": "sfrivals",
            "seats": [{"kind": "you"}, {"kind": "human"}],
            "options": {"characters": ["ryu", "ken"]},
            "seed": 1,
        },
    ).json()
    page, errors = open_page(browser, web.base + made["spectate"])
    page.wait_for_selector("#seats li")
    page.screenshot(path=shots / "spectator.png", full_page=True)
    assert page.query_selector("#hand") is None
    assert "(watching)" in page.inner_text("#title")
    state = page.evaluate("1")  # page is alive
    assert json.dumps(state) == "1"
    assert not errors, errors
