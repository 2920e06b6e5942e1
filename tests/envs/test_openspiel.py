"""Issue 17 acceptance: every game as a pyspiel Python game (docs/envs.md, "OpenSpiel"):
OpenSpiel's own random_sim_test, the declared game types, observers, serialisation."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest

from kumite.core.errors import ChoiceError
from kumite.core.rng import Rng, ScriptedRng, below
from kumite.envs import openspiel as kos
from kumite.envs.base import EnvGame

Mode = tuple[str, dict[str, Any]]
T = pyspiel.GameType


def _rng_of(state: Any) -> ScriptedRng:
    """A stream answering with the draws of a state's finished steps (explicit chance)."""
    return ScriptedRng(state._core.draws)


def play_randomly(game: Any, seed: int, limit: int = 10**6) -> Any:
    """``limit`` decisions (chance nodes not counted) chosen at random, draws too."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    decisions = 0
    while decisions < limit and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        decisions += 1
        if state.is_simultaneous_node():
            state.apply_actions(
                [rng.choice(state.legal_actions(p)) for p in range(game.num_players())]
            )
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_registered_names() -> None:
    """kumite's games, and any installed game with an encoding (the toy plugin's)."""
    every = ["kumite_sfrivals", "kumite_rivales", "kumite_sfdbg", "kumite_toy"]
    assert kos.register() == every
    assert kos.register() == every
    names = pyspiel.registered_names()
    assert {"kumite_sfrivals", "kumite_rivales", "kumite_sfdbg"} <= set(names)


def test_random_sim_test(mode: Mode, request: pytest.FixtureRequest) -> None:
    """pyspiel.random_sim_test with serialisation (serialize_game_and_state, then
    deserialize_game_and_state gives the same state), every draw an explicit chance node;
    and again with sampled chance (no chance nodes; a sampled game cannot serialise there:
    OpenSpiel's Python games give no Game::GetRNGState)."""
    game = kos.load(*mode)
    sims = {"sfrivals": 5, "rivales": 3}.get(mode[0], 1)
    if mode[0] == "sfdbg" and mode[1].get("players", 2) > 2:
        pytest.skip(
            "the slow tests below (a game of 3 to 5 seats takes a minute or more: each step "
            "checks each seat)"
        )
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)
    if mode[0] != "sfrivals":
        sampled = kos.load(*mode, chance="sampled")
        pyspiel.random_sim_test(sampled, num_sims=1, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        {"players": 3},
        {"players": 4, "variant": "high-powered"},
        {"players": 5, "variant": "secret-heroes"},
    ],
    ids=["3", "4-high-powered", "5-secret-heroes"],
)
def test_random_sim_test_three_to_five_seats(options: dict[str, Any]) -> None:
    game = kos.load("sfdbg", options)
    pyspiel.random_sim_test(game, 1, serialize=True, verbose=False)
    if options["players"] == 3:  # the sampled game, as the test above does for fewer seats
        sampled = kos.load("sfdbg", options, chance="sampled")
        pyspiel.random_sim_test(sampled, num_sims=1, serialize=False, verbose=False)


def _answer_draws(state: Any, ref: random.Random) -> None:
    """Answer chance nodes as the engine's own seeded stream would draw."""
    while state.is_chance_node():
        n = len(state.chance_outcomes())
        state.apply_action(below(ref, n))


