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

Where the matchup's side ships a book (:mod:`.book`: the base pack, default rules), the
first rounds (1 to :data:`~.book.ROUNDS`) are ``bounded``'s, read from the book, and its own
choice starts at round ``ROUNDS + 1``: an exact fight value from round 1 means solving each
believed cover's whole fight, seconds a move, where below a position of round 4 lie a few
thousand. The opponent model reads the opponent side's book too (the same floats as its
solve), so a move solves at most those small late positions (version ``belief-2``;
``belief-1`` played its own choice from round 1). Elsewhere (other packs or rules) it
plays its own choice from round 1, and its first move after a pair of shown cards it has
not met solves what the rest of the fight asks (:meth:`BeliefAgent.open`: the opponent
model's plans from round 1; every cover's fight from the current round, in one induction),
so later moves are look-ups. The solution and the positions it solves are shared by every
game of the process; it decides from its own view only.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from scipy.optimize import linprog

from kumite.core.game import Decision, Game
from kumite.games.sfrivals.cards import Character
from kumite.games.sfrivals.choice import SetUp
from kumite.games.sfrivals.legal import playable_cards
from kumite.games.sfrivals.resolve import Carry
from kumite.games.sfrivals.solver import background
from kumite.games.sfrivals.solver import warm as warm  # registers the kernels' loader
from kumite.games.sfrivals.solver.background import NotPrepared
from kumite.games.sfrivals.solver.book import ROUNDS, BookOnly, OffBook, side_book
from kumite.games.sfrivals.solver.fight import FightSolver, Position, setup_hand
from kumite.games.sfrivals.solver.offer import BELIEF_VERSION
from kumite.games.sfrivals.solver.setup import (
    MatchupSolution,
    known_shared_solution,
    shared_solution,
)
from kumite.games.sfrivals.solver.tight import (
    Round,
    opening_keys,
    play_distribution,
    rounds_of_view,
)

