"""Pinned games: the same seed and choices give the same game, before and after engine
optimisations.

Each expected result (step count, a digest of every choice, winners, VP, the ending rule and
the number of turns) was computed on the engine before its simulation speed-up. A change here
means the rules' behaviour moved, not just their speed.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from kumite.core.errors import ChoiceError
from kumite.core.game import State
from kumite.core.rng import derive_seed
from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.state import SFDBGState

#: An "eager" player: challenges, buys and plays whenever it can (games end by the rules).
EAGER = ("challenge", "buy:lineup:", "buy:under:", "buy:ultra", "play-power", "play:", "buy:kick")


def _eager(rng: random.Random, legal: tuple[str, ...]) -> str:
    for prefix in EAGER:
        found = [c for c in legal if c.startswith(prefix)]
        if found:
            return rng.choice(found)
    return rng.choice(legal)


def _summary(state: SFDBGState) -> dict[str, Any]:
    choices = "\n".join(c for step in state.history for c in step.values())
    outcome = state.outcome
    assert outcome is not None
    out = outcome.to_json()
    return {
        "steps": len(state.history),
        "digest": hashlib.sha256(choices.encode()).hexdigest()[:16],
        "winners": out["winners"],
        "vp": out["vp"],
        "rule": out["rule"],
        "turns": out["turns"],
    }


def _play(seed: int, options: dict[str, Any], policy: str, quiet: bool) -> dict[str, Any]:
    state = GAME.new_state(seed, options)
    state.quiet = quiet
    rng = random.Random(seed)
    while not state.is_terminal:
        (d,) = state.pending()
        choice = rng.choice(d.legal) if policy == "random" else _eager(rng, d.legal)
        state.apply({d.seat: choice})
    return _summary(state)


PINNED: list[tuple[int, dict[str, Any], str, dict[str, Any]]] = [
    (
        1,
        {"players": 4},
        "random",
        {
            "steps": 1000,
            "digest": "189f33c4f77df815",
            "winners": [2],
            "vp": [17, 24, 66, 21],
            "rule": "sfdbg.ruling.round-limit",
            "turns": 240,
        },
    ),
    (
        2,
        {"players": 4},
        "random",
        {
            "steps": 1039,
            "digest": "6fdf455bc39b8dfc",
            "winners": [0],
            "vp": [37, 24, 18, 17],
            "rule": "sfdbg.ruling.round-limit",
            "turns": 240,
        },
    ),
    (
        3,
        {"players": 2, "variant": "high-powered", "round_limit": 20},
        "random",
        {
            "steps": 112,
            "digest": "4a16f324209dedaf",
            "winners": [1],
            "vp": [5, 10],
            "rule": "sfdbg.ruling.round-limit",
            "turns": 40,
        },
    ),
    (
        4,
        {"players": 5, "variant": "secret-heroes", "round_limit": 20},
        "random",
        {
            "steps": 359,
            "digest": "aee9b0781d69769b",
            "winners": [3],
            "vp": [10, 7, 11, 14, 10],
            "rule": "sfdbg.ruling.round-limit",
            "turns": 100,
        },
    ),
    (
        5,
        {"players": 4},
        "eager",
        {
            "steps": 829,
            "digest": "e41453d257467651",
            "winners": [0],
            "vp": [40, 39, 38, 34],
            "rule": "sfdbg.end.line-up",
            "turns": 122,
        },
    ),
    (
        6,
        {"players": 3},
        "eager",
        {
            "steps": 687,
            "digest": "760e942cc942333d",
            "winners": [2],
            "vp": [47, 50, 50],
            "rule": "sfdbg.end.line-up",
            "turns": 96,
        },
    ),
    (
        7,
        {"players": 2, "variant": "high-powered"},
        "eager",
        {
            "steps": 605,
            "digest": "91f6f09b5753dc9f",
            "winners": [0],
            "vp": [90, 82],
            "rule": "sfdbg.end.line-up",
            "turns": 77,
        },
    ),
    (
        8,
        {"players": 5, "variant": "secret-heroes"},
        "eager",
        {
            "steps": 849,
            "digest": "3a5ffc6af7a80f92",
            "winners": [1],
            "vp": [38, 40, 20, 21, 24],
            "rule": "sfdbg.end.line-up",
            "turns": 119,
        },
    ),
    (
        9,
        {"players": 4, "variant": "high-powered"},
        "eager",
        {
            "steps": 796,
            "digest": "bd07abb37db815d9",
            "winners": [1],
            "vp": [33, 49, 40, 35],
            "rule": "sfdbg.end.line-up",
            "turns": 114,
        },
    ),
]


@pytest.mark.parametrize(("seed", "options", "policy", "expected"), PINNED)
def test_pinned_game_is_unchanged(
    seed: int, options: dict[str, Any], policy: str, expected: dict[str, Any]
) -> None:
    """The same seed and choices replay the same game, quiet or not."""
    assert _play(seed, options, policy, quiet=True) == expected
    assert _play(seed, options, policy, quiet=False) == expected


BENCHMARK: list[tuple[int, dict[str, Any]]] = [
    (
        0,
        {
            "steps": 1022,
            "digest": "24b7fe91382e0d75",
            "winners": [2],
            "vp": [4, 12, 48, 23],
            "rule": "sfdbg.ruling.round-limit",
            "turns": 240,
        },
    ),
    (
        1,
        {
            "steps": 989,
            "digest": "60597271056a75d3",
            "winners": [2],
            "vp": [46, 17, 52, 13],
            "rule": "sfdbg.ruling.round-limit",
            "turns": 240,
        },
    ),
    (
        2,
        {
            "steps": 961,
            "digest": "cb1be90274bb3e28",
            "winners": [1],
            "vp": [25, 34, 28, 24],
            "rule": "sfdbg.ruling.round-limit",
            "turns": 240,
        },
    ),
]


@pytest.mark.parametrize(("game", "expected"), BENCHMARK)
def test_benchmark_game_is_unchanged(game: int, expected: dict[str, Any]) -> None:
    """``benchmarks/sfdbg_random.py``'s games (seeds and per-seat random players as there)."""
    state = GAME.new_state(game, {"players": 4})
    state.quiet = True
    rngs = [random.Random(derive_seed(game, "agent", s)) for s in range(4)]
    while not state.is_terminal:
        (d,) = state.pending()
        state.apply({d.seat: rngs[d.seat].choice(d.legal)})
    assert _summary(state) == expected


def test_validation_shortcut_agrees_with_the_general_validation() -> None:
    """``SFDBGState.validate``'s shortcut returns what ``State.validate`` returns, and every
    other input still gets the general checks (and their errors)."""
    state = GAME.new_state(11, {"players": 3})
    rng = random.Random(11)
    for _ in range(200):
        (d,) = state.pending()
        choice = rng.choice(d.legal)
        mine = state.validate({d.seat: choice})
        assert mine == State.validate(state, {d.seat: choice}) == {d.seat: choice}
        for bad in (
            {d.seat: "no such choice"},
            {(d.seat + 1) % 3: choice},
            {d.seat: 1},
            {d.seat: choice, (d.seat + 1) % 3: choice},
            {},
            [(d.seat, choice)],
        ):
            with pytest.raises(ChoiceError) as ours:
                state.validate(bad)  # type: ignore[arg-type]
            with pytest.raises(ChoiceError) as general:
                State.validate(state, bad)  # type: ignore[arg-type]
            assert type(ours.value) is type(general.value)
            assert str(ours.value) == str(general.value)
        state.apply({d.seat: choice})
