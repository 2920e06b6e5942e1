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
