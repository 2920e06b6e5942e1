"""The ``tight`` bound strategy of a seat, played from its view alone.

The strategy of :mod:`.bounds` draws a *secret set-up* (shown card, the types ``S`` its
cover is drawn from) and then, while the cover is secret, plays public cards or the S-move
(a card drawn from ``S`` minus the cover), or switches to committed play. Its choices depend
on ``S`` and on which of its past cards were S-moves — things the view does not show. The
behaviour strategy they amount to does depend on the view alone (Kuhn's theorem: the seat
has perfect recall of its own cover and the table): :func:`play_distribution` computes it
by Bayes' rule over the *plans* consistent with the view — the set-up mix gives each ``S``
holding the seat's cover a prior, each past card the probability the plan gave it. So the
``bounded`` agent keeps no memory of its own draws, and a hint is the strategy itself.

Everything is in the seat's own frame: the seat is seat 0 of its side's :class:`~.bounds.
BoundSolver` (for seat 1 the mirrored pairing).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from kumite.games.sfrivals.cards import Card, Character
from kumite.games.sfrivals.legal import powerless_reason
from kumite.games.sfrivals.resolve import NO_CARRY, Carry, resolve_round
from kumite.games.sfrivals.solver.bounds import BoundNode, BoundSolver, SecretSetup
from kumite.games.sfrivals.solver.fight import setup_hand

_TIE = 1e-9


@dataclasses.dataclass(frozen=True)
class Round:
    """One round of the fight as the seat saw it (seat 0: the seat itself)."""

    round: int
    unseen: tuple[tuple[int, ...], tuple[int, ...]]
    """The seat's cards not yet played (hand + cover), and the opponent's unseen cards."""
    lives: tuple[int, int]
    carry: tuple[Carry, Carry]
    reveal: tuple[bool, bool]
    played: tuple[Card | None, Card | None]
    """The cards played (None: not yet, in the current round)."""


def rounds_of_view(
    view: Mapping[str, Any], chars: tuple[Character, Character], side: Side
) -> list[Round]:
    """The rounds so far, replayed from the view's played cards with the engine's round
    resolution (lives, bonuses and reveal flags follow from the cards)."""
    seat = int(view["seat"])
    me, opp = view["players"][seat], view["players"][1 - seat]
    fight = side.fight
    rules, options = fight.rules, fight.options
    unseen = [
        list(setup_hand(chars[0], None, chars[0].card(me["shown"]))),
        list(setup_hand(chars[1], None, chars[1].card(opp["shown"]))),
    ]
    life = fight.life_max
    lives = (life, life)
    carry = (NO_CARRY, NO_CARRY)
    reveal = (False, False)
    out = []
    done = int(view["round"]) - 1
    for r in range(1, done + 2):
        a: Card | None
        b: Card | None
        if r <= done:
            a = chars[0].card(me["played"][r - 1])
            b = chars[1].card(opp["played"][r - 1])
        else:
            a = chars[0].card(me["revealed"]) if me.get("revealed") else None
            b = chars[1].card(opp["revealed"]) if opp.get("revealed") else None
        pair = (tuple(unseen[0]), tuple(unseen[1]))
        out.append(Round(r, pair, lives, carry, reveal, (a, b)))
        if r > done or a is None or b is None:
            break
        res = resolve_round(
            (a, b),
            carry,
            lives,
            powerless=(
                powerless_reason(a, lives[0], rules, options) if a.is_ultra else None,
                powerless_reason(b, lives[1], rules, options) if b.is_ultra else None,
            ),
            swap_printed=options.swap == "printed",
        )
        unseen[0][a.index] -= 1
        unseen[1][b.index] -= 1
        lives, carry, reveal = res.lives, res.carry, res.reveal_first
    return out


class Node(Protocol):
    """A state's solution as the strategy reads it: a :class:`~.bounds.BoundNode`, or a
    book's (:class:`~.book.BookNode`)."""

    @property
    def row_cards(self) -> NDArray[np.int64]: ...
    @property
    def s_move(self) -> bool: ...
    @property
    def switched(self) -> bool: ...
    @property
    def strategy(self) -> NDArray[np.float64]: ...


