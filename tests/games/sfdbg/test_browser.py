"""The Street Fighter Deck-Building Game in the browser: a whole game against the AI by
clicking, the lobby's seats and Super Heroes, a phone-sized table and a spectator."""

from __future__ import annotations

import httpx

from tests.web.test_browser import open_page, rule_tags, wait_for_step

TIMEOUT = 15000


def wait_for_change(page, step: int) -> None:
    wait_for_step(page, step, TIMEOUT)


def first(page, *selectors: str):
    """A locator for the first of ``selectors`` (in order of preference) that matches now.

    A locator, not an element handle: the table redraws when any seat's news arrives, and a
    locator finds its button again at click time where a handle would be detached."""
    for selector in selectors:
        found = page.locator(selector)
        if found.count():
            return found.first
    return None


# The first choice in sight: the decision's list, else (many cards to choose from, the list
# folded away) the first card that makes a choice, else a button beside the folded list.
FIRST_CHOICE = (
    "#dbg-choices button[data-choice] >> visible=true",
    "#board [data-card][data-choice]:not([disabled]) >> visible=true",
    "#dbg-decision .dbg-quick button[data-choice] >> visible=true",
)


def click_a_sensible_choice(page, kind: str) -> str:
    """Play every card, challenge the Stage when possible, buy the dearest card, end the
    turn; defend with a Defense when attacked; otherwise the first choice offered."""
    # The decision's kind is on the page a moment before its buttons on a loaded host.
    page.wait_for_selector(
        "#dbg-end, #dbg-decision button[data-choice]", state="attached", timeout=TIMEOUT
    )
    if kind == "turn":
        button = first(
            page,
            "#dbg-play-power",
            "#dbg-hand button[data-choice^='play:']",
            "#dbg-stage button[data-choice='challenge']",
        )
        if button is None:
            buys = page.query_selector_all("#dbg-lineup button[data-choice^='buy:']")
            if buys:
                dearest = max(buys, key=lambda b: int(b.query_selector(".dbg-cost").inner_text()))
                choice = dearest.get_attribute("data-choice")
                button = page.locator(f"#dbg-lineup button[data-choice='{choice}']").first
        button = button or first(page, "#dbg-kicks button[data-choice]", "#dbg-end")
    elif kind == "defend":
        button = first(page, "#dbg-hand button[data-choice^='defend:']", *FIRST_CHOICE)
    else:
        button = first(page, *FIRST_CHOICE)
    assert button is not None, kind
    choice = button.get_attribute("data-choice")
    button.click()
    return choice


def test_sfdbg_full_game_against_the_ai_by_clicking(browser, web, shots):
    page, errors = open_page(browser, web.base + "/")
    page.wait_for_selector("#game option[value=sfdbg]", state="attached")
    page.select_option("#game", "sfdbg")
    page.select_option("[name=pick-0]", "ryu")  # my Super Hero; the bot's is dealt at random
    page.click("#rule-options summary")
    page.fill("[name=option-round_limit]", "4")
    page.screenshot(path=shots / "0-lobby.png", full_page=True)
    page.click("#create-table")
    page.wait_for_selector("#go")
    page.click("#go")
    page.wait_for_selector("#dbg-decision, #outcome", timeout=TIMEOUT)
    page.screenshot(path=shots / "1-first-turn.png", full_page=True)
    assert "Ryu" in page.inner_text("#me .dbg-hero")
    assert len(page.query_selector_all("#dbg-lineup .dbg-card")) == 5
    clicks: list[str] = []
    shot = {"buy": False, "defend": False, "other": False}
    for _ in range(400):
        page.wait_for_selector("#dbg-decision, #outcome", timeout=TIMEOUT)
        if page.query_selector("#outcome"):
            break
        kind = page.get_attribute("#dbg-decision", "data-kind")
        step = int(page.get_attribute("body", "data-step"))
        if kind == "defend" and not shot["defend"]:
            shot["defend"] = True
            page.screenshot(path=shots / "3-attacked.png", full_page=True)
        elif kind not in ("turn", "defend") and not shot["other"]:
            shot["other"] = True
            page.screenshot(path=shots / f"4-{kind}.png", full_page=True)
        choice = click_a_sensible_choice(page, kind)
        clicks.append(choice)
        if choice.startswith("buy:") and not shot["buy"]:
            shot["buy"] = True
            page.screenshot(path=shots / "2-buying.png", full_page=True)
        wait_for_change(page, step)
    else:
        raise AssertionError(f"the game did not end after {len(clicks)} clicks")
    page.wait_for_selector("#dbg-score")
    page.screenshot(path=shots / "5-result.png", full_page=True)
    assert "wins" in page.inner_text("#outcome") or "Draw" in page.inner_text("#outcome")
    assert len(page.query_selector_all("#dbg-score tbody tr")) == 2
    assert "4 full rounds were played" in page.inner_text("#dbg-score")
    assert any(c.startswith("play") for c in clicks)
    assert "end" in clicks
    log = page.inner_text("#log")
    table_id = page.url.split("/table/")[1].split("#")[0]
    bot = httpx.get(f"{web.base}/api/tables/{table_id}").json()["seats"][1]["name"]
    assert f"{bot} plays" in log  # the server's one name for the bot
    assert "sfdbg.turn." not in log  # a rule tag is a link
    assert any(ref.startswith("sfdbg.turn.") for ref in rule_tags(page))
    # The record and the replay of the same game.
    record = httpx.get(web.base + page.get_attribute("#download", "href")).json()
    assert record["game"] == "sfdbg"
    assert record["options"]["heroes"] == ["ryu", None]
    assert record["options"]["round_limit"] == 4
    page.click("#replay")
    page.wait_for_selector("#board .dbg-opp")
    page.click("#first")
    assert page.inner_text("#position").startswith("step 0")
    page.click("#next")
    page.screenshot(path=shots / "6-replay.png", full_page=True)
    assert page.query_selector("#dbg-hand") is None  # replays show the public view
    assert not errors, errors


