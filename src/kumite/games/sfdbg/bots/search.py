"""Search hooks of SF DBG for :mod:`kumite.agents.ismcts`.

A turn of SF DBG is a long chain of decisions, most of which barely matter: which card to
play first, which Power card next. What decides games is what a player gains. So:

* **action abstraction** — a turn is played like ``greedy`` plays it (take a Stage, play
  Locations, challenge, play the hand), and only the *buys* are searched: the best
  :data:`BUY_CANDIDATES` cards by greedy's worth, and ending the turn. Every forced
  decision (defend, discard, destroy, ...) is greedy's answer, without a search;
* **rollouts** — both players go on with a fast version of that policy which reads the
  determinised state's choice strings instead of building views (a view is built only for
  the rare forced decisions), for :attr:`SFDBGHooks.horizon` turns; then the position is
  valued from each player's VP and the worth of its deck for the rest of the game (a
  finished game from the final VP): ``tanh`` of the VP lead, so a rollout says by how much,
  not only who, is ahead;
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

from kumite.agents.search import Level, SearchHooks
from kumite.core.game import Decision, Game, State
from kumite.games.sfdbg.bots.greedy import BUY_THRESHOLD, GreedySFDBG
from kumite.games.sfdbg.bots.policy import GROUPS, CardValues, Policy, card_of, group
from kumite.games.sfdbg.game import GAME
from kumite.games.sfdbg.scoring import deck_vp
from kumite.games.sfdbg.turn import PLAY_POWER, owned

#: How many buys (by greedy's worth) a turn's search considers, besides ending the turn.
BUY_CANDIDATES = 3
#: Rollouts stop after this many more turns (both players' turns counted).
HORIZON = 10
#: VP a point of deck economy is worth per remaining turn of its owner, in the evaluation.
ECON_VP = 0.15
#: VP difference that makes a position worth tanh(1) ~ 0.76 of a win.
VP_SCALE = 8.0
#: Stages and main deck at the start of a game (for how late it is; see ``lateness``).
STAGES, MAIN_DECK = 8.0, 106.0
#: Turns a 2-player game lasts, roughly (greedy against greedy: ~40).
GAME_TURNS = 40

POWER_GROUP = GROUPS.index("power")

LEVELS: dict[str, Level] = {
    "easy": Level(iterations=20, seconds=None, exploration=0.5, paired=True, confidence=1.0),
    "medium": Level(iterations=100, seconds=None, exploration=0.5, paired=True, confidence=1.0),
    "hard": Level(iterations=250, seconds=None, exploration=0.5, paired=True, confidence=1.0),
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
            f"play:{c.id}": (rank[group(c)], -values.econ[c.id], c.id) for c in cards
        }
        self.locations = frozenset(f"play:{c.id}" for c in cards if c.is_location)
        self.econ = [values.econ[c.id] for c in cards]

    # -- action abstraction ------------------------------------------------------------------
    def candidates(self, view: Mapping[str, Any], decision: Decision) -> tuple[str, ...]:
        legal = decision.legal
        if decision.kind != "turn":
            return (self.policy.answer(view, decision.kind, legal),)
        first = self.greedy.turn(view, legal)
        if not (first == "end" or first.startswith("buy:")):
            return (first,)
        late = _lateness_of_view(view)
        buys = sorted(
            (c for c in legal if c.startswith("buy:")),
            key=lambda c: (-self._worth(c, late), c),
        )[: self.buy_candidates]
        if not buys:
            return ("end",)
        return (first, *(c for c in (*buys, "end") if c != first))

    def _worth(self, choice: str, late: float) -> float:
        card_id = "metsu-hadoken" if choice == "buy:ultra" else card_of(choice)
        return self.values.buy(card_id, late)

    def forced(self, state: State, decision: Decision) -> str | None:
        """In the tree, only the turn's buys are searched: anything else is the fast
        policy's choice in the determinisation."""
        choice = self._policy(state, decision)
        if decision.kind == "turn" and (choice == "end" or choice.startswith("buy:")):
            return None
        return choice

    # -- rollouts --------------------------------------------------------------------------
    def rollout(self, state: State, rng: random.Random) -> tuple[float, ...]:
        st: Any = state
        stop = st.turn + self.horizon
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
            if c.startswith("take:"):
                return c
            if c.startswith("play:"):
                plays.append(c)
            elif c.startswith("buy:"):
                buys.append(c)
        for c in plays:
            if c in self.locations:
                return c
        if "challenge" in legal:
            return "challenge"
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
        return "end"

    def evaluate(self, st: Any) -> tuple[float, ...]:
        """Each seat's value of an unfinished game: VP now, plus its deck's economy per card
        times the turns it has left, against the best other seat's."""
        left = 0.0 if st.over else max(0.0, (1.0 - _lateness(st)) * GAME_TURNS / st.n)
        scores = []
        for s in range(st.n):
            deck = owned(st, s)
            econ = sum(self.econ[c] for c in deck) / max(1, len(deck))
            scores.append(deck_vp(st.catalog, deck) + self.econ_vp * econ * 5 * left)
        out = []
        for s in range(st.n):
            rival = max(scores[t] for t in range(st.n) if t != s)
            out.append(math.tanh((scores[s] - rival) / VP_SCALE))
        return tuple(out)


def _lateness(st: Any) -> float:
    return max(0.0, min(1.0, max(1 - len(st.stages) / STAGES, 1 - len(st.main) / MAIN_DECK)))


def _lateness_of_view(view: Mapping[str, Any]) -> float:
    stages = 1.0 - float(view["stages"]["remaining"]) / STAGES
    main = 1.0 - float(view["main_deck"]) / MAIN_DECK
    return max(0.0, min(1.0, max(stages, main)))


def make(game: Game[Any], options: Mapping[str, Any]) -> SFDBGHooks:

    return SFDBGHooks(CardValues.of(GAME.catalog(options)))
