"""The players' language at the web table (issue 30), for every game the server lists: no
rule reference is shown as text on the lobby, a table or a replay (a rule tag is a small
link titled with the clause's plain name); a card zooms in a dialog (full text, copies,
provenance; Escape or a tap outside closes it); spectators see who is watching and talk on
their own channel; a replay's jump list names only rounds that were played."""

from __future__ import annotations

import re
import time

import httpx
import pytest

from tests.web.test_browser import open_page

pytestmark = pytest.mark.browser

TIMEOUT = 20000


def games(base: str) -> list[dict]:
    return [g for g in httpx.get(base + "/api/games").json() if g["id"] != "toy"]


def references(base: str, game: str) -> set[str]:
    rules = httpx.get(f"{base}/api/games/{game}/rules").json()
    return set(rules) | set(httpx.get(f"{base}/api/games/{game}/rule-names").json())


def shown_references(page, refs: set[str]) -> list[str]:
    """The rule references in the page's visible text (and its buttons' and links' titles
    are names, checked apart)."""
    text = page.inner_text("body")
    words = set(re.findall(r"[a-z0-9]+(?:\.[a-z0-9-]+){2,}", text))
    return sorted(words & refs)


def bots_only(web, game: dict, seed: int = 5) -> dict:
    n = game["seat_counts"][0]
    body: dict = {
        "game": game["id"],
        "seats": [{"kind": "bot", "agent": "greedy"}] * n,
        "seed": seed,
        "options": {},
    }
    if game.get("modes"):
        body["options"][game["mode_option"]] = game["modes"][0]["id"]
    if any(o["name"] == "round_limit" for o in game["options"]):
        body["options"]["round_limit"] = 3  # a short game: the point is its pages
    made = httpx.post(web.base + "/api/tables", json=body)
    assert made.status_code == 200, made.text
    return made.json()