@pytest.mark.parametrize(
    "mode",
    [("rivales", {}), ("rivales", {"mode": "2v2"}), ("sfdbg", {}), ("sfdbg", {"players": 4})],
    ids=["rivales", "rivales-2v2", "sfdbg", "sfdbg-4"],
)
def test_chance_nodes_are_the_engines_own_draws(mode: Mode) -> None:
    """Explicit chance: each chance node is one draw of the game's stream, in the engine's
    order, with as many outcomes as the engine draws among. Answered as ``Rng(seed)`` draws
    (kumite.core.rng.below, draw for draw its shuffle and randrange), the game is kumite's
    game ``seed``, view for view, through the set-up and the shuffles met in play."""
    game, env = kos.load(*mode), EnvGame.make(*mode)
    seed = 11
    ref = Rng(seed)
    state, world = game.new_initial_state(), env.new_state(seed)
    rng = random.Random(2)
    mid_game = 0
    for _ in range(150 if mode[0] == "rivales" else 60):
        _answer_draws(state, ref)
        if state.is_terminal():
            break
        for p in range(game.num_players()):
            assert state.observation_string(p) == json.dumps(
                world.view(p), sort_keys=True, separators=(",", ":")
            )
        choices = {}
        for d in world.pending():
            choices[d.seat] = rng.choice(sorted(world.legal_actions(d.seat)))
        if state.is_simultaneous_node():
            state.apply_actions(
                [choices.get(p, game.num_distinct_actions() - 1) for p in range(game.num_players())]
            )
        else:
            state.apply_action(choices[state.current_player()])
        mid_game += state.is_chance_node()
        world.apply_trusted({s: world.action_to_choice(s, a) for s, a in choices.items()})
    assert mid_game > 0, "no shuffle met in play"


def test_chance_outcomes_are_uniform_and_bounded(mode: Mode) -> None:
    """Every chance node lists each of its outcomes once, with probability 1/n, n within
    the declared max_chance_outcomes; draws happen in the set-up or in play, never at a
    node that is also a player's."""
    game = kos.load(*mode)
    if game.get_type().chance_mode == T.ChanceMode.DETERMINISTIC:
        assert game.max_chance_outcomes() == 0
        return
    state = game.new_initial_state()
    rng = random.Random(5)
    sizes = []
    while not state.is_terminal() and len(state.history()) < 600:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            n = len(outcomes)
            assert [a for a, _ in outcomes] == list(range(n)) == state.legal_actions()
            assert all(p == pytest.approx(1 / n) for _, p in outcomes)
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            sizes.append(n)
            state.apply_action(rng.randrange(n))
        elif state.is_simultaneous_node():
            state.apply_actions(
                [rng.choice(state.legal_actions(p)) for p in range(game.num_players())]
            )
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sizes and max(sizes) <= game.max_chance_outcomes()


def test_a_state_waiting_on_chance_serialises() -> None:
    """Serialised in the middle of a shuffle (some of its draws chosen), a state comes back
    waiting on the same draw and plays on exactly as the original."""
    game = kos.load("sfdbg")
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(0)
    assert state.is_chance_node()
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.chance_outcomes() == state.chance_outcomes()
    a, b = play_randomly_from(state, 4), play_randomly_from(again, 4)
    assert str(a) == str(b) and a.returns() == b.returns()
    _, copied = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(copied) == str(state)


def test_chance_parameter_is_checked() -> None:
    with pytest.raises(ValueError, match="chance: one of explicit, sampled"):
        kos.load("rivales", chance="dice")


def test_states_round_trip_through_records(mode: Mode) -> None:
    """Serialisation through records: state.serialize() / game.deserialize_state() and
    pickle give back the same game (replayed from its kumite record), mid-game."""
    game = kos.load(*mode)
    state = play_randomly(game, 3, limit=40)
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state)
    assert again.history() == state.history()
    for p in range(game.num_players()):
        assert again.observation_string(p) == state.observation_string(p)
        assert again.information_state_string(p) == state.information_state_string(p)
    # the copy plays on exactly as the original
    a, b = play_randomly_from(state, 9), play_randomly_from(again, 9)
    assert a.returns() == b.returns() and str(a) == str(b)
    _, copied = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(copied) == str(state)


