"""The Rivales state machine: fighters, rounds, clashes, 1vs1 and 2vs2.

A fight moves through phases. Decision phases wait for players (``fighter``, ``marker``,
``zones``, ``play``, ``persona``, ``boost`` and, inside ``resolve``, effect choices and
the defender's Guard boost); the others (``setup``, ``start-clash``, ``end-clash``) run on
their own. A decision with a single legal choice is applied without asking.

Seats: 1vs1 seats 0 and 1 (team = seat); 2vs2 seats 0-1 are team 0, seats 2-3 team 1.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Self

from kumite.core.choice import ChoiceSyntaxError
from kumite.core.events import Event
from kumite.core.game import Decision, State
from kumite.core.rng import Rng
from kumite.games.rivales import rounds as rd
from kumite.games.rivales.actions import action_to_choice, choice_to_action
from kumite.games.rivales.cards import Catalog
from kumite.games.rivales.choice import Boost, Guard, Marker, Play, parse
from kumite.games.rivales.decisions import FIGHTER, OVER, PLAY
from kumite.games.rivales.engine import Engine, copy_for_clash, copy_rest
from kumite.games.rivales.fight import Fight
from kumite.games.rivales.lines import HIDDEN, energy
from kumite.games.rivales.options import Options
from kumite.games.rivales.phases import ENTER as _ENTER
from kumite.games.rivales.phases import HANDLERS as _HANDLERS
from kumite.games.rivales.view import build_view

# _ENTER, _HANDLERS: module globals, read faster than class attributes through an instance
# (once per step)

if TYPE_CHECKING:
    from kumite.games.rivales.game import Rivales

BOOST_WORDS = {"none": "no", "damage": "Damage", "speed": "Speed", "both": "Speed and Damage"}
__all__ = ["PLAY", "Fight", "RivalesState"]  # what lookahead reads here


class RivalesState(Engine, State):
    """One position of a Rivales fight: the engine's fields (:class:`~.engine.Engine`) and
    the game contract around them."""

    __slots__ = ("_opening", "game", "history", "seed")

    def __init__(
        self, game: Rivales, seed: int, options: Options, catalog: Catalog, rng: Rng | None = None
    ) -> None:
        self.game = game
        self.seed = seed
        self.history = []
        self.opts = options
        self.catalog = catalog
        self.two_vs_two = options.mode == "2v2"
        n = 4 if self.two_vs_two else 2
        self.seat_count = n
        self.seats = tuple(range(n))
        self.team_of = tuple(s // 2 for s in range(n)) if self.two_vs_two else (0, 1)
        self.teams = ((0, 1), (2, 3)) if self.two_vs_two else ((0,), (1,))
        self.zones = 2 if self.two_vs_two else 1
        self.clashes_per_round = catalog.rules.clashes_per_round
        self.rng = Rng(seed) if rng is None else rng
        self.fighters = [None] * n
        self.who = [f"P{s + 1}" for s in range(n)]
        self.round = 0
        self.final = False
        self.finals = 0
        self.rounds_won = [0, 0]
        self.last_winner = None
        self.clash = 0
        self.deck = [[] for _ in range(n)]
        self.hand = [[] for _ in range(n)]
        self.marker = [None] * n
        self.ultra = [None] * n
        self.ultra_due = [False] * n
        self.taken = [0] * n
        self.ko = [False] * n
        self.ready = [None] * n
        self.ready_zone = [0] * n
        self.carry = [[0, 0, 0] for _ in range(n)]
        self.known = {}
        self.seen = [set() for _ in range(n)]
        self.no_basic_zone = set()
        self.no_basic_facing = set()
        self.restricted = set()
        self.lines = [[[], []] for _ in range(self.zones)]
        self.zone_of = [-1] * n
        self.fights = []
        self.fight_index = 0
        self.waiting = ""
        self.caused = set()
        self.round_over = False
        self.passives = ((),) * n
        self.end_passives = ((),) * n
        self.persona_decisions = ()
        self.boost_costs, self.boost_key, self.boost_by_choice = rd.boost_tables(self)
        self.phase = FIGHTER
        self._forced = {}
        self._outcome = None
        self.is_terminal = False
        self._pending = None
        if options.fighters is not None:
            for seat, fid in enumerate(options.fighters):
                if fid is not None:
                    self._set_fighter(seat, catalog.fighters[fid])
        self._opening: list[Event] = []
        """Events of the set-up done before the first decision; the first step returns them
        (unless the state is quiet by then)."""
        self._advance(self._opening)

    # -- contract -----------------------------------------------------------------------
    @property
    def players(self) -> tuple[int, ...]:
        return self.seats

    def pending(self) -> tuple[Decision, ...]:
        return self._pending or ()

    def clone(self) -> Self:
        other = self.fork()
        other.rng = self.rng.clone()
        return other

    def fork(self) -> Self:
        """A copy sharing this state's random stream: for looking one clash ahead, where
        no card is shuffled (faster than :meth:`clone`; not independent for chance)."""
        cls = type(self)
        other = cls.__new__(cls)
        other.__dict__.update(self.__dict__)  # quiet, when set
        other.game = self.game
        other.seed = self.seed
        other.history = [dict(step) for step in self.history]
        other._opening = list(self._opening)
        copy_for_clash(other, self)
        copy_rest(other, self)  # ... with its own copy of what a copy for a clash shares
        return other

    def apply_trusted(self, choices: dict[int, str]) -> list[Event]:
        """:meth:`State.apply_trusted`, with :meth:`_apply` and :meth:`_advance` inline
        for a quiet state (simulation and search)."""
        if self.quiet and not self._opening and not self._forced:
            self._pending = None
            _HANDLERS[self.phase](self, choices, None)
            enter = _ENTER
            while self.phase != OVER:
                waiting = enter[self.phase](self, None)
                if waiting is not None:
                    self._pending = waiting
                    break
            else:
                self._pending = ()
            self.history.append(choices)
            return []
        events = self._apply(choices)
        self.history.append(choices)
        return events

    def _apply(self, choices: dict[int, str]) -> list[Event]:
        out: list[Event] | None = None if self.quiet else []
        if self._opening:
            if out is not None:
                out += self._opening
            self._opening = []
        if self._forced:
            choices = {**self._forced, **choices}
            self._forced = {}
        self._pending = None
        _HANDLERS[self.phase](self, choices, out)
        self._advance(out)
        return out if out is not None else []

    def _advance(self, out: list[Event] | None) -> None:
        while self.phase != OVER:
            waiting = _ENTER[self.phase](self, out)
            if waiting is not None:
                self._pending = waiting
                return
        self._pending = ()

    # -- information ----------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """Resample what ``seat`` cannot see: the other seats' hands, decks, life markers and
        cards played face down this clash, the order of ``seat``'s own deck, and future
        shuffles. Cards the table saw stay where it saw them: a hand shown to ``seat``, an
        ultra taken face up and a card seen going back to the hand stay among the cards held
        (the hand or this clash's face-down card), and a seat bound by Pinzas de Mantis
        played a non-basic card if it held one."""
        other = self.clone()
        other.rng = Rng(rng.getrandbits(63))
        rng.shuffle(other.deck[seat])
        for o in self.seats:
            if o == seat or self.fighters[o] is None:
                continue
            kept = self.known.get((seat, o), set()) | self.public_held(o)
            hidden = [
                slot
                for zone in other.lines
                for line in zone
                for slot in line
                if slot.owner == o and slot.side == HIDDEN
            ]
            held = other.hand[o] + [slot.card for slot in hidden]
            fixed = [c for c in held if c.id in kept]
            pool = [c for c in held if c.id not in kept] + other.deck[o]
            marker = other.marker[o]
            if marker is not None:
                pool.append(marker)
            rng.shuffle(pool)
            free = len(held) - len(fixed)
            cards, pool = fixed + pool[:free], pool[free:]
            rng.shuffle(cards)
            bound = o in self.restricted and any(not c.is_basic for c in cards)
            for slot in hidden:
                pick = next(i for i, c in enumerate(cards) if not c.is_basic) if bound else -1
                slot.card = cards.pop(pick)
            other.hand[o] = cards
            if marker is not None:
                other.marker[o] = pool.pop()
            other.deck[o] = pool
        other._pending = None
        other._advance(None)  # decisions are recomputed from the resampled position
        return other

    def explain_illegal(self, seat: int, choice: str) -> str:
        """Why ``choice`` is not legal for ``seat`` now, in one line, from what the seat
        may know (its own cards, the public table)."""
        try:
            typed = parse(choice)
        except ChoiceSyntaxError as exc:
            return exc.reason
        mine = [d for d in self.pending() if d.seat == seat]
        kinds = {d.kind for d in mine}
        fighter = self.fighters[seat] if 0 <= seat < self.seat_count else None
        if isinstance(typed, Play | Marker) and typed.verb in kinds:
            if fighter is None or typed.card not in fighter.by_id:
                return "no such card for your fighter"
            card = fighter.by_id[typed.card]
            if isinstance(typed, Marker):
                drawn = len(mine[0].legal)
                return (
                    f"{card.name} is not among the {drawn} cards you drew "
                    "(the life marker is one of them)"
                )
            if card not in self.hand[seat]:
                return f"{card.name} is not in your hand"
            if card.is_basic and seat in self.restricted:
                return "you may not play basic cards this clash (Pinzas de Mantis)"
        if isinstance(typed, Boost) and "boost" in kinds:
            cost = self.boost_costs[typed.level][0]
            have = sum(
                energy(self.lines[f.zone][f.seats.index(seat)])
                for f in self.fights
                if seat in f.seats
            )
            return f"a {BOOST_WORDS[typed.level]} boost costs {cost} energy; you have {have}"
        if isinstance(typed, Guard) and "guard" in kinds:
            most = len(mine[0].legal) - 1
            return f"you have {most} energy to exhaust for Guard (guard:0 to guard:{most})"
        if kinds:
            return f"a {'/'.join(sorted(kinds))} decision is pending: {mine[0].prompt}"
        return "not among the legal choices"

    # -- actions ------------------------------------------------------------------------

    def choice_to_action(self, seat: int, choice: str) -> int:
        return choice_to_action(self, seat, choice)

    def action_to_choice(self, seat: int, action: int) -> str:
        return action_to_choice(self, seat, action)
