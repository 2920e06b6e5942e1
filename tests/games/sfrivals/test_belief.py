"""The belief-aware SF Rivals agent: a posterior over the opponent's cover from its view
alone, and exact fight values averaged over it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kumite.agents import make_agent, run_game
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.solver.belief import BeliefAgent, CoverGames, safe_mix
from kumite.games.sfrivals.solver.hidden import mini_pack
from kumite.games.sfrivals.solver.setup import shared_solution
from tests.games.sfrivals.solver.conftest import shared_cache

__all__ = ["shared_cache"]
PACK = mini_pack() + "\n[rules]\nhand = 6\n"
OPTIONS = {"characters": ["ryu-mini", "ken-mini"], "pack": PACK}


def _play_until(state, agents, rounds):  # type: ignore[no-untyped-def]
    from kumite.agents.base import decide

    while state.pending() and state.round <= rounds:
        state.apply({d.seat: decide(agents[d.seat], state, d) for d in state.pending()})


def test_posterior_depends_only_on_the_view_and_rules_out_what_was_played(
    shared_cache: Path,
) -> None:
    """Fights that differ only in the opponent's hidden cover give the same posterior;
    it is a distribution over the opponent's unseen card types."""
    posts = []
    for cover in ("ken-mini.shoryuken", "ken-mini.guren-senpukyaku"):
        state = GAME.new_state(4, OPTIONS)
        state.apply(
            {0: "setup:ryu-mini.guard:ryu-mini.jab", 1: f"setup:{cover}:ken-mini.weak-shoryuken"}
        )
        state.apply({0: "play:ryu-mini.jab", 1: "play:ken-mini.weak-shoryuken"})
        agent = BeliefAgent({"pack": PACK}, 0, 1)
        view = state.view(0)
        sol = agent.solution(view)
        posts.append(agent.posterior(view, sol))
    assert posts[0] == posts[1]
    assert sum(posts[0].values()) == pytest.approx(1.0)
    assert set(posts[0]) <= {0, 1, 2}


def test_prior_follows_the_solved_set_up_mix(shared_cache: Path) -> None:
    """Before any card is played the posterior is the prior: the solved set-up mix's covers
    with the card shown (its secret set-ups split between two types), mixed with epsilon of
    the uniform draw of one of the unseen cards."""
    from kumite.games.sfrivals.solver.belief import EPSILON
    from kumite.games.sfrivals.solver.fight import setup_hand

    sol = shared_solution(("ryu-mini", "ken-mini"), {"pack": PACK})
    choice = max(sol.setup[1], key=sol.setup[1].__getitem__)
    shown = choice.split(":")[2]
    state = GAME.new_state(5, OPTIONS)
    state.apply({0: "setup:ryu-mini.guard:ryu-mini.jab", 1: choice})
    agent = BeliefAgent({"pack": PACK}, 0, 1)
    post = agent.posterior(state.view(0), sol)
    ken = sol.solver.chars[1]
    unseen = setup_hand(ken, None, ken.card(shown))
    model = {c.index: sol.setup[1].get(f"setup:{c.id}:{shown}", 0.0) for c in ken.cards}
    for i, p in post.items():
        want = (1 - EPSILON) * model[i] / sum(model.values()) + EPSILON * unseen[i] / sum(unseen)
        assert p == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("name", ["belief", "belief-safe"])
def test_plays_legal_games_and_beats_random(shared_cache: Path, name: str) -> None:
    score = 0.0
    for seed in range(8):
        state = GAME.new_state(seed, OPTIONS)
        state.quiet = True
        me = seed % 2
        agents = [make_agent(name if s == me else "random", GAME, OPTIONS, s, seed) for s in (0, 1)]
        score += run_game(state, agents).returns[me]
    assert score > 0


def _after_setups() -> tuple[Any, BeliefAgent]:
    """A mini-pack game after both set-ups, and a ``belief`` agent in seat 1."""
    state = GAME.new_state(3, OPTIONS)
    state.apply(
        {
            0: "setup:ryu-mini.guard:ryu-mini.jab",
            1: "setup:ken-mini.shoryuken:ken-mini.weak-shoryuken",
        }
    )
    return state, BeliefAgent({"pack": PACK}, 1, 2)


