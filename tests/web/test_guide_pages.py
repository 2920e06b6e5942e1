"""Learn to play (issue 30): a beginner's guide per game at ``/learn/<game>`` — its sections,
its pictures of the table (served, with alt texts), its § links to clauses that exist on the
rules page — linked from the lobby (beside the game picker) and the table; the lobby's game
list is in its HTML before any script runs."""

from __future__ import annotations

import re

import httpx
import pytest
from fastapi.testclient import TestClient

from kumite.core.registry import specs
from kumite.server.app import create_app
from kumite.server.guide_pages import render_guide, sections
from tests.web.test_browser import open_page

# the games with a guide (a test plugin's toy game has none)
GAMES = [g for g, spec in specs().items() if spec.guide is not None]
# What a beginner needs of every game: the set-up, a turn (or a round), how a clash or an
# attack resolves, how to win (a game's own further sections: tests/games/<id>/).
NEEDED = ({"setup"}, {"turn", "round", "clash-turn"}, {"clash", "attack"}, {"win"})
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app(f"sqlite:///{tmp_path_factory.mktemp('guide')}/g.sqlite3")
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


def test_every_game_kumite_ships_has_a_guide():
    shipped = [g for g, spec in specs().items() if spec.game.target.startswith("kumite.games.")]
    assert shipped and set(shipped) <= set(GAMES)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_guide_answers_with_its_sections_and_pictures(client, game_id):
    page = client.get(f"/learn/{game_id}")
    assert page.status_code == 200
    ids = set(re.findall(r'<section class="panel guide-section" id="([^"]+)"', page.text))
    assert all(ids & kinds for kinds in NEEDED), ids
    assert "<script" not in page.text  # plain HTML: it reads on any phone
    assert "{#" not in page.text  # no Markdown anchor syntax shown as text
    images = re.findall(r'<img loading="lazy" src="([^"]+)" alt="([^"]*)"', page.text)
    assert len(images) >= 4 and len(images) == page.text.count("<img")
    # each with its twin as a phone shows the table, for narrow screens
    phones = re.findall(r'<source media="\(max-width: 600px\)" srcset="([^"]+)">', page.text)
    assert [p.replace("-phone.", ".") for p in phones] == [src for src, _alt in images]
    for src in [src for src, _alt in images] + phones:
        picture = client.get(src)
        assert picture.status_code == 200, src
        assert picture.headers["content-type"] == "image/webp"
        assert picture.content[:4] == b"RIFF" and picture.content[8:12] == b"WEBP"
        assert len(picture.content) < 150_000, (src, len(picture.content))
    for src, alt in images:
        assert len(alt) > 30, (src, alt)  # says what the picture shows


@pytest.mark.parametrize("game_id", GAMES)
def test_every_section_links_to_clauses_that_are_on_the_rules_page(client, game_id):
    text = client.get(f"/learn/{game_id}").text
    anchors = set(re.findall(r'id="([^"]+)"', client.get(f"/rules/{game_id}").text))
    _intro, found = sections(game_id)
    for section in found:
        refs = re.findall(rf'<a class="rule" href="/rules/{game_id}#([^"]+)" title="', section.html)
        if section.id != "tips":
            assert refs, f"{game_id}'s section {section.id} cites no rule"
        assert set(refs) <= anchors, set(refs) - anchors
    # the tag shows the clause's plain name as its title, never the reference as text
    assert not re.search(r">\s*[a-z0-9]+\.[a-z0-9-]+\.[a-z0-9.-]+\s*<", text)


def test_a_guide_citing_a_clause_its_game_lacks_is_refused(monkeypatch):
    import kumite.server.guide_pages as guide

    sections.cache_clear()
    real = guide.rule_names
    monkeypatch.setattr(guide, "rule_names", lambda rules: {})
    with pytest.raises(ValueError, match="its rules do not have"):
        render_guide(GAMES[0])
    monkeypatch.setattr(guide, "rule_names", real)
    sections.cache_clear()
    assert f"Learn to play {specs()[GAMES[0]].name}" in render_guide(GAMES[0])


