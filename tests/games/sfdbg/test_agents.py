"""SF DBG bots: legal choices in every situation, only their own view, data-driven strategies."""

from __future__ import annotations

from collections import Counter

import pytest

from kumite.agents import make_agent, run_game
from kumite.agents.registry import agent_names
from kumite.games.sfdbg.bots.policy import CardValues, Policy
from kumite.games.sfdbg.bots.priority import STRATEGIES, StrategyError, load_strategy
from kumite.games.sfdbg.game import GAME
from tests.games.sfdbg.scenario import act, position

BOTS = ["greedy", "priority", "priority-power", "priority-attack", "random"]


def play(names, seed, variant="standard", rounds=60):
    state = GAME.new_state(seed, {"players": len(names), "variant": variant, "round_limit": rounds})
    state.quiet = True
    agents = [make_agent(n, GAME, state.options_json, s, seed * 7 + s) for s, n in enumerate(names)]
    return state, run_game(state, agents)


def test_the_sfdbg_bots_are_registered():
    assert set(BOTS) <= set(agent_names("sfdbg"))


@pytest.mark.parametrize(
    ("names", "variant"),
    [
        (["greedy", "priority"], "standard"),
        (["priority-power", "priority-attack", "greedy"], "high-powered"),
        (["greedy", "priority", "random", "priority-attack", "greedy"], "secret-heroes"),
    ],
)
def test_bots_play_whole_games_with_legal_choices_only(names, variant):
    state, outcome = play(names, seed=len(names), variant=variant, rounds=25)
    assert outcome.winners
    assert state.outcome is outcome


def test_greedy_beats_random():
    wins = Counter()
    for seed in range(6):
        _, outcome = play(["greedy", "random"], seed)
        wins.update(outcome.winners)
    assert wins[0] >= 5


def test_bots_games_end_by_the_rules_not_the_round_limit():
    for seed in range(3):
        _, outcome = play(["greedy", "priority", "priority-power"], seed)
        assert outcome.rule in ("sfdbg.end.no-stage", "sfdbg.end.line-up")


def test_a_strategy_is_data():
    strategy = load_strategy(
        'name = "kicks"\n[[buy]]\ncard = "kick"\nmax_owned = 2\n', "kicks.toml"
    )
    assert strategy.buy[0].card == "kick" and strategy.buy[0].max_owned == 2
    for text in STRATEGIES.values():
        assert load_strategy(text).buy
    with pytest.raises(StrategyError, match=r"bad\.toml"):
        load_strategy('name = "x"\n[[buy]]\ncolour = "red"\n', "bad.toml")


def test_a_priority_bot_follows_its_buy_rules():
    from kumite.games.sfdbg.bots.priority import PriorityBot

    values = CardValues.of(GAME.catalog())
    bot = PriorityBot(
        values, load_strategy('name = "k"\n[[buy]]\ncard = "kick"\nmax_owned = 1\n'), 0
    )
    s = position(power=6, hands={0: []})
    (decision,) = s.pending()
    assert bot.choose(s.view(0), decision) == "buy:kick"
    act(s, "buy:kick")
    (decision,) = s.pending()
    assert bot.choose(s.view(0), decision) == "end"  # owns one already


def test_the_policy_defends_with_the_ultra_to_counter_attack():
    policy = Policy(CardValues.of(GAME.catalog()))
    s = position(
        heroes=["ken", "ryu"], hands={0: ["gill"], 1: ["metsu-hadoken", "sakura", "shinku-hadoken"]}
    )
    act(s, "play:gill")
    (d,) = s.pending()
    assert policy.answer(s.view(1), d.kind, d.legal) == "reveal:shinku-hadoken"
    act(s, "reveal:shinku-hadoken")
    (d,) = s.pending()
    assert policy.answer(s.view(1), d.kind, d.legal) == "defend:metsu-hadoken"


def test_the_policy_discards_and_destroys_its_worst_cards():
    policy = Policy(CardValues.of(GAME.catalog()))
    s = position(hands={0: ["juri"], 1: ["hadoken", "vulnerability", "punch"]})
    act(s, "play:juri", "no-defense")
    (d,) = s.pending()
    assert policy.answer(s.view(1), d.kind, d.legal) == "discard:vulnerability"
    s = position(hands={0: ["vega", "weakness", "kick"]})
    act(s, "play:vega")
    (d,) = s.pending()
    assert policy.answer(s.view(0), d.kind, d.legal) == "destroy:hand:weakness"