class Side(Protocol):
    """Where a seat's strategy is read: a :class:`~.bounds.BoundSolver` (solving what it is
    asked), or a shipped book (:class:`~.book.BookSide`)."""

    chars: tuple[Character, Character]

    @property
    def fight(self) -> Any: ...
    @property
    def bt(self) -> Any: ...

    def root(
        self,
        hand0: Sequence[int],
        secret: Sequence[int],
        unseen1: Sequence[int],
        lives: tuple[int, int] | None = None,
        round: int = 1,
        carry: tuple[Carry, Carry] = ...,
        reveal: tuple[bool, bool] = ...,
    ) -> int: ...

    def node(self, key: int) -> Node: ...


@dataclasses.dataclass(frozen=True)
class _Plan:
    """A plan consistent with the view so far, and its weight."""

    weight: float
    secret: frozenset[int]
    """The types the cover may still be (one: committed)."""


def play_distribution(
    view: Mapping[str, Any], side: Side, plan_mix: Mapping[str, float]
) -> dict[int, float]:
    """The strategy's probability of each card type the seat may play now."""
    chars = side.chars
    seat = int(view["seat"])
    me = view["players"][seat]
    cover = chars[0].card(me["cover"]).index
    plans = _initial_plans(chars[0], plan_mix, me["shown"], cover)
    rounds = rounds_of_view(view, chars, side)
    for t, rd in enumerate(rounds[:-1]):
        played = rd.played[0]
        assert played is not None
        after = rounds[t + 1]
        nxt: list[_Plan] = []
        for plan in plans:
            for secret, p in _choices(side, rd, plan.secret, cover).get(played.index, []):
                if p > 0:
                    if len(secret) >= 2 and not _regular(side, after, secret):
                        secret = frozenset([cover])  # the bound valued it as committed
                    nxt.append(_Plan(plan.weight * p, secret))
        plans = _merge(nxt)
        if not plans:  # the seat left its strategy: from here on, as if committed
            plans = [_Plan(1.0, frozenset([cover]))]
    now = rounds[-1]
    out: dict[int, float] = {}
    total = sum(p.weight for p in plans)
    for plan in plans:
        for card, options in _choices(side, now, plan.secret, cover).items():
            out[card] = out.get(card, 0.0) + plan.weight / total * sum(p for _, p in options)
    return out


def opening_keys(
    side: Side,
    plan_mix: Mapping[str, float],
    shown: str,
    opp_shown: str,
    covers: Iterable[int],
) -> list[int]:
    """The round-1 states of every plan :func:`play_distribution` weighs for the seat with
    shown card ``shown`` and cover any of ``covers`` (those it may hold), against an
    opponent showing ``opp_shown``. The states it asks later in the fight are their
    descendants, so solving these at once (:meth:`.BoundSolver.values`) leaves look-ups."""
    a, b = side.chars
    unseen0 = setup_hand(a, None, a.card(shown))
    unseen1 = setup_hand(b, None, b.card(opp_shown))
    keys = {
        side.root(unseen0, sorted(plan.secret), unseen1)
        for cover in covers
        if unseen0[cover] >= 1
        for plan in _initial_plans(a, plan_mix, shown, cover)
    }
    return sorted(keys)


def _initial_plans(
    char: Character, plan_mix: Mapping[str, float], shown: str, cover: int
) -> list[_Plan]:
    """The plans of the mix a seat showing ``shown`` with cover type ``cover`` may follow,
    each weighted by its probability of drawing that cover."""
    plans = []
    for name, p in plan_mix.items():
        st_shown, types = _secret_types(char, name)
        if p > 0 and st_shown == shown and cover in types:
            plans.append(_Plan(p / len(types), types))
    if not plans:  # a set-up the strategy never makes: play it committed
        plans = [_Plan(1.0, frozenset([cover]))]
    return plans


@functools.lru_cache(maxsize=1 << 12)
def _secret_types(char: Character, name: str) -> tuple[str, frozenset[int]]:
    """A secret set-up's shown card and the indices of its cover's types (parsed once:
    every decision walks the whole plan mix)."""
    st = SecretSetup.parse(name)
    return st.shown, frozenset(char.card(c).index for c in st.cover_from)


