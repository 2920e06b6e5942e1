"""Issue 31: observation options (docs/envs.md, "Observations") — normalised tensors, the
public-history memory of Rivales and SF DBG, and SF DBG's actions in the acting seat's
frame of reference."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import kumite.envs.gymnasium as kg
from kumite.envs import pettingzoo as kpz
from kumite.envs.base import EnvGame, Table

from .test_observation import random_states

Mode = tuple[str, dict[str, Any]]


def test_normalised_observations_lie_in_0_1(mode: Mode) -> None:
    """normalize=True: every value (value - low) / (high - low) of its field, so in [0, 1];
    the spaces say so."""
    raw, norm = EnvGame.make(*mode), EnvGame.make(*mode, normalize=True)
    enc = raw.encoding
    for state in random_states(raw, 3, every=5):
        for seat in state.players:
            t = norm.observe(state, seat)
            assert t.dtype == np.float32 and t.min() >= 0.0 and t.max() <= 1.0
            expected = (raw.observe(state, seat) - enc.low) / (enc.high - enc.low)
            assert np.allclose(t, expected, atol=1e-6)
    env = kg.KumiteEnv(*mode, normalize=True)
    assert env.observation_space.low.max() == 0.0 and env.observation_space.high.min() == 1.0
    assert env.metadata["normalized"] is True


def test_unnormalised_values_reach_far_beyond_1() -> None:
    """Why the option exists: raw SF DBG counters go far past 1 (the issue saw 221)."""
    env = EnvGame.make("sfdbg")
    assert env.encoding.high.max() > 100


def _foe_state(players: int) -> tuple[EnvGame, Any, Any]:
    env = EnvGame.make("sfdbg", {"players": players})
    for seed in range(40):
        state = env.new_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            for d in state.pending():
                if d.kind == "foe" and d.seat != 0:
                    return env, state, d
            state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
    raise AssertionError("no foe decision met")


@pytest.mark.parametrize("players", [3, 4])
def test_sfdbg_foe_actions_are_relative_to_the_acting_seat(players: int) -> None:
    """An environment's foe:k names the k-th seat after the acting one — the seat of row k
    of the acting seat's tensor — while the game's own choice names the absolute seat
    (seat + k) % players; legal ids, masks and choices agree."""
    env, state, decision = _foe_state(players)
    seat = decision.seat
    legal = env.legal(state, seat)
    chosen = {env.choice(state, seat, a) for a in legal}
    assert chosen == set(decision.legal)
    foe0 = next(a for a in range(env.num_actions) if state.action_to_choice(seat, a) == "foe:0")
    for a in legal:
        k = a - foe0
        if 0 <= k < players:
            assert env.choice(state, seat, a) == f"foe:{(seat + k) % players}"
    assert np.array_equal(np.flatnonzero(env.mask(state, seat)), sorted(legal))
    assert sorted(env.to_game(seat, a) for a in legal) == sorted(state.legal_actions(seat))


def test_sfdbg_foe_frame_in_pettingzoo_and_openspiel() -> None:
    """The same numbering in every interface: the PettingZoo mask and the OpenSpiel legal
    actions of the acting seat are the environment's ids."""
    import kumite.envs.openspiel as kos

    env, state, decision = _foe_state(3)
    table = Table(env, state)
    raw = kpz.raw_env("sfdbg", {"players": 3})
    raw.reset(seed=0)
    raw.table = table
    mask = raw.observe(f"player_{decision.seat}")["action_mask"]
    assert sorted(np.flatnonzero(mask)) == sorted(env.legal(state, decision.seat))
    game = kos.load("sfdbg", {"players": 3}, chance="sampled", seed=state.seed)
    os_state = game.new_initial_state()
    for step in state.history:
        ((seat, choice),) = step.items()
        action = next(
            a
            for a in env.legal(os_state.kumite, seat)
            if env.choice(os_state.kumite, seat, a) == choice
        )
        os_state.apply_action(action)
    assert os_state.current_player() == decision.seat
    assert sorted(os_state.legal_actions()) == sorted(env.legal(state, decision.seat))


def test_rivales_memory_remembers_the_cards_of_past_rounds() -> None:
    """Rivales' view forgets the cards of a round once it ends; the memory keeps, round by
    round, each seat's cards seen face up, and who won each round."""
    env = EnvGame.make("rivales", history=True)
    history = env.encoding.history
    assert history is not None
    table = Table(env, env.new_state(7))
    rng = random.Random(7)
    remembered_past = False
    while not table.state.is_terminal:
        state = table.state
        table.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
        memory = table.memories[0]
        round_now = table.state.view(0)["round"]
        seen = history.field(memory, "seen_played")
        if round_now >= 2 and seen[0].any():
            remembered_past = True
        won = history.field(memory, "round_winner")
        view = table.state.view(0)
        team = view["team"]
        assert won[:, 0].sum() == view["rounds_won"][team]
        assert won[:, 1].sum() == view["rounds_won"][1 - team]
    assert remembered_past


def test_sfdbg_memory_counts_every_card_played() -> None:
    """SF DBG's memory: per seat (relative), the cards it played in its past turns — each
    turn's plays as the table showed them last in that turn — and the turn under way."""
    env = EnvGame.make("sfdbg", {"players": 3}, history=True)
    history = env.encoding.history
    assert history is not None
    table = Table(env, env.new_state(2))
    rng = random.Random(2)
    last: dict[int, tuple[int, list[str]]] = {}
    while not table.state.is_terminal:
        table.apply({d.seat: rng.choice(d.legal) for d in table.state.pending()})
        view = table.state.view(1)
        last[view["turn"]] = (view["active"], list(view["this_turn"]["played"]))
    memory = table.memories[1]
    cards = history.cards  # type: ignore[attr-defined]
    expected = np.zeros((3, len(cards)))
    final = table.state.view(1)["turn"]
    for turn, (active, played) in last.items():
        if turn == final:
            continue
        for card in played:
            expected[(active - 1) % 3, cards[card]] += 1
    assert expected.sum() > 100
    assert np.array_equal(history.field(memory, "played"), np.minimum(expected, 99))
    now = np.zeros(len(cards))
    for card in last[final][1]:
        now[cards[card]] += 1
    assert np.array_equal(history.field(memory, "turn_played"), now)


def test_history_observations_in_gymnasium_and_pettingzoo(mode: Mode) -> None:
    """history=True: the observation is the encoding then the memory (SF Rivals: nothing
    more, its view is perfect recall); within the declared bounds; normalised too."""
    env = kg.KumiteEnv(*mode, history=True, normalize=True)
    extra = env.env.encoding.history
    size = env.env.encoding.size + (0 if extra is None else extra.size)
    assert env.observation_space.shape == (size,)
    obs, info = env.reset(seed=1)
    for _ in range(30):
        assert env.observation_space.contains(obs)
        obs, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        if done:
            break
    aec = kpz.env(*mode, history=True)
    aec.reset(seed=1)
    obs = aec.observe(aec.agent_selection)
    assert aec.observation_space(aec.agent_selection).contains(obs)


@pytest.mark.parametrize("game", ["rivales", "sfdbg"])
def test_check_env_with_every_observation_option(game: str) -> None:
    """gymnasium's check_env and PettingZoo's api_test hold with normalised observations
    carrying their memory."""
    import warnings

    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(kg.KumiteEnv(game, normalize=True, history=True))
        api_test(kpz.env(game, normalize=True, history=True), num_cycles=200)
