"""The beginner's guide (/learn/sfdbg, issue 30) has this game's sections: set-up,
a turn and its purchases, an attack (and a Stage Boss), the win."""

from __future__ import annotations

from kumite.server.guide_pages import sections


def test_the_guide_has_this_games_sections():
    _intro, found = sections("sfdbg")
    assert {"setup", "turn", "attack", "win"} <= {s.id for s in found}
