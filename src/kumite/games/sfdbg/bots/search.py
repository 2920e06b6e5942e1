"""Search hooks of SF DBG for :mod:`kumite.agents.ismcts`.

A turn of SF DBG is a long chain of decisions, most of which barely matter: which card to
play first, which Power card next. What decides games is what a player gains. So:

* **action abstraction** — a turn is played like ``greedy`` plays it (take a Stage, play
  Locations, challenge, play the hand), and only the *buys* are searched: the best
  :data:`BUY_CANDIDATES` cards by greedy's worth, and ending the turn. Every forced
  decision (defend, discard, destroy, ...) is greedy's answer, without a search;
* **rollouts** — both players go on with a fast version of that policy which reads the
  determinised state's choice strings instead of building views (a view is built only for
  the rare forced decisions), for :attr:`SFDBGHooks.horizon` *rounds* (every seat's turn
  once: a horizon counted in turns across all seats would give each player fewer of its own
  turns the more players there are); then the position is valued from each player's VP and
  the worth of its deck for the rest of the game (a finished game from the final VP):
  ``tanh`` of its lead over the best other seat with two players (by how much, not only
  who, is ahead), and of its share of all seats' scores with more (:meth:`SFDBGHooks.
  evaluate`);
* **budgets** — levels use fewer iterations than the generic ones (an iteration here plays
  several turns) and *paired* root sweeps: the buys are compared on the same deals, which
  matters in a game where the luck of the draw dwarfs the difference between two buys.

The fast policy is about as strong as greedy on its own (107 wins in 200 games against it).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from kumite.agents.search import MOVE_SECONDS, Level, SearchHooks
from kumite.core.game import Decision, Game, State
from kumite.games.sfdbg.bots.greedy import BUY_THRESHOLD, GreedySFDBG
from kumite.games.sfdbg.bots.policy import GROUPS, CardValues, Policy, card_of, group, kind_of
from kumite.games.sfdbg.choice import BUY_ULTRA, CHALLENGE, END, PLAY_POWER, Buy, Play, Take
from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.scoring import deck_vp
from kumite.games.sfdbg.turn import owned

#: How many buys (by greedy's worth) a turn's search considers, besides ending the turn.
BUY_CANDIDATES = 3
#: Rollouts stop after this many more rounds (each seat's turn once; 10 turns with two).
HORIZON = 5
#: VP a point of deck economy is worth per remaining turn of its owner, in the evaluation.
ECON_VP = 0.15
#: VP difference that makes a position worth tanh(1) ~ 0.76 of a win.
VP_SCALE = 8.0
#: With more than two seats: how sharply a seat's share of the scores above an equal share
#: makes its value (``tanh(SHARE_SCALE × (n × share - 1))``).
SHARE_SCALE = 2.0
#: Stages and main deck at the start of a game (for how late it is; see ``lateness``).
STAGES, MAIN_DECK = 8.0, 106.0
#: Turns a 2-player game lasts, roughly (greedy against greedy: ~40).
GAME_TURNS = 40

POWER_GROUP = GROUPS.index("power")

LEVELS: dict[str, Level] = {
    "easy": Level(
        iterations=20, seconds=MOVE_SECONDS, exploration=0.5, paired=True, confidence=1.0
    ),
    "medium": Level(
        iterations=100, seconds=MOVE_SECONDS, exploration=0.5, paired=True, confidence=1.0
    ),
    "hard": Level(
        iterations=250, seconds=MOVE_SECONDS, exploration=0.5, paired=True, confidence=1.0
    ),
    "expert": Level(iterations=100_000, seconds=6.0, exploration=0.5, paired=True, confidence=1.0),
}


class SFDBGHooks(SearchHooks):
    """Greedy's turn with searched buys; fast policy rollouts, cut off and evaluated."""

    levels = LEVELS

    def __init__(
        self,
        values: CardValues,
        horizon: int | None = None,
        buy_candidates: int | None = None,
        econ_vp: float | None = None,
    ) -> None:
        self.values = values
        self.horizon = HORIZON if horizon is None else horizon
        self.buy_candidates = BUY_CANDIDATES if buy_candidates is None else buy_candidates
        self.econ_vp = ECON_VP if econ_vp is None else econ_vp
        self.greedy = GreedySFDBG(values, 0)
        self.policy = Policy(values)
        cards = values.catalog.cards
        rank = {g: k for k, g in enumerate(GROUPS)}
        # Turn choice -> (verb, card id); play order as greedy's (groups, then economy).
        self.play_rank: dict[str, tuple[int, float, str]] = {
            Play(c.id).format(): (rank[group(c)], -values.econ[c.id], c.id) for c in cards
        }
        self.locations = frozenset(Play(c.id).format() for c in cards if c.is_location)
        self.econ = [values.econ[c.id] for c in cards]

    # -- action abstraction ------------------------------------------------------------------
    def candidates(self, view: Mapping[str, Any], decision: Decision) -> tuple[str, ...]:
        legal = decision.legal
        if decision.kind != "turn":
            return (self.policy.answer(view, decision.kind, legal),)
        first = self.greedy.turn(view, legal)
        if not (first == END or kind_of(first) is Buy):
            return (first,)
        late = _lateness_of_view(view)
        buys = sorted(
            (c for c in legal if kind_of(c) is Buy),
            key=lambda c: (-self._worth(c, late), c),
        )[: self.buy_candidates]
        if not buys:
            return (END,)
        return (first, *(c for c in (*buys, END) if c != first))

    def _worth(self, choice: str, late: float) -> float:
        card_id = "metsu-hadoken" if choice == BUY_ULTRA else card_of(choice)
        return self.values.buy(card_id, late)

    def forced(self, state: State, decision: Decision) -> str | None:
        """In the tree, only the turn's buys are searched: anything else is the fast
        policy's choice in the determinisation."""
        choice = self._policy(state, decision)
        if decision.kind == "turn" and (choice == END or kind_of(choice) is Buy):
            return None
        return choice

    # -- rollouts --------------------------------------------------------------------------
    def rollout(self, state: State, rng: random.Random) -> tuple[float, ...]:
        st: Any = state
        stop = st.turn + self.horizon * st.seat_count
        while True:
            pending = state.pending()
            if not pending:
                return self.evaluate(st)
            if st.turn >= stop:
                return self.evaluate(st)
            state.apply_trusted({d.seat: self._policy(st, d) for d in pending})

    def _policy(self, st: Any, decision: Decision) -> str:
        legal = decision.legal
        if len(legal) == 1:
            return legal[0]
        if decision.kind != "turn":
            return self.policy.answer(st.view(decision.seat), decision.kind, legal)
        plays: list[str] = []
        buys: list[str] = []
        for c in legal:
            kind = kind_of(c)
            if kind is Take:
                return c
            if kind is Play:
                plays.append(c)
            elif kind is Buy:
                buys.append(c)
        for c in plays:
            if c in self.locations:
                return c
        if CHALLENGE in legal:
            return CHALLENGE
        if plays:
            best = min(plays, key=self.play_rank.__getitem__)
            if self.play_rank[best][0] == POWER_GROUP and PLAY_POWER in legal:
                return PLAY_POWER  # the same plays, in one step
            return best
        if buys:
            late = _lateness(st)
            best = max(buys, key=lambda c: (self._worth(c, late), c))
            if self._worth(best, late) >= BUY_THRESHOLD:
                return best
        return END

    def evaluate(self, st: Any) -> tuple[float, ...]:
        """Each seat's value of an unfinished game from its score — VP now, plus its deck's
        economy per card times the turns it has left: with two seats, ``tanh`` of its lead;
        with more, of its share of the scores above an equal share (``n × share - 1``, so
        that a leader's value does not hang on which rival happens to come second)."""
        left = 0.0 if st.over else max(0.0, (1.0 - _lateness(st)) * GAME_TURNS / st.seat_count)
        scores = []
        for s in range(st.seat_count):
            deck = owned(st, s)
            econ = sum(self.econ[c] for c in deck) / max(1, len(deck))
            scores.append(deck_vp(st.catalog, deck) + self.econ_vp * econ * 5 * left)
        if st.seat_count == 2:
            lead = (scores[0] - scores[1]) / VP_SCALE
            return (math.tanh(lead), math.tanh(-lead))
        total = sum(scores)
        if total <= 0:
            return tuple(0.0 for _ in scores)
        return tuple(math.tanh(SHARE_SCALE * (st.seat_count * x / total - 1)) for x in scores)


def _lateness(st: Any) -> float:
    return max(0.0, min(1.0, max(1 - len(st.stages) / STAGES, 1 - len(st.main) / MAIN_DECK)))


def _lateness_of_view(view: Mapping[str, Any]) -> float:
    stages = 1.0 - float(view["stages"]["remaining"]) / STAGES
    main = 1.0 - float(view["main_deck"]) / MAIN_DECK
    return max(0.0, min(1.0, max(stages, main)))


def make(game: Game[Any], options: Mapping[str, Any]) -> SFDBGHooks:

    return SFDBGHooks(CardValues.of(GAME.catalog(options)))
