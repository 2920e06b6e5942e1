"""The pages work under their Content-Security-Policy (docs/protocol.md, "Security"): the
lobby, a table of each game and a replay load and draw with no violation reported by the
browser; the lobby offers a seed only on a --dev-seeds server."""

from __future__ import annotations

import httpx
import pytest

from kumite.server.settings import ServerSettings
from tests.server.live import ThreadServer, create_table

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`);
});
"""


def open_watched(browser, url: str):
    """A page that keeps the policy violations the browser reports and the script errors."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    logged: list[str] = []
    page.on(
        "console",
        lambda m: logged.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.on("pageerror", lambda exc: logged.append(str(exc)))
    page.add_init_script(WATCH)
    page.goto(url)
    return page, logged


def violations(page, logged: list[str]) -> list[str]:
    return [*page.evaluate("window.__violations"), *logged]


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("sfrivals", {}),
        ("sfdbg", {"round_limit": 3}),
        ("rivales", {"fighters": ["sombrerero", "curie"]}),
    ],
)
def test_a_table_page_draws_under_its_policy(browser, web, game, options):
    made = create_table(
        web.base, game, [{"kind": "you"}, {"kind": "bot", "agent": "random"}], options=options
    )
    page, logged = open_watched(browser, web.base + made["links"][0]["url"])
    page.wait_for_selector("body[data-step]")
    page.wait_for_selector("#board *")
    assert violations(page, logged) == []
    page.close()


def test_the_lobby_and_a_replay_work_under_their_policy(browser, web):
    made = create_table(
        web.base,
        "sfrivals",
        [{"kind": "bot", "agent": "random"}, {"kind": "bot", "agent": "greedy"}],
        options={"characters": ["ryu", "ken"]},
    )
    page, logged = open_watched(browser, web.base + "/")
    page.wait_for_selector("#game option[value=sfdbg]", state="attached")
    page.select_option("#game", "sfdbg")
    page.wait_for_selector("#seat-rows .seat-row")
    assert page.is_visible("#seed-field")  # a --dev-seeds server (the tests')
    for _ in range(100):
        if httpx.get(f"{web.base}/api/tables/{made['id']}").json()["finished"]:
            break
        page.wait_for_timeout(100)
    page.goto(f"{web.base}/replay/{made['id']}")
    page.wait_for_selector("#board .player")
    page.click("#next")
    page.click("#last")
    assert violations(page, logged) == []
    page.close()


def test_the_lobby_offers_no_seed_field_on_a_server_keeping_seeds_secret(browser, tmp_path):
    with ThreadServer(f"sqlite:///{tmp_path}/s.sqlite3", settings=ServerSettings()) as live:
        page, logged = open_watched(browser, live.base + "/")
        page.wait_for_selector("#game option[value=sfrivals]", state="attached")
        page.wait_for_selector("#seat-rows .seat-row")
        assert not page.is_visible("#seed-field")
        page.click("#create-table")
        page.wait_for_selector("#go")  # made, with a seed of the server's own
        assert violations(page, logged) == []
        page.close()