def test_the_lobby_seats_up_to_five_sfdbg_players_with_chosen_super_heroes(browser, web, shots):
    page, errors = open_page(browser, web.base + "/?game=sfdbg")
    page.wait_for_selector("[name=pick-0]")
    assert "dealt at random" in page.inner_text("[name=pick-0]")
    for _ in range(3):
        page.click("#add-seat")
    assert page.is_disabled("#add-seat")  # five seats at most
    page.select_option("[name=pick-2]", "chun-li")
    page.select_option("[name=kind-4]", "human")
    page.screenshot(path=shots / "lobby-5-seats.png", full_page=True)
    page.click("#create-table")
    page.wait_for_selector("#go")
    invite = page.inner_text("#created")
    assert "Invite link for seat 5" in invite
    page.click("#go")
    page.wait_for_selector("#player-4")
    page.screenshot(path=shots / "table-5-players.png", full_page=True)
    assert "Chun-Li" in page.inner_text("#player-2")
    table = page.url.split("/table/")[1].split("#")[0]
    info = httpx.get(f"{web.base}/api/tables/{table}").json()
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot", "human"]
    assert not errors, errors


def new_table(web, seats, **options):
    return httpx.post(
        web.base + "/api/tables",
        json={"game": "sfdbg", "seats": seats, "options": options, "seed": 6},
    ).json()


def test_the_sfdbg_table_fits_a_phone(browser, web, shots):
    made = new_table(web, [{"kind": "you"}, {"kind": "bot", "agent": "greedy"}])
    link = next(x for x in made["links"] if x["you"])
    page, errors = open_page(browser, web.base + link["url"], width=390, height=844)
    page.wait_for_selector("#dbg-decision")
    step = int(page.get_attribute("body", "data-step"))
    click_a_sensible_choice(page, page.get_attribute("#dbg-decision", "data-kind"))
    wait_for_change(page, step)
    page.screenshot(path=shots / "phone.png", full_page=True)
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 1
    assert not errors, errors


def test_an_sfdbg_spectator_sees_no_hand_and_no_choices(browser, web, shots):
    made = new_table(web, [{"kind": "you"}, {"kind": "human"}, {"kind": "human"}])
    page, errors = open_page(browser, web.base + made["spectate"])
    page.wait_for_selector("#player-2")
    page.screenshot(path=shots / "spectator.png", full_page=True)
    assert page.query_selector("#dbg-hand") is None
    assert page.query_selector("[data-choice]") is None
    assert "is taking a turn" in page.inner_text("#dbg-turn")
    assert not errors, errors


