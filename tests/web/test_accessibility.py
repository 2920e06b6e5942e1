"""Accessibility (issue 18): axe-core (``axe-playwright-python``) finds no serious or
critical violation on the lobby, each game's table and a rules page, and the pages log no
console error."""

from __future__ import annotations

import httpx
import pytest

from tests.web.test_board_fit import GAMES
from tests.web.test_browser import open_page

pytestmark = pytest.mark.needs("axe_playwright_python")


def serious(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['nodes'][0]['target']}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.slow
def test_the_lobby_and_a_rules_page_have_no_serious_violation(browser, web, shots):
    for path, ready in (("/", "#create-table"), ("/rules/rivales", "h1")):
        page, errors = open_page(browser, web.base + path)
        missing: list[str] = []
        page.on("response", lambda r, missing=missing: r.status >= 400 and missing.append(r.url))
        page.wait_for_selector(ready)
        page.wait_for_timeout(300)
        page.screenshot(path=shots / f"{path.strip('/').replace('/', '-') or 'lobby'}.png")
        assert not serious(page), path
        assert not errors and not missing, (errors, missing)
        page.close()


@pytest.mark.slow
@pytest.mark.parametrize("game", list(GAMES))
def test_each_table_has_no_serious_violation(browser, web, shots, game):
    table = GAMES[game][0]
    made = httpx.post(web.base + "/api/tables", json={**table, "seed": 5}).json()
    link = next(x for x in made["links"] if x["you"])
    page, errors = open_page(browser, web.base + link["url"])
    page.wait_for_selector(".decision")
    page.wait_for_timeout(300)
    page.screenshot(path=shots / f"{game}.png")
    assert not serious(page), game
    assert not errors, errors


MOTION = """() => {
  const el = document.createElement("div");
  el.className = "reveal";
  document.body.append(el);
  const shake = document.createElement("div");
  shake.className = "took-hit";
  document.body.append(shake);
  const strike = document.createElement("li");
  strike.className = "strike";
  document.body.append(strike);
  return [el, shake, strike].map((x) => getComputedStyle(x).animationName);
}"""


def test_reveals_hits_and_attacks_move_unless_the_player_asks_for_less_motion(browser, web):
    """prefers-reduced-motion: reduce turns every animation off (kumite.css)."""
    page, errors = open_page(browser, web.base + "/rules")
    assert page.evaluate(MOTION) == ["kumite-reveal", "kumite-hit", "kumite-strike"]
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(MOTION) == ["none", "none", "none"]
    assert not errors, errors
