"""How exploitable each shipped agent is in SF Rivals: an exact best response.

For one pairing and one pair of set-ups (by default the ones the ``greedy`` bot picks), an
agent sits in a seat and plays from its own view; the other seat best-responds with
*perfect information* (it knows the agent's hand and cover and the agent's policy) and the
best response is computed exactly by backward induction over the fight. The table gives:

* ``worst_case``: the agent's result against that best response (win +1, draw 0, loss -1);
* ``exploitability``: the fight's perfect-information value for the agent's seat minus
  ``worst_case`` — what the agent gives away against a perfect opponent (>= 0, since that
  opponent can hold any strategy of the agent to at most the value).

The ``random`` agent's best response is solved by the vectorised fight solver; policies
given as a function of the view (``greedy``, ``bounded``, ``ismcts-*``) by a memoised
search over the fight, the agent's choices coming from the agent itself.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kumite.agents.base import Agent, decide
from kumite.agents.registry import make_agent
from kumite.core.game import Decision
from kumite.games.sfrivals.bots.greedy import GreedySFRivals
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.options import Options
from kumite.games.sfrivals.solver.fight import FightSolver, Position
from kumite.games.sfrivals.solver.setup import cache_path
from kumite.games.sfrivals.state import SFRState

Policy = Callable[[SFRState, Decision], dict[str, float]]
"""The agent's distribution over ``decision.legal`` at ``state`` (from its own view)."""

DEFAULT_AGENTS = ("random", "greedy")
"""Rated by default; ``bounded`` too when its matchup is in the solution cache.
(``ismcts`` can be named, but its exact best response is out of reach for full fights: its
choices depend on the whole history, so the search cannot merge positions and asks the
agent — a search of its own — at every one of ~10^5 decision points.)"""


@dataclasses.dataclass(frozen=True, slots=True)
class StrengthRow:
    agent: str
    seat: int
    worst_case: float
    value: float
    """The perfect-information value of the fight for the agent's seat."""
    seconds: float

    @property
    def exploitability(self) -> float:
        return self.value - self.worst_case

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "seat": self.seat,
            "worst_case": self.worst_case,
            "value": self.value,
            "exploitability": self.exploitability,
            "seconds": self.seconds,
        }


def greedy_setups(characters: tuple[str, str], options: Options) -> tuple[str, str]:
    """The set-ups the ``greedy`` bot picks (deterministic)."""
    state = GAME.new_state(0, {**GAME.options_to_json(options), "characters": list(characters)})
    out = []
    for d in state.pending():
        bot = GreedySFRivals(state.catalog, d.seat, 0)
        out.append(bot.choose(state.view(d.seat), d))
    return out[0], out[1]