# -- every legal choice is reachable by clicking --------------------------------------------


def decision_samples() -> list[dict]:
    """Snapshots (as the server sends them) of decisions of every kind, from random games
    and, for the rarest kinds, from scenario positions."""
    import random

    from kumite.games.sfdbg.game import GAME
    from kumite.games.sfdbg.labels import labeler
    from kumite.web.table import decision_json
    from tests.games.sfdbg.scenario import position

    catalog = GAME.catalog()
    labels = labeler(GAME, {})
    samples: list[dict] = []
    per_kind: dict[str, int] = {}
    covered: set[str] = set()

    def take(state) -> None:
        """Keep a decision if it offers a kind of choice not seen yet."""
        (d,) = state.pending()
        cards = {c: c.rsplit(":", 1) for c in d.legal}
        shapes = {f"({d.kind})"} | {
            parts[0] if parts[-1] in catalog.by_id else c for c, parts in cards.items()
        }
        if shapes <= covered:
            return
        covered.update(shapes)
        per_kind[d.kind] = per_kind.get(d.kind, 0) + 1
        view = state.view(d.seat)
        samples.append(
            {
                "step": len(state.history),
                "seat": d.seat,
                "view": view,
                "decision": decision_json(labels, state, d, view),
                "submitted": False,
                "waiting": [d.seat],
                "seats": [],
                "outcome": None,
                "next_table": None,
            }
        )

    for seed in range(40):
        for variant in ("standard", "high-powered", "secret-heroes"):
            state = GAME.new_state(seed, {"players": 3, "variant": variant, "round_limit": 20})
            rng = random.Random(seed)
            while not state.is_terminal:
                take(state)
                (d,) = state.pending()
                state.apply({d.seat: rng.choice(d.legal)})
    india = position(locations={0: ["india"]}, hands={0: ["vulnerability", "punch"]})
    india.apply({0: "play:punch"})
    take(india)
    # Cammy: the Stage just defeated may go to your hand; a card under your Super Hero.
    cammy = position(
        hands={0: ["cammy-delta-red"]}, under={0: ["hadoken"]}, heroes=["ken", "guile"], power=15
    )
    ryu = catalog.hero_by_id["ryu"].index
    cammy.bosses = [b for b in cammy.bosses if b != ryu] + [ryu]
    for choice in ("play:cammy-delta-red", "challenge", "no-defense"):
        cammy.apply({cammy.pending()[0].seat: choice})
        if choice != "challenge":
            take(cammy)
    take(position(variant="secret-heroes", hands={0: ["punch"]}, power=9))  # buy:ultra
    # Dhalsim's Counter-Attack with two main-deck cards to choose from (random games rarely
    # give it two: only main-deck cards may go into the main deck).
    dhalsim = position(
        heroes=["ryu", "dhalsim"],
        hands={0: ["gill"], 1: ["yoga-catastrophe"]},
        discards={0: ["sodom", "kick"]},
    )
    for choice in ("play:gill", "defend:yoga-catastrophe", "no-defense"):
        dhalsim.apply({dhalsim.pending()[0].seat: choice})
    take(dhalsim)
    assert set(per_kind) == {
        "turn",
        "defend",
        "discard",
        "destroy",
        "destroy-trigger",
        "bottom",
        "under",
        "gain",
        "foe",
        "return-to-hand",
        "give",
        "name",
        "hp-ultra",
    }, per_kind
    return samples


