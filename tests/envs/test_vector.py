"""The batched vector environment (kumite.envs.gymnasium.BatchedVectorEnv on SF Rivals'
batched engine, games/sfrivals/vector.py) plays Gymnasium's synchronous vector of the scalar
environment step for step on the same seeds: the same observations, masks, rewards, episode
ends and autoresets, under every rule option and from either seat."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from kumite.core.errors import IllegalChoiceError
from kumite.envs import gymnasium as kgym
from kumite.envs.base import NoEnvError

CASES: list[tuple[dict[str, Any], int]] = [
    ({}, 0),  # characters picked in the game
    ({}, 1),
    ({"characters": ["ryu", None]}, 1),  # one seat picks alone
    ({"ultra_rule": "power", "no_legal_card": "play-powerless", "swap": "printed"}, 0),
    ({"characters": ["poison", "zangief"], "no_legal_card": "play-powerless"}, 1),
]


def both(options: dict[str, Any], seat: int, n: int) -> tuple[Any, Any]:
    scalar = kgym.make_vector("sfrivals", n, options, seat)
    batched = kgym.make_vector("sfrivals", n, options, seat, batched=True)
    return scalar, batched


def same(a: Any, b: Any, what: str, step: int) -> None:
    assert np.array_equal(np.asarray(a), np.asarray(b)), f"{what} differ at step {step}"


@pytest.mark.parametrize(("options", "seat"), CASES)
def test_matches_the_synchronous_vector_step_for_step(options: dict[str, Any], seat: int) -> None:
    n, steps = 16, 300
    scalar, batched = both(options, seat, n)
    rng = np.random.default_rng(7)
    obs_s, info_s = scalar.reset(seed=100)
    obs_b, info_b = batched.reset(seed=100)
    same(obs_s, obs_b, "observations", 0)
    same(info_s["action_mask"], info_b["action_mask"], "masks", 0)
    episodes = 0
    for step in range(1, steps + 1):
        masks = info_s["action_mask"]
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks], dtype=np.int64
        )
        out_s = scalar.step(actions)
        out_b = batched.step(actions)
        for k, what in enumerate(("observations", "rewards", "terminated", "truncated")):
            same(out_s[k], out_b[k], what, step)
        info_s, info_b = out_s[4], out_b[4]
        same(info_s["action_mask"], info_b["action_mask"], "masks", step)
        episodes += int(out_s[2].sum())
    assert episodes >= n  # autoresets were compared too
    scalar.close()
    batched.close()


def test_an_illegal_action_ends_the_game_as_in_the_scalar_env() -> None:
    scalar, batched = both({}, 0, 4)
    _, info = scalar.reset(seed=3)
    batched.reset(seed=3)
    actions = np.array([np.flatnonzero(~m)[0] for m in info["action_mask"]])
    out_s, out_b = scalar.step(actions), batched.step(actions)
    for k in range(4):
        same(out_s[k], out_b[k], "step", 1)
    assert out_b[2].all() and (out_b[1] == -1).all()
    assert out_b[4]["_illegal_action"].all()
    out_s, out_b = scalar.step(actions * 0), batched.step(actions * 0)  # autoreset
    same(out_s[0], out_b[0], "observations", 2)


def test_illegal_raise_changes_nothing() -> None:
    env = kgym.BatchedVectorEnv("sfrivals", 2, illegal="raise")
    obs, info = env.reset(seed=1)
    with pytest.raises(IllegalChoiceError):
        env.step(np.array([np.flatnonzero(~m)[0] for m in info["action_mask"]]))
    assert np.array_equal(env.core.observations(), obs)


def test_only_random_opponents_and_batched_games() -> None:
    with pytest.raises(NoEnvError, match="'random' only"):
        kgym.make_vector("sfrivals", 2, opponents="greedy", batched=True)
    with pytest.raises(NoEnvError, match="no batched engine"):
        kgym.make_vector("rivales", 2, batched=True)