def test_scores_are_fight_values(shared_cache: Path) -> None:
    """Each legal card's score is an expected result: between -1 and +1."""
    state, agent = _after_setups()
    view = state.view(1)
    scores = agent.scores(view, agent.solution(view))
    legal = next(d for d in state.pending() if d.seat == 1).legal
    assert set(scores) == set(legal)
    assert all(-1.0 - 1e-9 <= v <= 1.0 + 1e-9 for v in scores.values())


def test_opening_solve_and_shared_fight_solver_leave_the_scores_unchanged(
    shared_cache: Path,
) -> None:
    """The speed-ups (the opponent model's opening states solved at once, every cover's fight
    in one induction, the solution's own fight solver) only change when positions are
    solved: at every decision of games against ``bounded`` the agent scores its cards
    exactly as an agent given a fresh copy of the solution, which solves what it asks on
    demand, in its own order."""
    from kumite.agents.base import decide
    from kumite.games.sfrivals.solver.setup import solve_matchup

    compared = 0
    for seed in range(4):
        state = GAME.new_state(seed, OPTIONS)
        state.quiet = True
        me = seed % 2
        agents = [
            make_agent("belief" if s == me else "bounded", GAME, OPTIONS, s, seed) for s in (0, 1)
        ]
        while state.pending():
            choices = {}
            for d in state.pending():
                if d.seat == me and d.kind != "setup":
                    view = state.view(me)
                    agent = agents[me]
                    assert isinstance(agent, BeliefAgent)
                    shared = agent.solution(view)
                    agent.open(view, shared)
                    fresh = solve_matchup(shared.characters, {"pack": PACK})
                    assert fresh is not shared and not fresh.solver.levels
                    reference = BeliefAgent({"pack": PACK}, me, seed)
                    assert agent.scores(view, shared) == reference.scores(view, fresh)
                    compared += 1
                choices[d.seat] = decide(agents[d.seat], state, d)
            state.apply(choices)
    assert compared > 0


