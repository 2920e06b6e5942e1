"""The Rivales engine core: every field of a fight the rules read and change, and the helpers
effects and the clash call on it.

:class:`Engine` is the base of :class:`~.state.RivalesState`, which adds the game contract
(history, validation, views, actions). The split is for the compiled build (docs/speed.md):
compiled, ``Engine`` is a native class whose fields are C struct fields, so the engine's
functions (:mod:`.clash`, :mod:`.rounds`, :mod:`.phases`, :mod:`.effects`,
:mod:`.lookahead`), typed on it, read and write them without a Python attribute look-up.
Interpreted, its fields are slots.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from kumite.core.events import Event, private_and_public
from kumite.core.game import Decision, Outcome
from kumite.core.rng import Rng
from kumite.games.rivales import events as ev
from kumite.games.rivales import rounds as rd
from kumite.games.rivales.cards import Card, Catalog, Effect, Fighter
from kumite.games.rivales.fight import Fight
from kumite.games.rivales.lines import HIDDEN, Line, Slot
from kumite.games.rivales.options import Options

if TYPE_CHECKING:
    from kumite.games.rivales.effects import Check, PassiveBonus

# never a list, dict or set: a copy shares these (tests/games/rivales/test_properties.py)
SHARED = (
    "opts",
    "catalog",
    "two_vs_two",
    "seat_count",
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
    "fight_index",
    "waiting",
    "round_over",
    "passives",
    "end_passives",
    "persona_decisions",
    "boost_costs",
    "boost_key",
    "boost_by_choice",
    "phase",
    "is_terminal",
    "_outcome",
    "_pending",
)
"""Engine fields a copy shares with its original (immutable values, or tables never changed
after the set-up)."""
COPIED = (
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
    "_forced",
)
"""Engine fields a copy makes its own (see :meth:`.state.RivalesState.fork`)."""
FOR_CLASH = ("fighters", "who", "deck", "marker", "ultra", "zone_of", "_forced")
"""Of :data:`COPIED`, what a copy for one clash (:func:`copy_for_clash`) shares instead:
one clash never changes them."""


@mypyc_attr(allow_interpreted_subclasses=True)  # RivalesState, plain Python, derives from it
class Engine:
    """The fields of a fight. Interpreted, they are slots: CPython 3.11 shares an instance
    dict's keys, and so specialises look-ups, for at most 30 attributes; a fight has more."""

    __slots__ = SHARED + COPIED  # compiled: ignored (a native class has struct fields)

    # -- set up once ------------------------------------------------------------------
    opts: Options
    catalog: Catalog
    two_vs_two: bool
    """The 2vs2 mode: four seats in two teams, two zones (else 1vs1: two seats, one zone)."""
    seat_count: int
    """How many seats play: 2, or 4 in 2vs2."""
    seats: tuple[int, ...]
    team_of: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]
    zones: int
    clashes_per_round: int
    rng: Rng
    passives: tuple[tuple[PassiveBonus, ...], ...]
    """Per seat, the passive bonuses acting on its card, compiled: its own and its
    teammates' abilities that benefit the team."""
    end_passives: tuple[tuple[tuple[Effect, Check | None], ...], ...]
    """Per seat, its fighter's end-of-clash passives and their compiled requirements."""
    persona_decisions: tuple[Decision, ...]
    """The decisions of the seats whose fighter chooses HANSEL or GRETEL every clash (the
    same every clash of the round: made at its set-up)."""
    boost_costs: Mapping[str, tuple[int, int, int]]
    boost_key: tuple[int, ...]
    boost_by_choice: Mapping[str, tuple[int, int, int]]
    # -- progress ---------------------------------------------------------------------
    round: int
    final: bool
    finals: int
    last_winner: int | None
    clash: int
    fight_index: int
    """Which of :attr:`fights` the clash is resolving (zone by zone, in order)."""
    waiting: str
    """Inside ``resolve``: ``effect`` or ``guard`` while a player decides."""
    round_over: bool
    phase: str
    is_terminal: bool
    """Whether the fight is over (set with the outcome, by :func:`.rounds.finish`):
    :attr:`State.is_terminal` as a plain field, since every simulation loop reads it once
    per step and a property costs a Python call each time."""
    _outcome: Outcome | None
    _pending: tuple[Decision, ...] | None
    # -- players and their cards ----------------------------------------------------
    fighters: list[Fighter | None]
    who: list[str]
    deck: list[list[Card]]
    hand: list[list[Card]]
    marker: list[Card | None]
    ultra: list[Card | None]
    """The ultra card set aside face up; None once taken."""
    ultra_due: list[bool]
    taken: list[int]
    ko: list[bool]
    ready: list[Card | None]
    """A card left face up by a dodge: the seat's card of the next clash."""
    ready_zone: list[int]
    carry: list[list[int]]
    """Bonuses (Speed, Damage, Guard) for the seat's next card."""
    known: dict[tuple[int, int], set[str]]
    """(viewer, owner) -> ids of cards the viewer has seen in the owner's hand (Lluvia de
    Sombreros), until they are revealed or left face up."""
    seen: list[set[str]]
    """Per seat, ids of cards everyone saw go into its hand (a dodge's card sent back by
    Pinzas de Mantis), until they are revealed; its ultra, once taken, is too (see
    :meth:`public_held`)."""
    no_basic_zone: set[tuple[int, int]]
    no_basic_facing: set[tuple[int, int]]
    restricted: set[int]
    lines: list[list[Line]]
    zone_of: list[int]
    fights: list[Fight]
    caused: set[int]
    rounds_won: list[int]
    _forced: dict[int, str]

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

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
        if self.two_vs_two and self.opts.pinzas == "facing":
            self.no_basic_facing.add((rival_team, seat))
            target = "The rival facing " + self.who[seat]
        else:
            self.no_basic_zone.add((rival_team, zone))
            target = (
                f"The rival in Zone {zone + 1}"
                if self.two_vs_two
                else self.who[self.teams[rival_team][0]]
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
        if not self.two_vs_two:
            return (self.who[0], self.who[1])
        return tuple(" & ".join(self.who[s] for s in team) for team in self.teams)


def clash_copy(state: Engine) -> Engine:
    """A bare engine (no game contract: no history, views or decisions asked) copied from
    ``state`` for one clash played by :func:`.lookahead.quick_clash`: cheaper to make than a
    :class:`~.state.RivalesState`, and all that the engine's functions need."""
    other = Engine()
    copy_for_clash(other, state)
    return other


def copy_for_clash(other: Engine, self: Engine) -> None:
    """Make ``other`` a copy of ``self`` for one clash (:func:`.lookahead.quick_clash`): the
    :data:`SHARED` fields and :data:`FOR_CLASH` shared, the rest of :data:`COPIED` copied.
    Written out field by field: compiled, the engine's fields are not in a ``__dict__``
    (a test checks that none is left out)."""
    _share_for_clash(other, self)
    other.hand = [list(h) for h in self.hand]
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
        [[Slot(s.card, s.owner, s.side, s.cut) for s in line] for line in zone]
        for zone in self.lines
    ]
    other.fights = [f.copy() for f in self.fights]
    other.caused = set(self.caused)
    other.rounds_won = list(self.rounds_won)


