"""The generic browser front end: a game with no face of its own (the toy game of
``tests/plugins``, known only through its entry point) is served at the web table, its
view drawn as data and each legal choice as a button with the game's label."""

from __future__ import annotations

import httpx
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.web.test_browser import open_page


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


def test_the_lobby_groups_a_team_games_seats_and_shows_every_option_type(browser, web, shots):
    """The toy's 2v2 mode declares its teams (seats 1 & 3 against 2 & 4): the lobby groups the
    seats by team once there are four; its yes-or-no and text options are a box to tick and a
    field to fill, and the table is made with them."""
    from tests.web.test_players_browser import name_myself

    page, errors = open_page(browser, web.base + "/")
    name_myself(page, "Dana")
    page.wait_for_selector("#game option[value=toy]", state="attached")
    page.select_option("#game", "toy")
    assert page.query_selector_all("fieldset.team") == []
    page.click("#add-seat")  # 2 seats to 4: the toy takes no 3
    legends = [e.inner_text() for e in page.query_selector_all("fieldset.team legend")]
    assert legends == ["Team A — seats 1 & 3", "Team B — seats 2 & 4"]
    assert len(page.query_selector_all(".seat-row")) == 4
    assert page.is_disabled("#add-seat")
    page.click("#rule-options summary")
    assert page.is_checked("[name=option-raises]")
    page.uncheck("[name=option-raises]")
    page.fill("[name=option-dealer]", "the twins")
    page.screenshot(path=shots / "0-lobby.png", full_page=True)
    page.click("#create-table")
    page.wait_for_selector("#created h2")
    table = page.inner_text("#created h2").split()[1]
    options = web.hub.tables[table].options
    assert (options["mode"], options["raises"], options["dealer"]) == ("2v2", False, "the twins")
    assert web.hub.tables[table].state.teams == ((0, 2), (1, 3))
    assert errors == []
