"""SF Rivals' solver bots are reference bots (issue 31): each has a version that changes
only when its behaviour does. Here each version is pinned to the digest of every choice of
a few seeded games: a change that makes a bot play differently fails this test until its
version (``games/sfrivals/solver/offer.py``) is bumped and the digest written anew.

``bounded``'s games are pinned in shipped matchups (its books read); ``belief``'s and
``belief-safe``'s there too (rounds 1-3 from ``bounded``'s book, its own choice after) and
on the mini pack, where no book ships and its own choice starts at round 1 (a solve of
seconds). ``bounded``'s digests were computed with its books switched off (the solver
solving every position it reads, as before issue 31) and are met with them: the books
change nothing but the time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from kumite.agents import make_agent, run_game
from kumite.agents.registry import agent_info
from kumite.core.events import Event
from kumite.core.game import State
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver import offer
from kumite.games.sfrivals.solver.hidden import mini_pack
from tests.games.sfrivals.solver.conftest import shared_cache

__all__ = ["shared_cache"]
MINI = mini_pack() + "\n[rules]\nhand = 6\n"

#: (bot, its behaviour's version, options, seeds) -> digest of every choice of those games
PINNED: dict[tuple[str, str, str, int], str] = {
    ("bounded", "bounded-1", "zangief,juri", 6): "fa1a90ceee087d3a",
    ("bounded", "bounded-1", "ryu,ken", 4): "bec3aeb38373fde4",
    ("belief", "belief-2", "mini", 4): "fc79d2701048ca4a",
    ("belief-safe", "belief-2", "mini", 4): "4380f656961b44ab",
    ("belief", "belief-2", "ryu,ken", 4): "d7260ad8156955c6",
    ("belief-safe", "belief-2", "ryu,ken", 4): "4983c1543f6c1691",
}


def _options(which: str) -> dict[str, Any]:
    if which == "mini":
        return {"characters": ["ryu-mini", "ken-mini"], "pack": MINI}
    return {"characters": which.split(",")}


def play(name: str, options: Mapping[str, Any], games: int) -> str:
    """The digest of every choice of ``games`` games of ``name`` against ``random``
    (seat alternating, seed ``i``)."""
    digest = hashlib.sha256()

    def record(_: State, choices: Mapping[int, str], __: list[Event]) -> None:
        for seat in sorted(choices):
            digest.update(b"%d=%s;" % (seat, choices[seat].encode()))

    for seed in range(games):
        state = GAME.new_state(seed, dict(options))
        state.quiet = True
        seat = seed % 2
        agents = [
            make_agent(name if s == seat else "random", GAME, state.options_json, s, seed + s)
            for s in (0, 1)
        ]
        outcome = run_game(state, agents, on_step=record)
        digest.update(repr(outcome.returns).encode())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize(("name", "code", "which", "games"), list(PINNED))
def test_a_solver_bot_plays_as_its_version_says(
    shared_cache: Path, name: str, code: str, which: str, games: int
) -> None:
    assert offer.version(name).split("/")[1] == code, "bumped: pin its games again"
    assert play(name, _options(which), games) == PINNED[(name, code, which, games)]


def test_every_solver_bot_lists_its_version_and_its_certified_figure() -> None:
    """Listings (the lobby, ``kumite play``) say which version plays, and what the solver
    certifies where it certifies something: ``bounded`` in a fixed shipped matchup has its
    exploitability; ``belief`` answers a model and has none."""
    fixed = {"characters": ["ryu", "ken"]}
    for name in ("bounded", "belief", "belief-safe", "equilibrium"):
        info = agent_info(name, "sfrivals", fixed)
        assert info["version"].startswith(f"{name}/{offer._CODE[name]}/sfr-bounds-2/")
    bounded = agent_info("bounded", "sfrivals", fixed)
    assert bounded["certified_exploitability"] == pytest.approx(0.340, abs=5e-4)
    assert agent_info("belief", "sfrivals", fixed)["certified_exploitability"] is None


def test_a_version_names_the_solutions_it_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Other shipped solutions, another version (the bot would play differently)."""
    from kumite.games.sfrivals.solver import known

    before = offer.version("bounded")
    monkeypatch.setattr(known, "_shipped_text", lambda: '{"matchups": []}')
    assert offer.version("bounded") != before
