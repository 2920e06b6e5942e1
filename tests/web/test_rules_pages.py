"""How to play (issue 18): ``/rules/<game>`` lists every rule reference a game's events
cite, with its clause, and kumite's rulings (docs/rulings.md) under the rule they read."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from kumite.core.registry import get_game, specs
from kumite.server.app import create_app
from kumite.server.rules_pages import render_rules, rulings_for


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app(f"sqlite:///{tmp_path_factory.mktemp('rules')}/r.sqlite3")
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


@pytest.mark.parametrize("game_id", list(specs()))
def test_every_rule_reference_has_an_anchor_on_its_rules_page(client, game_id):
    page = client.get(f"/rules/{game_id}")
    assert page.status_code == 200
    anchors = set(re.findall(r'id="([^"]+)"', page.text))
    missing = [ref for ref in get_game(game_id).rules if ref not in anchors]
    assert not missing, missing[:5]
    assert "<script" not in page.text  # the page needs none: it reads on any phone


def test_rulings_are_shown_under_the_rule_they_read():
    """docs/rulings.md's ``sfr.ruling.swap`` (its reading and option) sits in the item of
    the rule index's ``sfr.ruling.swap``; no SF DBG ruling appears on SF Rivals' page."""
    rules = get_game("sfrivals").rules
    html = render_rules("Street Fighter Rivals", "sfrivals", rules)
    item = html.split('id="sfr.ruling.swap"', 1)[1].split("</li>", 1)[0]
    assert 'class="ruling"' in item and "swap=printed" in item
    assert not any(r.ref and r.ref.startswith("sfdbg.") for r in rulings_for(rules))
    assert any(r.ref == "sfr.ruling.swap" for r in rulings_for(rules))


def test_the_rules_index_and_an_unknown_game(client):
    index = client.get("/rules")
    assert index.status_code == 200
    for game_id in specs():
        assert f'href="/rules/{game_id}"' in index.text
    missing = client.get("/rules/nosuchgame")
    assert missing.status_code == 404
    assert "nosuchgame" in missing.json()["detail"]


@pytest.mark.parametrize("game_id", list(specs()))
def test_every_rule_has_a_plain_name_and_its_page_shows_names_not_references(client, game_id):
    """Issue 30: a rule tag shows the clause's plain name (``/api/games/<id>/rule-names``),
    never its reference; the rules page's items are headed by those names."""
    rules = get_game(game_id).rules
    names = client.get(f"/api/games/{game_id}/rule-names").json()
    assert set(rules) <= set(names)
    for ref, name in names.items():
        assert name and name != ref and "." not in name.split(" ")[0], (ref, name)
        assert not re.search(r"\b[a-z0-9]+(?:\.[a-z0-9-]+){2,}\b", name), (ref, name)
    page = client.get(f"/rules/{game_id}").text
    shown = re.findall(r'<a class="ref" href="#[^"]+">([^<]*)</a>', page)
    assert bool(shown) == bool(rules) and not set(shown) & set(rules)
    assert client.get("/api/games/nosuchgame/rule-names").status_code == 404


def test_plain_names_of_references_and_rulings():
    from kumite.server.rules_pages import rule_name

    assert rule_name("sfr.round.higher-initiative") == "Higher initiative"
    assert rule_name("sfr.card.ryu.hurricane-kick") == "Hurricane kick"
    assert rule_name("sfr.life.gauge") == "Life gauge"
    assert (
        rule_name(
            "sfdbg.ruling.round-limit",
            "`sfdbg.ruling.round-limit` — a game that would never end (option `round_limit`)",
        )
        == "A game that would never end"
    )