def wait_over(web, table: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if httpx.get(f"{web.base}/api/tables/{table}").json().get("finished"):
            return
        time.sleep(0.3)
    raise TimeoutError(f"table {table} did not finish")


@pytest.mark.slow
def test_no_rule_reference_on_the_lobby_a_table_or_a_replay(browser, web, shots):
    for game in games(web.base):
        gid = game["id"]
        refs = references(web.base, gid)
        page, errors = open_page(browser, web.base + "/")
        page.wait_for_selector(f"#game option[value={gid}]", state="attached")
        page.select_option("#game", gid)
        page.click("#rule-options summary")  # the options open, as a player reads them
        page.wait_for_timeout(200)
        assert page.locator("#options").is_visible()
        assert not shown_references(page, refs), (gid, "lobby")
        for link in page.query_selector_all("#options a.rule"):  # the ruling behind an option
            assert link.text_content() == "?"
            assert link.get_attribute("href").startswith(f"/rules/{gid}#")
        page.screenshot(path=shots / f"{gid}-lobby.png", full_page=True)
        made = bots_only(web, game)
        page.goto(web.base + made["spectate"])
        page.wait_for_selector("#log a.rule", timeout=TIMEOUT)
        assert not shown_references(page, refs), (gid, "table")
        tag = page.query_selector("#log a.rule")
        assert tag.inner_text() == "§"
        title = tag.get_attribute("title")
        assert title and title not in refs and not re.search(r"\w\.\w+\.", title)
        wait_over(web, made["id"])
        page.wait_for_selector("#outcome", timeout=TIMEOUT)
        assert not shown_references(page, refs), (gid, "the end of the table")
        page.screenshot(path=shots / f"{gid}-table-over.png")
        page.goto(f"{web.base}/replay/{made['id']}")
        page.wait_for_selector("#jump option >> nth=1", state="attached", timeout=TIMEOUT)
        last = int(page.get_attribute("#slider", "max"))
        for at in (1, last // 2, last):
            page.fill("#slider", str(at))
            page.dispatch_event("#slider", "input")
            page.wait_for_timeout(100)
            assert not shown_references(page, refs), (gid, "replay", at)
        page.screenshot(path=shots / f"{gid}-replay.png")
        assert not errors, (gid, errors)
        page.close()


@pytest.mark.slow
def test_the_replay_jump_list_names_only_rounds_that_were_played(browser, web):
    """The game over's view moves a round counter on (SF Rivals' round after the knock-out):
    no jump goes there, and each jump lands on a view whose counter it names."""
    for game in games(web.base):
        made = bots_only(web, game, seed=7)
        wait_over(web, made["id"])
        frames = httpx.get(f"{web.base}/api/tables/{made['id']}/replay").json()["frames"]
        page, errors = open_page(browser, f"{web.base}/replay/{made['id']}")
        page.wait_for_selector("#jump option >> nth=1", state="attached", timeout=TIMEOUT)
        options = page.eval_on_selector_all(
            "#jump option", "os => os.filter(o => o.value).map(o => [Number(o.value), o.text])"
        )
        assert options
        for at, text in options:
            assert at < len(frames) - 1, (game["id"], text)  # a step was played from it
            view = frames[at]["view"]
            for counter, value in re.findall(r"(round|clash|turn) (\d+)", text.lower()):
                assert view[counter] == int(value), (game["id"], text, view[counter])
        assert not errors
        page.close()


def test_a_card_zooms_in_a_dialog_that_escape_and_a_tap_outside_close(browser, web, shots):
    game = games(web.base)[0]
    made = bots_only(web, game)
    wait_over(web, made["id"])
    page, errors = open_page(browser, web.base + made["spectate"])
    card = page.locator("#board [data-card]").first
    card.wait_for(timeout=TIMEOUT)
    card.click(button="right")  # a long press on a phone
    dialog = page.locator("#card-zoom")
    dialog.wait_for(state="visible")
    assert page.evaluate("document.getElementById('card-zoom').matches(':modal')")
    assert page.get_attribute("#card-zoom", "aria-labelledby") == "card-zoom-title"
    assert page.inner_text("#card-zoom-title")
    assert re.search(r"\d+ cop(y|ies) here", page.inner_text("#card-zoom"))
    assert page.evaluate("document.activeElement.closest('#card-zoom') !== null")  # focus in it
    page.screenshot(path=shots / "zoom.png")
    from tests.web.test_accessibility import serious

    assert not serious(page)  # axe, with the dialog open
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    card.click(button="right")
    dialog.wait_for(state="visible")
    page.mouse.click(3, 3)  # outside the dialog: its backdrop
    dialog.wait_for(state="hidden")
    assert not errors, errors


def test_spectators_are_shown_and_talk_apart_from_the_players(browser, web, shots):
    game = games(web.base)[0]
    made = httpx.post(
        web.base + "/api/tables",
        json={"game": game["id"], "seats": [{"kind": "you"}, {"kind": "human"}], "seed": 2},
    ).json()
    mine = next(x for x in made["links"] if x["you"])
    player, errors = open_page(browser, web.base + mine["url"])
    player.wait_for_selector("#chat:not([hidden])", timeout=TIMEOUT)
    # another browser: a guest, not the player
    gallery = browser.new_context(viewport={"width": 1280, "height": 900})
    watcher = gallery.new_page()
    watcher.goto(web.base + made["spectate"])
    watcher.wait_for_selector("#chat:not([hidden])", timeout=TIMEOUT)
    player.wait_for_selector("#watching", timeout=TIMEOUT)
    assert "Watching (1): a guest" in player.inner_text("#watching")
    # the chat's rules in one line, the details on demand
    assert player.locator("#chat .chat-rules-line summary").is_visible()
    assert not player.locator("#chat-rules").is_visible()
    watcher.fill("#chat-text", "what a read")
    watcher.press("#chat-text", "Enter")
    watcher.wait_for_selector("#chat-log li.spectator", timeout=TIMEOUT)
    player.fill("#chat-text", "gl hf")
    player.press("#chat-text", "Enter")
    watcher.wait_for_selector("#chat-log li:has-text('gl hf')", timeout=TIMEOUT)
    player.wait_for_selector("#chat-log li:has-text('gl hf')", timeout=TIMEOUT)
    assert "what a read" not in player.inner_text("#chat-log")
    assert "A guest (watching): what a read" in watcher.inner_text("#chat-log")
    watcher.screenshot(path=shots / "spectator-chat.png")
    from tests.web.test_accessibility import serious

    assert not serious(watcher) and not serious(player)
    player.screenshot(path=shots / "player-chat.png")
    # the invitee has not come yet: nobody is offered to hand their seat to a bot
    assert player.locator("button.stand-in").count() == 0
    gallery.close()
    assert not errors, errors
