"""Issue 31: the conventions third-party tools expect of an environment (docs/envs.md) —
rendering (PettingZoo's render_test, Gymnasium's video frames), the Parallel conversion,
SB3's make_vec_env by id, pickle and deepcopy mid-episode, packs by name, OpenSpiel games
registered on import and realistic game lengths."""

from __future__ import annotations

import copy
import pickle
import random
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import render_test
from pettingzoo.utils.conversions import aec_to_parallel

import kumite.envs.gymnasium as kg
from kumite.core.errors import OptionsError
from kumite.envs import pettingzoo as kpz
from kumite.envs.base import EnvGame

Mode = tuple[str, dict[str, Any]]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    # PettingZoo warns that a Dict observation "probably should be" a Box (as its own
    # classic games have), and render_test's human mode prints tables
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning, module="pettingzoo")
        yield


# --- rendering ------------------------------------------------------------------------


def test_pettingzoo_render_test(mode: Mode, capsys: pytest.CaptureFixture[str]) -> None:
    """pettingzoo.test.render_test: every declared mode; human prints and returns None,
    ansi returns text, rgb_array an HxWx3 uint8 image."""
    render_test(lambda render_mode=None: kpz.env(*mode, render_mode=render_mode))
    assert "\n" in capsys.readouterr().out  # the human mode printed the table


@pytest.mark.parametrize("game", ["sfrivals", "rivales", "sfdbg"])
def test_gymnasium_frames_are_video_frames(game: str) -> None:
    """rgb_array: every frame of an episode is an RGB uint8 picture of one even size (what
    Gymnasium's RecordVideo encodes), and the frames change as the game goes on."""
    env = kg.KumiteEnv(game, render_mode="rgb_array")
    _, info = env.reset(seed=3)
    frames = [env.render()]
    for _ in range(6):
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        frames.append(env.render())
        if done:
            break
    shapes = {f.shape for f in frames}
    assert len(shapes) == 1
    ((h, w, c),) = shapes
    assert c == 3 and h % 2 == 0 and w % 2 == 0
    assert all(f.dtype == np.uint8 for f in frames)
    assert any(not np.array_equal(frames[0], f) for f in frames[1:])


def test_human_mode_prints_and_returns_none(capsys: pytest.CaptureFixture[str]) -> None:
    """render_mode="human": reset and step print the learner's table; render() returns
    None (Gymnasium's convention)."""
    env = kg.KumiteEnv("sfrivals", {"characters": ["ryu", "ken"]}, render_mode="human")
    env.reset(seed=1)
    assert "Ryu" in capsys.readouterr().out
    assert env.render() is None
    assert "Ryu" in capsys.readouterr().out


def test_a_picture_shows_only_what_its_seat_may_see() -> None:
    """The learner's picture is drawn from its view: everything it cannot see resampled
    (State.determinize), the picture is the same, pixel for pixel."""
    env = EnvGame.make("rivales")
    state = env.new_state(5)
    rng = random.Random(5)
    for _ in range(6):
        state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
    picture = env.picture(state, 0)
    other = state.determinize(0, random.Random(1))
    assert other.view(1) != state.view(1)  # the opponent's hand was resampled
    assert np.array_equal(env.picture(other, 0), picture)


def test_an_unknown_render_mode_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="render_mode 'video'") as caught:
        kg.KumiteEnv("sfrivals", render_mode="video")
    assert "\n" not in str(caught.value)


# --- Parallel conversion ----------------------------------------------------------------


def test_aec_metadata_says_it_cannot_be_converted_to_parallel() -> None:
    """The AEC environment selects only the seats with a decision, so PettingZoo's
    aec_to_parallel cannot run it; its metadata says so, and the conversion refuses it at
    once (before, it claimed is_parallelizable and failed mid-game). The game's own
    Parallel environment is the one to use."""
    aec = kpz.env("sfrivals")
    assert aec.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(aec)
    assert kpz.parallel_env("sfrivals").metadata["is_parallelizable"] is True


# --- SB3 by id --------------------------------------------------------------------------


def test_sb3_make_vec_env_by_id() -> None:
    """stable-baselines3's make_vec_env("kumite/SFRivals-v0") (it passes render_mode
    "rgb_array"), stepped with masked actions through VecEnv.env_method."""
    from stable_baselines3.common.env_util import make_vec_env

    vec = make_vec_env("kumite/SFRivals-v0", n_envs=2, seed=0)
    obs = vec.reset()
    assert obs.shape == (2, EnvGame.make("sfrivals").encoding.size)
    ended = 0
    for _ in range(40):
        masks = np.stack(vec.env_method("action_masks"))
        vec.step_async(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
        _, _, dones, _ = vec.step_wait()
        ended += int(dones.sum())
    assert ended >= 2


# --- pickle and deepcopy ----------------------------------------------------------------


def _finish_gym(env: kg.KumiteEnv, info: dict[str, Any]) -> list[Any]:
    """The rest of the episode, always the last legal action: observations and rewards."""
    out = []
    done = False
    while not done:
        obs, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        out.append((obs.tobytes(), reward))
    return out


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_gymnasium_env_pickles_and_deep_copies_mid_episode(mode: Mode, opponent: str) -> None:
    """Mid-episode, pickle.loads(pickle.dumps(env)) and copy.deepcopy(env) go on exactly as
    the original does: the same observations and rewards to the end (the opponents' random
    streams included)."""
    env = kg.KumiteEnv(*mode, seat=1, opponents=opponent)
    _, info = env.reset(seed=11)
    for _ in range(3):
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not done
    loaded = pickle.loads(pickle.dumps(env))
    copied = copy.deepcopy(env)
    expected = _finish_gym(env, dict(info))
    assert _finish_gym(loaded, dict(info)) == expected
    assert _finish_gym(copied, dict(info)) == expected


def _finish_aec(env: Any) -> list[Any]:
    out = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        action = None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1])
        out.append((agent, obs["observation"].tobytes(), reward))
        env.step(action)
    return out


