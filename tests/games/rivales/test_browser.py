"""Rivales: Capítulo 1 – Justicia in the browser: a whole 1vs1 fight and a whole 2vs2 fight
(you and a bot partner against two bots) against the AI by clicking, the lobby's modes and
teams, the team chat's limits, a phone-sized table, a spectator, and every legal choice of
every decision kind reachable as a labelled button."""

from __future__ import annotations

import contextlib
import random
import time

import httpx
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.test_browser import open_page, rule_tags, wait_for_step

TIMEOUT = 15000
WHERE = {
    "fighter": "#rv-fighter-pick button[data-choice]",
    "marker": "#rv-hand button[data-choice]",
    "play": "#rv-hand button[data-choice]",
    "dodge": "#rv-hand button[data-choice]",
    "zones": ".rv-zonehead button[data-choice]",
    "zone-order": ".rv-zonehead button[data-choice]",
    "flip-own-down": ".rv-slots button[data-choice], #rv-choices button[data-choice]",
    "exchange-with-basic": ".rv-slots button[data-choice], #rv-choices button[data-choice]",
}


def wait_for_change(page, step: int) -> None:
    wait_for_step(page, step, TIMEOUT)


def click_a_choice(page, kind: str, rng: random.Random) -> str | None:
    """Click where a player would: a fighter card, a card of the hand, a zone, a card in the
    line; other decisions from the decision panel's labelled buttons. Returns the choice, or
    ``None`` when the page has no decision any more.

    ``kind`` may be stale: on a loaded host the page can redraw between reading the kind and
    looking for its buttons, onto the seat's next decision (its kind is read again) or onto
    none at all (the seat waits for the others, or the game is over: nothing to click)."""
    deadline = time.monotonic() + TIMEOUT / 1000
    while True:
        where = WHERE.get(kind, "#rv-choices button[data-choice]")
        buttons = page.locator(f"{where} >> visible=true")
        with contextlib.suppress(PlaywrightTimeout):  # a loaded host may draw them a moment later
            buttons.first.wait_for(state="visible", timeout=500)
        count = buttons.count()
        if count:
            button = buttons.nth(rng.randrange(count))
            choice = button.get_attribute("data-choice")
            button.click()
            return choice
        decision = page.query_selector("#rv-decision")
        if decision is None:
            return None
        assert time.monotonic() < deadline, f"no button to click at a {kind} decision"
        kind = decision.get_attribute("data-kind") or kind


def assert_legend(page) -> None:
    """The marks' legend is on screen wherever a marked value is."""
    legend = page.inner_text("p.legend")
    assert "† reconstructed" in legend and "* estimate" in legend


def play_to_the_end(page, shots, rng: random.Random, limit: int = 400) -> list[tuple[str, str]]:
    """Click through the fight; a screenshot of the first decision of each kind; the legend
    and the copies of the hand's cards at every decision."""
    clicks: list[tuple[str, str]] = []
    seen: set[str] = set()
    for _ in range(limit):
        page.wait_for_selector("#rv-decision, #rv-result", timeout=TIMEOUT)
        if page.query_selector("#rv-result"):
            assert_legend(page)
            return clicks
        assert_legend(page)
        hand = page.query_selector_all("#rv-hand .rv-card")
        assert len(page.query_selector_all("#rv-hand .rv-copies")) == len(hand)
        kind = page.get_attribute("#rv-decision", "data-kind")
        step = int(page.get_attribute("body", "data-step"))
        if kind not in seen:
            seen.add(kind)
            page.screenshot(path=shots / f"{len(seen):02d}-{kind}.png", full_page=True)
        choice = click_a_choice(page, kind, rng)
        if choice is not None:
            clicks.append((kind, choice))
            wait_for_change(page, step)
    raise AssertionError(f"the fight did not end after {len(clicks)} clicks")


