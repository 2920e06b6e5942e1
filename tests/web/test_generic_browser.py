"""The generic browser front end: a game with no face of its own (the toy game of
``tests/plugins``, known only through its entry point) is served at the web table, its
view drawn as data and each legal choice as a button with the game's label."""

from __future__ import annotations

import httpx
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError


def test_the_toy_game_plays_at_the_web_table_through_the_generic_front_end(browser, web, shots):
    games = {g["id"]: g for g in httpx.get(web.base + "/api/games").json()}
    assert games["toy"]["options"][0]["name"] == "cards"
    body = {"game": "toy", "seats": [{"kind": "you"}, {"kind": "bot"}], "seed": 5}
    made = httpx.post(web.base + "/api/tables", json=body).json()
    info = httpx.get(f"{web.base}/api/tables/{made['id']}").json()
    assert info["renderer"] == "/static/js/generic.js"
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(web.base + made["links"][0]["url"])
    page.wait_for_selector("#decision button[data-choice=hold]")
    assert page.inner_text("#decision button[data-choice=hold]") == "Hold your card"
    assert "stakes" in page.inner_text("#view")
    page.screenshot(path=shots / "0-decision.png", full_page=True)
    page.click("#decision button[data-choice=hold]")
    while True:
        page.wait_for_selector("#decision button, #outcome", timeout=15000)
        if page.query_selector("#outcome"):
            break
        try:
            page.click("#decision button >> nth=0", timeout=5000)
        except PlaywrightTimeoutError:
            continue  # the decision went (the game moved on) between the wait and the click
    page.screenshot(path=shots / "1-over.png", full_page=True)
    record = httpx.get(f"{web.base}/api/tables/{made['id']}/record").json()
    assert record["game"] == "toy" and record["outcome"] is not None
    assert errors == []