def test_unknown_games_and_pictures_are_404(client):
    assert client.get("/learn/nosuchgame").status_code == 404
    assert "nosuchgame" in client.get("/learn/nosuchgame").json()["detail"]
    for name in ("guide.md", "__init__.py", "..%2Fspec.py", "nothere.webp", ".webp"):
        assert client.get(f"/learn/{GAMES[0]}/{name}").status_code == 404, name
    index = client.get("/learn").text
    assert all(f'href="/learn/{g}"' in index for g in GAMES)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_rules_page_links_to_the_guide(client, game_id):
    assert f'href="/learn/{game_id}"' in client.get(f"/rules/{game_id}").text


def test_the_lobby_has_its_games_and_a_guide_link_before_any_script_runs(client):
    """No empty game list while lobby.js fetches the games: the options are in the HTML."""
    page = client.get("/").text
    picker = page.split('<select name="game" id="game">', 1)[1].split("</select>", 1)[0]
    listed = re.findall(r'<option value="([^"]+)"', picker)
    assert listed == list(specs())
    first = listed[0]
    assert f'<option value="{first}" selected>' in picker
    assert f'<a id="learn" href="/learn/{first}">Learn to play</a>' in page
    last = GAMES[-1]
    chosen = client.get(f"/?game={last}").text
    assert f'<option value="{last}" selected>' in chosen
    assert f'<a id="learn" href="/learn/{last}">' in chosen
    for other in set(listed) - set(GAMES):  # a game without a guide: the list of guides
        assert '<a id="learn" href="/learn">' in client.get(f"/?game={other}").text
    odd = client.get("/?game=%3Cb%3E").text  # not a game: the first, nothing echoed
    assert "<b>" not in odd and f'<option value="{first}" selected>' in odd


@pytest.mark.browser
def test_the_lobby_and_the_table_link_to_the_guide(browser, web):
    bare = browser.new_page()
    bare.route("**/api/games", lambda route: route.abort())  # the script's list never comes
    bare.goto(web.base + "/")
    # without lobby.js's list of games: the picker and the link are there all the same
    assert bare.locator("#game option").count() == len(specs())
    assert bare.get_attribute("#learn", "href") == f"/learn/{next(iter(specs()))}"
    bare.close()
    page, errors = open_page(browser, web.base + "/")
    page.wait_for_selector("#seat-rows .seat-row")
    assert page.locator("#game option").count() == len(specs())  # none twice
    game = GAMES[-1]
    page.select_option("#game", game)
    assert page.get_attribute("#learn", "href") == f"/learn/{game}"
    info = next(g for g in httpx.get(web.base + "/api/games").json() if g["id"] == game)
    bot = {"kind": "bot", "agent": info["agents"][0]["name"]}
    seats = [{"kind": "you"}] + [bot] * (info["min_players"] - 1)
    made = httpx.post(web.base + "/api/tables", json={"game": game, "seats": seats}).json()
    link = next(x for x in made["links"] if x["you"])
    page.goto(web.base + link["url"])
    page.wait_for_selector("[data-decision-controls]")
    assert page.get_attribute("#learn-to-play", "href") == f"/learn/{game}"
    page.click("#learn-to-play")
    page.wait_for_selector("h1")
    assert page.inner_text("h1") == f"Learn to play {specs()[game].name}"
    assert not errors, errors


@pytest.mark.browser
@pytest.mark.needs("axe_playwright_python")
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game_id", GAMES)
def test_the_guide_is_accessible_and_fits(browser, web, shots, game_id, size):
    from tests.web.test_accessibility import serious

    width, height = SIZES[size]
    page, errors = open_page(browser, f"{web.base}/learn/{game_id}", width, height)
    failed: list[str] = []
    page.on("response", lambda r: r.status >= 400 and failed.append(r.url))
    page.wait_for_selector("h1")
    for img in page.locator("img").all():  # lazy pictures: load each
        img.scroll_into_view_if_needed()
    page.wait_for_load_state("networkidle")
    loaded = page.eval_on_selector_all("img", "all => all.map(i => i.complete && i.naturalWidth)")
    assert all(loaded), loaded
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=shots / f"{game_id}-{size}.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert not serious(page), game_id
    assert not errors and not failed, (errors, failed)
