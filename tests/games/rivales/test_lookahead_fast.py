"""The lookahead's fast path, :func:`~kumite.games.rivales.lookahead.quick_clash` (issue 19):
it must end a clash exactly as the full state machine does, ``clash(with_hands(...))``,
in everything a bot reads (life, K.O., energy, rounds won, the outcome) and, while the round
goes on, the whole table (lines, bonuses carried, cards left face up, the last winner).

Compared over the very positions ``greedy`` looks ahead from (built from its views, every
option against every candidate, boosts, HANSEL/GRETEL and zone orders) and over the real
positions of random fights (every card of the fighter, in hand or not), every fighter, 1vs1
and 2vs2.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from kumite.agents import make_agent, run_game
from kumite.core.rng import derive_seed
from kumite.games.rivales import lookahead
from kumite.games.rivales.cards import Card
from kumite.games.rivales.decisions import PLAY
from kumite.games.rivales.engine import COPIED, SHARED, Engine, clash_copy
from kumite.games.rivales.fight import Fight
from kumite.games.rivales.game import GAME
from kumite.games.rivales.lines import DOWN
from kumite.games.rivales.state import RivalesState

#: a fight's fields (the compiled build makes Fight a native class: no ``__slots__`` then)
FIGHT_FIELDS: tuple[str, ...] = getattr(Fight, "__slots__", None) or Fight.__mypyc_attrs__  # type: ignore[attr-defined]
#: the engine's fields (compiled, Engine is a native class: no ``__slots__`` either)
ENGINE_FIELDS: tuple[str, ...] = getattr(Engine, "__slots__", None) or Engine.__mypyc_attrs__  # type: ignore[attr-defined]
CHANGING = (*COPIED, *(n for n in SHARED if n not in ("opts", "catalog", "rng")))
"""The engine's fields a clash may change (quick_clash plays on a bare engine: it has no
history and no opening events to change)."""
FIGHTERS = list(GAME.catalog({}).fighters)
#: 1vs1: each fighter against the next one; 2vs2: three tables, every fighter at one
DUELS = [[FIGHTERS[i], FIGHTERS[(i + 1) % len(FIGHTERS)]] for i in range(len(FIGHTERS))]
TEAMS = [[FIGHTERS[(i + k) % len(FIGHTERS)] for k in range(4)] for i in (0, 2, 4)]


def full_clash(base: RivalesState, plays: Mapping[int, Card], **kw: Any) -> RivalesState:
    """The clash through the state machine, as ``greedy`` played it before the fast path."""
    hands = {s: [card] for s, card in plays.items()}
    for s in base.seats:
        if s not in plays and base.ready[s] is None:
            hands[s] = [base.fighter(s).cards[0]]
    state = lookahead.with_hands(base.clone(), hands)  # a clone: a new round draws at random
    played = {s: (plays[s].id if s in plays else state.hand[s][0].id) for s in state.seats}
    lookahead.clash(state, played, **kw)
    return state


def read(state: RivalesState, round_went_on: bool) -> dict[str, Any]:
    """What a lookahead may read at the end of the clash (once the round is over, the
    machine has set up the next one: only the rounds won and the outcome are left)."""
    out: dict[str, Any] = {
        "rounds_won": list(state.rounds_won),
        "terminal": state.is_terminal,
        "returns": None if state.outcome is None else state.outcome.returns,
    }
    if round_went_on:
        out["taken"] = list(state.taken)
        out["ko"] = list(state.ko)
        out["energy"] = [
            sum(
                s.side == DOWN
                for zone in state.lines
                for line in zone
                for s in line
                if s.owner == o
            )
            for o in state.seats
        ]
        out["lines"] = [[[repr(s) for s in line] for line in zone] for zone in state.lines]
        out["carry"] = [list(c) for c in state.carry]
        out["ready"] = list(state.ready)
        out["last_winner"] = state.last_winner
    return out


def snapshot(value: Any) -> Any:
    """What a clash may change, by value (fights and slots by their fields)."""
    if isinstance(value, Engine):  # a state, or a bare engine (clash_copy, quick_clash)
        return {n: snapshot(getattr(value, n)) for n in CHANGING}
    if isinstance(value, Fight):
        return {n: snapshot(getattr(value, n)) for n in FIGHT_FIELDS if n != "ctxs"}
    if isinstance(value, list | tuple):
        return [snapshot(v) for v in value]
    if isinstance(value, dict):
        return sorted((repr(k), snapshot(v)) for k, v in value.items())
    if isinstance(value, set):
        return sorted(map(repr, value))
    return repr(value)


def check(
    base: RivalesState, plays: Mapping[int, Card], into: Engine | None = None, **kw: Any
) -> Engine:
    """The clash by both paths; the fast one played ``into`` an engine an earlier clash
    returned, if given (as greedy plays them). Returns the fast path's engine."""
    before = snapshot(base)
    fast = lookahead.quick_clash(base, plays, into=into, **kw)
    assert into is None or fast is into
    slow = full_clash(base, plays, **kw)
    went_on = slow.round == base.round and not slow.is_terminal
    assert read(fast, went_on) == read(slow, went_on), (plays, kw)
    assert snapshot(base) == before, "the fast path changed the position it started from"
    return fast


