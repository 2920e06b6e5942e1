"""The whole hidden-cover game of one SF Rivals matchup, exactly — for small variants.

:mod:`.setup` bounds the real game, whose information sets (own cover, public history) are
far too many for the full pack. A reduced variant (the shipped ``mini`` pack: three kinds of
card per character, :data:`MINI_PACK`) is small enough to write out whole: this module
enumerates it as an extensive-form game with **perfect recall** — set-up, then every round,
each seat deciding from exactly what its view shows (its own cover and set-up, both shown
cards, the cards played so far in order, a card revealed first) — by driving the engine's own
state (:class:`~kumite.games.sfrivals.state.SFRState`), so no rule is written twice.
Simultaneous choices are two decisions in a row, the second seat's information set not
seeing the first's choice.

On that tree (:func:`kumite.solve.efg.compile_game`) the generic library gives the exact
value and an equilibrium (:func:`kumite.solve.sequence_form.solve_lp`), CFR+
(:class:`kumite.solve.cfr.CFRSolver`) and exact best responses
(:func:`kumite.solve.best_response.best_response`) — so the bounds of :mod:`.setup` and the
bound strategies can be compared with the truth (:func:`strategy_profile`).
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from typing import Any

import numpy as np

from kumite.core.errors import OptionsError
from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.options import Options
from kumite.games.sfrivals.state import SFRState
from kumite.solve.best_response import best_response
from kumite.solve.cfr import CFRSolver
from kumite.solve.efg import TERMINAL, FloatArray, Tree, compile_game
from kumite.solve.sequence_form import SequenceForm, sequence_form, solve_lp

MAX_HISTORIES = 2_000_000
"""Terminal histories above which :func:`solve_exact` refuses (memory: ~2 KB a node)."""


def mini_pack() -> str:
    """The text of the shipped ``mini`` overlay pack (``games/sfrivals/packs/mini.toml``)."""
    return (resources.files("kumite.games.sfrivals") / "packs" / "mini.toml").read_text("utf-8")


MINI_CHARACTERS = ("ryu-mini", "ken-mini")


class _History:
    """An engine state and the choices already made at it (the first of two simultaneous
    decisions is held here until the second is made)."""

    __slots__ = ("chosen", "state")

    def __init__(self, state: SFRState, chosen: tuple[tuple[int, str], ...] = ()) -> None:
        self.state = state
        self.chosen = chosen


class HiddenCoverGame:
    """One matchup of SF Rivals as an :class:`~kumite.solve.efg.ExtensiveGame`."""

    def __init__(self, characters: tuple[str, str], options: Options | Mapping[str, Any]) -> None:
        raw = GAME.options_to_json(options) if isinstance(options, Options) else dict(options)
        self.options = GAME.parse_options({**raw, "characters": list(characters)})
        self.characters = characters
        self.name = f"sfrivals-hidden:{characters[0]}-{characters[1]}"
        start = GAME.new_state(0, GAME.options_to_json(self.options))
        start.quiet = True
        self._start = start

    def root(self) -> _History:
        return _History(self._start)

    def _pending(self, h: _History) -> list[Any]:
        done = {s for s, _ in h.chosen}
        return [d for d in h.state.pending() if d.seat not in done]

    def player(self, h: _History) -> int:
        if h.state.outcome is not None:
            return TERMINAL
        return int(self._pending(h)[0].seat)

    def actions(self, h: _History) -> Sequence[str]:
        return tuple(self._pending(h)[0].legal)

    def chance(self, h: _History) -> Sequence[tuple[str, float]]:  # pragma: no cover
        return ()

    def child(self, h: _History, action: str) -> _History:
        seat = self._pending(h)[0].seat
        chosen = (*h.chosen, (seat, action))
        if len(chosen) < len(h.state.pending()):
            return _History(h.state, chosen)
        state = h.state.clone()
        state.apply(dict(chosen))
        return _History(state)

    def returns(self, h: _History) -> float:
        outcome = h.state.outcome
        assert outcome is not None
        return float(outcome.returns[0])

    def infoset(self, h: _History) -> str:
        seat = self.player(h)
        return infoset_key(h.state.view(seat))


def infoset_key(view: Mapping[str, Any]) -> str:
    """The information set of the viewing seat: everything its view shows that can differ
    within a matchup — its own set-up, both shown cards, every card played so far in order,
    a card revealed first (lives, bonuses and the round follow from these)."""
    seat = int(view["seat"])
    if view["phase"] == "setup":
        return f"{seat}|setup"
    me = view["players"][seat]
    parts = [f"{seat}|{me.get('cover')}"]
    for p in view["players"]:
        parts.append(f"{p['shown']}:{','.join(p['played'])}:{p['revealed'] or ''}")
    return "|".join(parts)


def histories(
    characters: tuple[str, str],
    options: Options | Mapping[str, Any],
    *,
    stop_above: int | None = None,
) -> int:
    """The number of terminal histories of the matchup's hidden-cover game (counted on the
    positions, without writing the tree out); with ``stop_above``, counting stops as soon
    as the set-ups counted so far exceed it (the result is then only a lower bound)."""
    memo: dict[tuple[Any, ...], int] = {}

    def count(state: SFRState) -> int:
        pending = state.pending()
        total = 0
        for combo in itertools.product(*[d.legal for d in pending]):
            if stop_above is not None and total > stop_above:
                break
            nxt = state.clone()
            nxt.apply({d.seat: c for d, c in zip(pending, combo, strict=True)})
            if nxt.outcome is not None:
                total += 1
                continue
            key = _position(nxt)
            n = memo.get(key)
            if n is None:
                n = memo[key] = count(nxt)
            total += n
        return total

    return count(HiddenCoverGame(characters, options)._start)


def _position(state: SFRState) -> tuple[Any, ...]:
    return (
        tuple(state.hands),
        tuple(state.lives),
        state.round,
        tuple(state.carry),
        tuple(state.reveal_first),
        tuple(c.id if c is not None else None for c in state.early),
    )


@dataclasses.dataclass(frozen=True, eq=False)
class ExactSolution:
    """The exact value of a matchup's hidden-cover game and an equilibrium."""

    characters: tuple[str, str]
    value: float
    """Seat 0's value (win +1, draw 0, loss -1), from the sequence-form LP."""
    exploitability: float
    """NashConv / 2 of the LP's equilibrium, by exact best responses (0 up to rounding)."""
    sigma: FloatArray
    tree: Tree[Any]
    form: SequenceForm
    seconds: float

    def summary(self) -> dict[str, Any]:
        tree = self.tree
        return {
            "characters": list(self.characters),
            "value": self.value,
            "exploitability": self.exploitability,
            "histories": int((tree.node_player == TERMINAL).sum()),
            "nodes": tree.num_nodes,
            "infosets": tree.num_infosets,
            "seconds": self.seconds,
            "method": "sequence-form LP (HiGHS), checked by exact best responses",
        }


