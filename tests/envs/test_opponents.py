"""Issue 31: opponents you bring (docs/envs.md, "Opponents you bring" and "Self-play") —
policies, kumite agent objects and pools across the table, the learner's seat fixed or
drawn per episode, PFSP sampling, the PettingZoo learner loop and evaluation."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import kumite.envs.gymnasium as kg
from kumite.agents.registry import make_agent
from kumite.core.errors import ChoiceError, OptionsError
from kumite.core.rng import derive_seed
from kumite.envs import pettingzoo as kpz
from kumite.envs.policy import (
    OpponentPool,
    RandomPolicy,
    batched,
    unbatched,
)
from kumite.envs.selfplay import AECLearnerEnv, SelfPlay, evaluate, wilson


class FirstLegal:
    """A deterministic policy: the lowest legal id. Records what it was shown."""

    def __init__(self) -> None:
        self.seen: list[tuple[np.ndarray, np.ndarray]] = []

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        self.seen.append((observation.copy(), mask.copy()))
        return int(np.flatnonzero(mask)[0])


def last_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[-1])


def play(env: Any, seed: int, policy: Any = last_legal) -> list[Any]:
    obs, info = env.reset(seed=seed)
    trace = [obs.tobytes()]
    done = False
    while not done:
        obs, reward, done, _, info = env.step(policy(obs, info["action_mask"]))
        trace.append((obs.tobytes(), reward))
    return trace


def test_a_policy_takes_a_seat_and_sees_its_own_observation() -> None:
    """A policy opponent is asked with its own seat's observation (relative rows, its
    seat one-hot) and its mask as booleans, in the environment's frame (normalised here)."""
    opponent = FirstLegal()
    env = kg.KumiteEnv("rivales", seat=0, opponents=opponent, normalize=True)
    play(env, 3)
    assert opponent.seen
    enc = env.env.encoding
    for obs, mask in opponent.seen:
        assert obs.shape == env.observation_space.shape
        assert obs.min() >= 0.0 and obs.max() <= 1.0
        assert list(enc.field(obs, "seat")) == [0.0, 1.0]  # the opponent sits at seat 1
        assert mask.dtype == bool and mask.shape == (env.env.num_actions,)


def test_a_kumite_agent_object_plays_as_the_same_agent_by_name() -> None:
    """An Agent object across the table plays as the named agent it is (same seed)."""
    seed, seat = 8, 1
    env = kg.KumiteEnv("sfrivals", seat=0, opponents="greedy")
    expected = play(env, seed)
    game = env.env
    agent = make_agent("greedy", game.game, game.options, seat, derive_seed(seed, "agent", seat))
    assert play(kg.KumiteEnv("sfrivals", seat=0, opponents=agent), seed) == expected


def test_one_opponent_per_seat_mixing_kinds() -> None:
    env = kg.KumiteEnv("sfdbg", {"players": 3}, opponents=[RandomPolicy(1), "greedy"])
    trace = play(env, 2)
    assert env.state is not None and env.state.outcome is not None
    assert trace[-1][1] == env.state.outcome.returns[0]
    assert env.metadata["opponents"] == ["policy:RandomPolicy", "greedy"]


def test_the_learners_seat_can_be_drawn_each_episode() -> None:
    """seat="random": each reset draws the learner's seat from the environment's seeded
    generator; the observation says which seat it is; a seeded run repeats."""

    def seats_of(env: kg.KumiteEnv) -> list[int]:
        out = []
        for k in range(12):
            obs, info = env.reset(seed=100) if k == 0 else env.reset()
            out.append(info["seat"])
            assert env.seat == info["seat"]
            assert env.env.encoding.field(obs, "seat")[info["seat"]] == 1.0
            _play_out(env)
        return out

    seats = seats_of(kg.KumiteEnv("rivales", seat="random", opponents="random"))
    assert set(seats) == {0, 1}
    assert seats_of(kg.KumiteEnv("rivales", seat="random", opponents="random")) == seats


def _play_out(env: kg.KumiteEnv) -> None:
    info = {"action_mask": env.action_masks()}
    done = False
    while not done:
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))


def test_a_pool_draws_one_member_per_episode_and_records_the_results() -> None:
    pool = OpponentPool({"rnd": "random", "first": FirstLegal()})
    env = kg.KumiteEnv("sfrivals", opponents=pool)
    drawn = []
    for k in range(20):
        _, info = env.reset(seed=k)
        drawn.append(info["opponents"][1])
        _play_out(env)
    assert set(drawn) == {"rnd", "first"}
    assert sum(m.games for m in pool) == 20
    assert pool["rnd"].games == drawn.count("rnd")


def test_pfsp_weights_favour_the_opponents_the_learner_beats_least() -> None:
    """priority="hard": weight (1 - p) ** power, p the learner's expected score against
    the member ((score + 1) / (games + 2)); "even": (p (1 - p)) ** power."""
    pool = OpponentPool(["random", "greedy"], priority="hard", power=2.0)
    for _ in range(8):
        pool.record("random", 1.0)  # the learner beats random every time
    for _ in range(8):
        pool.record("greedy", 0.0)  # and loses to greedy every time
    p = np.array([9 / 10, 1 / 10])
    expected = (1 - p) ** 2 / ((1 - p) ** 2).sum()
    assert np.allclose(pool.weights(), expected)
    even = OpponentPool(["random", "greedy"], priority="even")
    even.record("random", 1.0)
    assert np.allclose(
        even.weights(), [(2 / 3) * (1 / 3) / ((2 / 9) + 0.25), 0.25 / ((2 / 9) + 0.25)]
    )
    draws = [pool.sample(np.random.default_rng(s)).name for s in range(400)]
    assert draws.count("greedy") > 300