REACH = """async ([samples, cards]) => {
  const mod = await import("/static/games/sfdbg/table.js");
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
      const where = `${state.decision.kind} ${choice}`;
      if (!found.length) { problems.push(`${where}: nothing to click`); return; }
      for (const el of found) {
        const shown = el.getClientRects().length > 0 || el.closest("details") !== null;
        if (!shown) problems.push(`${where}: hidden`);
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


def test_every_legal_choice_of_every_decision_kind_is_a_labelled_button(browser, web):
    from kumite.games.sfdbg.game import GAME
    from kumite.games.sfdbg.web import ADAPTER as SFDBG_ADAPTER

    samples = decision_samples()
    offered = {c for s in samples for c in s["decision"]["legal"]}
    for choice in ("play-power", "challenge", "buy:kick", "buy:ultra", "take:usa", "end"):
        assert choice in offered
    shapes = {c.rsplit(":", 1)[0] for c in offered if ":" in c}
    assert shapes >= {
        "play",
        "buy:lineup",
        "buy:under",
        "take",
        "defend",
        "reveal",
        "discard",
        "destroy:hand",
        "destroy:discard",
        "destroy:play",
        "destroy:lineup",
        "bottom:play",
        "under:lineup",
        "under:main_top",
        "under:discard",
        "gain",
        "give:hand",
        "give:discard",
        "foe",
        "name:type",
        "name:cost",
    }
    cards = SFDBG_ADAPTER.cards(GAME, {})
    page, errors = open_page(browser, web.base + "/")
    problems = page.evaluate(REACH, [samples, cards])
    assert problems == []
    assert len(samples) > 20
    assert not errors, errors


def page_state(s) -> dict:
    """What the table page hands the face for seat 0 deciding in position ``s``."""
    from kumite.games.sfdbg.game import GAME
    from kumite.games.sfdbg.labels import labeler
    from kumite.web.table import decision_json

    (d,) = s.pending()
    view = s.view(0)
    return {
        "step": 1, "seat": 0, "view": view, "submitted": False, "waiting": [0], "seats": [],
        "outcome": None, "next_table": None,
        "decision": decision_json(labeler(GAME, {}), s, d, view),
    }  # fmt: skip


MARKS = """async ([state, cards]) => {
  const mod = await import("/static/games/sfdbg/table.js");
  const { faceContext } = await import("/static/js/face.js");
  const box = document.createElement("div");
  document.body.append(box);
  mod.renderView(box, faceContext({ state, cards, seat: state.seat }));
  const text = (sel) => [...box.querySelectorAll(sel)].map((el) => el.textContent);
  const out = {
    hand: text("#dbg-hand .dbg-card"), kick: text("#dbg-kicks .dbg-type"),
    stage: text("#dbg-stage .dbg-type"), boss: text(".dbg-boss"),
    heroes: text(".dbg-player .dbg-ca, .dbg-opp .dbg-ca"), legend: text(".legend"),
    choices: text("#dbg-choices button"),
  };
  box.remove();
  return out;
}"""


def test_the_sfdbg_table_shows_marks_copies_stage_numbers_and_the_bosss_counter_attack(
    browser, web
):
    """Kick's estimated type (Super Power*), a Stage's number with its mark (Stage 2*), the
    hand's copies (×3), every Counter-Attack with † (the Stage Boss's too) and the legend."""
    from kumite.games.sfdbg.game import GAME
    from kumite.games.sfdbg.web import ADAPTER as SFDBG_ADAPTER
    from tests.games.sfdbg.scenario import position

    s = position(
        heroes=["ryu", "ken"],
        hands={0: ["punch", "punch", "punch", "sakura"]},
        stages=["hong-kong", "japan"],
        power=8,
    )
    guile = s.catalog.hero_by_id["guile"].index
    s.bosses = [b for b in s.bosses if b != guile] + [guile]
    s.apply({0: "challenge"})
    state = page_state(s)
    page, errors = open_page(browser, web.base + "/")
    shown = page.evaluate(MARKS, [state, SFDBG_ADAPTER.cards(GAME, {})])
    assert any("Punch" in t and "×3" in t for t in shown["hand"]), shown["hand"]
    assert len(shown["hand"]) == 2  # Punch ×3 and Sakura
    assert shown["kick"] and shown["kick"][0].startswith("Super Power*")
    assert "Stage 2*" in shown["stage"][0]
    assert shown["boss"] and "Guile" in shown["boss"][0] and shown["boss"][0].endswith("Power.†")
    assert len(shown["heroes"]) == 2 and all(t.endswith("†") for t in shown["heroes"])
    assert "† reconstructed" in shown["legend"][0] and "★ VP" in shown["legend"][0]
    assert not errors, errors


SEEN_CLASSES = """() => {
  window.kumiteSeen = new Set();
  const note = (el) => el.classList && el.classList.forEach((c) => window.kumiteSeen.add(c));
  new MutationObserver((changes) => changes.forEach((c) => c.addedNodes.forEach((n) => {
    note(n);
    if (n.querySelectorAll) n.querySelectorAll(".strike, .took-hit").forEach(note);
  }))).observe(document.body, { childList: true, subtree: true });
}"""


def test_an_attack_strikes_in_and_the_player_it_lands_on_shakes(browser, web, shots):
    """Motion for attacks (issue 18): an Attack of the latest update slides into "Attacks and
    defenses", and the player who does not avoid it shakes once (off under reduced motion)."""
    made = new_table(web, [{"kind": "bot", "agent": "greedy"}, {"kind": "bot", "agent": "greedy"}])
    page, errors = open_page(browser, web.base + made["spectate"])
    page.evaluate(SEEN_CLASSES)
    seen: list[str] = []
    for _ in range(360):  # the CSP forbids wait_for_function's eval: ask every quarter second
        seen = page.evaluate("() => [...window.kumiteSeen]")
        if {"strike", "took-hit"} <= set(seen):
            break
        page.wait_for_timeout(250)
    assert {"strike", "took-hit"} <= set(seen), seen
    page.screenshot(path=shots / "attack.png")
    assert not errors, errors