def _regular(side: Side, rd: Round, secret: frozenset[int]) -> bool:
    """:func:`.bounds_kernels._regular`: whatever the cover, the seat may play an allowed
    card at ``rd``, and which does not depend on it (else the bound takes it as committed)."""
    allowed = side.bt.allowed0
    life = rd.lives[0]
    unseen = rd.unseen[0]
    for i in range(len(unseen)):
        if unseen[i] >= 1 + (i in secret) and allowed[i, rd.round, life]:
            return True
    return all(allowed[i, rd.round, life] for i in secret)


def _merge(plans: list[_Plan]) -> list[_Plan]:
    weights: dict[frozenset[int], float] = {}
    for p in plans:
        weights[p.secret] = weights.get(p.secret, 0.0) + p.weight
    return [_Plan(w, s) for s, w in weights.items() if w > 0]


def _choices(
    side: Side, rd: Round, secret: frozenset[int], cover: int
) -> dict[int, list[tuple[frozenset[int], float]]]:
    """For each card type the plan may play at ``rd``: (the plan's secret types after it,
    probability)."""
    key = side.root(
        rd.unseen[0], sorted(secret), rd.unseen[1], rd.lives, rd.round, rd.carry, rd.reveal
    )
    node = side.node(key)
    if len(secret) >= 2 and node.switched:
        return _choices(side, rd, frozenset([cover]), cover)
    probs = _row_probabilities(node, rd)
    out: dict[int, list[tuple[frozenset[int], float]]] = {}
    for i, card in enumerate(node.row_cards.tolist()):
        out.setdefault(int(card), []).append((secret, float(probs[i])))
    if node.s_move:
        p_s = float(probs[len(node.row_cards)])
        others = sorted(secret - {cover})
        for x in others:
            out.setdefault(x, []).append((secret - {x}, p_s / len(others)))
    return out


def _row_probabilities(node: Node, rd: Round) -> np.ndarray:
    """Seat 0's probabilities over the node's rows — its strategy, or, if the opponent
    revealed first, its answer to the revealed card (the rule of the compiled code)."""
    opp_card = rd.played[1]
    if not rd.reveal[1] or opp_card is None:
        return node.strategy
    out = np.zeros(len(node.strategy))
    out[answer_row(node, opp_card.index)] = 1.0
    return out


def answer_row(node: Node, card: int) -> int:
    """The row seat 0 answers the opponent's card type ``card`` with, revealed first: the
    best worst case over the classes that may play it, ties broken by the mean. A book's
    node (:mod:`.book`) has it written down."""
    answers = getattr(node, "answers", None)
    if answers is not None:
        return int(answers[card])
    assert isinstance(node, BoundNode)
    js = np.flatnonzero(node.col_card == card)
    best, best_mean, arg = -np.inf, -np.inf, 0
    for i in range(node.matrix.shape[0]):
        vals = node.matrix[i, js]
        worst, mean = float(vals.min()), float(vals.sum() / len(vals))
        if i == 0 or worst > best + _TIE or (worst >= best - _TIE and mean > best_mean + _TIE):
            best, best_mean, arg = worst, mean, i
    return arg


def card_values(view: Mapping[str, Any], side: BoundSolver) -> dict[int, float]:
    """For hints: each card type the seat may play now, its guarantee (the worst case over
    the opponent's classes and cards, or answers to a card revealed first) if the seat,
    its cover known to the opponent, plays it and then the committed strategy."""
    chars = side.chars
    me = view["players"][int(view["seat"])]
    cover = chars[0].card(me["cover"]).index
    rd = rounds_of_view(view, chars, side)[-1]
    node = side.node(
        side.root(rd.unseen[0], [cover], rd.unseen[1], rd.lives, rd.round, rd.carry, rd.reveal)
    )
    cols = np.arange(node.matrix.shape[1])
    if rd.reveal[1] and rd.played[1] is not None:
        cols = np.flatnonzero(node.col_card == rd.played[1].index)
    return {int(card): float(node.matrix[i, cols].min()) for i, card in enumerate(node.row_cards)}
