"""Players in the browser (issue 18): a first-time player names themself, makes a table with
a bot, plays it to the end and asks for a rematch, in every game at a desktop's and a phone's
size; two people and a spectator, with a rematch that seats both people; "My games" after the
browser is closed and opened again; a clock running out; a wrong link offering to watch.

Moves are clicked through each game's own page, with the helpers of its own browser tests.
Screenshots go to ``artifacts/screenshots/<test>/``."""

from __future__ import annotations

import random
import time

import pytest

from tests.games.rivales.test_browser import click_a_choice
from tests.games.sfdbg.test_browser import click_a_sensible_choice
from tests.web.test_browser import wait_for_answer, wait_for_step

TIMEOUT = 20000
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def watch_errors(page) -> list[str]:
    """Uncaught errors and console errors of the page, as they happen."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def new_page(context, url: str):
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(url)
    return page, errors


def name_myself(page, name: str) -> None:
    """The lobby asks a first-time visitor's name once."""
    page.wait_for_selector("#player-dialog #player-name")
    page.fill("#player-name", name)
    page.click("#player-save")
    page.wait_for_selector("#player-shown")
    assert page.inner_text("#player-shown") == name


def step_of(page) -> int:
    return int(page.get_attribute("body", "data-step") or -1)


# -- one move through each game's page ------------------------------------------------------
def sfrivals_move(page, rng: random.Random) -> bool:
    """One SF Rivals decision clicked, if this page has one now."""
    if page.query_selector("#decision .character-grid button"):
        page.click("#decision .character-grid button >> nth=0")
        return True
    if page.query_selector("#confirm-setup"):
        page.click("#decision .card >> nth=-1")
        page.click("#decision .card >> nth=-2")
        page.click("#confirm-setup")
        return True
    buttons = page.locator("#hand button.card:not([disabled]) >> visible=true")
    if buttons.count():
        buttons.nth(rng.randrange(buttons.count())).click()
        return True
    return False


def rivales_move(page, rng: random.Random) -> bool:
    decision = page.query_selector("#rv-decision")
    if decision is None:
        return False
    return click_a_choice(page, decision.get_attribute("data-kind"), rng) is not None


def sfdbg_move(page, rng: random.Random) -> bool:
    decision = page.query_selector("#dbg-decision")
    if decision is None:
        return False
    click_a_sensible_choice(page, decision.get_attribute("data-kind"))
    return True


MOVES = {"sfrivals": sfrivals_move, "rivales": rivales_move, "sfdbg": sfdbg_move}


def play_to_the_end(pages, game: str, rng: random.Random, limit: int = 600) -> int:
    """Click every page's decisions until the game is over; returns the clicks made."""
    move = MOVES[game]
    clicks = 0
    deadline = time.monotonic() + 300
    while clicks < limit:
        if pages[0].query_selector("#outcome"):
            return clicks
        assert time.monotonic() < deadline, "the game did not end in time"
        moved = False
        for page in pages:
            step = step_of(page)
            if move(page, rng):
                clicks += 1
                moved = True
                # Not on before the server has answered: a page read before then shows a
                # decision already taken (and a simultaneous step waits for the others).
                wait_for_answer(page, step)
        if not moved:
            pages[0].wait_for_timeout(50)
    raise AssertionError(f"the game did not end after {clicks} clicks")


