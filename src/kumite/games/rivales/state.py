"""The Rivales state machine: fighters, rounds, clashes, 1vs1 and 2vs2.

A fight moves through phases. Decision phases wait for players (``fighter``, ``marker``,
``zones``, ``play``, ``persona``, ``boost`` and, inside ``resolve``, effect choices and
the defender's Guard boost); the others (``setup``, ``start-clash``, ``end-clash``) run on
their own. A decision with a single legal choice is applied without asking.

Seats: 1vs1 seats 0 and 1 (team = seat); 2vs2 seats 0-1 are team 0, seats 2-3 team 1.
"""

from __future__ import annotations

import random
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Self

from kumite.core.decision import new_decision
from kumite.core.events import Event
from kumite.core.game import Decision, Outcome, State
from kumite.core.rng import Rng
from kumite.games.rivales import clash as cl
from kumite.games.rivales import events as ev
from kumite.games.rivales import rounds as rd
from kumite.games.rivales.actions import action_to_choice, choice_to_action
from kumite.games.rivales.cards import Card, Catalog, Effect, Fighter
from kumite.games.rivales.effects import Check, PassiveBonus
from kumite.games.rivales.fight import Fight
from kumite.games.rivales.options import Options
from kumite.games.rivales.phases import (
    BOOST,
    END,
    FIGHTER,
    MARKER,
    ORDER,
    OVER,
    PERSONA,
    PLAY,
    PLAY_PROMPT,
    RESOLVE,
    SETUP,
    START,
    ZONES,
    decision,
)
from kumite.games.rivales.table import HIDDEN, UP, Line, Slot, energy
from kumite.games.rivales.view import build_view

if TYPE_CHECKING:
    from kumite.games.rivales.game import Rivales

ZONE_CHOICES = ("zone:1", "zone:2")
ORDER_CHOICES = ("order:1", "order:2")
ORDER_PROMPT = "Choose the zone resolved first: its boosts, then its clash; the other zone follows"
BOOST_WORDS = {"none": "no", "damage": "Damage", "speed": "Speed", "both": "Speed and Damage"}
__all__ = [
    "BOOST",
    "END",
    "FIGHTER",
    "MARKER",
    "ORDER",
    "OVER",
    "PERSONA",
    "PLAY",
    "RESOLVE",
    "SETUP",
    "START",
    "ZONES",
    "Fight",
    "RivalesState",
    "decision",
]


