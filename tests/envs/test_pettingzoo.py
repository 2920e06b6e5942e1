"""Issue 17 acceptance: PettingZoo AEC for every game and mode, Parallel for the simultaneous
games, checked by PettingZoo's own tests (docs/envs.md, "PettingZoo")."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from kumite.cards.game import PackGame
from kumite.core.errors import ChoiceError
from kumite.core.registry import get_game
from kumite.envs import pettingzoo as kpz
from kumite.envs.base import NoEnvError

Mode = tuple[str, dict[str, Any]]


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    # PettingZoo warns that a Dict observation "probably should be" a Box: its classic games
    # (chess, go) use the same {"observation", "action_mask"} Dict.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning, module="pettingzoo")
        yield


def test_aec_api_test(mode: Mode) -> None:
    """pettingzoo.test.api_test, 1,000 cycles."""
    api_test(kpz.env(*mode), num_cycles=1000)


def test_aec_seed_test(mode: Mode) -> None:
    """pettingzoo.test.seed_test: the same seed and masked samples play the same game."""
    seed_test(lambda: kpz.env(*mode), num_cycles=200)


def test_parallel_api_test(simultaneous: Mode) -> None:
    """pettingzoo.test.parallel_api_test, 1,000 cycles."""
    parallel_api_test(kpz.parallel_env(*simultaneous), num_cycles=1000)


def test_parallel_seed_test(simultaneous: Mode) -> None:
    """pettingzoo.test.parallel_seed_test (it samples unmasked actions: illegal="lose")."""
    parallel_seed_test(lambda: kpz.parallel_env(*simultaneous, illegal="lose"), num_cycles=200)


def _masked_parallel_game(env: kpz.KumiteParallelEnv, seed: int) -> list[Any]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: list[Any] = []
    while env.agents:
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
        obs, rewards, _terms, _, _ = env.step(actions)
        trace.append((actions, {a: o["observation"].tobytes() for a, o in obs.items()}, rewards))
    return trace


def test_parallel_seeded_games_repeat_with_masked_actions(simultaneous: Mode) -> None:
    """Seeding through reset(seed=...): two environments, the same seed and the same masked
    choices play the same whole game (parallel_seed_test stops at its first illegal sample)."""
    first = _masked_parallel_game(kpz.parallel_env(*simultaneous), 11)
    again = _masked_parallel_game(kpz.parallel_env(*simultaneous), 11)
    assert first == again and first
    other = _masked_parallel_game(kpz.parallel_env(*simultaneous), 12)
    assert other != first


def test_parallel_noop_is_the_only_action_of_a_seat_without_decision() -> None:
    """docs/envs.md: in the Parallel env a seat with nothing to decide gets exactly one legal
    action, the NO-OP (id num_actions); SF Rivals' reveal-first rounds have such seats."""
    env = kpz.parallel_env("sfrivals")
    noop = env.noop
    seen = 0
    for seed in range(30):
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while env.agents:
            pending = set(env.table.waiting())
            for agent, o in obs.items():
                mask = o["action_mask"]
                if env.agent_seat[agent] in pending:
                    assert mask[noop] == 0 and mask.sum() >= 1
                else:
                    assert mask.sum() == 1 and mask[noop] == 1
                    seen += 1
            obs, *_ = env.step(
                {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
            )
    assert seen > 0


def test_aec_simultaneous_choice_is_not_seen_before_the_other_chooses() -> None:
    """AEC: the seats of a simultaneous decision choose one after the other, and the second
    one's observation is unchanged by the first's buffered choice."""
    env = kpz.raw_env("sfrivals", {"characters": ["ryu", "ken"]})
    env.reset(seed=3)
    assert env.agent_selection == "player_0"
    before = env.observe("player_1")["observation"].copy()
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))
    assert env.agent_selection == "player_1"
    assert np.array_equal(env.observe("player_1")["observation"], before)


def test_illegal_action_raises_one_line_and_changes_nothing(mode: Mode) -> None:
    """Bad input: an illegal id (or a NO-OP in AEC) is a one-line ChoiceError; the game,
    the agent to move and the buffered choices are as they were."""
    env = kpz.raw_env(*mode)
    env.reset(seed=5)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    before = (agent, env.observe(agent)["observation"].tobytes(), list(env.table.state.history))
    for bad in (int(np.flatnonzero(mask == 0)[0]), env.noop, -1, 10**6):
        with pytest.raises(ChoiceError) as info:
            env.step(bad)
        assert "\n" not in str(info.value)
        after = (
            env.agent_selection,
            env.observe(agent)["observation"].tobytes(),
            list(env.table.state.history),
        )
        assert after == before


def test_illegal_lose_ends_the_game_for_the_offender(simultaneous: Mode) -> None:
    """illegal="lose": the game ends, the offender gets the lowest utility, the others 0,
    and its info names the error."""
    env = kpz.parallel_env(*simultaneous, illegal="lose")
    obs, _ = env.reset(seed=2)
    actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
    actions["player_0"] = int(np.flatnonzero(obs["player_0"]["action_mask"] == 0)[0])
    _, rewards, terms, _, infos = env.step(actions)
    assert all(terms.values()) and env.agents == []
    assert rewards["player_0"] == get_game(simultaneous[0]).info.utility_range[0]
    assert all(r == 0.0 for a, r in rewards.items() if a != "player_0")
    assert "rejected" in infos["player_0"]["illegal_action"]


def test_rewards_are_the_outcome_returns(mode: Mode) -> None:
    """Rewards are 0 until the end, then each seat's Outcome.returns."""
    env = kpz.raw_env(*mode)
    env.reset(seed=8)
    rng = random.Random(8)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(20_000):
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
    outcome = env.table.state.outcome
    assert outcome is not None
    assert [total[a] for a in env.possible_agents] == list(outcome.returns)


def test_ansi_render_draws_the_spectator_table() -> None:
    """render_mode="ansi": the game's terminal front end, as a spectator sees the table."""
    env = kpz.env("sfrivals", {"characters": ["ryu", "ken"]}, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "Ryu" in text and "Ken" in text


def test_sequential_game_has_no_parallel_env() -> None:
    with pytest.raises(NoEnvError) as info:
        kpz.parallel_env("sfdbg")
    assert "\n" not in str(info.value) and "AEC" in str(info.value)


def test_metadata_carries_versioned_name_and_pack(mode: Mode) -> None:
    env = kpz.raw_env(*mode)
    assert env.metadata["name"] == f"kumite_{mode[0]}_v0"
    if isinstance(get_game(mode[0]), PackGame):  # a game of card packs names its pack
        assert len(env.metadata["pack"]["sha256"]) == 64
    else:
        assert env.metadata["pack"] == {}
    assert env.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