def create_with_a_bot(page, game: str) -> None:
    page.wait_for_selector(f"#game option[value={game}]", state="attached")
    page.select_option("#game", game)
    if game == "sfdbg":
        page.click("#rule-options summary")
        page.fill("[name=option-round_limit]", "3")
    page.click("#create-table")
    page.wait_for_selector("#go")
    page.click("#go")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(
    "game",
    [
        "sfrivals",
        pytest.param("rivales", marks=pytest.mark.slow),
        pytest.param("sfdbg", marks=pytest.mark.slow),
    ],
)
def test_a_first_time_player_names_themself_plays_a_bot_to_the_end_and_rematches(
    browser, web, shots, game, size
):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page, errors = new_page(context, web.base + "/")
    page.screenshot(path=shots / "0-asked-a-name.png")
    name_myself(page, "Aiko")
    create_with_a_bot(page, game)
    page.wait_for_selector("#seats li")
    assert "token=" not in page.url  # my own seat opens with my key
    assert "Aiko (you)" in page.inner_text("#seats")
    page.screenshot(path=shots / "1-table.png")
    clicks = play_to_the_end([page], game, random.Random(3))
    assert clicks >= 1
    # the events name players by seat; the log shows the person's name instead (issue 18)
    log = page.inner_text("#log")
    assert "Aiko" in log and "Player 1" not in log
    page.wait_for_selector("#rematch")
    page.screenshot(path=shots / "2-result.png")
    assert "wins" in page.inner_text("#outcome") or "Draw" in page.inner_text("#outcome")
    first_table = page.url.split("/table/")[1].split("#")[0]
    page.click("#rematch")
    page.wait_for_url(lambda url: first_table not in url)
    page.wait_for_selector("#seats li")
    assert page.url.endswith("#seat=0")
    assert "(watching)" not in page.inner_text("#title")
    assert "Aiko (you)" in page.inner_text("#seats")
    page.screenshot(path=shots / "3-rematch.png")
    # the finished game was rated (the default): the lobby's Best rated list shows Aiko and
    # the bot she played (ratings move in the background: look again until they are there)
    for _ in range(20):
        page.goto(f"{web.base}/?game={game}")
        page.wait_for_selector("#top-list li")
        if "Aiko" in page.inner_text("#top-list"):
            break
        page.wait_for_timeout(250)
    assert "Aiko" in page.inner_text("#top-list")
    assert "Bot · Casual" in page.inner_text("#top-list")  # the bot by its level
    # My games: the first table and its rematch, each once (two refreshes at load once
    # filled the list twice)
    page.wait_for_selector("#my-games-list li[data-table]")
    page.wait_for_timeout(500)
    mine = page.eval_on_selector_all(
        "#my-games-list li[data-table]", "els => els.map(e => e.dataset.table)"
    )
    assert len(mine) == 2 and first_table in mine, mine
    page.screenshot(path=shots / "4-best-rated.png")
    assert not errors, errors
    context.close()


def test_two_people_and_a_spectator_and_a_rematch_that_seats_both(browser, web, shots):
    ryu = browser.new_context(viewport={"width": 1280, "height": 800})
    ken = browser.new_context(viewport={"width": 1280, "height": 800})
    watcher = browser.new_context(viewport={"width": 1280, "height": 800})
    a, a_errors = new_page(ryu, web.base + "/")
    name_myself(a, "Ryu")
    a.select_option("[name=kind-1]", "open")
    a.click("#create-table")
    a.wait_for_selector("#go")
    a.click("#go")
    a.wait_for_selector("#seats li")
    table = a.url.split("/table/")[1].split("#")[0]
    # Ken finds the table among those waiting for players and joins it.
    b, b_errors = new_page(ken, web.base + "/")
    name_myself(b, "Ken")
    b.check("#waiting")
    b.wait_for_selector(f"#table-list li[data-table='{table}'] button")
    assert "Ryu" in b.inner_text(f"#table-list li[data-table='{table}']")
    b.screenshot(path=shots / "0-waiting-for-players.png")
    b.click(f"#table-list li[data-table='{table}'] button")
    b.wait_for_url(f"**/table/{table}#seat=1")
    c, c_errors = new_page(watcher, f"{web.base}/table/{table}")
    c.wait_for_selector("#seats li")
    deadline = time.monotonic() + 20
    while "Ken" not in a.inner_text("#seats"):
        assert time.monotonic() < deadline
        a.wait_for_timeout(50)
    assert "Ryu" in c.inner_text("#seats") and "Ken" in c.inner_text("#seats")
    play_to_the_end([a, b], "sfrivals", random.Random(5))
    for page in (b, c):
        page.wait_for_selector("#outcome")
    a.screenshot(path=shots / "1-ryu-result.png")
    c.screenshot(path=shots / "2-spectator-result.png")
    assert c.query_selector("#rematch") is None  # a spectator has no seat to rematch with
    a.click("#rematch")
    a.wait_for_url(lambda url: table not in url)
    rematch = a.url.split("/table/")[1].split("#")[0]
    # Ken's page offers his own seat of the rematch; it outlives the updates that follow.
    b.wait_for_selector("#to-rematch")
    a.wait_for_selector("#seats li")  # Ryu left the old table: an update for Ken's page
    b.wait_for_timeout(300)
    assert b.inner_text("#to-rematch") == "Go to the rematch"
    b.screenshot(path=shots / "3-ken-offered-the-rematch.png")
    b.click("#to-rematch")
    b.wait_for_url(f"**/table/{rematch}*")
    b.wait_for_selector("#seats li")
    assert "(watching)" not in b.inner_text("#title")
    assert "Ken (you)" in b.inner_text("#seats")
    # Both play the rematch: Ken has a decision of his own (he is not a spectator).
    b.wait_for_selector("#decision .character-grid button, #confirm-setup", timeout=TIMEOUT)
    c.wait_for_selector("#to-rematch")
    assert c.inner_text("#to-rematch") == "Watch the rematch"
    b.screenshot(path=shots / "4-ken-in-the-rematch.png")
    assert not a_errors and not b_errors and not c_errors, (a_errors, b_errors, c_errors)
    for context in (ryu, ken, watcher):
        context.close()