def finish(page, web, shots, mode: str) -> None:
    """The result, the record and the replay of the fight just played."""
    page.screenshot(path=shots / "90-result.png", full_page=True)
    outcome = page.inner_text("#outcome")
    assert "wins" in outcome or "win" in outcome or "Draw" in outcome
    assert "rounds won" in page.inner_text("#rv-result")
    log = page.inner_text("#log")
    tags = rule_tags(page)  # a rule tag is a link: its reference is not shown
    assert "rv.clash.reveal" not in log and "rv.clash.reveal" in tags
    assert any(ref.startswith("rv.speed.") for ref in tags)
    record = httpx.get(web.base + page.get_attribute("#download", "href")).json()
    assert record["game"] == "rivales" and record["options"]["mode"] == mode
    page.click("#replay")
    page.wait_for_selector("#board .rv-zone")
    page.click("#first")
    assert page.inner_text("#position").startswith("step 0")
    for _ in range(8):
        page.click("#next")
    page.screenshot(path=shots / "91-replay.png", full_page=True)
    assert_legend(page)
    assert page.query_selector("#rv-hand") is None  # replays show the public view
    assert page.query_selector("[data-choice]") is None


def test_rivales_1v1_full_fight_against_the_ai_by_clicking(browser, web, shots):
    page, errors = open_page(browser, web.base + "/")
    page.wait_for_selector("#game option[value=rivales]", state="attached")
    page.select_option("#game", "rivales")
    page.wait_for_selector("#mode")
    assert page.input_value("#mode") == "1v1"
    assert len(page.query_selector_all(".seat-row")) == 2
    page.select_option("[name=pick-1]", "sombrerero")  # the bot; mine is chosen at the table
    page.screenshot(path=shots / "00-lobby.png", full_page=True)
    page.click("#create-table")
    page.wait_for_selector("#go")
    page.click("#go")
    page.wait_for_selector("#rv-fighter-pick")
    assert len(page.query_selector_all("#rv-fighter-pick button[data-choice]")) == 6
    # Honest marks: each deck card with its copies (×1), reconstructed names marked, legend
    deck = page.text_content("#rv-fighter-pick")
    assert deck.count("×1") == 36 and "one of each" in deck  # six decks of six own cards
    assert "Estocada†" in deck.replace("\u200b", "")
    assert_legend(page)
    clicks = play_to_the_end(page, shots, random.Random(1))
    kinds = {kind for kind, _ in clicks}
    assert {"fighter", "marker", "play"} <= kinds
    assert clicks[0][0] == "fighter" and clicks[1][0] == "marker"
    assert page.query_selector("#rv-fighter-1") is not None
    assert "Sombrerero" in page.inner_text("#rv-fighter-1")
    assert page.query_selector("#rv-clash") is not None
    finish(page, web, shots, "1v1")
    assert not errors, errors