def test_pettingzoo_envs_pickle_and_deep_copy_mid_episode(mode: Mode) -> None:
    """The AEC environment (in its wrappers) pickled half-way through a simultaneous
    decision — one seat's choice buffered, not applied — and deep-copied; the Parallel
    environment likewise: each goes on as the original does."""
    env = kpz.env(*mode)
    env.reset(seed=6)
    rng = random.Random(6)
    for _ in range(7):
        obs, *_ = env.last()
        env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
    loaded, copied = pickle.loads(pickle.dumps(env)), copy.deepcopy(env)
    assert loaded.unwrapped.table.chosen == env.unwrapped.table.chosen
    expected = _finish_aec(env)
    assert _finish_aec(loaded) == expected
    assert _finish_aec(copied) == expected
    if mode[0] == "sfdbg":
        return
    par = kpz.parallel_env(*mode)
    obs, _ = par.reset(seed=6)
    for _ in range(3):
        obs, *_ = par.step({a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()})
    twin = pickle.loads(pickle.dumps(par))
    for env_ in (par, twin):
        trace = []
        o = obs
        while env_.agents:
            o, rewards, *_ = env_.step(
                {a: int(np.flatnonzero(x["action_mask"])[-1]) for a, x in o.items()}
            )
            trace.append(({a: x["observation"].tobytes() for a, x in o.items()}, rewards))
        if env_ is par:
            expected_par = trace
    assert trace == expected_par


# --- packs by name ----------------------------------------------------------------------


def test_packs_by_name_in_every_env() -> None:
    """{"pack": "mini"} names a pack the game ships (as kumite's --pack does); a path names
    a file; TOML text is taken as it is; an unknown name is one line."""
    import kumite.envs.openspiel as kos

    mini = EnvGame.make("sfrivals", {"pack": "mini"})
    base = EnvGame.make("sfrivals").metadata()["pack"]["sha256"]
    assert mini.metadata()["pack"]["sha256"] != base
    text = EnvGame.make("sfrivals").game.packs.read_overlay("mini")  # type: ignore[attr-defined]
    assert EnvGame.make("sfrivals", {"pack": text}).metadata() == mini.metadata()
    gym_env = kg.KumiteEnv("sfrivals", {"pack": "mini"})
    assert gym_env.metadata["pack"] == mini.metadata()["pack"]
    assert kpz.env("sfrivals", {"pack": "mini"}).metadata["pack"] == mini.metadata()["pack"]
    game = kos.load("sfrivals", {"pack": "mini"})
    assert game.env.metadata()["pack"] == mini.metadata()["pack"]
    by_path = EnvGame.make("sfrivals", {"pack": EXAMPLES / "packs" / "short_duel.toml"})
    assert by_path.metadata()["pack"]["sha256"] not in (base, mini.metadata()["pack"]["sha256"])
    with pytest.raises(OptionsError) as caught:
        EnvGame.make("sfrivals", {"pack": "no-such-pack"})
    assert "\n" not in str(caught.value) and "no-such-pack" in str(caught.value)


# --- OpenSpiel --------------------------------------------------------------------------


def test_openspiel_games_are_registered_on_import() -> None:
    """pyspiel.load_game("kumite_sfrivals") right after importing the module, in a fresh
    interpreter (no register() call)."""
    code = (
        "import pyspiel, kumite.envs.openspiel\n"
        "game = pyspiel.load_game('kumite_sfrivals')\n"
        "print(game.num_players(), game.num_distinct_actions())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "127"]


def test_max_game_length_follows_the_options() -> None:
    """SF DBG's longest game is bounded by its seats and round limit (seats x rounds x
    the engine's per-turn bound), not the 5-seat worst case for every table."""
    import kumite.envs.openspiel as kos

    two = kos.load("sfdbg").max_game_length()
    five = kos.load("sfdbg", players=5).max_game_length()
    short = kos.load("sfdbg", {"round_limit": 10}).max_game_length()
    assert two == 2 * 60 * 2000 and five == 5 * 60 * 2000 and short == 2 * 10 * 2000
    assert kos.load("sfrivals").max_game_length() == 18


def test_gym_make_by_id_with_every_render_mode() -> None:
    for render_mode in ("human", "ansi", "rgb_array", None):
        env = gym.make("kumite/Rivales-v0", render_mode=render_mode)
        env.reset(seed=1)
        out = env.render()
        assert out is None if render_mode in ("human", None) else out is not None