def build_tree(
    characters: tuple[str, str],
    options: Options | Mapping[str, Any],
    *,
    limit: int = MAX_HISTORIES,
) -> Tree[Any]:
    """The compiled hidden-cover game, after checking that it is small enough."""
    n = histories(characters, options, stop_above=limit)
    if n > limit:
        raise OptionsError(
            f"{characters[0]} vs {characters[1]}: the whole hidden-cover game has more than "
            f"{limit:,} histories, more than an exact solve holds (it is for small "
            "variants such as the mini pack: --pack mini)"
        )
    return compile_game(HiddenCoverGame(characters, options))


def solve_exact(
    characters: tuple[str, str],
    options: Options | Mapping[str, Any],
    *,
    limit: int = MAX_HISTORIES,
) -> ExactSolution:
    """The exact value of the matchup (sequence-form LP), checked by best responses."""
    t0 = time.perf_counter()
    tree = build_tree(characters, options, limit=limit)
    form = sequence_form(tree)
    lp = solve_lp(tree, form)
    gains = [best_response(tree, lp.sigma, p)[0] for p in (0, 1)]
    return ExactSolution(
        characters=characters,
        value=lp.value,
        exploitability=(gains[0] + gains[1]) / 2.0,
        sigma=lp.sigma,
        tree=tree,
        form=form,
        seconds=time.perf_counter() - t0,
    )


@dataclasses.dataclass(frozen=True)
class CFRRun:
    value: float
    """Seat 0's expected result under the average profile."""
    exploitability: float
    iterations: int
    seconds: float
    trace: tuple[tuple[int, float], ...]
    """(iterations, exploitability) at every check."""
    sigma: FloatArray


def solve_cfr(
    tree: Tree[Any],
    *,
    target: float = 1e-3,
    check_every: int = 25,
    max_iterations: int = 20_000,
    progress: Callable[[int, float], None] | None = None,
) -> CFRRun:
    """CFR+ over the real information sets until the average profile's exploitability
    (exact best responses) is at most ``target``."""
    from kumite.solve.cfr import expected_value

    t0 = time.perf_counter()
    solver = CFRSolver(tree, "cfr+")
    trace: list[tuple[int, float]] = []
    while True:
        solver.iterate(check_every)
        avg = solver.average()
        gain = (best_response(tree, avg, 0)[0] + best_response(tree, avg, 1)[0]) / 2.0
        trace.append((solver.iterations, gain))
        if progress:
            progress(solver.iterations, gain)
        if gain <= target or solver.iterations >= max_iterations:
            break
    return CFRRun(
        value=expected_value(tree, avg),
        exploitability=gain,
        iterations=solver.iterations,
        seconds=time.perf_counter() - t0,
        trace=tuple(trace),
        sigma=avg,
    )


def strategy_profile(
    tree: Tree[Any],
    policy: Callable[[Mapping[str, Any]], Mapping[str, float]],
    *,
    check: int = 0,
) -> FloatArray:
    """The behaviour profile of a policy that decides from a seat's view alone
    (``policy(view) -> {choice: probability}``), over ``tree``'s information sets. With
    ``check`` > 0, up to that many further nodes of each information set are asked too, and
    a different answer is an error: the policy would be using more than the view."""
    sigma = np.zeros(tree.num_ia)
    members: dict[int, list[int]] = {}
    for node in np.flatnonzero(tree.node_infoset >= 0).tolist():
        members.setdefault(int(tree.node_infoset[node]), []).append(node)
    for i, nodes in members.items():
        first = int(tree.infoset_first_ia[i])
        actions = tree.ia_action[first : first + int(tree.infoset_num_actions[i])]
        answers = []
        for node in nodes[: 1 + check]:
            h = tree.histories[node]
            view = h.state.view(int(tree.infoset_player[i]))
            probs = policy(view)
            answers.append(np.array([float(probs.get(a, 0.0)) for a in actions]))
        for other in answers[1:]:
            if not np.allclose(other, answers[0], atol=1e-12):
                raise ValueError(f"the policy answers differently within {tree.infoset_keys[i]!r}")
        row = np.maximum(answers[0], 0.0)
        total = row.sum()
        if total <= 0:
            raise ValueError(f"the policy gives no legal choice at {tree.infoset_keys[i]!r}")
        sigma[first : first + len(actions)] = row / total
    return sigma
