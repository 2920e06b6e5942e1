"""SF Rivals at the web table: card copies (Ryu's Hadouken ×2), the legend of the marks and
why a greyed card cannot be played."""

from __future__ import annotations

import httpx

from tests.web.test_browser import open_page


def test_sfrivals_table_shows_copies_and_the_legend_of_its_marks(browser, web, shots):
    made = httpx.post(
        web.base + "/api/tables",
        json={
            "game": "sfrivals",
            "seats": [{"kind": "you"}, {"kind": "bot", "agent": "greedy"}],
            "options": {"characters": ["ryu", "ken"]},
            "seed": 2,
        },
    ).json()
    link = next(x for x in made["links"] if x["you"])
    page, errors = open_page(browser, web.base + link["url"])
    page.wait_for_selector("#confirm-setup")
    # the matchup's two move lists, one row per card type with its copies
    ryu = page.text_content("details.move-list[data-character=ryu] table")
    assert "Hadouken ×2" in ryu
    assert "Shoryuken ×" not in ryu
    assert page.inner_text("details.move-list[data-character=ken] summary").startswith("Ken's")
    # damage values are estimates: the legend says what "*" means
    assert "* estimate — no public source gives this value" in page.inner_text("#legend")
    assert "†" not in page.inner_text("#legend")  # nothing reconstructed is shown
    # set-up: cover the Hurricane Kick, show the Guard; both Hadouken stay in hand, once
    page.click("#decision .card[data-card='ryu.hurricane-kick']")
    page.click("#decision .card[data-card='ryu.guard']")
    page.click("#confirm-setup")
    page.wait_for_selector("#hand button.card:not([disabled])")
    assert len(page.query_selector_all("#hand .card[data-card='ryu.hadouken']")) == 1
    assert page.inner_text("#hand .card[data-card='ryu.hadouken'] .copies") == "×2"
    # the greyed Ultra Combo says why it cannot be played (sfr.layout.ultra-combo: life 5 or
    # under), and so does the Super Combo (sfr.layout.super-combo: from round 5)
    ultra = "#hand button.card[data-card='ryu.metsu-hadouken']"
    assert page.is_disabled(ultra)
    assert page.inner_text(f"{ultra} .why") == (
        "an Ultra Combo can only be played when your life is 5 or under (you have 10)"
    )
    supers = page.locator("#hand button.card.k-super")
    assert supers.count() == 1 and supers.first.is_disabled()
    assert "only be played from round 5 (this is round 1)" in supers.first.inner_text()
    page.screenshot(path=shots / "copies-and-legend.png", full_page=True)
    assert not errors, errors


def test_last_clash_shows_the_card_revealed_first_beside_the_one_it_explains(browser, web, shots):
    """Issue 30: after Guard (or another "reveal first"), one card is revealed a step before
    the other; the "Last clash" panel shows both cards, not only the last one revealed."""
    from tests.web.test_language_browser import wait_over

    for seed in range(1, 30):
        made = httpx.post(
            web.base + "/api/tables",
            json={
                "game": "sfrivals",
                "seats": [{"kind": "bot", "agent": "random"}] * 2,
                "options": {"characters": ["ryu", "ken"]},
                "seed": seed,
            },
        ).json()
        wait_over(web, made["id"])
        frames = httpx.get(f"{web.base}/api/tables/{made['id']}/replay").json()["frames"]
        split = next(
            (
                i
                for i, f in enumerate(frames)
                if any(e["type"] == "InitiativeCompared" for e in f["events"])
                and sum(e["type"] == "CardRevealed" for e in f["events"]) == 1
            ),
            None,
        )
        if split is not None:
            break
    else:
        raise AssertionError("no clash with a card revealed first in 29 games")
    page, errors = open_page(browser, f"{web.base}/replay/{made['id']}")
    page.wait_for_selector("#slider")
    page.fill("#slider", str(split))
    page.dispatch_event("#slider", "input")
    page.wait_for_selector("#clash")
    assert page.locator("#clash .reveal").count() == 2
    page.screenshot(path=shots / "revealed-first.png")
    assert not errors, errors