def play_randomly_from(state: Any, seed: int) -> Any:
    state = state.clone()
    game = state.get_game()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        elif state.is_simultaneous_node():
            state.apply_actions(
                [rng.choice(state.legal_actions(p)) for p in range(game.num_players())]
            )
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(
    ("mode", "dynamics", "chance", "utility", "actions"),
    [
        (
            ("sfrivals", {}),
            T.Dynamics.SIMULTANEOUS,
            T.ChanceMode.DETERMINISTIC,
            T.Utility.ZERO_SUM,
            127,
        ),
        (
            ("rivales", {}),
            T.Dynamics.SIMULTANEOUS,
            T.ChanceMode.EXPLICIT_STOCHASTIC,
            T.Utility.ZERO_SUM,
            108,
        ),
        (
            ("rivales", {"mode": "2v2"}),
            T.Dynamics.SIMULTANEOUS,
            T.ChanceMode.EXPLICIT_STOCHASTIC,
            T.Utility.ZERO_SUM,
            108,
        ),
        (
            ("sfdbg", {}),
            T.Dynamics.SEQUENTIAL,
            T.ChanceMode.EXPLICIT_STOCHASTIC,
            T.Utility.ZERO_SUM,
            1538,
        ),
        (
            ("sfdbg", {"players": 3}),
            T.Dynamics.SEQUENTIAL,
            T.ChanceMode.EXPLICIT_STOCHASTIC,
            T.Utility.GENERAL_SUM,
            1538,
        ),
    ],
)
def test_game_types_are_declared_honestly(
    mode: Mode, dynamics: Any, chance: Any, utility: Any, actions: int
) -> None:
    """SF Rivals and Rivales simultaneous, SF DBG sequential; SF Rivals deterministic, the
    shuffling games explicit stochastic (sampled when asked); SF DBG at 3 seats
    general-sum, Rivales 2vs2 (teams) zero-sum; the NO-OP only where nodes are
    simultaneous."""
    game = kos.load(*mode)
    t = game.get_type()
    assert (t.dynamics, t.chance_mode, t.utility) == (dynamics, chance, utility)
    sampled = kos.load(*mode, chance="sampled").get_type().chance_mode
    assert sampled == (chance if mode[0] == "sfrivals" else T.ChanceMode.SAMPLED_STOCHASTIC)
    assert game.num_distinct_actions() == actions
    # SF Rivals' view is perfect recall; the others carry their public-history memory
    assert t.provides_information_state_tensor
    if utility == T.Utility.ZERO_SUM:
        for seed in range(3):
            assert sum(play_randomly(game, seed).returns()) == 0.0


def test_players_parameter_sets_the_seats() -> None:
    game = pyspiel.load_game("kumite_sfdbg", {"players": 4})
    assert game.num_players() == 4
    assert pyspiel.load_game("kumite_rivales", {"players": 4}).num_players() == 4
    with pytest.raises(ValueError, match="has 2 seats"):
        pyspiel.load_game("kumite_sfrivals", {"players": 3})


def test_sampled_chance_gives_each_new_state_its_own_seed() -> None:
    game = kos.load("rivales", seed=5, chance="sampled")
    seeds = [game.new_initial_state().kumite.seed for _ in range(3)]
    assert seeds[0] == 5 and len(set(seeds)) == 3
    fixed = kos.load("sfrivals")
    assert {fixed.new_initial_state().kumite.seed for _ in range(3)} == {0}


def test_observation_tensor_is_the_declared_encoding(mode: Mode) -> None:
    """observation_tensor: the encoding of the seat's view; information_state_tensor: that,
    then (where the view forgets) the seat's public-history memory, folded over every view
    it had — the same memory the PettingZoo environment keeps step by step."""
    game = kos.load(*mode)
    env = EnvGame.make(*mode)
    state = play_randomly(game, 4, limit=30)
    history = env.encoding.history
    for p in range(game.num_players()):
        expected = env.encoding.encode(state.kumite.view(p))
        assert np.array_equal(np.asarray(state.observation_tensor(p), np.float32), expected)
        info = np.asarray(state.information_state_tensor(p), np.float32)
        assert np.array_equal(info[: env.encoding.size], expected)
        if history is None:
            assert len(info) == env.encoding.size
        else:
            assert len(info) == env.encoding.size + history.size
            memory = history.start()
            world = EnvGame.make(*mode).game.new_state(0, env.options, rng=_rng_of(state))
            world.quiet = True
            history.fold(memory, world.view(p))
            for step in state.kumite.history:
                world.apply_trusted(dict(step))
                history.fold(memory, world.view(p))
            assert np.array_equal(info[env.encoding.size :], memory)