def refill_for_clash(other: Engine, self: Engine) -> None:
    """:func:`copy_for_clash` again, into ``other``, an engine that :func:`clash_copy` made
    (and a clash since changed): the same copy of ``self``, written into ``other``'s own
    lists, sets, slots and fights rather than new ones. Greedy looks a thousand clashes
    ahead per fight; making and freeing a whole copy for each cost a third of a clash.

    Safe because nothing of ``other``'s that is written in place is shared: a clash copy
    owns every container of :data:`COPIED` outside :data:`FOR_CLASH`, and a clash only puts
    new containers or immutable values into them (tests/games/rivales/test_lookahead_fast.py
    compares clashes played this way with the state machine's)."""
    _share_for_clash(other, self)
    # index loops and item assignment: compiled, zip(strict=True), slice assignment and
    # ``del row[k:]`` each go through CPython's generic calls, and cost more than the copy
    for s in range(self.seat_count):
        other.hand[s] = list(self.hand[s])  # replaced by quick_clash for most seats
        mine, theirs = other.carry[s], self.carry[s]
        mine[0] = theirs[0]
        mine[1] = theirs[1]
        mine[2] = theirs[2]
        _refill_set(other.seen[s], self.seen[s])
        other.ultra_due[s] = self.ultra_due[s]
        other.taken[s] = self.taken[s]
        other.ko[s] = self.ko[s]
        other.ready[s] = self.ready[s]
        other.ready_zone[s] = self.ready_zone[s]
    if other.known or self.known:
        other.known = {k: set(v) for k, v in self.known.items()}
    _refill_set(other.no_basic_zone, self.no_basic_zone)
    _refill_set(other.no_basic_facing, self.no_basic_facing)
    _refill_set(other.restricted, self.restricted)
    lines, into = self.lines, other.lines
    for z in range(len(lines)):
        for t in range(2):
            line, row = lines[z][t], into[z][t]
            k = len(line)
            for i in range(k):
                slot = line[i]
                if i < len(row):
                    mine_slot = row[i]
                    mine_slot.card = slot.card
                    mine_slot.owner = slot.owner
                    mine_slot.side = slot.side
                    mine_slot.cut = slot.cut
                else:
                    row.append(Slot(slot.card, slot.owner, slot.side, slot.cut))
            while len(row) > k:
                row.pop()
    fights, theirs_fights = other.fights, self.fights
    if len(fights) == len(theirs_fights):
        for i in range(len(fights)):
            fights[i].refill(theirs_fights[i])
    else:
        other.fights = [f.copy() for f in theirs_fights]
    _refill_set(other.caused, self.caused)
    won, theirs_won = other.rounds_won, self.rounds_won
    won[0] = theirs_won[0]
    won[1] = theirs_won[1]