def test_a_bot_holds_a_defense_while_attacking_a_foe_who_may_counter_attack():
    """ "you may want to hold a Defense card in your hand if you wish to avoid a potential
    Counter-Attack" (sfdbg.counter.is-attack)."""
    from kumite.games.sfdbg.bots.priority import PriorityBot

    values = CardValues.of(GAME.catalog())
    strategy = load_strategy('name = "d"\nplay_order = ["defense", "attack"]\n')
    bot = PriorityBot(values, strategy, 0)
    # Ryu's Ultra is still under his Super Hero: no Counter-Attack possible, play in order.
    s = position(heroes=["ken", "ryu"], hands={0: ["gill", "sakura"]})
    (d,) = s.pending()
    assert bot.choose(s.view(0), d) == "play:sakura"
    # Ryu bought his Ultra (it is out of sight): hold Sakura until the Attack is over.
    s = position(heroes=["ken", "ryu"], hands={0: ["gill", "sakura"]}, under={1: []})
    (d,) = s.pending()
    assert bot.choose(s.view(0), d) == "play:gill"
    act(s, "play:gill", "no-defense")
    (d,) = s.pending()
    assert bot.choose(s.view(0), d) == "play:sakura"


def test_greedy_builds_its_view_only_when_it_reads_it():
    """``needs_view = LAZY``: most of greedy's turn is decided from the legal choices alone,
    and the view it reads is exactly its seat's view (issue 19, fast bots)."""
    from kumite.agents.base import LAZY, LazyView

    state = GAME.new_state(3, {"players": 3})
    state.quiet = True
    agents = [make_agent("greedy", GAME, state.options_json, s, s) for s in range(3)]
    assert all(a.needs_view == LAZY for a in agents)
    built = decisions = 0
    while pending := state.pending():
        (d,) = pending
        lazy = LazyView(state, d.seat)
        choice = agents[d.seat].choose(lazy, d)
        if lazy.built:
            assert dict(lazy) == state.view(d.seat)
        built += lazy.built
        decisions += 1
        lazy.close()
        state.apply({d.seat: choice})
    assert built < decisions / 3, (built, decisions)


def test_a_lazy_view_cannot_be_read_after_its_decision():
    from kumite.agents.base import LazyView, decide

    class Keeper:
        name = "keeper"
        needs_view = "lazy"
        kept = None

        def choose(self, view, decision):
            Keeper.kept = view
            return decision.legal[0]

    state = GAME.new_state(1, {"players": 2})
    decide(Keeper(), state, state.pending()[0])
    assert isinstance(Keeper.kept, LazyView)
    with pytest.raises(RuntimeError, match="only valid during its own decision"):
        Keeper.kept["turn"]


def test_greedy_s_buy_shortcut_agrees_with_reading_how_late_it_is():
    """``best_buy`` skips the view when one buy is clearly best early and late alike; its
    answer is the one the lateness read from the view gives, in every position of a few games."""
    from kumite.games.sfdbg.bots.greedy import BUY_THRESHOLD
    from kumite.games.sfdbg.bots.policy import lateness

    checked = 0
    for seed in range(4):
        state = GAME.new_state(seed, {"players": 3})
        state.quiet = True
        agents = [make_agent("greedy", GAME, state.options_json, s, s) for s in range(3)]
        while pending := state.pending():
            (d,) = pending
            view = state.view(d.seat)
            if d.kind == "turn" and any(c.startswith("buy:") for c in d.legal):
                bot = agents[d.seat]
                late = lateness(view)
                buys = [c for c in d.legal if c.startswith("buy:")]
                best = max(buys, key=lambda c: (bot.worth(c, late), c))
                expected = best if bot.worth(best, late) >= BUY_THRESHOLD else None
                assert bot.best_buy(view, d.legal) == expected
                checked += 1
            state.apply({d.seat: agents[d.seat].choose(view, d)})
    assert checked > 100
