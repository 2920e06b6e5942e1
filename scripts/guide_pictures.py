"""The pictures of the beginner's guides (``/learn/<game>``): screenshots of kumite's own web
table at the moments each guide describes, saved as compact WebP files in the game's guide
package (``src/kumite/games/<id>/guide/``).

A local server (a development one: the tables take the seeds given here) and Debian's
chromium driven by Playwright; one seat plays by clicking the first choice it is offered,
the others are greedy bots. Same seeds, same code: the same pictures.

    PYTHONPATH=src .venv/bin/python scripts/guide_pictures.py [GAME ...] [--list]
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from PIL import Image
from playwright.sync_api import Locator, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from kumite.cli.serve import uvicorn_config
from kumite.server.app import create_app
from kumite.server.settings import ServerSettings
from kumite.server.storage import tables as stored_tables

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
# Each moment at both sizes: "<moment>.webp" from a desktop window, "<moment>-phone.webp"
# from a phone's (shown on narrow screens instead: server/guide_pages.py).
SIZES = {
    "": {"viewport": {"width": 1280, "height": 800}},
    "-phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
}
WIDTH = 1100  # px of a saved picture at most: readable on a desktop, a tap away on a phone
MAX_BYTES = 150_000
BOT = {"kind": "bot", "agent": "greedy"}
ME = "You"
BOT_SEED = 20261205


# (how many decisions of each kind the seat has met so far, this one's kind, the page)
When = Callable[[dict[str, int], str, Page], bool]


@dataclasses.dataclass(frozen=True)
class Moment:
    """A picture: taken at the first decision of the seat where ``when`` holds, before it is
    answered; ``at_end`` instead takes the result."""

    name: str
    when: When | None = None
    at_end: bool = False
    # on a phone: an element brought into sight first (a panel the page scrolled away from)
    phone_scroll: str | None = None


@dataclasses.dataclass(frozen=True)
class Plan:
    game: str
    table: dict[str, Any]
    seed: int
    moments: tuple[Moment, ...]


def kind_at(kind: str, nth: int = 1) -> When:
    """The ``nth`` decision of this kind."""
    return lambda tally, now, _page: now == kind and tally[kind] == nth


def has(selector: str) -> When:
    return lambda _tally, _kind, page: page.query_selector(selector) is not None


PLANS = {
    "sfrivals": Plan(
        "sfrivals",
        {
            "game": "sfrivals",
            "seats": [{"kind": "you", "name": ME}, BOT],
            "options": {"characters": ["ryu", "ken"]},
        },
        3,
        (
            Moment("setup", has("#confirm-setup")),
            Moment("play", kind_at("play", 1)),
            Moment("clash", has("#clash"), phone_scroll="#clash"),
            Moment("end", at_end=True),
        ),
    ),
    "rivales": Plan(
        "rivales",
        {
            "game": "rivales",
            "seats": [{"kind": "you", "name": ME}, BOT],
            "options": {"mode": "1v1"},
        },
        3,
        (
            Moment("setup", kind_at("marker", 1)),
            Moment("play", kind_at("play", 1)),
            Moment("boost", kind_at("boost", 1)),
            Moment("clash", kind_at("play", 4), phone_scroll="#rv-clash"),
            Moment("end", at_end=True),
        ),
    ),
    "rivales-2v2": Plan(
        "rivales",
        {
            "game": "rivales",
            "seats": [{"kind": "you", "name": ME}, BOT, BOT, BOT],
            "options": {"mode": "2v2"},
        },
        3,
        (
            Moment("zones", kind_at("zones", 2)),
            Moment("play-2v2", kind_at("play", 3)),
        ),
    ),
    "sfdbg": Plan(
        "sfdbg",
        {"game": "sfdbg", "seats": [{"kind": "you", "name": ME}, BOT], "options": {}},
        3,
        (
            Moment("turn", kind_at("turn", 1), phone_scroll="#dbg-kicks"),
            Moment("buy", has("#dbg-lineup button[data-choice^='buy:']")),
            Moment("attack", kind_at("defend", 1)),
            Moment("end", at_end=True),
        ),
    ),
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """kumite's app under uvicorn in a thread, with a throwaway database."""

    def __init__(self, folder: str) -> None:
        # A development server takes a table's game seed, never its bots' (a secret the API
        # does not take): this server's own bots are seeded here, so that they play alike.
        stored_tables.new_seed = lambda: BOT_SEED
        settings = ServerSettings(dev_seeds=True)
        app = create_app(f"sqlite:///{folder}/guide.sqlite3", bot_delay=0.0, settings=settings)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", self.port, settings))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        for _ in range(600):
            try:
                if httpx.get(f"{self.base}/api/games", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def step_of(page: Page) -> int:
    return int(page.get_attribute("body", "data-step") or -1)


CLICKABLE = (
    "#board [data-choice]:not([disabled]):not(.rv-all [data-choice]):not(.dbg-all [data-choice])"
    " >> visible=true"
)


def press(target: Locator) -> None:
    """A click; on a card another panel covers (a phone's hand under SF DBG's decision,
    issue 30), the click event itself: the pictures are taken, not the layout tested."""
    try:
        target.click(timeout=3000)
    except PlaywrightTimeout:
        target.dispatch_event("click")


def answer(page: Page) -> None:
    """Click the first choice the seat is offered (a set-up: two cards, then Confirm)."""
    if page.query_selector("#confirm-setup"):
        cards = page.locator("#decision button.card")
        press(cards.nth(cards.count() - 1))
        press(cards.nth(cards.count() - 2))
        press(page.locator("#confirm-setup"))
        return
    for selector in (
        "#dbg-play-power",
        "#dbg-hand button[data-choice^='play:']",
        "#dbg-lineup button[data-choice^='buy:']",
    ):
        found = page.locator(selector)
        if found.count():
            press(found.first)
            return
    press(page.locator(CLICKABLE).first)


def save(png: bytes, path: Path) -> int:
    """A screenshot as WebP, as wide as ``WIDTH`` at most and under ``MAX_BYTES``."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    if image.width > WIDTH:
        image = image.resize((WIDTH, round(image.height * WIDTH / image.width)), Image.LANCZOS)
    for quality in (80, 70, 60, 50, 40):
        out = io.BytesIO()
        image.save(out, "WEBP", quality=quality, method=6)
        if out.tell() <= MAX_BYTES:
            break
    path.write_bytes(out.getvalue())
    return out.tell()


def shoot(page: Page, moment: Moment, folder: Path, suffix: str) -> None:
    page.wait_for_timeout(400)  # the page's own animations, done
    page.mouse.move(0, 0)  # no hover look on a card
    if suffix and moment.phone_scroll:
        page.locator(moment.phone_scroll).first.evaluate("e => e.scrollIntoView(true)")
        page.wait_for_timeout(300)
    name = f"{moment.name}{suffix}.webp"
    size = save(page.screenshot(), folder / name)
    print(f"  {name}: {size / 1000:.0f} kB")


def run(plan: Plan, base: str, browser: Any, suffix: str) -> None:
    folder = ROOT / "src" / "kumite" / "games" / plan.game / "guide"
    made = httpx.post(f"{base}/api/tables", json={**plan.table, "seed": plan.seed}).json()
    link = next(x for x in made["links"] if x["you"])
    context = browser.new_context(**SIZES[suffix], reduced_motion="reduce")
    page = context.new_page()
    page.goto(base + link["url"])
    waiting = [m for m in plan.moments if not m.at_end]
    count = 0
    kinds: dict[str, int] = {}  # each kind of decision met -> its first count
    tally: dict[str, int] = {}  # each kind of decision -> how many so far
    started = time.monotonic()
    while True:
        page.wait_for_selector("[data-decision-controls], #outcome", timeout=30000)
        if page.query_selector("#outcome"):
            break
        if time.monotonic() - started > 900:
            raise RuntimeError(f"{plan.game}: no end in 15 minutes")
        page.wait_for_timeout(60)
        if not page.query_selector("[data-decision-controls]"):
            continue
        kind = page.get_attribute("body", "data-decision") or ""
        step = step_of(page)
        count += 1
        kinds.setdefault(kind, count)
        tally[kind] = tally.get(kind, 0) + 1
        for moment in list(waiting):
            if moment.when is not None and moment.when(tally, kind, page):
                shoot(page, moment, folder, suffix)
                waiting.remove(moment)
        if not waiting and not any(m.at_end for m in plan.moments):
            break
        answer(page)
        deadline = time.monotonic() + 30
        while step_of(page) <= step and page.get_attribute("body", "data-decision"):
            if time.monotonic() > deadline:
                raise RuntimeError(f"{plan.game}: the choice at step {step} was not answered")
            page.wait_for_timeout(20)
    for moment in plan.moments:
        if moment.at_end:
            page.locator("#outcome").scroll_into_view_if_needed()
            shoot(page, moment, folder, suffix)
    if waiting:
        print(f"  never met: {[m.name for m in waiting]}", file=sys.stderr)
    print(f"  {count} decisions, {time.monotonic() - started:.0f} s; kinds: {kinds}")
    context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("plans", nargs="*", help=f"of {', '.join(PLANS)} (all if none)")
    args = parser.parse_args()
    chosen = args.plans or list(PLANS)
    with tempfile.TemporaryDirectory() as folder, Server(folder) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for name in chosen:
            for suffix in SIZES:
                print(name + suffix)
                run(PLANS[name], server.base, browser, suffix)
        browser.close()


if __name__ == "__main__":
    main()
