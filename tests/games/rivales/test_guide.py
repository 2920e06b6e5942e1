"""The beginner's guide (/learn/rivales, issue 30) has this game's sections: set-up,
a clash, how it resolves, the win, 2vs2."""

from __future__ import annotations

from kumite.server.guide_pages import sections


def test_the_guide_has_this_games_sections():
    _intro, found = sections("rivales")
    assert {"setup", "clash-turn", "clash", "win", "2vs2"} <= {s.id for s in found}
