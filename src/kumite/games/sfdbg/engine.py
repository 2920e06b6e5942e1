"""The SF DBG engine core: zones, the frame machine and the basic card movements.

Card effects and the turn are resolved by a small machine: a stack of immutable *frames*
(``(kind, ...)`` tuples handled by :data:`HANDLERS`) runs until one of them needs a player's
decision, which it records as a :class:`Request`. A request's legal choices are computed from
the state when asked (:data:`KINDS`), so a determinised copy of the state recomputes them from
the resampled hands. Because frames and requests are immutable, cloning a state mid-attack is
a shallow copy of the stack.

Zones hold card types (indices into the catalog's cards). Decks and the main deck have their
top at the *end* of the list.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import mypyc_attr

from kumite.core.events import Event, private_and_public
from kumite.core.game import Outcome
from kumite.core.rng import Rng, shuffle
from kumite.games.sfdbg import events as ev
from kumite.games.sfdbg.cards import Card, Catalog, Hero
from kumite.games.sfdbg.choice import Name
from kumite.games.sfdbg.options import Options

if TYPE_CHECKING:
    from kumite.games.sfdbg.turn import Tables

Frame = tuple[Any, ...]
EMPTY: Final = -1
"""An empty Line-Up slot; also "no card" / "no boss"."""


class Ctx:
    """Who an effect applies to and why. Immutable: its fields are ``Final`` (mypy rejects
    writes, and the compiled build also refuses them at run time).

    This and :class:`Request` are plain slotted classes rather than named tuples: the
    compiled build (docs/speed.md) makes them native, built and read in C, while a named
    tuple is built through its Python ``__new__``."""

    __slots__ = ("card", "gift", "hero", "me", "named", "other", "trigger")

    me: Final[int]
    """The player the effect applies to ("you" for your own cards, the foe for an Attack)."""
    card: Final[int]
    """The card whose text this is (``-1`` for a Super Hero's Counter-Attack)."""
    other: Final[int | None]
    """The attacker, for effects on a foe hit by an Attack or on a defender."""
    hero: Final[int]
    """The Super Hero whose Counter-Attack this is."""
    named: Final[Name | None]
    """The type or cost named by the attacker (Psycho Punisher...)."""
    gift: Final[int]
    """The card an attacker gives this foe (Ultimate Atomic Buster)."""
    trigger: Final[int]
    """The card that triggered a Location's Ongoing ability."""

    def __init__(
        self,
        me: int,
        card: int,
        other: int | None = None,
        hero: int = -1,
        named: Name | None = None,
        gift: int = -1,
        trigger: int = -1,
    ) -> None:
        self.me = me
        self.card = card
        self.other = other
        self.hero = hero
        self.named = named
        self.gift = gift
        self.trigger = trigger

    def aimed(self, me: int, other: int | None) -> Ctx:
        """This context applied to ``me`` on behalf of ``other``."""
        return Ctx(me, self.card, other, self.hero, self.named, self.gift, self.trigger)

    def __repr__(self) -> str:
        return (
            f"Ctx(me={self.me}, card={self.card}, other={self.other}, hero={self.hero}, "
            f"named={self.named!r}, gift={self.gift}, trigger={self.trigger})"
        )


class Request:
    """A decision the machine is waiting for. Immutable (``Final`` fields, as :class:`Ctx`)."""

    __slots__ = ("data", "kind", "private", "seat")

    seat: Final[int]
    kind: Final[str]
    data: Final[tuple[Any, ...]]
    private: Final[bool]
    """Its legal choices depend on the seat's hand: never answered automatically, so that
    whether a seat is asked reveals nothing."""

    def __init__(
        self, seat: int, kind: str, data: tuple[Any, ...] = (), private: bool = False
    ) -> None:
        self.seat = seat
        self.kind = kind
        self.data = data
        self.private = private

    def __repr__(self) -> str:
        return f"Request({self.seat}, {self.kind!r}, {self.data!r}, {self.private})"


@dataclasses.dataclass(frozen=True, slots=True)
class Kind:
    """How to list, explain and apply one kind of decision."""

    legal: Callable[[Engine, Request], tuple[str, ...]]
    answer: Callable[[Engine, Request, str, list[Event]], None]
    prompt: Callable[[Engine, Request], str]


HANDLERS: Final[dict[str, Callable[[Engine, Frame, list[Event]], None]]] = {}
#: The turn decision of each seat (immutable, so shared).
TURN_REQUESTS: Final = tuple(Request(seat, "turn", (), True) for seat in range(8))
KINDS: Final[dict[str, Kind]] = {}
#: ``_CLOCKWISE[n][seat]``: the other seats of an ``n``-player game, clockwise from ``seat``.
_CLOCKWISE: Final = tuple(
    tuple(tuple((seat + i) % n for i in range(1, n)) for seat in range(n)) for n in range(9)
)


def handler(kind: str) -> Callable[[Callable[[Engine, Frame, list[Event]], None]], Any]:
    """Register the handler of a frame kind."""

    def register(fn: Callable[[Engine, Frame, list[Event]], None]) -> Any:
        HANDLERS[kind] = fn
        return fn

    return register


@mypyc_attr(allow_interpreted_subclasses=True)  # SFDBGState, plain Python, derives from it
class Engine:
    """Zones and card movements shared by the turn, effects and attacks."""

    catalog: Catalog
    cards: tuple[Card, ...]
    heroes: tuple[Hero, ...]
    opts: Options
    seat_count: int
    """How many seats play (the ``players`` option)."""
    rng: Rng
    quiet: bool
    # players
    hero: list[int]
    hero_up: list[bool]
    deck: list[list[int]]
    hand: list[list[int]]
    revealed: list[list[int]]
    """Cards everyone knows are in each hand (revealed, or put there in sight)."""
    discard: list[list[int]]
    played: list[list[int]]
    locs: list[list[int]]
    under: list[list[int]]
    ultras: list[list[int]]
    # table
    main: list[int]
    main_top_known: bool
    lineup: list[int]
    kicks: int
    weak: int
    stages: list[int]
    stage_up: bool
    bosses: list[int]
    hero_discard: list[int]
    defeated: list[int]
    boss: int
    destroyed: list[int]
    box: list[int]
    aside: list[int]
    # the turn
    active: int
    turn: int
    power: int
    plays: list[int]
    stage_won: list[int]
    """Per seat, the Stage it defeated this turn (EMPTY: none): one a turn, whatever the route
    (``sfdbg.boss.one-per-turn``, ``sfdbg.ruling.stage-by-any-route``)."""
    cammy: bool
    yogi: bool
    loc_used: list[int]
    discount: int
    no_buy: bool
    ca_used: list[bool]
    cannot_avoid: list[bool]
    topdeck: list[int]
    hp_ultra: bool
    # the machine
    tables: Tables
    """The catalog's choice strings (:class:`.turn.Tables`)."""
    result: Outcome | None
    stack: list[Frame]
    request: Request | None
    over: bool

    _SEAT_LISTS = ("deck", "hand", "discard", "played", "locs", "under", "ultras")

    def copy_from(self, other: Engine) -> None:
        """Make ``self`` an independent copy of ``other``: every field of the engine, each
        mutable zone copied. Written out field by field: compiled, the engine's fields are
        not in a ``__dict__``. A test checks that none is left out."""
        self.quiet, self.catalog, self.cards = other.quiet, other.catalog, other.cards
        self.heroes, self.opts, self.seat_count, self.rng = (
            other.heroes,
            other.opts,
            other.seat_count,
            other.rng.clone(),
        )
        self.tables, self.result, self.request = other.tables, other.result, other.request
        self.over, self.stack = other.over, list(other.stack)
        # players
        self.hero, self.hero_up = list(other.hero), list(other.hero_up)
        self.deck = [list(z) for z in other.deck]
        self.hand = [list(z) for z in other.hand]
        self.revealed = [list(z) for z in other.revealed]
        self.discard = [list(z) for z in other.discard]
        self.played = [list(z) for z in other.played]
        self.locs = [list(z) for z in other.locs]
        self.under = [list(z) for z in other.under]
        self.ultras = [list(z) for z in other.ultras]
        # table
        self.main, self.main_top_known = list(other.main), other.main_top_known
        self.lineup, self.kicks, self.weak = list(other.lineup), other.kicks, other.weak
        self.stages, self.stage_up = list(other.stages), other.stage_up
        self.bosses, self.hero_discard = list(other.bosses), list(other.hero_discard)
        self.defeated, self.boss = list(other.defeated), other.boss
        self.destroyed, self.box, self.aside = (
            list(other.destroyed),
            list(other.box),
            list(other.aside),
        )
        # the turn
        self.active, self.turn, self.power = other.active, other.turn, other.power
        self.plays, self.stage_won = list(other.plays), list(other.stage_won)
        self.cammy, self.yogi, self.loc_used = other.cammy, other.yogi, list(other.loc_used)
        self.discount, self.no_buy = other.discount, other.no_buy
        self.ca_used, self.cannot_avoid = list(other.ca_used), list(other.cannot_avoid)
        self.topdeck, self.hp_ultra = list(other.topdeck), other.hp_ultra

    # -- helpers --------------------------------------------------------------------------
    def census(self) -> Counter[int]:
        """Every card of the game by index, wherever it is (stacks, decks, hands, piles, the
        Line-Up, under Super Heroes, set aside, destroyed, or unused in the box)."""
        count: Counter[int] = Counter()
        for name in ("main", "stages", "destroyed", "box", "aside"):
            count.update(getattr(self, name))
        count.update(c for c in self.lineup if c != EMPTY)
        for name in self._SEAT_LISTS:
            for zone in getattr(self, name):
                count.update(zone)
        count[self.catalog.kick] += self.kicks
        count[self.catalog.weakness] += self.weak
        return count

    def clockwise(self, seat: int) -> tuple[int, ...]:
        """The other seats in clockwise order, starting from the player on ``seat``'s left."""
        return _CLOCKWISE[self.seat_count][seat]

    def name(self, card: int) -> str:
        return self.cards[card].name

    def id(self, card: int) -> str:
        return self.cards[card].id

    def from_hand(self, seat: int, card: int) -> None:
        """Take ``card`` out of ``seat``'s hand (forgetting it was known to be there)."""
        self.hand[seat].remove(card)
        known = self.revealed[seat]
        if card in known:
            known.remove(card)

    def to_hand_in_sight(self, seat: int, card: int) -> None:
        """Put ``card`` into ``seat``'s hand where everyone sees it go."""
        self.hand[seat].append(card)
        self.revealed[seat].append(card)

    def known_in_hand(self, seat: int, card: int) -> None:
        """Everyone now knows ``seat`` holds ``card`` (revealed from his hand)."""
        known = self.revealed[seat]
        if known.count(card) < self.hand[seat].count(card):
            known.append(card)

    def shuffle_into_deck(self, seat: int, card: int) -> None:
        deck = self.deck[seat]
        deck.append(card)
        shuffle(self.rng, deck)

    # -- gaining and losing -----------------------------------------------------------------
    def moved(
        self, seat: int | None, card: int, verb: str, where: str, rule: str, out: list[Event]
    ) -> None:
        if not self.quiet:
            out.append(
                ev.CardMoved(
                    rule=rule,
                    seat=seat,
                    card=self.id(card),
                    name=self.name(card),
                    verb=verb,
                    where=where,
                )
            )

    def may_defeat(self, seat: int, card: int) -> bool:
        """Whether ``seat`` may buy or gain ``card`` this turn: not a second Stage, since a
        Stage bought or gained is a Stage defeated (``sfdbg.faq.defeat``,
        ``sfdbg.boss.one-per-turn``)."""
        return self.stage_won[seat] == EMPTY or self.cards[card].pile != "stage"

    def gained(self, seat: int, card: int, out: list[Event]) -> None:
        """``seat`` has bought or gained ``card``: a Stage, from anywhere (from under a Super
        Hero, a gift), is the Stage he defeats this turn (``sfdbg.faq.defeat``,
        ``sfdbg.ruling.stage-by-any-route``); Cammy, Delta Red counts it."""
        if self.cards[card].pile == "stage":
            self.stage_won[seat] = card
            if not self.quiet:
                name = self.name(card)
                note = f"defeats the Stage {name} (a Stage bought or gained is defeated)."
                out.append(ev.Noted(rule="sfdbg.faq.defeat", seat=seat, note=note))

    def gain_weakness(self, seat: int, out: list[Event], rule: str) -> bool:
        """``sfdbg.weakness.from-stack`` / ``sfdbg.weakness.runs-out``."""
        if self.weak <= 0:
            if not self.quiet:
                out.append(ev.NoWeaknessLeft(rule="sfdbg.weakness.runs-out", seat=seat))
            return False
        self.weak -= 1
        self.discard[seat].append(self.catalog.weakness)
        if not self.quiet:
            out.append(ev.WeaknessGained(rule=rule, seat=seat, left=self.weak))
        return True

    def destroy(self, seat: int, card: int, where: str, rule: str, out: list[Event]) -> None:
        """``sfdbg.destroy``: into the face-up pile of destroyed cards (never back to a stack)."""
        self.destroyed.append(card)
        self.moved(seat, card, "destroys", where, rule, out)

    def in_play(self, seat: int) -> list[int]:
        """``sfdbg.ruling.in-play``: cards played this turn, then Locations."""
        return self.played[seat] + self.locs[seat]

    def take_from_play(self, seat: int, card: int) -> bool:
        """Remove one ``card`` from ``seat``'s cards in play (played cards first)."""
        if card in self.played[seat]:
            self.played[seat].remove(card)
            return True
        if card in self.locs[seat]:
            self.locs[seat].remove(card)
            return True
        return False

    def next_hero(self) -> int:
        """The top of the face-down Super Hero stack (``sfdbg.variant.secret-heroes.defense``:
        when it runs out, the Super Hero discard pile is shuffled into a new stack)."""
        if not self.bosses and self.hero_discard:
            self.bosses = self.hero_discard
            self.hero_discard = []
            shuffle(self.rng, self.bosses)
        return self.bosses.pop() if self.bosses else EMPTY


# -- the machine ------------------------------------------------------------------------
# Functions, not methods: compiled, a method of the state is looked up like Python's (the
# state is a plain Python subclass), a function is called directly.


def run_frames(st: Engine, out: list[Event]) -> None:
    """Resolve frames until a decision is needed or the game is over."""
    stack = st.stack
    while True:
        req = st.request
        if req is not None:
            if req.private:
                return
            kind = KINDS[req.kind]
            legal = kind.legal(st, req)
            if len(legal) != 1:
                return
            # A forced choice on public information: nobody learns anything by skipping it.
            kind.answer(st, take_request(st), legal[0], out)
            continue
        if stack:
            frame = stack.pop()
            HANDLERS[frame[0]](st, frame, out)
            continue
        if not st.over:
            # The turn decision is private (it depends on the hand): never forced.
            st.request = TURN_REQUESTS[st.active]
        return


def push_effects(st: Engine, ctx: Ctx, effects: tuple[Any, ...]) -> None:
    """Resolve ``effects`` for ``ctx`` next. (A function, not an engine method, so that
    compiled code calls it directly: docs/speed.md.)"""
    if effects:
        st.stack.append(("effects", ctx, effects, 0))


def take_request(st: Engine) -> Request:
    """The pending request, cleared: answering it may ask another. (A function, so that
    no caller's type narrowing says ``st.request`` is still ``None`` after the answer,
    which compiled code would trust.)"""
    req = st.request
    assert req is not None
    st.request = None
    return req


def ask(
    st: Engine, seat: int, kind: str, data: tuple[Any, ...] = (), private: bool = False
) -> None:
    """Wait for ``seat``'s decision of this ``kind`` (see :data:`KINDS`)."""
    st.request = Request(seat, kind, data, private)


# -- decks ----------------------------------------------------------------------------------


def ensure_deck(st: Engine, seat: int, out: list[Event]) -> bool:
    """``sfdbg.shuffle.when-needed``: if the deck is empty, shuffle the discard pile into
    a new deck. False if there is no card at all."""
    if st.deck[seat]:
        return True
    pile = st.discard[seat]
    if not pile:
        return False
    shuffle(st.rng, pile)
    st.deck[seat] = pile
    st.discard[seat] = []
    if not st.quiet:
        out.append(ev.DeckShuffled(rule="sfdbg.shuffle.when-needed", seat=seat, size=len(pile)))
    return True


def draw_cards(st: Engine, seat: int, count: int, out: list[Event], rule: str) -> int:
    """Draw up to ``count`` cards; returns how many were drawn."""
    hand = st.hand[seat]
    deck = st.deck[seat]
    if 0 < count <= len(deck):
        # The common case, in one slice: the same cards in the same order as one by one.
        drawn = deck[-count:]
        drawn.reverse()
        del deck[-count:]
        hand += drawn
    else:
        drawn = _draw_with_shuffles(st, seat, count, out)
    if not st.quiet and drawn:
        names = tuple(st.name(c) for c in drawn)
        event = ev.CardsDrawn(rule=rule, seat=seat, count=len(drawn), names=names)
        out += private_and_public(event, seat, names=())
    return len(drawn)


def _draw_with_shuffles(st: Engine, seat: int, count: int, out: list[Event]) -> list[int]:
    """Draw up to ``count`` cards, shuffling the discard pile in when the deck runs out."""
    hand = st.hand[seat]
    drawn: list[int] = []
    while count > 0:
        deck = st.deck[seat]
        if not deck:
            if not ensure_deck(st, seat, out):
                break
            deck = st.deck[seat]
        # What is left of the deck, or what is left to draw, in one slice (top first).
        part = deck[-count:]
        part.reverse()
        del deck[-count:]
        hand += part
        drawn += part
        count -= len(part)
    return drawn