def test_rivales_2v2_full_fight_with_a_bot_partner_by_clicking(browser, web, shots):
    page, errors = open_page(browser, web.base + "/?game=rivales")
    page.wait_for_selector("#mode")
    page.select_option("#mode", "2v2")
    teams = page.query_selector_all("fieldset.team")
    assert [t.query_selector("legend").inner_text() for t in teams] == [
        "Team A — seats 1 & 2",
        "Team B — seats 3 & 4",
    ]
    assert len(page.query_selector_all(".seat-row")) == 4
    page.select_option("[name=pick-0]", "curie")
    page.select_option("[name=pick-1]", "zorro")
    page.select_option("[name=pick-2]", "sombrerero")
    page.select_option("[name=pick-3]", "random")
    page.screenshot(path=shots / "00-lobby.png", full_page=True)
    page.click("#create-table")
    page.wait_for_selector("#go")
    page.click("#go")
    page.wait_for_selector("#rv-decision")
    # The team chat: its rules, a refused message, a sent one.
    # the rules in one line, the details on demand (issue 30)
    assert "Team talk (2vs2 rules)" in page.inner_text("#chat-rules-short")
    assert "Team talk (2vs2 rules)" in page.text_content("#chat-rules")
    assert "Your partner is a bot" in page.inner_text("#rv-turn")
    hand = page.locator("#rv-hand .rv-name").first.inner_text().rstrip("†*")
    page.fill("#chat-text", f"I have {hand}")
    page.click("#chat-form button")
    # said in the chat, not in a toast over the hand
    page.wait_for_selector("#chat-error:not([hidden])")
    assert "not sent" in page.inner_text("#chat-error")
    assert page.is_hidden("#error")
    page.fill("#chat-text", "I take the zone with their energy")
    page.click("#chat-form button")
    page.wait_for_selector("#chat-log li")
    assert "I take the zone with their energy" in page.inner_text("#chat-log")
    assert hand not in page.inner_text("#chat-log")
    clicks = play_to_the_end(page, shots, random.Random(2))
    kinds = {kind for kind, _ in clicks}
    assert {"marker", "play", "zones", "zone-order"} <= kinds
    assert len(page.query_selector_all(".rv-zone")) == 2
    assert "Curie" in page.inner_text("#rv-fighter-0") and "Zorro" in page.inner_text(
        "#rv-fighter-1"
    )
    finish(page, web, shots, "2v2")
    assert not errors, errors


def new_table(web, mode: str, seats, **options):
    return httpx.post(
        web.base + "/api/tables",
        json={"game": "rivales", "seats": seats, "options": {"mode": mode, **options}, "seed": 6},
    ).json()


def test_the_rivales_table_fits_a_phone(browser, web, shots):
    made = new_table(
        web,
        "2v2",
        [{"kind": "you"}, *[{"kind": "bot", "agent": "greedy"}] * 3],
        fighters=["mulan", "darwin", "hansel-gretel", "zorro"],
    )
    link = next(x for x in made["links"] if x["you"])
    page, errors = open_page(browser, web.base + link["url"], width=390, height=844)
    rng = random.Random(3)
    for _ in range(4):
        page.wait_for_selector("#rv-decision")
        step = int(page.get_attribute("body", "data-step"))
        if click_a_choice(page, page.get_attribute("#rv-decision", "data-kind"), rng):
            wait_for_change(page, step)
    page.wait_for_selector("#rv-decision")
    page.screenshot(path=shots / "phone.png", full_page=True)
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 1
    # On a phone the decision and the hand are docked at the bottom of the screen, over the
    # table, wherever the page is scrolled (tests/web/test_board_fit.py checks more).
    for y in (0, 100000):
        page.evaluate(f"window.scrollTo(0, {y})")
        hand = page.locator("#rv-hand-box").bounding_box()
        assert hand["y"] < 844 and hand["y"] + hand["height"] <= 845, y
    assert not errors, errors


def test_a_rivales_spectator_sees_no_hand_and_no_choices(browser, web, shots):
    made = new_table(
        web,
        "2v2",
        [{"kind": "you"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}],
        fighters=["zorro", "curie", "mulan", "sombrerero"],
    )
    page, errors = open_page(browser, web.base + made["spectate"])
    page.wait_for_selector("#rv-fighter-3 .rv-life")
    page.screenshot(path=shots / "spectator.png", full_page=True)
    assert page.query_selector("#rv-hand") is None
    assert page.query_selector("[data-choice]") is None
    # spectators talk on their own channel; a team's private talk is not theirs to read
    assert page.get_attribute("#chat", "data-channel") == "spectators"
    assert "private to their teams" in page.text_content("#chat-rules")
    assert "is choosing a life marker" in page.inner_text("#rv-turn")
    assert_legend(page)
    assert not errors, errors


# -- every legal choice is reachable by clicking --------------------------------------------