def test_the_suggested_button_never_throws_the_turn_away(browser, web, shots):
    """Issue 30: on a turn with cards left to play, the highlighted button is not "End your
    turn" (with Power cards in hand: "Play every card … Power"); the keys look like keys."""
    made = new_table(web, [{"kind": "you"}, {"kind": "bot", "agent": "greedy"}])
    link = next(x for x in made["links"] if x["you"])
    page, errors = open_page(browser, web.base + link["url"])
    page.wait_for_selector("#dbg-decision[data-kind='turn']", timeout=TIMEOUT)
    assert page.locator("#dbg-hand button[data-choice^='play:']").count()  # cards to play
    assert not page.locator("#dbg-end.primary").count()
    if page.locator("#dbg-play-power").count():
        assert page.locator("#dbg-play-power.primary").count() == 1
    # a key badge is drawn like a key cap (a border), not like a card's value
    border = page.evaluate(
        "getComputedStyle(document.querySelector('button[data-key]'), '::after').borderTopWidth"
    )
    assert border != "0px"
    page.screenshot(path=shots / "turn-1.png")
    assert not errors, errors


WORDS = """async ([state, cards]) => {
  const mod = await import("/static/games/sfdbg/table.js");
  const { faceContext } = await import("/static/js/face.js");
  const box = document.createElement("div");
  document.body.append(box);
  mod.renderView(box, faceContext({ state, cards, seat: state.seat }));
  await new Promise((done) => setTimeout(done, 300));  // the face's stylesheet applies
  const out = [];
  for (const name of box.querySelectorAll(".dbg-card.small .dbg-name")) {
    if (name.closest("details:not([open])")) continue;  // not on screen
    const text = name.firstChild;
    const range = document.createRange();
    let top = null, word = "";
    // a word is broken when two of its letters lie on different lines
    for (let i = 0; i < text.length; i += 1) {
      const ch = text.data[i];
      if (/\\s/u.test(ch)) { top = null; continue; }
      range.setStart(text, i); range.setEnd(text, i + 1);
      const y = Math.round(range.getBoundingClientRect().top);
      if (top !== null && Math.abs(y - top) > 2) word = text.data;
      top = y;
    }
    out.push({ name: text.data, broken: word !== "" });
  }
  box.remove();
  return out;
}"""


def test_a_long_card_name_in_a_phones_small_tile_is_not_broken_mid_word(browser, web):
    """Hyakuretsukyaku in play, on a phone: the small tile sets the one long word smaller
    instead of breaking it in two (names break between words only)."""
    from kumite.games.sfdbg.game import GAME
    from kumite.games.sfdbg.web import ADAPTER as SFDBG_ADAPTER
    from tests.games.sfdbg.scenario import position

    s = position(
        heroes=["chun-li", "ken"],
        played={0: ["hyakuretsukyaku", "vulnerability", "shippu-jinraikyaku", "punch"]},
        hands={0: ["punch"]},
    )
    state = page_state(s)
    page, errors = open_page(browser, web.base + "/", width=390, height=844)
    names = page.evaluate(WORDS, [state, SFDBG_ADAPTER.cards(GAME, {})])
    assert "Hyakuretsukyaku" in {n["name"] for n in names}, names
    assert [n for n in names if n["broken"]] == []
    assert not errors, errors
