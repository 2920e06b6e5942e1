"""The beginner's guide (/learn/sfrivals, issue 30) has this game's sections: set-up,
a round, a clash, the win."""

from __future__ import annotations

from kumite.server.guide_pages import sections


def test_the_guide_has_this_games_sections():
    _intro, found = sections("sfrivals")
    assert {"setup", "round", "clash", "win"} <= {s.id for s in found}