def test_snapshots_are_frozen_copies_and_the_oldest_go_first() -> None:
    pool = OpponentPool(["random"], max_size=2)
    policy = RandomPolicy(0)
    names = [pool.snapshot(policy) for _ in range(3)]
    assert pool.names == ["random", *names[1:]]  # the baseline stays, the oldest went
    assert pool[names[-1]].opponent is not policy


def test_bad_opponents_are_refused_in_one_line() -> None:
    for bad in (42, ["random", 3]):
        with pytest.raises(OptionsError) as caught:
            kg.KumiteEnv("sfdbg", {"players": 3}, opponents=bad)
        assert "\n" not in str(caught.value)
    with pytest.raises(OptionsError):
        OpponentPool([OpponentPool(["random"])])  # type: ignore[list-item]
    with pytest.raises(OptionsError):
        OpponentPool(["random"], priority="best")
    with pytest.raises(OptionsError):
        kg.KumiteEnv("sfrivals", seat=2)


def test_an_illegal_move_of_an_opponent_policy_is_a_one_line_error() -> None:
    env = kg.KumiteEnv("sfrivals", opponents=lambda obs, mask: int(np.flatnonzero(~mask)[0]))
    with pytest.raises(ChoiceError) as caught:
        play(env, 1)
    assert "opponent policy at seat 1" in str(caught.value) and "\n" not in str(caught.value)


def test_batched_and_unbatched_policies() -> None:
    obs = np.zeros((3, 4), np.float32)
    masks = np.array([[0, 1, 1, 0], [1, 0, 0, 0], [0, 0, 0, 1]], bool)
    acts = batched(last_legal)(obs, masks)
    assert acts.dtype == np.int64 and list(acts) == [2, 0, 3]
    assert unbatched(batched(last_legal))(obs[0], masks[0]) == 2


@pytest.mark.parametrize("opponent", ["policy", "greedy"])
def test_the_pettingzoo_learner_loop_plays_the_same_games_as_gymnasium(opponent: str) -> None:
    """AECLearnerEnv over kumite's PettingZoo environment gives the very episodes of the
    Gymnasium environment with the same opponent across the table (a policy, or a kumite
    agent by name, seeded alike): observations, masks (without the NO-OP) and rewards."""
    for game in ("sfrivals", "rivales"):
        pz = AECLearnerEnv(kpz.env(game), FirstLegal() if opponent == "policy" else opponent, 1)
        gym_env = kg.KumiteEnv(
            game, seat=1, opponents=FirstLegal() if opponent == "policy" else opponent
        )
        assert pz.action_space == gym_env.action_space
        for seed in (4, 5):
            assert play(pz, seed) == play(gym_env, seed)


class _OtherAEC:
    """Enough of a PettingZoo environment that is not kumite's."""

    possible_agents = ["a", "b"]  # noqa: RUF012
    metadata: dict[str, Any] = {}  # noqa: RUF012

    def observation_space(self, agent: str) -> Any:
        from gymnasium import spaces

        return spaces.Dict(
            {"observation": spaces.Box(0, 1, (3,)), "action_mask": spaces.Box(0, 1, (2,))}
        )

    def action_space(self, agent: str) -> Any:
        from gymnasium import spaces

        return spaces.Discrete(2)


def test_kumite_agents_sit_only_at_kumite_tables() -> None:
    """At another library's PettingZoo environment the opponents are policies; a kumite
    agent name is refused in one line."""
    assert AECLearnerEnv(_OtherAEC(), last_legal).num_actions == 2
    with pytest.raises(OptionsError, match="policies") as caught:
        AECLearnerEnv(_OtherAEC(), "random")
    assert "\n" not in str(caught.value)


def test_selfplay_envs_share_the_pool() -> None:
    """SelfPlay's Gymnasium and PettingZoo environments draw from, and record into, its
    one pool."""
    selfplay = SelfPlay(["random"])
    name = selfplay.snapshot(FirstLegal())
    gym_env, pz = selfplay.gymnasium("sfrivals"), selfplay.pettingzoo("sfrivals")
    for k in range(6):
        play(gym_env, k)
        play(pz, k)
    assert sum(m.games for m in selfplay.pool) == 12
    assert selfplay.pool[name].games > 0


def test_evaluate_counts_and_intervals() -> None:
    """evaluate: seats in turn, seeds seed + i; counts add up, the intervals hold the
    estimates, and a second run gives the same result."""
    result = evaluate(last_legal, "sfrivals", "random", 40, seed=3)
    assert result.wins + result.draws + result.losses == 40
    assert result.win_low <= result.win_rate <= result.win_high
    assert result.mean_low <= result.mean <= result.mean_high
    assert evaluate(last_legal, "sfrivals", "random", 40, seed=3) == result
    low, high = wilson(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