def decision_samples() -> list[dict]:
    """Snapshots (as the server sends them) of decisions of every kind, from random fights
    and, for the rarest, from scenario positions."""
    from kumite.games.rivales.game import GAME
    from kumite.games.rivales.labels import labeler
    from kumite.games.rivales.lookahead import position
    from kumite.web.table import decision_json

    labels = labeler(GAME, {})
    samples: list[dict] = []
    covered: set[tuple[str, str]] = set()

    def take(state, seat: int) -> None:
        (d,) = [d for d in state.pending() if d.seat == seat]
        shape = (d.kind, f"{state.opts.mode}:{len(d.legal)}")
        if shape in covered:
            return
        covered.add(shape)
        view = state.view(seat)
        samples.append(
            {
                "step": len(state.history),
                "seat": seat,
                "view": view,
                "decision": decision_json(labels, state, d, view),
                "submitted": False,
                "waiting": [d.seat],
                "seats": [],
                "outcome": None,
                "next_table": None,
            }
        )

    for mode in ("1v1", "2v2"):
        for seed in range(12):
            state = GAME.new_state(seed, {"mode": mode})
            rng = random.Random(seed)
            while not state.is_terminal:
                for d in state.pending():
                    take(state, d.seat)
                state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
    # Hansel's Guardia Galleta: how many energy cards to flip face up.
    s = position(
        ["hansel-gretel", "zorro"],
        hands=[["guardia"], ["golpe"]],
        lines=[["v:golpe", "v:patada"], ["bloqueo"]],
    )
    s.apply({0: "play:hansel-gretel.guardia", 1: "play:basic.golpe"})
    while s.pending() and s.pending()[0].kind != "flip-energy-up":
        s.apply(
            {d.seat: ("persona:hansel" if d.kind == "persona" else d.legal[0]) for d in s.pending()}
        )
    take(s, 0)
    kinds = {sample["decision"]["kind"] for sample in samples}
    assert kinds == {
        "fighter",
        "marker",
        "zones",
        "zone-order",
        "play",
        "persona",
        "boost",
        "guard",
        "dodge",
        "flip-own-down",
        "exchange-with-basic",
        "flip-energy-up",
    }, kinds
    return samples


REACH = """async ([samples, cards]) => {
  const mod = await import("/static/games/rivales/table.js");
  const { faceContext } = await import("/static/js/face.js");
  const problems = [];
  for (const state of samples) {
    const box = document.createElement("div");
    document.body.append(box);
    let chosen = [];
    const choose = (c) => chosen.push(c);
    mod.renderView(box, faceContext({ state, cards, seat: state.seat, choose }));
    state.decision.legal.forEach((choice, i) => {
      const label = state.decision.labels[i];
      const found = [...box.querySelectorAll("button[data-choice]")]
        .filter((el) => el.dataset.choice === choice);
      const where = `${state.view.mode} ${state.decision.kind} ${choice}`;
      if (!found.length) { problems.push(`${where}: nothing to click`); return; }
      const shown = found.some((el) => el.getClientRects().length > 0);
      if (!shown) problems.push(`${where}: not on screen`);
      for (const el of found) {
        const text = `${el.textContent} ${el.getAttribute("aria-label") || ""}`;
        if (!text.includes(label)) problems.push(`${where}: label ${label} missing`);
        chosen = [];
        el.click();
        if (chosen.length !== 1 || chosen[0] !== choice) problems.push(`${where}: chose ${chosen}`);
      }
    });
    box.remove();
  }
  return problems;
}"""


def test_every_legal_choice_of_every_rivales_decision_kind_is_a_labelled_button(browser, web):
    from kumite.games.rivales.game import GAME
    from kumite.games.rivales.web import ADAPTER as RIVALES

    samples = decision_samples()
    cards = RIVALES.cards(GAME, {})
    page, errors = open_page(browser, web.base + "/")
    problems = page.evaluate(REACH, [samples, cards])
    assert problems == []
    assert len(samples) > 30
    assert not errors, errors
