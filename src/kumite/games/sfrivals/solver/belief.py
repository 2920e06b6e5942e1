"""``belief``: an SF Rivals agent that reads its opponent's cover from its plays.

After set-up each player knows the opponent's hand only up to which unseen card is the
cover. This agent keeps a **posterior over the opponent's cover**: a prior from the solved
set-up mix of the opponent's seat (which covers the solver's strategy picks with the card it
showed), then, round by round, the probability that the opponent's *solved strategy*
(method tight, :mod:`kumite.games.sfrivals.solver.tight`) plays the card it played, were that its
cover. A model can be wrong — the opponent may be a person, or another bot — so every prior
and every likelihood is mixed with a uniform one (``epsilon``), and a cover the cards played
rule out gets weight 0.

It then chooses from **exact fight values**: for each cover it still believes in, both
hands are known, and the fight solver (:class:`~kumite.games.sfrivals.solver.fight.FightSolver`)
gives the exact value of every pair of cards this round — the perfect-information fight
from there on. Each of its cards is scored by the average, over the posterior and over the
modelled opponent's card (its answer, if the agent reveals first; the card itself, if the
opponent revealed first), and the best is played. The set-up is the solver's.

It decides from its own view only; the solution and the positions it solves are shared by
every game of the process. Its first move after a pair of shown cards it has not met solves
what the rest of the fight asks (:meth:`BeliefAgent.open`: the opponent model's plans from
round 1; every cover's fight from the current round, in one induction), so later moves, and
later games with the same set-ups, are look-ups.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np

from kumite.core.game import Decision, Game
from kumite.games.sfrivals.cards import Character
from kumite.games.sfrivals.legal import playable_cards
from kumite.games.sfrivals.resolve import Carry
from kumite.games.sfrivals.solver.fight import FightSolver, Position, setup_hand
from kumite.games.sfrivals.solver.setup import MatchupSolution, shared_solution
from kumite.games.sfrivals.solver.tight import (
    Round,
    opening_keys,
    play_distribution,
    rounds_of_view,
)

EPSILON = 0.1
"""Weight of the uniform prior and likelihood mixed into the opponent model."""
_FIGHT_STATES_AT_MOST = 20_000_000
"""The solved fight positions kept are dropped above this many states (a few hundred MB),
so that a long run of games does not grow without bound."""


def _fight(sol: MatchupSolution) -> FightSolver:
    """The solution's own fight solver: its rule tables, filled from the engine, are those
    seat 0's bound solver reads too, so they are filled once for both."""
    found = sol.solver
    if sum(len(keys) for keys, _ in found.levels.values()) > _FIGHT_STATES_AT_MOST:
        found.levels.clear()  # only a memo: the values are solved again when asked
    return found


