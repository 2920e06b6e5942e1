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

from kumite.core.events import Event, private_and_public
from kumite.core.game import Decision, Outcome, State
from kumite.core.rng import Rng
from kumite.games.rivales import events as ev
from kumite.games.rivales import rounds as rd
from kumite.games.rivales.actions import action_to_choice, choice_to_action
from kumite.games.rivales.cards import Card, Catalog, Effect, Fighter
from kumite.games.rivales.decisions import FIGHTER, OVER, PLAY
from kumite.games.rivales.effects import Check, PassiveBonus
from kumite.games.rivales.fight import Fight
from kumite.games.rivales.options import Options
from kumite.games.rivales.phases import ENTER as _ENTER
from kumite.games.rivales.phases import HANDLERS as _HANDLERS
from kumite.games.rivales.table import HIDDEN, Line, Slot, energy
from kumite.games.rivales.view import build_view

# _ENTER, _HANDLERS: module globals, read faster than class attributes through an instance
# (once per step)

if TYPE_CHECKING:
    from kumite.games.rivales.game import Rivales

BOOST_WORDS = {"none": "no", "damage": "Damage", "speed": "Speed", "both": "Speed and Damage"}
__all__ = ["PLAY", "Fight", "RivalesState"]  # what lookahead reads here


_SHARED = (  # never a list, dict or set: a copy shares these (tests/test_conformance.py)
    "game",
    "seed",
    "opts",
    "catalog",
    "two",
    "n",
    "seats",
    "team_of",
    "teams",
    "zones",
    "clashes_per_round",
    "rng",
    "round",
    "final",
    "finals",
    "last_winner",
    "clash",
    "fi",
    "waiting",
    "round_over",
    "passives",
    "end_passives",
    "persona_decisions",
    "boost_costs",
    "boost_key",
    "boost_by_choice",
    "phase",
    "_outcome",
    "_pending",
)
"""Attributes a :meth:`RivalesState.fork` shares with its original (immutable values,
or tables never changed after the set-up)."""
_COPIED = (
    "history",
    "fighters",
    "who",
    "deck",
    "hand",
    "marker",
    "ultra",
    "ultra_due",
    "taken",
    "ko",
    "ready",
    "ready_zone",
    "carry",
    "known",
    "seen",
    "no_basic_zone",
    "no_basic_facing",
    "restricted",
    "lines",
    "zone_of",
    "fights",
    "caused",
    "rounds_won",
    "_opening",
    "_forced",
)
"""Attributes a fork copies (see :meth:`RivalesState.fork`)."""