MARKER_PROMPT = "Choose the card that becomes your life marker (the other 4 are your hand)"


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
_read_shared = attrgetter(*_SHARED)


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

    def __init__(self, game: Rivales, seed: int, options: Options, catalog: Catalog) -> None:
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
        self.rng = Rng(seed)
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
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        for name, value in zip(_SHARED, _read_shared(self), strict=True):
            setattr(other, name, value)
        other.history = [dict(step) for step in self.history]
        other.fighters = list(self.fighters)
        other.who = list(self.who)
        other.deck = [list(d) for d in self.deck]
        other.hand = [list(h) for h in self.hand]
        other.marker = list(self.marker)
        other.ultra = list(self.ultra)
        other.ultra_due = list(self.ultra_due)
        other.taken = list(self.taken)
        other.ko = list(self.ko)
        other.ready = list(self.ready)
        other.ready_zone = list(self.ready_zone)
        other.carry = [list(c) for c in self.carry]
        other.known = {k: set(v) for k, v in self.known.items()}
        other.seen = [set(x) for x in self.seen]
        other.no_basic_zone = set(self.no_basic_zone)
        other.no_basic_facing = set(self.no_basic_facing)
        other.restricted = set(self.restricted)
        other.lines = [[[s.copy() for s in line] for line in zone] for zone in self.lines]
        other.zone_of = list(self.zone_of)
        other.fights = [f.copy() for f in self.fights]
        other.caused = set(self.caused)
        other.rounds_won = list(self.rounds_won)
        other._opening = list(self._opening)
        other._forced = dict(self._forced)
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

    def rivals(self, seat: int) -> tuple[int, ...]:
        return self.teams[1 - self.team_of[seat]]

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
            who, to_who = self.who[seat], self.who[to]
            out.append(
                ev.HandShown(
                    rule=rule,
                    to=frozenset({to}),
                    seat=seat,
                    who=who,
                    to_seat=to,
                    to_who=to_who,
                    cards=tuple(c.id for c in cards),
                    names=tuple(c.name for c in cards),
                )
            )
            out.append(
                ev.HandShown(
                    rule=rule, seat=seat, who=who, to_seat=to, to_who=to_who, cards=(), names=()
                )
            )

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

    # -- phases -------------------------------------------------------------------------
    def _enter_fighter(self, out: list[Event] | None) -> tuple[Decision, ...] | None:
        missing = [s for s in self.seats if self.fighters[s] is None]
        if not missing:
            self.phase = SETUP
            return None
        ids = self.catalog.fighter_choices
        if not self.two:
            return tuple(decision(s, "fighter", ids, "Choose your fighter") for s in missing)
        seat = missing[0]  # 2vs2: in seat order, teammates must differ
        mates = {self.fighters[m] for m in self.teams[self.team_of[seat]]} - {None}
        legal = tuple(f"fighter:{f.id}" for f in self.catalog.fighters.values() if f not in mates)
        return (decision(seat, "fighter", legal, "Choose your fighter (not your partner's)"),)

    def _on_fighter(self, choices: dict[int, str], out: list[Event] | None) -> None:
        for seat in sorted(choices):
            fighter = self.catalog.fighters[choices[seat].partition(":")[2]]
            self._set_fighter(seat, fighter)
            if out is not None:
                out.append(
                    ev.FighterChosen(
                        rule="rv.setup.fighter", seat=seat, who=self.who[seat], fighter=fighter.name
                    )
                )

    def _enter_setup(self, out: list[Event] | None) -> None:
        rd.setup_round(self, out)
        self.phase = MARKER
        return

    def _enter_marker(self, out: list[Event] | None) -> tuple[Decision, ...] | None:
        # not cached (as :func:`decision` would): the hands of a round rarely recur
        return tuple(
            [
                new_decision(s, "marker", tuple([c.mark for c in self.hand[s]]), MARKER_PROMPT)
                for s in self.seats
            ]
        )

    def _on_marker(self, choices: dict[int, str], out: list[Event] | None) -> None:
        for s in self.seats:
            card = self.fighter(s).by_id[choices[s].partition(":")[2]]
            self.hand[s].remove(card)
            self.marker[s] = card
            if out is not None:
                rule = "rv.setup.life-marker"
                out.append(
                    ev.LifeMarkerChosen(
                        rule=rule,
                        to=frozenset({s}),
                        seat=s,
                        who=self.who[s],
                        card=card.id,
                        name=card.name,
                    )
                )
                out.append(
                    ev.LifeMarkerChosen(rule=rule, seat=s, who=self.who[s], card=None, name=None)
                )
        self.phase = START

    def _enter_start(self, out: list[Event] | None) -> tuple[Decision, ...] | None:
        rd.start_clash(self, out)
        if self.two:
            self.phase = ZONES
            self.zone_of = [-1] * 4  # until the teams have chosen
            self.fights = []
            return None
        self.phase = PLAY
        fights = self.fights
        if fights:  # the fight of the last clash, made anew (1vs1 always has one zone)
            fights[0].reset()
        else:
            self.zone_of = [0, 0]
            self.fights = [Fight(0, (0, 1))]
        return self._enter_play(out)  # the next phase at once (as :meth:`_advance` would)

    def _enter_zones(self, out: list[Event] | None) -> tuple[Decision, ...] | None:
        waiting = []
        self._forced = {}
        for team in (0, 1):
            a, b = self.teams[team]
            caller = (a, b)[(self.clash - 1) % 2]
            bound = [s for s in (a, b) if self.ready[s] is not None]
            if bound:
                zone = self.ready_zone[bound[0]]
                if bound[0] != caller:
                    zone = 1 - zone
                self._forced[caller] = ZONE_CHOICES[zone]
            else:
                waiting.append(
                    decision(
                        caller,
                        "zones",
                        ZONE_CHOICES,
                        "Call the zones for your team: the zone you play (your partner takes "
                        "the other)",
                    )
                )
        if waiting:
            return tuple(waiting)
        self._on_zones(self._forced, out)
        self._forced = {}
        return None

    def _on_zones(self, choices: dict[int, str], out: list[Event] | None) -> None:
        for caller, choice in choices.items():
            zone = int(choice[-1]) - 1
            team = self.team_of[caller]
            partner = next(s for s in self.teams[team] if s != caller)
            self.zone_of[caller] = zone
            self.zone_of[partner] = 1 - zone
        self.fights = []
        for z in range(2):
            seats = tuple(next(s for s in self.teams[t] if self.zone_of[s] == z) for t in (0, 1))
            self.fights.append(Fight(z, (seats[0], seats[1])))
        if out is not None:
            out.append(
                ev.ZonesTaken(
                    rule="rv.2v2.zone-choice",
                    zones=tuple(tuple(self.who[s] for s in f.seats) for f in self.fights),
                )
            )
        self.phase = PLAY

    def _enter_play(self, out: list[Event] | None) -> tuple[Decision, ...] | None:
        if self.restricted or self.no_basic_zone or self.no_basic_facing:
            rd.compute_restrictions(self)
            if self.opts.pinzas_dodge == "back":
                self._return_ready_basics(out)
        ready = self.ready
        restricted = self.restricted
        hands = self.hand
        # not cached: hands recur in too many orders for a cache to pay (half the look-ups
        # missed)
        if self.n == 2 and not restricted and ready[0] is None and ready[1] is None:
            return (  # the common case, without a list to gather the decisions
                new_decision(0, "play", tuple([c.play for c in hands[0]]), PLAY_PROMPT),
                new_decision(1, "play", tuple([c.play for c in hands[1]]), PLAY_PROMPT),
            )
        waiting: list[Decision] = []
        for s in self.seats:
            if ready[s] is None:
                legal = self.playable(s) if restricted else tuple([c.play for c in hands[s]])
                waiting.append(new_decision(s, "play", legal, PLAY_PROMPT))
        if waiting:
            return tuple(waiting)
        self._on_play({}, out)  # every card was left face up by a dodge
        return None

    def _return_ready_basics(self, out: list[Event] | None) -> None:
        """Option pinzas_dodge=back: a basic card left face up by a dodge goes back to the
        hand of a seat Pinzas de Mantis binds, in sight of everyone (rv.ruling.pinzas-dodge)."""
        for s in sorted(self.restricted):
            card = self.ready[s]
            if card is None or not card.is_basic:
                continue
            self.ready[s] = None
            self.hand[s].append(card)
            self.seen[s].add(card.id)
            if out is not None:
                out.append(
                    ev.ReadyCardReturned(
                        rule="rv.ruling.pinzas-dodge",
                        seat=s,
                        who=self.who[s],
                        card=card.id,
                        name=card.name,
                    )
                )

    def playable(self, seat: int) -> tuple[str, ...]:
        """``play:<card>`` choices of ``seat`` this clash."""
        hand = self.hand[seat]
        if self.restricted and seat in self.restricted and any(not c.is_basic for c in hand):
            return tuple([c.play for c in hand if not c.is_basic])
        return tuple([c.play for c in hand])

    def _on_play(self, choices: dict[int, str], out: list[Event] | None) -> None:
        lines = self.lines
        ready_cards = self.ready
        fighters = self.fighters
        hands = self.hand
        for fight in self.fights:
            zone = lines[fight.zone]
            for t, s in enumerate(fight.seats):
                ready = ready_cards[s]
                if ready is not None:
                    card, side = ready, UP
                    ready_cards[s] = None
                else:
                    card = fighters[s].by_play[choices[s]]  # type: ignore[union-attr]  # chosen by now
                    hands[s].remove(card)
                    side = HIDDEN  # still known to be held by whoever saw it: until the reveal
                zone[t].append(Slot(card, s, side))
                if out is not None:
                    up = side == UP
                    out.append(
                        ev.CardPlayed(
                            rule="rv.dodge"
                            if up
                            else ("rv.2v2.preparation" if self.two else "rv.clash.play"),
                            seat=s,
                            who=self.who[s],
                            zone=fight.zone,
                            card=card.id if up else None,
                            name=card.name if up else None,
                        )
                    )
        self.phase = PERSONA if self.persona_decisions else self._after_cards

    def _enter_persona(self, out: list[Event] | None) -> tuple[Decision, ...] | None:
        waiting = self.persona_decisions
        if waiting:
            return waiting
        self.phase = self._after_cards
        return None

    def _on_persona(self, choices: dict[int, str], out: list[Event] | None) -> None:
        for fight in self.fights:
            for t in (0, 1):
                s = fight.seats[t]
                if s in choices:
                    persona = choices[s].partition(":")[2]
                    fight.persona[t] = persona
                    if out is not None:
                        out.append(
                            ev.PersonaChosen(
                                rule="rv.ruling.persona-order",
                                seat=s,
                                who=self.who[s],
                                persona=persona,
                            )
                        )
        self.phase = self._after_cards

    @property
    def _after_cards(self) -> str:
        """The phase once the cards are down (and HANSEL or GRETEL called): 2vs2 first
        chooses the order of the zones."""
        return ORDER if self.two else BOOST

    def zone_order_seat(self) -> int:
        """Who chooses which zone goes first (rv.ruling.zone-order): the caller of the team
        that won a clash most recently (option zone_order=winner), or of Team A on odd
        clashes and Team B on even ones (zone_order=alternate, and while nobody has won)."""
        turn = (self.clash - 1) % 2
        team = turn
        if self.opts.zone_order == "winner" and self.last_winner is not None:
            team = self.last_winner
        return self.teams[team][turn]

    def _enter_order(self, out: list[Event] | None) -> tuple[Decision, ...] | None:
        return (decision(self.zone_order_seat(), "zone-order", ORDER_CHOICES, ORDER_PROMPT),)

    def _on_order(self, choices: dict[int, str], out: list[Event] | None) -> None:
        ((seat, choice),) = choices.items()
        first = int(choice[-1]) - 1
        if self.fights[0].zone != first:
            self.fights.reverse()  # boosts, resolution and the end of the clash go in order
        if out is not None:
            out.append(
                ev.ZoneOrderChosen(
                    rule="rv.ruling.zone-order",
                    seat=seat,
                    who=self.who[seat],
                    team=("Team A", "Team B")[self.team_of[seat]],
                    first=first,
                )
            )
        self.phase = BOOST

    def _enter_boost(self, out: list[Event] | None) -> tuple[Decision, ...] | None:
        waiting = rd.boost_decisions(self)
        if waiting:
            return waiting
        self.phase = RESOLVE
        self.fi = 0
        return self._enter_resolve(out)  # at once, as :meth:`_advance` would (every clash)

    def _on_boost(self, choices: dict[int, str], out: list[Event] | None) -> None:
        rd.apply_boosts(self, choices, out)

    def _enter_resolve(self, out: list[Event] | None) -> tuple[Decision, ...] | None:
        waiting = cl.resolve(self, out)
        if waiting is not None:
            for fight in self.fights:
                fight.release()  # no reference cycle left in a state waiting for a player
            return waiting
        self.phase = END
        return self._enter_end(out)  # at once, as :meth:`_advance` would

    def _on_resolve(self, choices: dict[int, str], out: list[Event] | None) -> None:
        cl.on_choice(self, choices, out)

    def _enter_end(self, out: list[Event] | None) -> tuple[Decision, ...] | None:
        rd.end_clash(self, out)
        if self.phase == START:
            return self._enter_start(out)  # the next clash at once (as :meth:`_advance` would)
        return None

    _ENTER: ClassVar[dict[str, Any]] = {
        FIGHTER: _enter_fighter,
        SETUP: _enter_setup,
        MARKER: _enter_marker,
        START: _enter_start,
        ZONES: _enter_zones,
        PLAY: _enter_play,
        PERSONA: _enter_persona,
        ORDER: _enter_order,
        BOOST: _enter_boost,
        RESOLVE: _enter_resolve,
        END: _enter_end,
    }
    _HANDLERS: ClassVar[dict[str, Any]] = {
        FIGHTER: _on_fighter,
        MARKER: _on_marker,
        ZONES: _on_zones,
        PLAY: _on_play,
        PERSONA: _on_persona,
        ORDER: _on_order,
        BOOST: _on_boost,
        RESOLVE: _on_resolve,
    }

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


# module globals: read faster than class attributes through an instance (once per step)
_ENTER = RivalesState._ENTER
_HANDLERS = RivalesState._HANDLERS