if TYPE_CHECKING:
    from kumite.games.sfrivals.solver.equilibrium import BoundedAgent

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
    version = BELIEF_VERSION
    prepare_in_background = False
    """At the web table (the bot pool sets it): never solve on a move (:mod:`.background`):
    until what a move needs is solved — in the background — ``bounded`` plays it (from its
    book), or ``greedy`` where ``bounded`` cannot either."""

    def __init__(
        self,
        options: Mapping[str, Any],
        seat: int,
        seed: int,
        epsilon: float = EPSILON,
        safety: float | None = None,
    ) -> None:
        self.options = {k: v for k, v in options.items() if k != "characters"}
        self.seat = seat
        self.epsilon = epsilon
        self.safety = safety
        """None: best response to the opponent model; else the most the agent's guarantee
        may drop below the safe one to follow the model (:func:`safe_mix`)."""
        self.rng = random.Random(seed)
        self._chars: tuple[str, str] | None = None
        self._bounded: BoundedAgent | None = None
        self._likelihood: dict[tuple[int, int], float] = {}
        """(round, cover type) -> the opponent model's probability of its card that round."""

    def solution(self, view: Mapping[str, Any]) -> MatchupSolution:
        """The matchup's shared solution (asked anew at each move: the process may have let
        go of an unused one, :mod:`.resident`)."""
        chars = (str(view["players"][0]["character"]), str(view["players"][1]["character"]))
        if self._chars != chars:
            self._chars = chars
            self._likelihood.clear()
        if self.prepare_in_background:
            found = known_shared_solution(chars, self.options)
            if found is None:  # never solved at a table (not offered there: registry)
                raise NotPrepared(f"{chars[0]} vs {chars[1]} is not solved")
            return found
        return shared_solution(chars, self.options)

    def choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        if decision.kind == "character":
            return self.rng.choice(decision.legal)
        if not self.prepare_in_background:
            return self._choose(view, decision)
        background.prepare_kernels()  # loaded in the background before a round needs them
        try:
            with background.table_move():
                return self._choose(view, decision)
        except NotPrepared:
            background.PREPARER.submit(self._job_key(view), lambda: self._prepare(view))
            background.fell_back(self.name)
            return self.fallback(view, decision)

    def _choose(self, view: Mapping[str, Any], decision: Decision) -> str:
        sol = self.solution(view)
        if decision.kind == "setup":
            mix = sol.setup[self.seat]
            legal = [c for c in decision.legal if mix.get(c, 0.0) > 0]
            if not legal:
                return self.rng.choice(decision.legal)
            return self.rng.choices(legal, weights=[mix[c] for c in legal])[0]
        if int(view["round"]) <= ROUNDS and side_book(sol, self.seat) is not None:
            return self._bounded_agent().play(view, decision)
        with self._holding(sol):
            self.open(view, sol)
            scores, games = self._evaluate(view, sol)
        if self.safety is not None and games.rows:
            safe = safe_mix(games, [scores[c] for c in games.rows], self.safety)
            return self.rng.choices(games.rows, weights=[float(p) for p in safe])[0]
        return max(decision.legal, key=lambda c: scores.get(c, -np.inf))

    def _job_key(self, view: Mapping[str, Any]) -> tuple[Any, ...]:
        """This bot's preparation (its latest position replaces one still queued)."""
        return ("belief", id(self))

    def _prepare(self, view: Mapping[str, Any]) -> None:
        """In the background: solve what this view's decision needs (nothing is played)."""
        sol = self.solution(view)
        with self._holding(sol):
            self.open(view, sol)
            self._evaluate(view, sol)

    @contextlib.contextmanager
    def _holding(self, sol: MatchupSolution) -> Iterator[None]:
        """The locks of what a choice solves: the solution's, and the opponent's book's
        (its late positions are solved by whichever bot of the process asks first)."""
        with contextlib.ExitStack() as stack:
            stack.enter_context(background.holding(sol.lock))
            book = side_book(sol, 1 - self.seat)
            if book is not None:
                stack.enter_context(background.holding(book.lock))
            yield

    def fallback(self, view: Mapping[str, Any], decision: Decision) -> str:
        """The declared fallback at the web table: ``bounded``'s move where its book or the
        positions already solved have it, else ``greedy``'s."""
        choice: str = self._bounded_agent().choose(view, decision)
        return choice

    def _bounded_agent(self) -> BoundedAgent:
        """``bounded`` in this seat: the first rounds' move where a book ships, and the
        fallback at the table (seeded from this agent's generator when first needed)."""
        if self._bounded is None:
            from kumite.games.sfrivals.solver.equilibrium import BoundedAgent

            self._bounded = BoundedAgent(self.options, self.seat, self.rng.getrandbits(64))
        self._bounded.prepare_in_background = self.prepare_in_background
        return self._bounded

    def open(self, view: Mapping[str, Any], sol: MatchupSolution) -> None:
        """Solve, in one induction, the first-round states of every plan the opponent model
        may follow (every cover of the card it showed, against the card this seat showed):
        the model's later questions in this fight are then look-ups. Done once per pair of
        shown cards and process (the solution's bound solver keeps them). Nothing to do
        where the opponent's side ships a book: its first rounds are read from it."""
        opp = 1 - self.seat
        if side_book(sol, opp) is not None:
            return
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
            c.index: mix.get(SetUp(c.id, shown).format(), 0.0)
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
            legal = [i for i in range(len(hand)) if hand[i] >= 1]
            try:
                model = play_distribution(
                    opp_view, _model_side(sol, 1 - self.seat), _plans(sol, 1 - self.seat)
                )
            except OffBook:  # the strategy never goes there: only the uniform part plays
                found = 1 / max(len(legal), 1)
            else:
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
        return self._evaluate(view, sol)[0]

    def _evaluate(
        self, view: Mapping[str, Any], sol: MatchupSolution
    ) -> tuple[dict[str, float], CoverGames]:
        """:meth:`scores`, and the round's game against each cover still believed in."""
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
        games: list[tuple[float, dict[str, np.ndarray]]] = []
        for c, pos in positions.items():
            w = posterior[c]
            node = fight.solve_node(pos)
            m = node.matrix if me == 0 else -node.matrix.T
            my_cards, opp_cards = node.cards[me], node.cards[opp]
            opp_index = {card.index: j for j, card in enumerate(opp_cards)}
            if revealed is None:
                games.append((w, {card.choice: m[i] for i, card in enumerate(my_cards)}))
            else:
                col = opp_index[revealed.index]
                games.append(
                    (w, {card.choice: m[i, col : col + 1] for i, card in enumerate(my_cards)})
                )
            for i, card in enumerate(my_cards):
                if revealed is not None:
                    value = float(m[i, opp_index[revealed.index]])
                else:
                    seen = card.id if now.reveal[0] else None  # its answer to this card
                    key = (opp_char.cards[c].id, seen)
                    model = answers.get(key)
                    if model is None:
                        model = answers[key] = self._answer(
                            view, sol, rounds, key[0], card.id, list(opp_index)
                        )
                    value = sum(
                        p * float(m[i, opp_index[b]]) for b, p in model.items() if b in opp_index
                    )
                out[card.choice] = out.get(card.choice, 0.0) + w * value
        rows = tuple(sorted(out))
        total = sum(w for w, _ in games)
        return out, CoverGames(
            rows,
            tuple((w / total, np.array([g[r] for r in rows])) for w, g in games),
            bool(now.reveal[0]) and revealed is None,
        )

    def _answer(
        self,
        view: Mapping[str, Any],
        sol: MatchupSolution,
        rounds: list[Round],
        cover: str,
        my_card: str,
        cards: list[int],
    ) -> dict[int, float]:
        """The modelled opponent's card this round (its strategy, given the agent's card if
        the agent reveals first), smoothed; uniform over ``cards`` (the opponent's) where
        the strategy never goes (:class:`~.book.OffBook`)."""
        t = len(rounds) - 1
        opp_view = self._opponent_view(view, sol, rounds, t, cover, my_card)
        try:
            model = play_distribution(
                opp_view, _model_side(sol, 1 - self.seat), _plans(sol, 1 - self.seat)
            )
        except OffBook:
            return {b: 1 / len(cards) for b in cards}
        n = len(model)
        return {b: (1 - self.epsilon) * p + self.epsilon / n for b, p in model.items()}