class RivalesState(State):
    """One position of a Rivales fight.

    Its attributes are slots: CPython 3.11 shares an instance dict's keys, and so
    specialises look-ups of its attributes and methods, for at most 30 attributes; a
    state has more, and the engine reads them a few thousand times a fight. The base
    class still gives a ``__dict__`` (``quiet`` and :attr:`is_terminal` live there)."""

    __slots__ = _SHARED + _COPIED

    is_terminal: bool = False
    """Whether the fight is over (set with the outcome, by :func:`.rounds.finish`):
    :attr:`State.is_terminal` as a plain attribute, since every simulation loop reads it
    once per step and a property costs a Python call each time."""

    def __init__(
        self, game: Rivales, seed: int, options: Options, catalog: Catalog, rng: Rng | None = None
    ) -> None:
        self.game = game
        self.seed = seed
        self.history = []
        self.opts = options
        self.catalog = catalog
        self.two = options.mode == "2v2"
        n = 4 if self.two else 2
        self.n = n
        self.seats = tuple(range(n))
        self.team_of = tuple(s // 2 for s in range(n)) if self.two else (0, 1)
        self.teams: tuple[tuple[int, ...], ...] = ((0, 1), (2, 3)) if self.two else ((0,), (1,))
        self.zones = 2 if self.two else 1
        self.clashes_per_round = catalog.rules.clashes_per_round
        self.rng = Rng(seed) if rng is None else rng
        self.fighters: list[Fighter | None] = [None] * n
        self.who = [f"P{s + 1}" for s in range(n)]
        self.round = 0
        self.final = False
        self.finals = 0
        self.rounds_won = [0, 0]
        self.last_winner: int | None = None
        self.clash = 0
        self.deck: list[list[Card]] = [[] for _ in range(n)]
        self.hand: list[list[Card]] = [[] for _ in range(n)]
        self.marker: list[Card | None] = [None] * n
        self.ultra: list[Card | None] = [None] * n
        """The ultra card set aside face up; None once taken."""
        self.ultra_due = [False] * n
        self.taken = [0] * n
        self.ko = [False] * n
        self.ready: list[Card | None] = [None] * n
        """A card left face up by a dodge: the seat's card of the next clash."""
        self.ready_zone = [0] * n
        self.carry = [[0, 0, 0] for _ in range(n)]
        """Bonuses (Speed, Damage, Guard) for the seat's next card."""
        self.known: dict[tuple[int, int], set[str]] = {}
        """(viewer, owner) -> ids of cards the viewer has seen in the owner's hand (Lluvia de
        Sombreros), until they are revealed or left face up."""
        self.seen: list[set[str]] = [set() for _ in range(n)]
        """Per seat, ids of cards everyone saw go into its hand (a dodge's card sent back by
        Pinzas de Mantis), until they are revealed; its ultra, once taken, is too (see
        :meth:`public_held`)."""
        self.no_basic_zone: set[tuple[int, int]] = set()
        self.no_basic_facing: set[tuple[int, int]] = set()
        self.restricted: set[int] = set()
        self.lines: list[list[Line]] = [[[], []] for _ in range(self.zones)]
        self.zone_of = [-1] * n
        self.fights: list[Fight] = []
        self.fi = 0
        self.waiting = ""
        """Inside ``resolve``: ``effect`` or ``guard`` while a player decides."""
        self.caused: set[int] = set()
        self.round_over = False
        self.passives: tuple[tuple[PassiveBonus, ...], ...] = ((),) * n
        """Per seat, the passive bonuses acting on its card, compiled: its own and its
        teammates' abilities that benefit the team."""
        self.end_passives: tuple[tuple[tuple[Effect, Check | None], ...], ...] = ((),) * n
        """Per seat, its fighter's end-of-clash passives and their compiled requirements."""
        self.persona_decisions: tuple[Decision, ...] = ()
        """The decisions of the seats whose fighter chooses HANSEL or GRETEL every clash
        (the same every clash of the round: made at its set-up)."""
        self.boost_costs, self.boost_key, self.boost_by_choice = rd.boost_tables(self)
        self.phase = FIGHTER
        self._forced: dict[int, str] = {}
        self._outcome: Outcome | None = None
        self.is_terminal = False  # in the instance's dict, as the other attributes read hot
        self._pending: tuple[Decision, ...] | None = None
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

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def pending(self) -> tuple[Decision, ...]:
        return self._pending or ()

    def clone(self) -> Self:
        other = self.fork()
        other.rng = self.rng.clone()
        return other

    def fork(self) -> Self:
        """A copy sharing this state's random stream: for looking one clash ahead, where
        no card is shuffled (faster than :meth:`clone`; not independent for chance)."""
        other = self.fork_for_clash()
        # ... with its own copy of what fork_for_clash shares
        other.history = [dict(step) for step in self.history]
        other.fighters = list(self.fighters)
        other.who = list(self.who)
        other.deck = [list(d) for d in self.deck]
        other.marker = list(self.marker)
        other.ultra = list(self.ultra)
        other.zone_of = list(self.zone_of)
        other._opening = list(self._opening)
        other._forced = dict(self._forced)
        return other

    def fork_for_clash(self) -> Self:
        """:meth:`fork` for :func:`~.lookahead.quick_clash` alone, which plays one clash
        through the engine's functions and stops at its end: it also shares what that
        never changes (the history, decks, life markers, set-aside ultras, fighters, zones
        called, the opening events) instead of copying it."""
        other = self._shared_copy()
        other.history = self.history
        other.fighters = self.fighters
        other.who = self.who
        other.deck = self.deck
        other.hand = [list(h) for h in self.hand]
        other.marker = self.marker
        other.ultra = self.ultra
        other.ultra_due = list(self.ultra_due)
        other.taken = list(self.taken)
        other.ko = list(self.ko)
        other.ready = list(self.ready)
        other.ready_zone = list(self.ready_zone)
        other.carry = [list(c) for c in self.carry]
        other.known = {k: set(v) for k, v in self.known.items()} if self.known else {}
        other.seen = [set(x) for x in self.seen]
        other.no_basic_zone = set(self.no_basic_zone)
        other.no_basic_facing = set(self.no_basic_facing)
        other.restricted = set(self.restricted)
        other.lines = [
            [[Slot(s.card, s.owner, s.side) for s in line] for line in zone] for zone in self.lines
        ]
        other.zone_of = self.zone_of
        other.fights = [f.copy() for f in self.fights]
        other.caused = set(self.caused)
        other.rounds_won = list(self.rounds_won)
        other._opening = self._opening
        other._forced = self._forced
        return other

    def _shared_copy(self) -> Self:
        """A new state with this one's instance dict and :data:`_SHARED` attributes."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        # _SHARED, one by one: a plain assignment to a slot costs a fraction of a setattr
        # call (a fork is made at every step of a search; tests check that none is missed)
        other.game = self.game
        other.seed = self.seed
        other.opts = self.opts
        other.catalog = self.catalog
        other.two = self.two
        other.n = self.n
        other.seats = self.seats
        other.team_of = self.team_of
        other.teams = self.teams
        other.zones = self.zones
        other.clashes_per_round = self.clashes_per_round
        other.rng = self.rng
        other.round = self.round
        other.final = self.final
        other.finals = self.finals
        other.last_winner = self.last_winner
        other.clash = self.clash
        other.fi = self.fi
        other.waiting = self.waiting
        other.round_over = self.round_over
        other.passives = self.passives
        other.end_passives = self.end_passives
        other.persona_decisions = self.persona_decisions
        other.boost_costs = self.boost_costs
        other.boost_key = self.boost_key
        other.boost_by_choice = self.boost_by_choice
        other.phase = self.phase
        other._outcome = self._outcome
        other._pending = self._pending
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

    # -- helpers used by effects and the clash ---------------------------------------------
    def fighter(self, seat: int) -> Fighter:
        f = self.fighters[seat]
        assert f is not None, "no fighter chosen yet"
        return f

    def life(self, seat: int) -> int:
        f = self.fighters[seat]
        if f is None:
            return 0
        return max(0, f.life - self.taken[seat])

    def _set_fighter(self, seat: int, fighter: Fighter) -> None:
        self.fighters[seat] = fighter
        # A new list: clones share the old one (fork copies no label list).
        self.who = [*self.who[:seat], f"P{seat + 1} {fighter.name}", *self.who[seat + 1 :]]

    def leave_face_up(
        self, seat: int, card: Card, zone: int, out: list[Event] | None, rule: str
    ) -> None:
        """A dodge leaves ``card`` from ``seat``'s hand face up for the next clash."""
        self.hand[seat].remove(card)
        self.forget(seat, card)
        self.ready[seat] = card
        self.ready_zone[seat] = zone
        if out is not None:
            out.append(
                ev.DodgeCardLeft(
                    rule="rv.dodge", seat=seat, who=self.who[seat], card=card.id, name=card.name
                )
            )

    def show_hand(self, seat: int, to: int, out: list[Event] | None, rule: str) -> None:
        """``seat`` shows its hand to ``to`` only (Lluvia de Sombreros)."""
        cards = self.hand[seat]
        self.known.setdefault((to, seat), set()).update(c.id for c in cards)
        if out is not None:
            shown = ev.HandShown(
                rule=rule,
                seat=seat,
                who=self.who[seat],
                to_seat=to,
                to_who=self.who[to],
                cards=tuple(c.id for c in cards),
                names=tuple(c.name for c in cards),
            )
            out += private_and_public(shown, to, cards=(), names=())

    def forbid_basics(self, seat: int, zone: int, out: list[Event] | None, rule: str) -> None:
        """``seat``'s rival may not play basic cards next clash (Pinzas de Mantis)."""
        rival_team = 1 - self.team_of[seat]
        if self.two and self.opts.pinzas == "facing":
            self.no_basic_facing.add((rival_team, seat))
            target = "The rival facing " + self.who[seat]
        else:
            self.no_basic_zone.add((rival_team, zone))
            target = (
                f"The rival in Zone {zone + 1}" if self.two else self.who[self.teams[rival_team][0]]
            )
        if out is not None:
            out.append(ev.NoBasicNextClash(rule=rule, seat=seat, who=self.who[seat], target=target))

    def forget(self, seat: int, card: Card) -> None:
        """``card`` left ``seat``'s hand in sight (revealed, or left face up by a dodge)."""
        for (_, owner), ids in self.known.items():
            if owner == seat:
                ids.discard(card.id)
        self.seen[seat].discard(card.id)

    def public_held(self, seat: int) -> set[str]:
        """Ids of cards everyone knows ``seat`` holds, in hand or played face down this clash:
        cards seen going into the hand, and the ultra once taken (rv.end.ultra: it is picked
        up face up, and only the reveal or a dodge shows it leave)."""
        out = set(self.seen[seat])
        fighter = self.fighters[seat]
        if fighter is not None and self.ultra[seat] is None and self.round:
            ultra = fighter.ultra
            if ultra in self.hand[seat] or any(
                slot.card is ultra and slot.owner == seat and slot.side == HIDDEN
                for zone in self.lines
                for line in zone
                for slot in line
            ):
                out.add(ultra.id)
        return out

    def damage(self, seat: int, amount: int, out: list[Event] | None, rule: str) -> None:
        """``seat`` receives ``amount`` Damage: the life marker moves, maybe uncovering the
        ultra icon or K.O."""
        if amount <= 0:
            return
        fighter = self.fighters[seat]
        assert fighter is not None, "no fighter chosen yet"
        before = self.taken[seat]
        self.taken[seat] = before + amount
        if out is not None:
            out.append(
                ev.DamageTaken(
                    rule="rv.damage.life-marker",
                    seat=seat,
                    who=self.who[seat],
                    amount=amount,
                    life=self.life(seat),
                    life_max=fighter.life,
                )
            )
        if before < fighter.ultra_at <= self.taken[seat] and self.ultra[seat] is not None:
            self.ultra_due[seat] = True
            if out is not None:
                out.append(
                    ev.UltraIconUncovered(rule="rv.end.ultra", seat=seat, who=self.who[seat])
                )
        if self.taken[seat] >= fighter.life and not self.ko[seat]:
            self.ko[seat] = True
            if out is not None:
                out.append(ev.KnockedOut(rule="rv.end.ko", seat=seat, who=self.who[seat]))
        for e in fighter.damaged:
            rd.passive_on_damage(self, seat, e, out)

    def playable(self, seat: int) -> tuple[str, ...]:
        """``play:<card>`` choices of ``seat`` this clash."""
        hand = self.hand[seat]
        if self.restricted and seat in self.restricted and any(not c.is_basic for c in hand):
            return tuple([c.play for c in hand if not c.is_basic])
        return tuple([c.play for c in hand])

    def zone_order_seat(self) -> int:
        """Who chooses which zone goes first (rv.ruling.zone-order): the caller of the team
        that won a clash most recently (option zone_order=winner), or of Team A on odd
        clashes and Team B on even ones (zone_order=alternate, and while nobody has won)."""
        turn = (self.clash - 1) % 2
        team = turn
        if self.opts.zone_order == "winner" and self.last_winner is not None:
            team = self.last_winner
        return self.teams[team][turn]

    def team_names(self) -> tuple[str, ...]:
        if not self.two:
            return (self.who[0], self.who[1])
        return tuple(" & ".join(self.who[s] for s in team) for team in self.teams)

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
        verb, _, rest = choice.partition(":")
        mine = [d for d in self.pending() if d.seat == seat]
        kinds = {d.kind for d in mine}
        fighter = self.fighters[seat] if 0 <= seat < self.n else None
        if verb in ("play", "marker") and verb in kinds:
            if fighter is None or rest not in fighter.by_id:
                return "no such card for your fighter"
            card = fighter.by_id[rest]
            if verb == "marker":
                drawn = len(mine[0].legal)
                return (
                    f"{card.name} is not among the {drawn} cards you drew "
                    "(the life marker is one of them)"
                )
            if card not in self.hand[seat]:
                return f"{card.name} is not in your hand"
            if card.is_basic and seat in self.restricted:
                return "you may not play basic cards this clash (Pinzas de Mantis)"
        if verb == "boost" and "boost" in kinds:
            if rest not in self.boost_costs:
                return f"no boost level {rest!r} (none, damage, speed or both)"
            cost = self.boost_costs[rest][0]
            have = sum(
                energy(self.lines[f.zone][f.seats.index(seat)])
                for f in self.fights
                if seat in f.seats
            )
            return f"a {BOOST_WORDS[rest]} boost costs {cost} energy; you have {have}"
        if verb == "guard" and "guard" in kinds:
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