class BeliefAgent:
    name = "belief"

    def __init__(
        self, options: Mapping[str, Any], seat: int, seed: int, epsilon: float = EPSILON
    ) -> None:
        self.options = {k: v for k, v in options.items() if k != "characters"}
        self.seat = seat
        self.epsilon = epsilon
        self.rng = random.Random(seed)
        self._solution: MatchupSolution | None = None
        self._likelihood: dict[tuple[int, int], float] = {}
        """(round, cover type) -> the opponent model's probability of its card that round."""

    def solution(self, view: Mapping[str, Any]) -> MatchupSolution:
        chars = tuple(str(p["character"]) for p in view["players"])
        if self._solution is None or self._solution.characters != chars:
            self._solution = shared_solution((chars[0], chars[1]), self.options)
            self._likelihood.clear()
        return self._solution

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        if decision.kind == "character":
            return self.rng.choice(decision.legal)
        sol = self.solution(view)
        if decision.kind == "setup":
            mix = sol.setup[self.seat]
            legal = [c for c in decision.legal if mix.get(c, 0.0) > 0]
            if not legal:
                return self.rng.choice(decision.legal)
            return self.rng.choices(legal, weights=[mix[c] for c in legal])[0]
        self.open(view, sol)
        scores = self.scores(view, sol)
        return max(decision.legal, key=lambda c: scores.get(c, -np.inf))

    def open(self, view: Mapping[str, Any], sol: MatchupSolution) -> None:
        """Solve, in one induction, the first-round states of every plan the opponent model
        may follow (every cover of the card it showed, against the card this seat showed):
        the model's later questions in this fight are then look-ups. Done once per pair of
        shown cards and process (the solution's bound solver keeps them)."""
        opp = 1 - self.seat
        players = view["players"]
        shown, mine = str(players[opp]["shown"]), str(players[self.seat]["shown"])
        side = sol.side(opp)
        covers = range(len(side.chars[0].cards))
        side.values(opening_keys(side, _plans(sol, opp), shown, mine, covers))

    # -- the posterior ---------------------------------------------------------------------
    def posterior(self, view: Mapping[str, Any], sol: MatchupSolution) -> dict[int, float]:
        """Opponent's cover type -> probability, from its set-up and its plays so far."""
        me, opp = self.seat, 1 - self.seat
        mine = _frame(sol, me)
        rounds = rounds_of_view(view, mine.chars, mine)
        opp_char = sol.solver.chars[opp]
        shown = view["players"][opp]["shown"]
        unseen = setup_hand(opp_char, None, opp_char.card(shown))
        mix = sol.setup[opp]
        model = {
            c.index: mix.get(f"setup:{c.id}:{shown}", 0.0)
            for c in opp_char.cards
            if unseen[c.index] >= 1
        }
        total_model = sum(model.values())
        total_cards = sum(unseen)
        weights = {}
        for c, p in model.items():
            uniform = unseen[c] / total_cards
            prior = uniform if total_model <= 0 else (1 - self.epsilon) * p / total_model
            weights[c] = prior + (self.epsilon * uniform if total_model > 0 else 0.0)
        for t, rd in enumerate(rounds):
            played = rd.played[1]
            if played is None:
                continue  # the opponent has not played this round (yet)
            for c in list(weights):
                if weights[c] <= 0:
                    continue
                weights[c] *= self._round_likelihood(view, sol, rounds, t, c)
        total = sum(weights.values())
        if total <= 0:  # the plays rule every cover out: cannot happen at a real table
            return {c: 1.0 / len(weights) for c in weights}
        return {c: w / total for c, w in weights.items() if w > 0}

    def _round_likelihood(
        self, view: Mapping[str, Any], sol: MatchupSolution, rounds: list[Round], t: int, c: int
    ) -> float:
        key = (rounds[t].round, c)
        found = self._likelihood.get(key)
        if found is not None:
            return found
        rd = rounds[t]
        opp_char = sol.solver.chars[1 - self.seat]
        played = rd.played[1]
        assert played is not None
        hand = list(rd.unseen[1])
        hand[c] -= 1
        if hand[played.index] < 1:
            found = 0.0  # the card was the cover: it could not have been played
        else:
            opp_view = self._opponent_view(view, sol, rounds, t, opp_char.cards[c].id)
            model = play_distribution(opp_view, sol.side(1 - self.seat), _plans(sol, 1 - self.seat))
            legal = [i for i in range(len(hand)) if hand[i] >= 1]
            p = model.get(played.index, 0.0)
            found = (1 - self.epsilon) * p + self.epsilon / max(len(legal), 1)
        self._likelihood[key] = found
        return found

    def _opponent_view(
        self,
        view: Mapping[str, Any],
        sol: MatchupSolution,
        rounds: list[Round],
        t: int,
        cover: str,
        my_card: str | None = None,
    ) -> dict[str, Any]:
        """What the opponent saw when it chose its card at round ``rounds[t]``, were its
        cover ``cover`` (the agent's own cover stays hidden from it)."""
        me, opp = self.seat, 1 - self.seat
        rd = rounds[t]
        players: list[dict[str, Any]] = [{}, {}]
        for s in (me, opp):
            p = view["players"][s]
            players[s] = {
                "seat": s,
                "character": p["character"],
                "shown": p["shown"],
                "played": list(p["played"][: rd.round - 1]),
                "revealed": None,
            }
        players[opp]["cover"] = cover
        mine = rd.played[0]
        if rd.reveal[0]:  # the agent revealed first: the opponent chose seeing its card
            if my_card is None and mine is not None:
                my_card = mine.id
            players[me]["revealed"] = my_card
        return {"seat": opp, "round": rd.round, "phase": "play", "players": players}

    # -- the choice -----------------------------------------------------------------------
    def scores(self, view: Mapping[str, Any], sol: MatchupSolution) -> dict[str, float]:
        """Each legal card's expected result for the agent (posterior-averaged exact fight
        values against the modelled opponent)."""
        me, opp = self.seat, 1 - self.seat
        mine = _frame(sol, me)
        rounds = rounds_of_view(view, mine.chars, mine)
        now = rounds[-1]
        posterior = self.posterior(view, sol)
        chars = sol.solver.chars
        opp_char = chars[opp]
        my_hand = _hand(chars[me], view["players"][me]["hand"])
        revealed = now.played[1]
        out: dict[str, float] = {}
        lives = now.lives if me == 0 else (now.lives[1], now.lives[0])
        carry: tuple[Carry, Carry] = now.carry if me == 0 else (now.carry[1], now.carry[0])
        reveal = now.reveal if me == 0 else (now.reveal[1], now.reveal[0])
        fight = _fight(sol)
        positions: dict[int, Position] = {}
        for c in posterior:
            opp_hand = list(now.unseen[1])
            opp_hand[c] -= 1
            if min(opp_hand) < 0:
                continue
            playable = playable_cards(
                opp_char, tuple(opp_hand), now.lives[1], now.round, fight.rules, fight.options
            )
            if not playable or (revealed is not None and revealed not in playable):
                # The fight would have ended, or the opponent could not have revealed its
                # card: not its cover (the posterior, which only follows the cards played,
                # does not know it; this cover's weight counts for no card).
                continue
            hands = (my_hand, tuple(opp_hand)) if me == 0 else (tuple(opp_hand), my_hand)
            positions[c] = Position(hands, lives, now.round, carry, reveal)
        if positions:  # every cover's fight in one induction: they share most positions
            fight.values(list(positions.values()))
        answers: dict[tuple[str, str | None], dict[int, float]] = {}
        for c, pos in positions.items():
            w = posterior[c]
            node = fight.solve_node(pos)
            m = node.matrix if me == 0 else -node.matrix.T
            my_cards, opp_cards = node.cards[me], node.cards[opp]
            opp_index = {card.index: j for j, card in enumerate(opp_cards)}
            for i, card in enumerate(my_cards):
                if revealed is not None:
                    value = float(m[i, opp_index[revealed.index]])
                else:
                    seen = card.id if now.reveal[0] else None  # its answer to this card
                    key = (opp_char.cards[c].id, seen)
                    model = answers.get(key)
                    if model is None:
                        model = answers[key] = self._answer(view, sol, rounds, key[0], card.id)
                    value = sum(
                        p * float(m[i, opp_index[b]]) for b, p in model.items() if b in opp_index
                    )
                out[card.choice] = out.get(card.choice, 0.0) + w * value
        return out

    def _answer(
        self,
        view: Mapping[str, Any],
        sol: MatchupSolution,
        rounds: list[Round],
        cover: str,
        my_card: str,
    ) -> dict[int, float]:
        """The modelled opponent's card this round (its strategy, given the agent's card if
        the agent reveals first), smoothed."""
        t = len(rounds) - 1
        opp_view = self._opponent_view(view, sol, rounds, t, cover, my_card)
        model = play_distribution(opp_view, sol.side(1 - self.seat), _plans(sol, 1 - self.seat))
        n = len(model)
        return {b: (1 - self.epsilon) * p + self.epsilon / n for b, p in model.items()}


def _frame(sol: MatchupSolution, seat: int) -> Any:
    return sol.side(seat)


def _plans(sol: MatchupSolution, seat: int) -> dict[str, float]:
    return sol.setup[seat] if sol.plans is None else sol.plans[seat]


def _hand(char: Character, ids: list[str]) -> tuple[int, ...]:
    out = [0] * len(char.cards)
    for cid in ids:
        out[char.card(cid).index] += 1
    return tuple(out)


def make(game: Game[Any], options: Mapping[str, Any], seat: int, seed: int) -> BeliefAgent:
    return BeliefAgent(options, seat, seed)