def test_my_games_after_the_browser_is_closed_and_opened_again(browser, web, shots, tmp_path):
    first = browser.new_context(viewport={"width": 1280, "height": 800})
    page, errors = new_page(first, web.base + "/")
    name_myself(page, "Sakura")
    create_with_a_bot(page, "sfrivals")
    page.wait_for_selector("#decision .character-grid button", timeout=TIMEOUT)
    table = page.url.split("/table/")[1].split("#")[0]
    kept = tmp_path / "profile.json"
    first.storage_state(path=str(kept))  # what a browser keeps on disk: localStorage
    assert not errors, errors
    first.close()
    again = browser.new_context(viewport={"width": 390, "height": 844}, storage_state=str(kept))
    page, errors = new_page(again, web.base + "/")
    page.wait_for_selector(f"#my-games-list li[data-table='{table}']")
    assert page.query_selector("#player-dialog") is None  # not asked again
    assert page.inner_text("#player-shown") == "Sakura"
    assert "your move" in page.inner_text(f"#my-games-list li[data-table='{table}']")
    page.screenshot(path=shots / "0-my-games.png")
    page.click(f"#my-games-list li[data-table='{table}'] a.resume")
    page.wait_for_selector("#decision .character-grid button", timeout=TIMEOUT)
    assert "Sakura (you)" in page.inner_text("#seats")
    page.screenshot(path=shots / "1-resumed.png")
    assert not errors, errors
    again.close()


def test_a_clock_runs_out_and_a_bot_plays_that_move(browser, web, shots):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page, errors = new_page(context, web.base + "/")
    name_myself(page, "Dan")
    page.select_option("#clock-per", "move")
    page.fill("#clock-seconds", "3")
    page.click("#create-table")
    page.wait_for_selector("#go")
    page.click("#go")
    page.wait_for_selector("#clock .countdown")
    assert "the greedy bot plays that move" in page.inner_text("#clock")
    page.screenshot(path=shots / "0-countdown.png")
    step = step_of(page)
    page.wait_for_selector("#clock .timeout-note", timeout=TIMEOUT)
    assert "Time ran out for Dan (you)" in page.inner_text("#clock")
    wait_for_step(page, step, TIMEOUT)
    page.screenshot(path=shots / "1-ran-out.png")
    assert not errors, errors
    context.close()