def test_information_state_has_perfect_recall() -> None:
    """information_state_string: every view before each step and the seat's own choices,
    so it only grows — a later information state extends every earlier one — and two
    different own choices give different information states."""
    game = kos.load("rivales")
    state = game.new_initial_state()
    rng = random.Random(1)
    earlier = [state.information_state_string(0)]
    while not state.is_terminal() and len(earlier) < 30:
        if state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(2)])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        now = state.information_state_string(0)
        prefix = earlier[-1].rsplit("\n", 1)[0] if "\n" in earlier[-1] else ""
        assert now.startswith(prefix)
        earlier.append(now)
    # a clone made before the information state was asked for replays its trail
    fresh = game.deserialize_state(state.serialize())
    assert fresh.information_state_string(0) == state.information_state_string(0)


def test_illegal_action_is_refused() -> None:
    game = kos.load("sfdbg")
    state = game.new_initial_state()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    before = str(state)
    with pytest.raises((ChoiceError, pyspiel.SpielError)):
        state.apply_action(illegal)
    assert str(state) == before


def test_pickle_of_a_state() -> None:
    """pickle goes through serialize_game_and_state: the deterministic game's states."""
    game = kos.load("sfrivals")
    state = play_randomly(game, 2, limit=6)
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()


def _mcts_game(game: Any, simulations: int) -> Any:
    from open_spiel.python.algorithms import mcts

    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng, solve=False)
        for _ in range(game.num_players())
    ]
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        state.apply_action(bots[state.current_player()].step(state))
        moves += 1
    return state, moves


def test_mcts_bot_plays_a_full_game() -> None:
    """OpenSpiel's MCTS bot (random roll-outs) plays a whole SF Rivals fight, through
    OpenSpiel's turn-based transform (MCTSBot needs a sequential game)."""
    game = pyspiel.convert_to_turn_based(kos.load("sfrivals"))
    state, moves = _mcts_game(game, 20)
    assert moves >= 6 and sum(state.returns()) == 0


@pytest.mark.slow
def test_mcts_bot_plays_a_full_sequential_game() -> None:
    """... and a whole SF DBG game, which is sequential as it is."""
    state, moves = _mcts_game(kos.load("sfdbg"), 4)
    assert moves > 20 and len(state.returns()) == 2


def test_reading_observations_uses_no_seed() -> None:
    """pyspiel's observation_tensor makes and observes a new state at every call (to learn
    the shape). With sampled chance that used to set a game up each time and use up a
    seed, so reading observations changed the games played: now the k-th state played
    gets the k-th seed however many observations were read, a state observed before its
    first use shows the game it then becomes, and two such states get two seeds."""
    plain = kos.load("rivales", chance="sampled", seed=5)
    seeds = [plain.new_initial_state().kumite.seed for _ in range(3)]
    game = kos.load("rivales", chance="sampled", seed=5)
    first, second = game.new_initial_state(), game.new_initial_state()
    seen = [np.asarray(first.observation_tensor(p)) for p in range(2)]
    seen_second = np.asarray(second.observation_tensor(0))
    for _ in range(3):
        first.observation_tensor(1)
    assert [first.kumite.seed, second.kumite.seed] == seeds[:2]
    assert game.new_initial_state().kumite.seed == seeds[2]
    env = game.env
    for p in range(2):
        assert np.array_equal(seen[p], env.observe(first.kumite, p))
    assert np.array_equal(seen_second, env.observe(second.kumite, 0))


def test_openspiel_python_observer_reads_the_same_tensor() -> None:
    """OpenSpiel's own Python observer (make_observation) reads what observation_tensor
    reads, without pyspiel's shape probe."""
    from open_spiel.python.observation import make_observation

    game = kos.load("sfdbg", chance="sampled", seed=2)
    state = play_randomly(game, 2, limit=15)
    observer = make_observation(game)
    for p in range(2):
        observer.set_from(state, p)
        assert np.array_equal(observer.tensor, np.asarray(state.observation_tensor(p)))
