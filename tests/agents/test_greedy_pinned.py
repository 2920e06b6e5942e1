"""Pinned greedy games: ``greedy`` makes the same choices before and after its speed-ups.

Each digest is of every choice of a whole game (greedy in every seat, or greedy against
``random``), computed with the greedy bots of Rivales and SF DBG as they were before they
were made fast (issue 19, branch ai at 92223da; the Rivales games again after main's Rivales
rule changes of 3a3ae22 were merged, Rivales' greedy being unchanged). Greedy is
deterministic given its seed, so a changed digest means a bot decides differently, not
only faster.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import pytest

from kumite.agents import make_agent, run_game
from kumite.core.events import Event
from kumite.core.game import State
from kumite.core.registry import get_game
from kumite.core.rng import derive_seed

#: (game, options, seats' agents, first seed, games)
LINEUPS: list[tuple[str, dict[str, Any], tuple[str, ...], int, int]] = [
    ("sfdbg", {"players": 2}, ("greedy", "greedy"), 100, 8),
    ("sfdbg", {"players": 3}, ("greedy", "greedy", "greedy"), 200, 8),
    ("sfdbg", {"players": 4}, ("greedy", "random", "greedy", "greedy"), 300, 4),
    ("sfdbg", {"players": 5}, ("greedy",) * 5, 400, 3),
    ("sfdbg", {"players": 3, "variant": "high-powered"}, ("greedy",) * 3, 500, 3),
    ("sfdbg", {"players": 3, "variant": "secret-heroes"}, ("greedy",) * 3, 600, 3),
    ("rivales", {}, ("greedy", "greedy"), 100, 16),
    ("rivales", {}, ("greedy", "random"), 200, 6),
    ("rivales", {"mode": "2v2"}, ("greedy",) * 4, 300, 6),
    ("rivales", {"mode": "2v2"}, ("greedy", "random", "greedy", "random"), 400, 3),
]


def play(game_id: str, options: Mapping[str, Any], names: tuple[str, ...], seed: int) -> str:
    """The digest of every choice of one game (seat by seat, step by step)."""
    game = get_game(game_id)
    state = game.new_state(seed, dict(options))
    state.quiet = True
    agents = [
        make_agent(name, game, state.options_json, s, derive_seed(seed, "agent", s))
        for s, name in enumerate(names)
    ]
    digest = hashlib.sha256()

    def record(_: State, choices: Mapping[int, str], __: list[Event]) -> None:
        for seat in sorted(choices):
            digest.update(b"%d=%s;" % (seat, choices[seat].encode()))
        digest.update(b"\n")

    outcome = run_game(state, agents, on_step=record)
    digest.update(repr(outcome.returns).encode())
    return digest.hexdigest()[:16]


PINNED: dict[str, list[str]] = {
    "sfdbg {'players': 2} ('greedy', 'greedy')": [
        "c4fd10a2385d6d1a",
        "4b1acf1b58082126",
        "ea891d5977f5f2df",
        "50ed0b03cde47932",
        "702637d4169ccfe4",
        "ea9c0dd99acf9a5e",
        "11afe1250c9dafb0",
        "a604bb9e6e828a8b",
    ],
    "sfdbg {'players': 3} ('greedy', 'greedy', 'greedy')": [
        "dc5204fdaeb0a1cc",
        "854f6ad219afd7e1",
        "2c6329f1452058fd",
        "f964bf5ace7d51d4",
        "d9ef885a8cb0a525",
        "51b295f13ae61668",
        "aed3b2f286c7cbbc",
        "ebc4c3526f398632",
    ],
    "sfdbg {'players': 4} ('greedy', 'random', 'greedy', 'greedy')": [
        "1a4ce614c0fdb47e",
        "f44c89895e489966",
        "91a6e585d7486265",
        "b9cf49af79005f40",
    ],
    "sfdbg {'players': 5} ('greedy', 'greedy', 'greedy', 'greedy', 'greedy')": [
        "047b3ae38023b565",
        "bce321255a3e7bf4",
        "928cfbae43d9ece5",
    ],
    "sfdbg {'players': 3, 'variant': 'high-powered'} ('greedy', 'greedy', 'greedy')": [
        "cff6a57989946160",
        "13311fcd9a6fc7ac",
        "5ab825295dc73192",
    ],
    "sfdbg {'players': 3, 'variant': 'secret-heroes'} ('greedy', 'greedy', 'greedy')": [
        "0434b74f587b6eff",
        "63f87a7ef66b057e",
        "55b23ac9588c5f0c",
    ],
    "rivales {} ('greedy', 'greedy')": [
        "c5c07a7ee8ffe804",
        "59b3d2528556b694",
        "4ebbdebe6e46d677",
        "28d3eb9ddf4ae82e",
        "af4ef7f301250d91",
        "337f3bb0f2548f91",
        "b61359a73b43750a",
        "0fc721a20f138d75",
        "1d9ea7175c8666b9",
        "5d020ddf56a08f71",
        "2719e4736fc5e552",
        "9d2f57774e06b9b6",
        "eff4d7950fe9dfd6",
        "6f509b89763cedaa",
        "7d0a40d187c0e700",
        "7266fa8fb34dbd58",
    ],
    "rivales {} ('greedy', 'random')": [
        "b96938597d00ae74",
        "33e41c96a50624ba",
        "bd092d2d724637f5",
        "5f93a8158dd12de2",
        "9723ea75e0a80041",
        "7f07b859917e970f",
    ],
    "rivales {'mode': '2v2'} ('greedy', 'greedy', 'greedy', 'greedy')": [
        "bbf9af859ae363f4",
        "2904a16d84f3ef71",
        "ec569e44329fe677",
        "336d15180cfb49d0",
        "f17e9b277484e4e2",
        "1579ad7f394dd626",
    ],
    "rivales {'mode': '2v2'} ('greedy', 'random', 'greedy', 'random')": [
        "7547db420e828327",
        "11dc234e72690214",
        "db0ba09a92bd2069",
    ],
}


@pytest.mark.parametrize(
    ("game_id", "options", "names", "first", "games"),
    LINEUPS,
    ids=[
        f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}-{'+'.join(n)}"
        for g, o, n, _, _ in LINEUPS
    ],
)
def test_greedy_replays_its_pinned_games(
    game_id: str, options: dict[str, Any], names: tuple[str, ...], first: int, games: int
) -> None:
    key = f"{game_id} {options} {names}"
    digests = [play(game_id, options, names, seed) for seed in range(first, first + games)]
    assert digests == PINNED[key]
