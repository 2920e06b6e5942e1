"""sfdbg.setup.main-deck over whole bot games: "None of the following cards should ever be
placed into the main deck: Stage, Punch, Vulnerability, Kick, Ultra, Weakness" — so none of
them is ever in the main deck or the Line-Up (which is dealt from it), checked after every
step of attack-heavy games (``priority-attack`` and ``greedy`` bots) in every variant, for 2 to
5 players (sfdbg.ruling.never-into-main-deck).

Dhalsim's Counter-Attack, as a Stage Boss or from his Ultra, is what puts cards on the bottom
of the main deck; each test also counts those moves, so that it cannot pass by never trying.
"""

from __future__ import annotations

import itertools

import pytest

from kumite.agents.base import decider
from kumite.agents.registry import make_agent
from kumite.games.sfdbg.game import GAME

VARIANTS = ("standard", "high-powered", "secret-heroes")
PLAYERS = (2, 3, 4, 5)
BOTS = ("priority-attack", "greedy")
#: (variant, players) pairs: each test plays its share of the games for every pair.
TABLES = list(itertools.product(VARIANTS, PLAYERS))


def play(seed: int, variant: str, players: int) -> tuple[list[str], int]:
    """One bot game: what broke the rule (step and card, if anything) and how many cards
    were put on the bottom of the main deck."""
    state = GAME.new_state(seed, {"players": players, "variant": variant})
    state.quiet = True
    agents = [
        make_agent(BOTS[(seed + s) % 2], GAME, state.options_json, s, seed * 10 + s)
        for s in range(players)
    ]
    choose = [decider(agent, state) for agent in agents]
    cards = state.cards
    broken: list[str] = []
    bottoms = 0
    main_size = len(state.main)
    step = 0
    while not state.is_terminal:
        (decision,) = state.pending()
        state.apply({decision.seat: choose[decision.seat](decision)})
        step += 1
        if len(state.main) > main_size:
            bottoms += 1  # only a card put on the bottom makes the main deck grow
        main_size = len(state.main)
        for zone, where in ((state.main, "main deck"), (state.lineup, "Line-Up")):
            for c in zone:
                if c >= 0 and cards[c].pile != "main":
                    broken.append(f"seed {seed}, step {step}: {cards[c].name} in the {where}")
    return broken, bottoms


def check(tables: list[tuple[str, int]], games_per_table: int, first_seed: int) -> None:
    broken: list[str] = []
    bottoms = 0
    for k, (variant, players) in enumerate(tables):
        for i in range(games_per_table):
            found, moved = play(first_seed + k * games_per_table + i, variant, players)
            broken += found
            bottoms += moved
    assert not broken, broken[:5]
    assert bottoms >= games_per_table, "Dhalsim's Counter-Attack was hardly ever played"


def test_setup__main_deck__no_kick_stage_or_ultra_enters_the_main_deck_or_line_up_in_60_games():
    """The fast version: 60 games, 5 per variant and player count."""
    check(TABLES, games_per_table=5, first_seed=0)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_setup__main_deck__no_kick_stage_or_ultra_enters_the_main_deck_or_line_up_in_1008_games(
    variant: str,
) -> None:
    """1,008 games: 84 per variant and player count (one test per variant, so that test
    workers share them), on other seeds than the fast version's."""
    tables = [(variant, players) for players in PLAYERS]
    check(tables, games_per_table=84, first_seed=1000 + 1000 * VARIANTS.index(variant))