class CoverGames(NamedTuple):
    """This round's choice against each cover the agent still believes in: the exact fight
    values of its cards (``rows``) against the opponent's cards (one column, the card
    itself, once the opponent revealed)."""

    rows: tuple[str, ...]
    games: tuple[tuple[float, np.ndarray], ...]
    """(posterior weight, values[row, opponent's card]) per cover; the weights sum to 1."""
    seen_first: bool
    """The agent reveals first: the opponent answers its card, so only pure choices count."""


def safe_mix(games: CoverGames, scores: list[float], safety: float) -> np.ndarray:
    """Safe exploitation: the mix of ``games.rows`` with the best score against the opponent
    model among those whose **guarantee** — the posterior-weighted value when, for each
    cover, the opponent plays its best answer knowing the agent's mix (its own card, when
    the agent reveals first) — is within ``safety`` of the best guarantee. ``safety = 0``
    plays the safe mix alone; a large one, the model's best response.

    The guarantee of a mix ``x`` is ``sum_c w_c min_b (x @ A_c)[b]``; with the agent revealing
    first, only pure choices count. Both problems are linear programs (small: a round's
    cards)."""
    n = len(games.rows)
    u = np.asarray(scores, dtype=np.float64)
    if games.seen_first or n == 1 or all(a.shape[1] == 1 for _, a in games.games):
        worst = np.array([sum(w * float(a[i].min()) for w, a in games.games) for i in range(n)])
        allowed = worst >= worst.max() - safety - 1e-12
        best = int(np.argmax(np.where(allowed, u, -np.inf)))
        return _unit(n, best)
    k = len(games.games)
    # variables: x (n), then z (one per cover); z_c <= (x @ A_c)[b] for every column b
    a_ub, b_ub = [], []
    for c, (_, a) in enumerate(games.games):
        for b in range(a.shape[1]):
            row = np.zeros(n + k)
            row[:n] = -a[:, b]
            row[n + c] = 1.0
            a_ub.append(row)
            b_ub.append(0.0)
    a_eq = np.zeros((1, n + k))
    a_eq[0, :n] = 1.0
    bounds = [(0.0, None)] * n + [(None, None)] * k
    weights = np.array([w for w, _ in games.games])
    guard = np.concatenate([np.zeros(n), -weights])
    safe = linprog(guard, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0], bounds=bounds)
    if not safe.success:  # pragma: no cover - a bounded feasible LP
        return _unit(n, int(np.argmax(u)))
    floor = -float(safe.fun) - safety
    follow = linprog(
        np.concatenate([-u, np.zeros(k)]),
        A_ub=[*a_ub, guard],
        b_ub=[*b_ub, -floor + 1e-9],
        A_eq=a_eq,
        b_eq=[1.0],
        bounds=bounds,
    )
    x: np.ndarray = np.clip(np.asarray((follow if follow.success else safe).x[:n]), 0.0, None)
    out: np.ndarray = x / x.sum()
    return out


def _unit(n: int, i: int) -> np.ndarray:
    out = np.zeros(n)
    out[i] = 1.0
    return out


def _frame(sol: MatchupSolution, seat: int) -> Any:
    return sol.side(seat)


def _model_side(sol: MatchupSolution, seat: int) -> Any:
    """Where the opponent model reads ``seat``'s strategy: the side's shipped book (the
    same floats as the solve, its first rounds only looked up: :class:`~.book.OffBook`
    where the strategy never goes), else the bound solver's side."""
    book = side_book(sol, seat)
    return BookOnly(book) if book is not None else sol.side(seat)


def _plans(sol: MatchupSolution, seat: int) -> dict[str, float]:
    return sol.setup[seat] if sol.plans is None else sol.plans[seat]


def _hand(char: Character, ids: list[str]) -> tuple[int, ...]:
    out = [0] * len(char.cards)
    for cid in ids:
        out[char.card(cid).index] += 1
    return tuple(out)


SAFETY = 0.1
"""``belief-safe``: how far below the safe guarantee it may go to follow its model."""


def make(game: Game[Any], options: Mapping[str, Any], seat: int, seed: int) -> BeliefAgent:
    return BeliefAgent(options, seat, seed)


def make_safe(game: Game[Any], options: Mapping[str, Any], seat: int, seed: int) -> BeliefAgent:
    agent = BeliefAgent(options, seat, seed, safety=SAFETY)
    agent.name = "belief-safe"
    return agent