def strength_table(
    characters: tuple[str, str],
    options: Mapping[str, Any] | None = None,
    agents: Sequence[str] = DEFAULT_AGENTS,
    setups: tuple[str, str] | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """Exact best-response strength of each agent, in both seats."""
    opts = GAME.parse_options({**dict(options or {}), "characters": list(characters)})
    setups = setups or greedy_setups(characters, opts)
    if agents is DEFAULT_AGENTS and cache_path(characters, opts).with_suffix(".json").exists():
        agents = (*agents, "bounded")
    start = GAME.new_state(seed, GAME.options_to_json(opts))
    start.apply({0: setups[0], 1: setups[1]})
    cat = start.catalog
    chars = (cat.characters[characters[0]], cat.characters[characters[1]])
    pos = Position((start.hands[0], start.hands[1]), (start.lives[0], start.lives[1]), start.round)
    value0 = FightSolver(cat, opts, chars).value(pos)
    rows = []
    for name in agents:
        for seat in (0, 1):
            t0 = time.perf_counter()
            if name == "random":
                w0 = FightSolver(cat, opts, chars, uniform_seat=seat).value(pos)
            else:
                agent = make_agent(name, GAME, GAME.options_to_json(opts), seat, seed)
                policy, markov = _policy_of(agent, name, start.view(seat))
                w0 = best_response_value(start, seat, policy, markov)
            sign = 1.0 if seat == 0 else -1.0
            rows.append(StrengthRow(name, seat, sign * w0, sign * value0, time.perf_counter() - t0))
    return {
        "characters": list(characters),
        "setups": list(setups),
        "value": value0,
        "rows": [r.to_json() for r in rows],
    }


def _policy_of(agent: Agent, name: str, view: Mapping[str, Any]) -> tuple[Policy, bool]:
    """The agent's policy, and whether it depends on the position only (not on the order
    in which cards were played) — then the search merges positions."""
    from kumite.games.sfrivals.solver.equilibrium import BoundedAgent

    if isinstance(agent, BoundedAgent):  # bounded, or equilibrium where it plays bounded
        from kumite.games.sfrivals.solver.strategy import advice

        def eq_policy(state: SFRState, decision: Decision) -> dict[str, float]:
            view = state.view(decision.seat)
            sol = agent.solution(view)
            return {a.choice: a.probability for a in advice(view, sol) if a.probability > 0}

        # method adaptive's strategy reads the position only; tight's reads the order of
        # play (Bayes' rule over its own plans), so positions cannot be merged
        markov = agent.solution(view).method == "adaptive"
        return eq_policy, markov
    if name == "greedy":

        def greedy_policy(state: SFRState, decision: Decision) -> dict[str, float]:
            # greedy reads lives, bonuses, the revealed card and the unseen cards — not the
            # order of play; its tie-breaks are seeded from exactly that
            view = state.view(decision.seat)
            bot = GreedySFRivals(state.catalog, decision.seat, _digest(_position_of(view)))
            return {bot.choose(view, decision): 1.0}

        return greedy_policy, True

    def any_policy(state: SFRState, decision: Decision) -> dict[str, float]:
        return {decide(agent, state, decision): 1.0}

    return any_policy, False


def _position_of(view: Mapping[str, Any]) -> dict[str, Any]:
    players = [{k: v for k, v in p.items() if k != "played"} for p in view["players"]]
    return {**view, "players": players}


def best_response_value(
    state: SFRState, agent_seat: int, policy: Policy, markov: bool = True
) -> float:
    """Seat 0's value when ``agent_seat`` follows ``policy`` and the other seat plays a
    perfect-information best response, from ``state`` on. ``markov``: the policy depends
    on the position only, so positions reached in different orders are merged."""
    memo: dict[tuple[Any, ...], float] = {}
    br = 1 - agent_seat
    pick = min if br == 1 else max

    def value(s: SFRState) -> float:
        out = s.outcome
        if out is not None:
            return out.returns[0]
        key = (
            tuple(s.hands),
            tuple(s.lives),
            tuple(s.carry),
            tuple(s.reveal_first),
            s.round,
            tuple(c.id if c else None for c in s.early),
            None if markov else tuple(tuple(c.id for c in p) for p in s.played),
        )
        hit = memo.get(key)
        if hit is not None:
            return hit
        pending = {d.seat: d for d in s.pending()}
        if agent_seat in pending:
            dist = policy(s, pending[agent_seat])
            if br in pending:  # simultaneous: the best response does not see the card
                result = pick(
                    sum(p * value(_next(s, {agent_seat: a, br: b})) for a, p in dist.items())
                    for b in pending[br].legal
                )
            else:
                result = sum(p * value(_next(s, {agent_seat: a})) for a, p in dist.items())
        else:
            result = pick(value(_next(s, {br: b})) for b in pending[br].legal)
        memo[key] = result
        return result

    quiet = state.clone()
    quiet.quiet = True
    return value(quiet)


def _next(state: SFRState, choices: dict[int, str]) -> SFRState:
    out = state.clone()
    out.apply(choices)
    return out


def _digest(view: Mapping[str, Any]) -> int:
    blob = json.dumps(view, sort_keys=True, default=str).encode()
    return int.from_bytes(hashlib.blake2b(blob, digest_size=8).digest(), "big")