def test_kept_fight_positions_are_dropped_above_the_cap(
    shared_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The solution's fight solver keeps what the agent solved, up to a cap: above it the
    stored positions are dropped (solved again when asked), and the scores do not change."""
    from kumite.games.sfrivals.solver import belief

    state, agent = _after_setups()
    view = state.view(1)
    sol = agent.solution(view)
    first = agent.scores(view, sol)
    assert sol.solver.levels
    monkeypatch.setattr(belief, "_FIGHT_STATES_AT_MOST", 0)
    levels = sol.solver.levels
    second = agent.scores(view, sol)
    assert second == first
    assert sum(len(k) for k, _ in levels.values()) < sol.solver.states_solved


def test_a_cover_that_would_have_ended_the_fight_is_left_out(shared_cache: Path) -> None:
    """Ryu vs Poison crashed the agent at round 8: of the opponent's last two unseen cards,
    one is its Ultra, which its life does not allow; were the other its cover, it would hold
    only the Ultra and the fight would have ended — yet the posterior (which follows the
    cards played) still weighs that cover, and the agent, revealing first, asked the fight
    solver for a position where the opponent has no card. Here the same at a small scale:
    Ryu-mini covers its Ultra (allowed at life 1 only), guards in round 7, and Ken-mini
    reveals first in round 8."""
    pack = mini_pack() + "\n[rules]\nultra_life_at_most = 1\n"
    options = {"characters": ["ken-mini", "ryu-mini"], "pack": pack}
    state = GAME.new_state(0, options)
    state.quiet = True
    state.apply(
        {
            0: "setup:ken-mini.guren-senpukyaku:ken-mini.shoryuken",
            1: "setup:ryu-mini.metsu-hadouken:ryu-mini.jab",
        }
    )
    ken, ryu = ["weak-shoryuken", "shoryuken"] + ["weak-shoryuken"] * 3, ["jab"] * 4 + ["guard"]
    for a, b in zip(ken, ryu, strict=True):
        state.apply({0: f"play:ken-mini.{a}", 1: f"play:ryu-mini.{b}"})
    state.apply({0: "play:ken-mini.shoryuken"})  # Ryu-mini's guard: Ken-mini reveals first
    state.apply({1: "play:ryu-mini.jab"})
    state.apply({0: "play:ken-mini.weak-shoryuken", 1: "play:ryu-mini.guard"})
    view = state.view(0)
    assert view["round"] == 8 and view["players"][0]["must_reveal_first"]
    assert view["players"][1]["life"] > 1
    agent = BeliefAgent({"pack": pack}, 0, 1)
    sol = agent.solution(view)
    ryu_mini = sol.solver.chars[1]
    posterior = agent.posterior(view, sol)
    stuck = ryu_mini.card("ryu-mini.guard").index  # the cover that leaves only the Ultra
    assert posterior.get(stuck, 0.0) > 0  # the posterior does not rule it out
    decision = next(d for d in state.pending() if d.seat == 0)
    scores = agent.scores(view, sol)
    assert set(scores) == set(decision.legal)
    assert all(-1.0 <= v <= 1.0 for v in scores.values())
    assert agent.choose(view, decision) in decision.legal


# -- belief-safe: safe exploitation ----------------------------------------------------------
def _guarantee(games: CoverGames, x: np.ndarray) -> float:
    return sum(w * float((x @ a).min()) for w, a in games.games)


def test_safe_mix_keeps_its_guarantee_within_the_safety() -> None:
    """Matching pennies against either cover (the opponent knows its cover, the agent only
    the odds): the safe mix is one half each, guaranteeing 0; the model says the opponent
    plays heads, so the best response is tails. With ``safety = s`` the agent moves towards
    tails exactly as far as its guarantee may drop by ``s``, never further."""
    pennies = np.array([[1.0, -1.0], [-1.0, 1.0]])
    games = CoverGames(("heads", "tails"), ((0.5, pennies), (0.5, pennies)), False)
    model = [1.0, -1.0]  # heads wins against the modelled opponent
    safe = safe_mix(games, model, 0.0)
    np.testing.assert_allclose(safe, [0.5, 0.5], atol=1e-7)
    assert _guarantee(games, safe) == pytest.approx(0.0, abs=1e-7)
    for s in (0.1, 0.5):
        x = safe_mix(games, model, s)
        assert _guarantee(games, x) >= -s - 1e-7
        assert x[0] == pytest.approx(0.5 + s / 2, abs=1e-6)  # as far as the safety allows
    np.testing.assert_allclose(safe_mix(games, model, 2.0), [1.0, 0.0], atol=1e-7)


def test_revealing_first_only_pure_cards_count() -> None:
    """When the agent reveals first the opponent answers its very card: a card's guarantee
    is its worst column per cover, and the agent plays the model's best among the cards
    within the safety of the best guarantee."""
    a = np.array([[0.9, -1.0], [0.0, 0.1], [0.5, -0.1]])
    games = CoverGames(("risky", "solid", "middle"), ((1.0, a),), True)
    model = [0.9, 0.0, 0.5]
    np.testing.assert_array_equal(safe_mix(games, model, 0.0), [0.0, 1.0, 0.0])
    np.testing.assert_array_equal(safe_mix(games, model, 0.1), [0.0, 0.0, 1.0])
    np.testing.assert_array_equal(safe_mix(games, model, 1.0), [1.0, 0.0, 0.0])


def test_safe_agent_sees_one_game_per_believed_cover(shared_cache: Path) -> None:
    """``belief-safe`` chooses from the games ``belief`` scores: rows its legal cards, one
    game per cover believed in, weighted by the posterior."""
    state, agent = _after_setups()
    view = state.view(1)
    scores, games = agent._evaluate(view, agent.solution(view))
    legal = next(d for d in state.pending() if d.seat == 1).legal
    assert set(games.rows) == set(legal) == set(scores)
    assert sum(w for w, _ in games.games) == pytest.approx(1.0)
    assert all(a.shape[0] == len(games.rows) for _, a in games.games)
    assert len(games.games) == len(agent.posterior(view, agent.solution(view))) > 1
