"""Issue 17 acceptance, the leak test through every interface: what an environment shows a
seat is unchanged when everything that seat cannot see is resampled (State.determinize):
the PettingZoo observation and mask, the Gymnasium observation and info, OpenSpiel's
observation tensor and string and its information state."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from kumite.envs import gymnasium as kg
from kumite.envs import openspiel as kos
from kumite.envs import pettingzoo as kpz

Mode = tuple[str, dict[str, Any]]


def test_pettingzoo_observation_unchanged_by_resampling(mode: Mode) -> None:
    env = kpz.raw_env(*mode)
    rng = random.Random(13)
    steps = 0
    for seed in range(13, 113):  # games until more than 10 steps (a short game ends sooner)
        env.reset(seed=seed)
        for _agent in env.agent_iter(300):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            table = env.table
            real = table.state
            for seat, name in enumerate(env.possible_agents):
                mine = env.observe(name)
                table.state = real.determinize(seat, rng)
                theirs = env.observe(name)
                table.state = real
                assert np.array_equal(mine["observation"], theirs["observation"])
                assert np.array_equal(mine["action_mask"], theirs["action_mask"])
            env.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        if steps > 10:
            break
    assert steps > 10


def test_gymnasium_observation_unchanged_by_resampling(mode: Mode) -> None:
    env = kg.KumiteEnv(*mode, seat=0)
    _, info = env.reset(seed=14)
    rng = random.Random(14)
    done, steps = False, 0
    while not done and steps < 100:
        real = env.state
        assert real is not None
        obs, mask = env._obs(), env.action_masks()
        env.state = real.determinize(0, rng)
        assert np.array_equal(env._obs(), obs) and np.array_equal(env.action_masks(), mask)
        env.state = real
        _, _, done, _, info = env.step(int(rng.choice(list(np.flatnonzero(info["action_mask"])))))
        steps += 1


def test_openspiel_observations_unchanged_by_resampling(mode: Mode) -> None:
    game = kos.load(*mode)
    state = game.new_initial_state()
    rng = random.Random(15)
    checked = 0
    while checked < (25 if mode[0] != "sfdbg" else 12) and not state.is_terminal():
        if state.is_chance_node():  # explicit chance: no seat observes a draw being made
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        checked += 1
        for p in range(game.num_players()):
            world = state.clone()
            world._k.state = state.kumite.determinize(p, rng)
            assert world.observation_tensor(p) == state.observation_tensor(p)
            assert world.observation_string(p) == state.observation_string(p)
            if mode[0] == "sfrivals":
                assert world.information_state_tensor(p) == state.information_state_tensor(p)
                assert world.information_state_string(p) == state.information_state_string(p)
        if state.is_simultaneous_node():
            state.apply_actions(
                [rng.choice(state.legal_actions(p)) for p in range(game.num_players())]
            )
        else:
            state.apply_action(rng.choice(state.legal_actions()))
