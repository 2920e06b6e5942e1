"""The batched vector environment (kumite.envs.vector on SF Rivals' compiled core,
games/sfrivals/vector.py) is the scalar game step for step: beside it, one scalar Gymnasium
environment (KumiteEnv) per game is given the same learner actions and an opponent making the
same choices, and every step's observations, masks, rewards, terminations and autoresets are
equal — characters picked or fixed, every rule option, from either seat, against each
opponent the batched environment offers."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Mapping
from importlib import resources
from typing import Any

import numpy as np
import pytest

from kumite.core.errors import IllegalChoiceError, OptionsError
from kumite.core.game import Decision
from kumite.envs import gymnasium as kgym
from kumite.envs.base import NoEnvError
from kumite.envs.vector import BatchedVectorEnv
from kumite.games.sfrivals.cards import HAND

# fights shorter than a hand (2 rounds of the 8 cards a seat keeps): the round of a hand is
# not the pack's rounds less its size
SHORT_FIGHTS = {
    "pack": (resources.files("kumite.games.sfrivals") / "packs" / "mini.toml").read_text()
    + "\n[rules]\nhand = 2\n"
}
CASES: list[tuple[dict[str, Any], int]] = [
    ({}, 0),  # characters picked in the game
    ({}, 1),
    ({"characters": ["ryu", None]}, 1),  # one seat picks alone
    ({"ultra_rule": "power", "no_legal_card": "play-powerless", "swap": "printed"}, 0),
    ({"characters": ["poison", "zangief"], "no_legal_card": "play-powerless"}, 1),
    (SHORT_FIGHTS, 1),
]


class Replayed:
    """An opponent for the scalar environment that makes the choices the batched core made in
    game ``index`` (read from the core's arrays after its step: its character, set-up and
    every card it played), or — ``policy`` — asks the same batched policy from its own view."""

    name = "replayed"

    def __init__(self, env: kgym.KumiteEnv, batched: BatchedVectorEnv, index: int, policy: Any):
        self.env, self.core, self.i, self.policy = env, batched.core, index, policy

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        state = self.env.state
        assert state is not None
        seat = decision.seat
        if self.policy is not None:
            obs = self.env.env.encoding.encode(view)[None]
            mask = self.env.env.mask(state, seat).astype(bool)[None]
            return state.action_to_choice(seat, int(self.policy(obs, mask)[0]))
        f, i = self.core.fights, self.i
        if decision.kind == "character":
            return f"character:{self.core.engine.characters[f.chars[i, seat]].id}"
        char = self.core.engine.characters[f.chars[i, seat]]
        if decision.kind == "setup":
            return char.setup_choices[f.setup[i, seat]]
        return "play:" + char.cards[f.played[i, seat, state.round - 1]].id


class ScalarEnv(kgym.KumiteEnv):
    """KumiteEnv whose opponent is a :class:`Replayed` (the test's only hook into it)."""

    batched: BatchedVectorEnv
    index: int
    policy: Any = None

    def _player(self, spec: Any, seat: int, game_seed: int) -> Any:
        return kgym._AgentPlayer(Replayed(self, self.batched, self.index, self.policy))


def first_legal_by_weight(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A deterministic batched policy that reads its observations: the legal action with the
    largest fixed random score of the observation."""
    weights = np.random.default_rng(5).standard_normal((obs.shape[1], masks.shape[1]))
    scores = obs.astype(np.float64) @ weights
    return np.where(masks, scores, -np.inf).argmax(axis=1)


def same(a: Any, b: Any, what: str, step: int) -> None:
    assert np.array_equal(np.asarray(a), np.asarray(b)), f"{what} differ at step {step}"


def run_beside_scalar(
    options: dict[str, Any], seat: int, opponent: Any, n: int = 12, steps: int = 250
) -> int:
    batched = BatchedVectorEnv("sfrivals", n, options, seat, opponent)
    policy = opponent if callable(opponent) else None
    scalars = []
    for i in range(n):
        env = ScalarEnv("sfrivals", options, seat)
        env.batched, env.index, env.policy = batched, i, policy
        scalars.append(env)
    rng = np.random.default_rng(7)
    obs_b, info_b = batched.reset(seed=100)
    firsts = [env.reset(seed=100 + i) for i, env in enumerate(scalars)]
    same(np.stack([o for o, _ in firsts]), obs_b, "observations", 0)
    same(np.stack([f["action_mask"] for _, f in firsts]), info_b["action_mask"], "masks", 0)
    episodes = 0
    restart = np.zeros(n, dtype=bool)
    for step in range(1, steps + 1):
        masks = info_b["action_mask"]
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks], dtype=np.int64
        )
        obs_b, rew_b, term_b, trunc_b, info_b = batched.step(actions)
        rows = []
        for i, env in enumerate(scalars):
            if restart[i]:
                o, f = env.reset(seed=step)
                rows.append((o, 0.0, False, f["action_mask"]))
            else:
                o, r, t, _, f = env.step(int(actions[i]))
                rows.append((o, r, t, f["action_mask"]))
        same(np.stack([r[0] for r in rows]), obs_b, "observations", step)
        same([r[1] for r in rows], rew_b, "rewards", step)
        same([r[2] for r in rows], term_b, "terminations", step)
        same(np.stack([r[3] for r in rows]), info_b["action_mask"], "masks", step)
        assert not trunc_b.any()
        restart = term_b.copy()
        episodes += int(term_b.sum())
    return episodes


@pytest.mark.parametrize(("options", "seat"), CASES)
def test_random_opponent_matches_the_scalar_env_step_for_step(
    options: dict[str, Any], seat: int
) -> None:
    assert run_beside_scalar(options, seat, "random") >= 12  # autoresets compared too


@pytest.mark.parametrize(("options", "seat"), CASES[:2] + CASES[3:4])
def test_greedy_opponent_matches_the_scalar_env_step_for_step(
    options: dict[str, Any], seat: int
) -> None:
    assert run_beside_scalar(options, seat, "greedy") >= 12


@pytest.mark.parametrize(("options", "seat"), CASES[:3])
def test_a_batched_policy_opponent_plays_from_its_own_observations(
    options: dict[str, Any], seat: int
) -> None:
    """The scalar opponent asks the same policy from its own view's encoding: equal games
    mean the batched env gave the policy the opponent's own observations and masks."""
    assert run_beside_scalar(options, seat, first_legal_by_weight) >= 12


def test_same_seed_same_games_and_normalised_observations() -> None:
    a = BatchedVectorEnv("sfrivals", 8, {}, 0, "random")
    b = BatchedVectorEnv("sfrivals", 8, {}, 0, "random", normalize=True)
    obs_a, info = a.reset(seed=3)
    obs_b, _ = b.reset(seed=3)
    high = a.env.encoding.high
    assert np.allclose(obs_b, obs_a / high) and obs_b.max() <= 1.0
    rng = np.random.default_rng(1)
    for _ in range(60):
        m = info["action_mask"]
        actions = np.argmax(m * rng.random(m.shape), axis=1)
        obs_a, _, _, _, info = a.step(actions)
        obs_b, *_ = b.step(actions)
        assert np.allclose(obs_b, obs_a / high)
    assert b.observation_space.contains(obs_b)


def test_same_step_autoreset_hands_over_the_final_observation() -> None:
    env = BatchedVectorEnv("sfrivals", 6, {}, 1, "greedy", autoreset="same-step")
    obs, info = env.reset(seed=9)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(40):
        m = info["action_mask"]
        assert m.any(axis=1).all()  # every game has a decision: ended ones restarted at once
        obs, rew, term, _, info = env.step(np.argmax(m * rng.random(m.shape), axis=1))
        if term.any():
            ended += int(term.sum())
            final = info["final_obs"][term]
            over = env.env.encoding.offsets["phase"] + 3
            assert (final[:, over] == 1).all() and (obs[term, over] == 0).all()
            assert set(rew[term].tolist()) <= {-1.0, 0.0, 1.0}
    assert ended > 0


def test_an_illegal_action_ends_that_game_or_raises_changing_nothing() -> None:
    env = BatchedVectorEnv("sfrivals", 4, {}, 0, "random")
    obs, info = env.reset(seed=3)
    bad = np.array([np.flatnonzero(~m)[0] for m in info["action_mask"]])
    good = np.array([np.flatnonzero(m)[0] for m in info["action_mask"]])
    actions = good.copy()
    actions[1] = bad[1]
    out = env.step(actions)
    assert out[2].tolist() == [False, True, False, False] and out[1][1] == -1
    assert out[4]["_illegal_action"].tolist() == [False, True, False, False]
    same(out[0][1], obs[1], "observation of the illegal game", 1)
    strict = BatchedVectorEnv("sfrivals", 2, {}, 0, "random", illegal="raise")
    obs, info = strict.reset(seed=1)
    with pytest.raises(IllegalChoiceError):
        strict.step(np.array([np.flatnonzero(~m)[0] for m in info["action_mask"]]))
    assert np.array_equal(strict.core.observations(), obs)


def test_opponents_and_games_refused_in_one_line() -> None:
    with pytest.raises(OptionsError, match="no opponent 'ismcts'"):
        kgym.make_vector("sfrivals", 2, opponents="ismcts", batched=True)
    with pytest.raises(NoEnvError, match="no batched engine"):
        kgym.make_vector("rivales", 2, batched=True)
    env = kgym.make_vector("sfrivals", 2, opponents=["greedy"], batched=True)
    assert env.metadata["opponents"] == ["greedy"]


class CheckedGreedy(Replayed):
    """Replays the batched greedy's choice after checking that the scalar ``greedy`` bot,
    asked from the same view with 40 seeds (its ties are broken by a draw), makes it too."""

    answers: list[int]

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        from kumite.games.sfrivals.bots.greedy import make as make_greedy

        made = super().choose(view, decision)
        state = self.env.state
        assert state is not None
        scalar = {
            make_greedy(state.game, self.env.env.options, decision.seat, seed).choose(
                view, decision
            )
            for seed in range(40)
        }
        assert made in scalar, f"{made} is not greedy's choice {sorted(scalar)} at {view}"
        self.answers.append(len(scalar))
        return made


@pytest.mark.parametrize(("options", "seat"), [({}, 0), ({"swap": "printed"}, 1)])
def test_the_batched_greedy_makes_the_scalar_greedy_bots_decisions(
    options: dict[str, Any], seat: int
) -> None:
    n = 6
    batched = BatchedVectorEnv("sfrivals", n, options, seat, "greedy")
    answers: list[int] = []
    scalars = []
    for i in range(n):
        env = ScalarEnv("sfrivals", options, seat)
        env.batched, env.index = batched, i
        scalars.append(env)

    def agent(env: ScalarEnv) -> Any:
        found = CheckedGreedy(env, batched, env.index, None)
        found.answers = answers
        return found

    for env in scalars:
        env._player = (  # type: ignore[method-assign]
            lambda spec, s, g, env=env: kgym._AgentPlayer(agent(env))
        )
    rng = np.random.default_rng(3)
    _, info = batched.reset(seed=40)
    for i, env in enumerate(scalars):
        env.reset(seed=40 + i)
    restart = np.zeros(n, dtype=bool)
    for step in range(70):
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, _, term, _, info = batched.step(actions)
        for i, env in enumerate(scalars):
            o = env.reset(seed=step)[0] if restart[i] else env.step(int(actions[i]))[0]
            same(o, obs[i], "observations", step)
        restart = term
    assert len(answers) > 150 and max(answers) > 1  # ties were met, and drawn among


def test_the_compact_rule_tables_read_a_hand_at_the_round_its_size_implies() -> None:
    """A seat keeps ``HAND`` cards and plays one a round: a hand of ``size`` cards is met in
    round ``HAND - size + 1``, also in fights shorter than a hand. The compact tables once
    read it at ``rounds - size + 1`` (no round at all for 2 rounds), so a fight waited for an
    entry the solver had filled, and the vector env and the exploit tree refilled forever."""
    from kumite.games.sfrivals import vector as core_module

    env = BatchedVectorEnv("sfrivals", 32, SHORT_FIGHTS, 0, "random")
    _, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(12):  # the entries the games meet are filled on demand
        m = info["action_mask"]
        _, _, _, _, info = env.step(np.argmax(m * rng.random(m.shape), axis=1))
    core = env.core
    count = len(core.engine.characters)
    kept = core_module._CARDS | core_module._DONE
    compared = 0
    for p in core.pairings:
        solver = core.engine.solver(*divmod(p, count))
        for ch, tables in zip(divmod(p, count), solver.seat_tables, strict=True):
            copies = np.array([c.copies for c in tables.char.cards])
            for code in range(tables.legal.shape[1]):
                size = sum((code // r) % (n + 1) for r, n in zip(tables.radix, copies, strict=True))
                r = HAND - size + 1
                entry = core.rules.entry[ch, code] & kept
                if not 1 <= r <= core.rules.rounds:
                    assert not entry.any(), f"an entry for a hand met in no round ({code})"
                    continue
                solver_entry = tables.legal[r, code, :, 0] & kept
                assert np.array_equal(entry, solver_entry), f"hand {code} of character {ch}"
                compared += int((solver_entry & core_module._DONE != 0).sum())
    assert compared > 0  # the games met hands of 8 and 7 cards, filled on demand


HANG_CHECK = textwrap.dedent(
    """
    import sys
    import numpy as np
    from kumite.envs.vector import BatchedVectorEnv
    from kumite.games.sfrivals import exploit

    options = {"pack": sys.argv[1]}
    env = BatchedVectorEnv("sfrivals", 16, options, 0, "random")
    _, info = env.reset(seed=0)
    for _ in range(6):
        info = env.step(np.argmax(info["action_mask"], axis=1))[4]
    tree = exploit.build(("ryu-mini", "ken-mini"), options)
    print(len(tree.obs))
    """
)


@pytest.mark.slow  # a process of its own: Numba's first compile of the exploit tree
def test_short_fights_step_and_build_their_exploit_tree_without_refilling_forever() -> None:
    """The vector env's step and the exploit tree's build stop a fight for a table entry,
    have the solver fill it and go on; on fights shorter than a hand the entry, once filled,
    was never read, and both looped forever. Run apart with a deadline (a hang fails)."""
    done = subprocess.run(
        [sys.executable, "-c", HANG_CHECK, SHORT_FIGHTS["pack"]],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout.split()[-1]) > 0  # information sets of the whole 2-round game
