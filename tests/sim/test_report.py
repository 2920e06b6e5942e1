"""The HTML report: self-contained, opens in headless Chromium, and its plots render."""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

import pytest

from kumite.sim.backends import simulate
from kumite.sim.engine import SimSpec
from kumite.sim.report import write_report
from kumite.sim.results import document

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PACK = """
[pack]
id = "what-if"
base = "sfrivals-base"
game = "sfrivals"
version = "1"
title = "Ryu's Hadouken hits for 10"

[[cards]]
id = "ryu.hadouken"
damage = 10
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    # Two characters keep the plots small (drawing text is what takes time), yet every kind of
    # plot is there: matchups, ratings, card impact, cards by round, what-if.
    options = {"characters": ["ryu", "ken"]}
    base = SimSpec("sfrivals", (("random", "random"),), 300, seed=8, options=options)
    after = dataclasses.replace(
        base, options={**options, "pack": PACK}, label="pack", stream="pack"
    )
    doc = document([simulate(base), simulate(after)], pack_name="what-if.toml", pack_text=PACK)
    return write_report(doc, tmp_path_factory.mktemp("report") / "report.html")


def test_report_is_self_contained(report):
    page = report.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    # no external resource of any kind: every src is inline data
    assert not re.search(r"""(src|href)\s*=\s*['"](?!data:|#)""", page)
    assert "<script" not in page
    assert "http://" not in page and "https://" not in page
    assert page.count("data:image/png;base64,") >= 10
    for words in (
        "Matchups",
        "Card impact",
        "What-if",
        "Ryu",
        "Hadouken",
        "Wilson",
        "Benjamini",
        "Bradley",
    ):
        assert words in page


@pytest.mark.browser
@pytest.mark.needs("playwright")
def test_report_opens_in_headless_chromium_and_its_plots_render(report, tmp_path):
    from playwright import sync_api as playwright

    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    path = report
    outside: list[str] = []
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})

            def guard(route):
                url = route.request.url
                if url.startswith(("file:", "data:")):
                    route.continue_()
                else:
                    outside.append(url)
                    route.abort()

            page.route("**/*", guard)
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(path.as_uri(), wait_until="load")
            assert "Street Fighter Rivals" in page.title()
            images = page.evaluate(
                """() => Array.from(document.images).map(img => ({
                    complete: img.complete, w: img.naturalWidth, h: img.naturalHeight,
                    shown: img.getBoundingClientRect().width, alt: img.alt}))"""
            )
            assert len(images) >= 10
            for img in images:
                assert img["complete"] and img["w"] > 200 and img["h"] > 100, img
                assert img["shown"] > 100, img
            heading = page.inner_text("h1")
            assert "Balance report" in heading
            assert page.locator("table").count() >= 6
            assert page.locator("tr.sig").count() >= 1  # the planted change is flagged
            page.screenshot(path=str(tmp_path / "report.png"), full_page=False)
        finally:
            browser.close()
    assert outside == []
    assert errors == []
    assert (tmp_path / "report.png").stat().st_size > 10_000
