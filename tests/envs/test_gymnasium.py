"""Issue 17 acceptance: Gymnasium environments of every game and mode (docs/envs.md,
"Gymnasium"): registration, check_env, agents by name, masks, seeding, vector env."""

from __future__ import annotations

import warnings
from importlib.metadata import entry_points
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import kumite.envs.gymnasium as kg
from kumite.core.errors import ChoiceError, OptionsError
from kumite.core.registry import get_spec
from kumite.envs.base import NoEnvError

Mode = tuple[str, dict[str, Any]]
IDS = ["kumite/SFRivals-v0", "kumite/Rivales-v0", "kumite/SFDBG-v0"]


def test_every_game_is_registered_under_its_id() -> None:
    """kumite's games, and any installed game with an encoding (the toy plugin's Toy-v0)."""
    assert kg.register_envs() == [*IDS, "kumite/Toy-v0"]
    assert all(i in gym.registry for i in IDS)
    assert kg.env_id("rivales") == "kumite/Rivales-v0"


def test_entry_point_registers_the_envs() -> None:
    """The ``gymnasium.envs`` entry point names the registering function."""
    (found,) = [e for e in entry_points(group="gymnasium.envs") if e.name == "kumite"]
    assert found.load() is kg.register_envs


def test_make_with_module_prefix() -> None:
    """Gymnasium 1.x: ``module:id`` imports the module, which registers the ids."""
    env = gym.make("kumite.envs.gymnasium:kumite/Rivales-v0", options={"mode": "2v2"})
    obs, info = env.reset(seed=1)
    assert obs.shape == env.observation_space.shape
    assert info["action_mask"].dtype == bool


def test_check_env(mode: Mode) -> None:
    """gymnasium.utils.env_checker.check_env, with no warning but the ansi mode's fps."""
    env = gym.make(kg.env_id(mode[0]), options=mode[1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def _play(env: kg.KumiteEnv, seed: int) -> list[Any]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = [obs.tobytes()]
    done = False
    while not done:
        assert np.array_equal(info["action_mask"], env.action_masks())
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated
        trace.append((action, obs.tobytes(), reward))
    return trace


@pytest.mark.parametrize("opponent", ["random", "own"])
def test_learner_against_agents_by_name(mode: Mode, opponent: str) -> None:
    """The learner's seat against kumite agents by name (``random``, and the game's own first
    bot, or ISMCTS for a game that ships none), to the end; the reward is the learner's
    return; a seeded episode repeats exactly, another seed differs."""
    if opponent == "own":
        opponent = next((bot.name for bot in get_spec(mode[0]).bots), "ismcts-easy")
    seat = 1
    env = kg.KumiteEnv(mode[0], mode[1], seat=seat, opponents=opponent)
    first = _play(env, 21)
    assert env.state is not None and env.state.is_terminal
    assert first[-1][2] == env.state.outcome.returns[seat]
    assert _play(kg.KumiteEnv(mode[0], mode[1], seat=seat, opponents=opponent), 21) == first
    assert _play(env, 22) != first


def test_opponents_one_per_seat_and_unknown_names() -> None:
    env = kg.KumiteEnv("sfdbg", {"players": 3}, seat=0, opponents=["random", "greedy"])
    assert env.opponents == {1: "random", 2: "greedy"}
    with pytest.raises(OptionsError):
        kg.KumiteEnv("sfdbg", {"players": 3}, opponents=["random"])
    with pytest.raises(ValueError, match="no agent 'nobody'"):
        kg.KumiteEnv("sfrivals", opponents="nobody")
    with pytest.raises(OptionsError):
        kg.KumiteEnv("sfrivals", seat=2)


def test_illegal_action_raise_changes_nothing() -> None:
    env = kg.KumiteEnv("rivales", illegal="raise")
    obs, info = env.reset(seed=4)
    history = list(env.state.history)
    bad = int(np.flatnonzero(~info["action_mask"])[0])
    with pytest.raises(ChoiceError) as caught:
        env.step(bad)
    assert "\n" not in str(caught.value)
    assert env.state.history == history
    assert np.array_equal(env._obs(), obs)


def test_illegal_action_lose_ends_the_episode() -> None:
    env = kg.KumiteEnv("sfrivals")
    _, info = env.reset(seed=4)
    _, reward, done, _, info = env.step(int(np.flatnonzero(~info["action_mask"])[0]))
    assert done and reward == -1.0 and "rejected" in info["illegal_action"]
    with pytest.raises(NoEnvError):
        env.step(0)


def test_unseeded_resets_follow_the_first_seed() -> None:
    """reset(seed=s) then reset(): the later games' seeds come from a stream seeded by s."""
    a, b = kg.KumiteEnv("sfdbg"), kg.KumiteEnv("sfdbg")
    a.reset(seed=9)
    b.reset(seed=9)
    assert a.state.seed == b.state.seed == 9
    a.reset()
    b.reset()
    assert a.state.seed == b.state.seed != 9


def test_ansi_render() -> None:
    env = kg.KumiteEnv("sfdbg", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "Line-Up" in text


def test_sync_vector_env_with_a_named_opponent() -> None:
    """make_vector without a batched engine (or with a non-random opponent): Gymnasium's
    synchronous vector of single environments, autoresetting."""
    vec = kg.make_vector("rivales", 3, opponents="greedy")
    assert isinstance(vec, gym.vector.SyncVectorEnv)
    obs, info = vec.reset(seed=5)
    assert obs.shape == (3, vec.single_observation_space.shape[0])
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        # an env that just ended has no legal action: its next step only resets it
        # (Gymnasium's next-step autoreset), whatever the action
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, _rewards, terms, _truncs, info = vec.step(actions)
        ended += int(terms.sum())
    assert ended >= 1