def greedy_fights(options: dict[str, Any], seeds: range) -> int:
    """Greedy in every seat; each of its lookahead clashes checked. Returns how many."""
    checked = 0
    fast = lookahead.quick_clash

    def both(base: RivalesState, plays: Mapping[int, Card], **kw: Any) -> Engine:
        nonlocal checked
        checked += 1
        return check(base, plays, **kw)  # on the engine the bot passes (``into``)

    for seed in seeds:
        state = GAME.new_state(seed, options)
        state.quiet = True
        seats = range(state.seat_count)
        agents = [
            make_agent("greedy", GAME, state.options_json, s, derive_seed(seed, "agent", s))
            for s in seats
        ]
        for agent in agents:
            assert agent.play_ahead is fast
            agent.play_ahead = both
        run_game(state, agents)
    return checked


@pytest.mark.parametrize("fighters", DUELS, ids="-".join)
def test_fast_clash_equals_state_machine_in_greedy_lookahead_1v1(
    fighters: list[str],
) -> None:
    assert greedy_fights({"fighters": fighters}, range(2)) > 100


@pytest.mark.parametrize("fighters", TEAMS, ids="-".join)
def test_fast_clash_equals_state_machine_in_greedy_lookahead_2v2(
    fighters: list[str],
) -> None:
    options = {"fighters": fighters, "mode": "2v2"}
    assert greedy_fights(options, range(1)) > 100


def random_positions(options: dict[str, Any], seed: int) -> int:
    """A random fight; at each clash, every seat's every card (held or not) at random
    against the others', with random affordable boosts, personas and zone orders."""
    rng = random.Random(seed)
    state = GAME.new_state(seed, options)
    state.quiet = True
    checked = 0
    scratch: Engine | None = None
    while not state.is_terminal:
        pending = state.pending()
        if state.phase == PLAY and all(d.kind == "play" for d in pending):
            for k in range(4):
                plays = {s: rng.choice(state.fighter(s).cards) for s in state.seats}
                kw: dict[str, Any] = {
                    "boosts": {s: rng.choice(["none", "damage"]) for s in state.seats},
                    "personas": {s: rng.choice(["hansel", "gretel"]) for s in state.seats},
                    "first_zone": rng.choice([1, 2]) if state.two_vs_two else 1,
                }
                # a level no seat can pay for is not asked (the machine would refuse it)
                for fight in state.fights:
                    for t, s in enumerate(fight.seats):
                        lines = state.lines[fight.zone][t]
                        if not any(slot.side == DOWN for slot in lines):
                            kw["boosts"][s] = "none"
                # half of them played into one engine, refilled from position to position
                # all fight long, as greedy plays them
                fast = check(state, plays, into=scratch if k % 2 else None, **kw)
                if scratch is None:
                    scratch = fast
                checked += 1
        state.apply_trusted({d.seat: rng.choice(d.legal) for d in pending})
    return checked


@pytest.mark.parametrize("fighters", DUELS + TEAMS, ids="-".join)
def test_fast_clash_equals_state_machine_from_random_fights(fighters: list[str]) -> None:
    options: dict[str, Any] = {"fighters": fighters}
    if len(fighters) == 4:
        options["mode"] = "2v2"
    assert sum(random_positions(options, seed) for seed in range(3)) > 50


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10, 40))
def test_fast_clash_equals_state_machine_many_fights(seed: int) -> None:
    rng = random.Random(seed)
    two = seed % 3 == 0
    fighters = rng.sample(FIGHTERS, 4 if two else 2)
    options: dict[str, Any] = {"fighters": fighters}
    if two:
        options["mode"] = "2v2"
    assert random_positions(options, seed) > 10


def test_fight_copy_and_clash_copy_set_every_field():
    """A clash copy is a bare Engine made without ``__init__``: each field set one by one."""
    state = GAME.new_state(5, {"mode": "2v2"})
    rng = random.Random(5)
    while state.phase != PLAY or not state.fights:
        state.apply({d.seat: rng.choice(d.legal) for d in state.pending()})
    for fight in state.fights:
        copy = fight.copy()
        assert all(hasattr(copy, n) for n in FIGHT_FIELDS)
        assert copy.ctxs == [None, None] and copy.ctxs is not fight.ctxs
    other = clash_copy(state)
    assert type(other) is Engine
    assert all(hasattr(other, n) for n in ENGINE_FIELDS if n != "__dict__")
    assert snapshot(other) == snapshot(state)


def test_swing_reads_a_clash_looked_ahead_from_each_side() -> None:
    """Greedy's score of a clash (lookahead.swing): Golpe attacks Patada (Speed 4 to 2). Its
    Damage moves Curie's life marker and flips Patada face down: an energy card for Curie
    (rv.damage.life-marker, rv.energy.flipped). On Curie's last life point the K.O. ends the
    round (rv.end.ko), and with it the fight when it is Zorro's second (rv.end.match)."""
    plays = {0: "golpe", 1: "patada"}
    for taken, rounds_won, over in (
        ((0, 0), (0, 0), False),
        ((0, 10), (0, 0), False),
        ((0, 10), (1, 0), True),
    ):
        base = lookahead.position(
            ["zorro", "curie"],
            hands=[["golpe", "bloqueo"], ["patada", "salto"]],
            taken=list(taken),
            rounds_won=rounds_won,
        )
        cards = {s: lookahead.find(base.fighter(s), name) for s, name in plays.items()}
        after = lookahead.quick_clash(base, cards)
        assert after.is_terminal is over
        if taken == (0, 0):
            assert lookahead.swing(base, after, 0, 1) == (False, 0, 2, 0, 0)
            assert lookahead.swing(base, after, 1, 0) == (False, 0, 0, 2, 1)
        else:
            assert lookahead.swing(base, after, 0, 1) == (True, 1, 0, 0, 0)
            assert lookahead.swing(base, after, 1, 0) == (True, -1, 0, 0, 0)