def test_an_invite_link_takes_its_seat_and_the_creator_s_copy_opens_nothing(browser, web, shots):
    """Issue 28: the invitee's page keeps the seat (a reload still opens it: by their key
    since issue 30, the address keeping no token); the link the creator was given then opens
    nothing."""
    host = browser.new_context(viewport={"width": 1280, "height": 800})
    guest = browser.new_context(viewport={"width": 390, "height": 844})
    lobby, lobby_errors = new_page(host, web.base + "/")
    name_myself(lobby, "Ryu")
    lobby.select_option("[name=kind-1]", "human")
    lobby.click("#create-table")
    lobby.wait_for_selector("#go")
    links = [a.get_attribute("href") for a in lobby.query_selector_all("#created ul.links a")]
    invite = next(link for link in links if "#seat=1&token=" in link)
    page, errors = new_page(guest, invite)
    page.wait_for_selector("#player-dialog #player-name")  # the invite asks who takes it
    page.fill("#player-name", "Ken")
    page.click("#player-save")
    page.wait_for_selector("#seats li")
    page.wait_for_function("(spent) => window.location.href !== spent", arg=invite)
    assert page.url.endswith("#seat=1")
    page.reload()
    page.wait_for_selector("#seats li")
    assert "(watching)" not in page.inner_text("#title")
    assert "(you)" in page.inner_text("#seats")
    page.screenshot(path=shots / "0-invitee-at-their-seat.png")
    spent = host.new_page()
    spent.goto(invite)
    spent.wait_for_selector("#watch-instead")
    spent.screenshot(path=shots / "1-the-creator-s-copy.png")
    assert not errors and not lobby_errors, (errors, lobby_errors)
    host.close()
    guest.close()