def _refill_set(mine: set[Any], theirs: set[Any]) -> None:
    # len(): compiled, a set's size is read directly, where its truth is a generic call
    if len(mine):
        mine.clear()
    if len(theirs):
        mine.update(theirs)


def _share_for_clash(other: Engine, self: Engine) -> None:
    """The fields a copy for one clash shares with ``self``: :data:`SHARED` and
    :data:`FOR_CLASH`."""
    other.opts = self.opts
    other.catalog = self.catalog
    other.two_vs_two = self.two_vs_two
    other.seat_count = self.seat_count
    other.seats = self.seats
    other.team_of = self.team_of
    other.teams = self.teams
    other.zones = self.zones
    other.clashes_per_round = self.clashes_per_round
    other.rng = self.rng
    other.passives = self.passives
    other.end_passives = self.end_passives
    other.persona_decisions = self.persona_decisions
    other.boost_costs = self.boost_costs
    other.boost_key = self.boost_key
    other.boost_by_choice = self.boost_by_choice
    other.round = self.round
    other.final = self.final
    other.finals = self.finals
    other.last_winner = self.last_winner
    other.clash = self.clash
    other.fight_index = self.fight_index
    other.waiting = self.waiting
    other.round_over = self.round_over
    other.phase = self.phase
    other.is_terminal = self.is_terminal
    other._outcome = self._outcome
    other._pending = self._pending
    # FOR_CLASH: shared
    other.fighters = self.fighters
    other.who = self.who
    other.deck = self.deck
    other.marker = self.marker
    other.ultra = self.ultra
    other.zone_of = self.zone_of
    other._forced = self._forced


def copy_rest(other: Engine, self: Engine) -> None:
    """After :func:`copy_for_clash`: ``other`` makes :data:`FOR_CLASH` its own too."""
    other.fighters = list(self.fighters)
    other.who = list(self.who)
    other.deck = [list(d) for d in self.deck]
    other.marker = list(self.marker)
    other.ultra = list(self.ultra)
    other.zone_of = list(self.zone_of)
    other._forced = dict(self._forced)