def test_the_lobby_says_why_a_player_cannot_join_a_second_seat(browser, web, shots):
    """One person, one seat (issue 28): joining an open seat of a table where you sit is
    refused, and the lobby says so where the button was."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page, errors = new_page(context, web.base + "/")
    name_myself(page, "Chun-Li")
    page.select_option("[name=kind-1]", "open")
    page.click("#create-table")
    page.wait_for_selector("#go")
    table = page.get_attribute("#go", "href").split("/table/")[1].split("#")[0]
    page.check("#waiting")
    button = f"#table-list li[data-table='{table}'] button"
    page.wait_for_selector(button)
    page.click(button)
    refused = page.wait_for_selector(f"#table-list li[data-table='{table}'] .error")
    assert "one seat a person" in refused.inner_text()
    page.screenshot(path=shots / "0-one-seat-a-person.png")
    assert "/table/" not in page.url
    assert not [e for e in errors if "409" not in e], errors  # the refused request is logged
    context.close()


def test_a_wrong_link_offers_to_watch_instead(browser, web, shots):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    lobby, _ = new_page(context, web.base + "/")
    name_myself(lobby, "Guile")
    create_with_a_bot(lobby, "sfrivals")
    lobby.wait_for_selector("#seats li")
    table = lobby.url.split("/table/")[1].split("#")[0]
    # Another browser (Guile's own key opens his seat whatever the link's token).
    other = browser.new_context(viewport={"width": 390, "height": 844})
    page = other.new_page()
    page.goto(f"{web.base}/table/{table}#seat=0&token=not-the-token")
    page.wait_for_selector("#watch-instead")
    page.screenshot(path=shots / "0-not-your-seat.png")
    page.click("#watch-instead")
    page.wait_for_selector("#seats li")
    assert "(watching)" in page.inner_text("#title")
    context.close()
    other.close()


@pytest.mark.needs("axe_playwright_python")
def test_the_leaderboard_and_the_named_lobby_have_no_serious_axe_violation(browser, web, shots):
    """axe-core on the pages of this part: the leaderboard (with a rated game) and the
    lobby once named, with My games listed."""
    from tests.web.test_accessibility import serious

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page, errors = new_page(context, web.base + "/")
    name_myself(page, "Vega")
    create_with_a_bot(page, "sfrivals")
    page.wait_for_selector("#resign")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_selector("#outcome")
    page.goto(web.base + "/")
    page.wait_for_selector("#my-games-list li[data-table]")
    assert not serious(page)
    page.goto(web.base + "/leaderboard")
    page.wait_for_selector("#board-rows tr")  # the resigned game was rated
    assert "Vega" in page.inner_text("#board-rows")
    page.screenshot(path=shots / "0-leaderboard.png")
    assert not serious(page)
    assert not errors, errors
    context.close()


def test_two_people_by_invite_link_the_invitee_named_listed_and_rated(browser, web, shots):
    """Issue 30: an invite link carries the person. Its page asks the invitee's name (or
    reuses this browser's), the hello binds the seat to their player key: their name shows
    at both pages, the table is in their "My games" after the browser is closed and opened
    again, and the game is rated for both. The lobby's copy button copies the link."""
    host = browser.new_context(viewport={"width": 1280, "height": 800})
    host.grant_permissions(["clipboard-read", "clipboard-write"])
    a, a_errors = new_page(host, web.base + "/")
    name_myself(a, "Aiko")
    a.select_option("[name=kind-1]", "human")
    a.click("#create-table")
    a.wait_for_selector("#created button.copy[data-seat='1']")
    link = a.get_attribute(
        "#created button.copy[data-seat='1'] >> xpath=preceding-sibling::a", "href"
    )
    assert link and "token=" in link
    a.click("#created button.copy[data-seat='1']")
    a.wait_for_selector("#created button.copy[data-seat='1']:text('Copied')")
    assert a.evaluate("navigator.clipboard.readText()") == link
    a.screenshot(path=shots / "0-invite-made.png")
    a.click("#go")
    a.wait_for_selector("#seats li")
    table = a.url.split("/table/")[1].split("#")[0]
    guest = browser.new_context(viewport={"width": 390, "height": 844})
    b, b_errors = new_page(guest, link)
    b.wait_for_selector("#player-dialog #player-name")
    b.screenshot(path=shots / "1-invitee-asked-a-name.png")
    b.fill("#player-name", "Bruno")
    b.click("#player-save")
    b.wait_for_selector("#seats li")
    deadline = time.monotonic() + 20
    while "Bruno (you)" not in b.inner_text("#seats") or "Bruno" not in a.inner_text("#seats"):
        assert time.monotonic() < deadline, (a.inner_text("#seats"), b.inner_text("#seats"))
        b.wait_for_timeout(50)
    assert "token=" not in b.url  # the seat is Bruno's: his key opens it again
    b.screenshot(path=shots / "2-invitee-seated.png")
    play_to_the_end([a, b], "sfrivals", random.Random(7))
    b.wait_for_selector("#outcome")
    for page in (a, b):
        outcome = page.inner_text("#outcome")
        assert "Player 2" not in outcome and "Player 1" not in outcome, outcome
    # the game was rated for both: each result screen says how each rating moved
    for page in (a, b):
        page.wait_for_selector("#rating-changes li[data-seat='1']", timeout=TIMEOUT)
    assert "Bruno (you): " in b.inner_text("#rating-changes")
    assert "Aiko (you): " in a.inner_text("#rating-changes")
    assert "μ" not in b.inner_text("#rating-changes")  # μ and σ only behind Details
    b.screenshot(path=shots / "3-invitee-result.png")
    kept = guest.storage_state()
    guest.close()
    again = browser.new_context(viewport={"width": 390, "height": 844}, storage_state=kept)
    c, c_errors = new_page(again, web.base + "/")
    c.wait_for_selector(f"#my-games-list li[data-table='{table}']")
    assert "Bruno (you)" in c.inner_text(f"#my-games-list li[data-table='{table}']")
    c.screenshot(path=shots / "4-invitee-my-games.png")
    deadline = time.monotonic() + 20
    while True:
        rows = c.request.get(f"{web.base}/api/ratings?kind=player&game=sfrivals").json()["ratings"]
        if {r["name"] for r in rows} >= {"Aiko", "Bruno"}:
            break
        assert time.monotonic() < deadline, rows
        c.wait_for_timeout(100)
    assert all(r["games"] == 1 for r in rows)
    assert not a_errors and not b_errors and not c_errors, (a_errors, b_errors, c_errors)
    for context in (host, again):
        context.close()
