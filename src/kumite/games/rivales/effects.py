"""The closed vocabulary of Rivales effect primitives.

Every card text and passive ability in a pack is a list of these primitives (``docs/packs.md``):

==========================  =============================================================
``bonus``                   +``amount`` ``stat`` to your card (times a ``count``, per
                            ``every``, at most ``max``)
``win_speed_ties``          you win Speed ties whatever the card types
``dodge``                   you receive no Damage this clash; leave a hand card face up
                            for the next clash
``flip_own_down``           you may flip one of your face-up cards in play face down
``flip_energy_up``          flip up to ``amount`` energy cards face up (+1 ``stat`` each)
``flip_previous_up``        the previous card of your line, if face down, is flipped up
``exchange_with_basic``     you may exchange this card with a face-up basic card in play
``show_hand``               show your hand to the rival you face
``no_basic_next_clash``     your rival may not play basic cards next clash
``next_card_bonus``         your next card gets +``amount`` ``stat``
``refresh``                 up to ``amount`` exhausted cards become energy again
``flip_self_down``          this card is flipped face down (it becomes energy)
==========================  =============================================================

Counts (``count``): ``face_down``, ``face_up``, ``rival_face_up``, ``exhausted``, ``energy``,
``combo_links``, ``basic_in_hand``, ``basic_face_up``. ``scope = "own"`` counts only the
fighter's own cards (2vs2); the default ``team`` counts the whole line of the zone.
Requirements (red text) are checked first; an effect whose requirement fails does nothing.

Primitives read and write the state through a :class:`Ctx`; they never decide for a player:
an effect with a choice lists its options, and the engine asks the player.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from kumite.core.events import Event
from kumite.core.memo import Memo
from kumite.games.rivales import events as ev
from kumite.games.rivales.cards import NO_REQUIREMENT, Card, Effect, Requires
from kumite.games.rivales.choice import PASS, Count
from kumite.games.rivales.lines import DOWN, SPENT, UP, Line, Slot, chain, count, energy, newest
from kumite.games.rivales.rules import card_rule, fighter_rule

if TYPE_CHECKING:
    from kumite.games.rivales.engine import Engine
    from kumite.games.rivales.fight import Fight

STATS: Final = ("speed", "damage", "guard")
STAT_INDEX: Final = {"speed": 0, "damage": 1, "guard": 2}


class Ctx:
    """Where an effect acts: a fight (zone), a team's side of it, its seat and line."""

    __slots__ = ("fight", "line", "rival", "rline", "seat", "state", "t")

    def __init__(self, state: Engine, fight: Fight, t: int) -> None:
        self.state = state
        self.fight = fight
        self.t = t
        self.seat = fight.seat(t)
        self.rival = fight.seat(1 - t)
        self.line: Line = state.lines[fight.zone][t]
        self.rline: Line = state.lines[fight.zone][1 - t]


def ctx(state: Engine, fight: Fight, t: int) -> Ctx:
    """The context of team ``t``'s side of ``fight`` (made once per clash and state; the end
    of the clash releases it, see :meth:`~.fight.Fight.release`)."""
    c: Ctx | None = fight.ctxs[t]
    if c is None or c.state is not state:
        c = fight.ctxs[t] = Ctx(state, fight, t)
    return c


def source_name(state: Engine, e: Effect, card: Card | None, seat: int) -> str:
    if card is not None:
        return card.name
    fighter = state.fighter(seat)
    return f"{fighter.passive_name} (passive)"


def rule_of(e: Effect, card: Card | None, seat_fighter: str) -> str:
    return card_rule(card.id) if card is not None else fighter_rule(seat_fighter)


# ----------------------------------------------------------------------------- reading
# Requirements and counted bonuses are compiled into small objects whose method the clash
# calls: compiled, a method of a native class is a direct C call, where a closure would be
# called through CPython's generic call path, arguments parsed (a third of a clash's
# passives).


class Check:
    """A compiled requirement: :meth:`holds` for team ``t`` of ``fight`` (``owner``: the
    passive's fighter, None for a card's effect). Immutable: its fields are ``Final``, and
    every state of a round shares it (``Engine.passives``)."""

    __slots__ = ()

    def holds(self, state: Engine, fight: Fight, t: int, owner: int | None) -> bool:
        raise NotImplementedError


class _Previous(Check):
    __slots__ = ("wanted",)
    wanted: Final[tuple[int, ...]]

    def __init__(self, previous: str) -> None:
        self.wanted = (UP,) if previous == "face_up" else (DOWN, SPENT)

    def holds(self, state: Engine, fight: Fight, t: int, owner: int | None) -> bool:
        line = state.lines[fight.zone][t]
        return len(line) >= 2 and line[-2].side in self.wanted


class _OfType(Check):
    __slots__ = ("card_type",)
    card_type: Final[str]

    def __init__(self, card_type: str) -> None:
        self.card_type = card_type


class _RivalType(_OfType):
    __slots__ = ()

    def holds(self, state: Engine, fight: Fight, t: int, owner: int | None) -> bool:
        return state.lines[fight.zone][1 - t][-1].card.type == self.card_type


class _CardType(_OfType):
    __slots__ = ()

    def holds(self, state: Engine, fight: Fight, t: int, owner: int | None) -> bool:
        return state.lines[fight.zone][t][-1].card.type == self.card_type


def _whose(own: bool, fight: Fight, t: int, owner: int | None) -> int | None:
    """Whose cards count: the whole line, or the fighter's own (``scope = "own"``)."""
    if not own:
        return None
    return fight.seat(t) if owner is None else owner


class _AtLeast(Check):
    __slots__ = ("least", "own")
    least: Final[int]
    own: Final[bool]

    def __init__(self, least: int, own: bool) -> None:
        self.least = least
        self.own = own


class _MinEnergy(_AtLeast):
    __slots__ = ()

    def holds(self, state: Engine, fight: Fight, t: int, owner: int | None) -> bool:
        # energy cards of earlier clashes: the card of this clash, flipped by Damage, an
        # exchange or a maximum combo's cut, is not one of them (rv.ruling.counts)
        line = state.lines[fight.zone][t]
        if not self.own:
            return energy(line) - (line[-1].side == DOWN) >= self.least
        who = _whose(True, fight, t, owner)
        return count(line, "energy", who, len(line) - 1) >= self.least


class _MinExhausted(_AtLeast):
    __slots__ = ()

    def holds(self, state: Engine, fight: Fight, t: int, owner: int | None) -> bool:
        line = state.lines[fight.zone][t]
        who = _whose(self.own, fight, t, owner)
        return count(line, "exhausted", who, len(line) - 1) >= self.least


class _MoreDamage(Check):
    __slots__ = ()

    def holds(self, state: Engine, fight: Fight, t: int, owner: int | None) -> bool:
        return state.taken[fight.seat(t)] > state.taken[fight.seat(1 - t)]


class _Persona(Check):
    __slots__ = ("persona",)
    persona: Final[str]

    def __init__(self, persona: str) -> None:
        self.persona = persona

    def holds(self, state: Engine, fight: Fight, t: int, owner: int | None) -> bool:
        return fight.persona[t] == self.persona


class _DealtDamage(Check):
    __slots__ = ()

    def holds(self, state: Engine, fight: Fight, t: int, owner: int | None) -> bool:
        return fight.dealt[t] >= 1


class _Every(Check):
    __slots__ = ("parts",)
    parts: Final[tuple[Check, ...]]

    def __init__(self, parts: tuple[Check, ...]) -> None:
        self.parts = parts

    def holds(self, state: Engine, fight: Fight, t: int, owner: int | None) -> bool:
        for check in self.parts:  # noqa: SIM110 - a loop: cheaper than all() for two or three
            if not check.holds(state, fight, t, owner):
                return False
        return True


def _requirement_checks(r: Requires, own: bool) -> list[Check]:
    """One check per condition of ``r`` (the conditions have no side effects: their order
    does not matter)."""
    checks: list[Check] = []
    if r.previous is not None:
        checks.append(_Previous(r.previous))
    if r.rival_type is not None:
        checks.append(_RivalType(r.rival_type))
    if r.card_type is not None:
        checks.append(_CardType(r.card_type))
    if r.min_energy is not None:
        checks.append(_MinEnergy(r.min_energy, own))
    if r.min_exhausted is not None:
        checks.append(_MinExhausted(r.min_exhausted, own))
    if r.more_damage_than_rival:
        checks.append(_MoreDamage())
    if r.persona is not None:
        checks.append(_Persona(r.persona))
    if r.dealt_damage:
        checks.append(_DealtDamage())
    return checks


def compile_check(e: Effect) -> Check | None:
    """``e``'s requirement as one check (None: it has no requirement)."""
    checks = _requirement_checks(e.requires, e.scope == "own")
    if not checks:
        return None
    if len(checks) == 1:
        return checks[0]
    return _Every(tuple(checks))


_CHECKS: Final[Memo[int, tuple[Effect, Check | None]]] = Memo(10_000)
"""Compiled requirements by ``id(effect)`` (the effect is kept too: its id stays its own)."""


def check_of(e: Effect) -> Check | None:
    """The compiled requirement of ``e`` (None: it has none), compiled once."""
    hit = _CHECKS.get(id(e))
    if hit is not None and hit[0] is e:
        return hit[1]
    return _CHECKS.put(id(e), (e, compile_check(e)))[1]


def requirement_met(c: Ctx, e: Effect, owner: int | None = None) -> bool:
    """Whether ``e``'s requirement (red text) holds for team ``c.t`` of the fight."""
    if e.requires is NO_REQUIREMENT:
        return True
    check = check_of(e)
    return check is None or check.holds(c.state, c.fight, c.t, owner)


class Value:
    """A compiled counted bonus (:meth:`of`): ``amount`` times ``count // every``, capped
    by ``max``. Immutable, as :class:`Check`."""

    __slots__ = ("amount", "cap", "every", "own", "what")
    amount: Final[int]
    cap: Final[int | None]
    every: Final[int]
    own: Final[bool]
    what: Final[str]

    def __init__(self, e: Effect) -> None:
        assert e.count is not None
        self.what = e.count
        self.own = e.scope == "own"
        self.amount = e.amount
        self.every = e.every
        self.cap = e.max

    def of(self, state: Engine, fight: Fight, t: int, owner: int | None) -> int:
        v = self.amount * (self.count(state, fight, t, owner) // self.every)
        cap = self.cap
        return v if cap is None or v < cap else cap

    def count(self, state: Engine, fight: Fight, t: int, owner: int | None) -> int:
        what = self.what
        line = state.lines[fight.zone][t]
        upto = len(line) - 1
        if what == "rival_face_up":
            rline = state.lines[fight.zone][1 - t]
            return count(rline, "face_up", None, len(rline) - 1)
        if what == "combo_links":
            return chain(line, upto)[1]
        if what == "basic_in_hand":
            return sum(1 for card in state.hand[fight.seat(t)] if card.is_basic)
        return count(line, what, _whose(self.own, fight, t, owner), upto)


class _OwnBasicValue(Value):
    """The common counted passive (face-up basic cards of one's own), counted inline."""

    __slots__ = ()

    def count(self, state: Engine, fight: Fight, t: int, owner: int | None) -> int:
        who = fight.seat(t) if owner is None else owner
        n = 0
        for slot in state.lines[fight.zone][t][:-1]:
            if slot.side == UP and slot.owner == who and slot.card.is_basic:
                n += 1
        return n


def compile_value(e: Effect) -> Value | None:
    """A counted ``bonus``'s value (None: a fixed ``amount``)."""
    if e.count is None:
        return None
    if e.count == "basic_face_up" and e.scope == "own":
        return _OwnBasicValue(e)
    return Value(e)


_VALUES: Final[Memo[int, tuple[Effect, Value | None]]] = Memo(10_000)
"""Compiled counted bonuses by ``id(effect)``, as :data:`_CHECKS`."""


def value_of(e: Effect) -> Value | None:
    """The compiled counted value of ``e`` (None: a fixed amount), compiled once."""
    hit = _VALUES.get(id(e))
    if hit is not None and hit[0] is e:
        return hit[1]
    return _VALUES.put(id(e), (e, compile_value(e)))[1]


PassiveBonus = tuple[Check | None, int, Value | None, int, Effect, int]
"""A passive ``bonus`` compiled for :func:`~.clash.stats`: (requirement, fixed amount,
counted value, stat index, the effect, its owner's seat)."""


def compiled_passive(e: Effect, owner: int) -> PassiveBonus:
    """Passive bonus ``e`` of ``owner``'s fighter, compiled (at a round's set-up)."""
    assert e.stat is not None
    return (check_of(e), e.amount, value_of(e), STAT_INDEX[e.stat], e, owner)


def _owner(c: Ctx, e: Effect, owner: int | None) -> int | None:
    """Whose cards an effect counts: the whole line (``team``), or one fighter's."""
    if e.scope != "own":
        return None
    return c.seat if owner is None else owner


def counted(c: Ctx, e: Effect, owner: int | None = None) -> int:
    """The value of a ``bonus``: ``amount`` times ``count // every``, capped by ``max``
    (its compiled :class:`Value`, as the passives' bonuses are counted)."""
    value = value_of(e)
    return e.amount if value is None else value.of(c.state, c.fight, c.t, owner)


# ------------------------------------------------------------------ immediate effects
# Each op's behaviour is one small function, registered by decorator under its op (as
# SF DBG's ``@handler`` frames and ``@primitive`` effects): :func:`options` and :func:`execute`
# look the op up instead of walking a chain of comparisons.

Offer = Callable[[Ctx, Effect], "tuple[str, ...] | None"]
"""What an immediate op may offer to choose (see :func:`options`)."""
Immediate = Callable[[Ctx, Effect, Card, "str | None", "list[Event] | None", str], None]
"""An immediate op: (context, effect, its card, the player's pick, events or None, rule)."""

OFFERS: Final[dict[str, Offer]] = {}
IMMEDIATE: Final[dict[str, Immediate]] = {}


def offer(op: str) -> Callable[[Offer], Offer]:
    """Register what immediate op ``op`` offers to choose."""

    def register(fn: Offer) -> Offer:
        OFFERS[op] = fn
        return fn

    return register


def immediate(op: str) -> Callable[[Immediate], Immediate]:
    """Register the behaviour of immediate op ``op``."""

    def register(fn: Immediate) -> Immediate:
        IMMEDIATE[op] = fn
        return fn

    return register


def options(c: Ctx, e: Effect) -> tuple[str, ...] | None:
    """The choices an immediate effect offers (``None``: it needs none; ``()``: there is
    nothing it could act on)."""
    fn = OFFERS.get(e.op)
    return None if fn is None else fn(c, e)


def execute(c: Ctx, e: Effect, card: Card, choice: str | None, out: list[Event] | None) -> None:
    """Apply immediate effect ``e`` of ``card`` (``choice``: the player's pick, if any)."""
    fn = IMMEDIATE.get(e.op)
    if fn is None:  # pragma: no cover - the pack schema forbids other immediate ops
        raise ValueError(e.op)
    # messages are built only for events (``out``): a quiet state skips them, and the rule
    fn(c, e, card, choice, out, "" if out is None else card_rule(card.id))


@offer("flip_own_down")
def _offer_flip_own_down(c: Ctx, e: Effect) -> tuple[str, ...] | None:
    who = _owner(c, e, None)
    picks = tuple(
        s.card.picks[s.owner]
        for s in c.line[:-1]
        if s.side == UP and (who is None or s.owner == who)
    )
    return (*picks, PASS) if picks else ()


@offer("exchange_with_basic")
def _offer_exchange_with_basic(c: Ctx, e: Effect) -> tuple[str, ...] | None:
    who = _owner(c, e, None)
    picks = tuple(
        s.card.picks[s.owner]
        for s in c.line[:-1]
        if s.side == UP and s.card.is_basic and (who is None or s.owner == who)
    )
    return (*picks, PASS) if picks else ()


@offer("flip_energy_up")
def _offer_flip_energy_up(c: Ctx, e: Effect) -> tuple[str, ...] | None:
    if not e.choose:
        return None
    most = min(e.amount, energy(c.line[:-1]))
    return tuple(Count(n).format() for n in range(most + 1)) if most else ()


@offer("dodge")
def _offer_dodge(c: Ctx, e: Effect) -> tuple[str, ...] | None:
    state = c.state
    if state.clash >= state.clashes_per_round or not state.hand[c.seat]:
        return None  # no next clash this round, or nothing to leave: dodge only
    return tuple(card.picks[c.seat] for card in state.hand[c.seat])


CHOICE_OPS: Final = frozenset(OFFERS)
"""Immediate ops that may offer a choice (:func:`options` is None for every other op)."""


@immediate("bonus")
def _bonus(
    c: Ctx, e: Effect, card: Card, choice: str | None, out: list[Event] | None, rule: str
) -> None:
    assert e.stat is not None
    value = counted(c, e)
    c.fight.bonus[c.t][STAT_INDEX[e.stat]] += value
    if out is not None:
        _say(out, c, rule, card.name, f"+{value} {e.stat.capitalize()}")


@immediate("win_speed_ties")
def _win_speed_ties(
    c: Ctx, e: Effect, card: Card, choice: str | None, out: list[Event] | None, rule: str
) -> None:
    c.fight.ties[c.t] = True
    if out is not None:
        _say(out, c, rule, card.name, "wins Speed ties whatever the card types")


@immediate("dodge")
def _dodge(
    c: Ctx, e: Effect, card: Card, choice: str | None, out: list[Event] | None, rule: str
) -> None:
    state = c.state
    c.fight.dodge[c.t] = True
    if out is not None:
        _say(out, c, rule, card.name, "dodges: no Damage this clash")
    if choice is not None:  # the card of the hand this pick names (see _offer_dodge)
        kept = next(held for held in state.hand[c.seat] if held.picks[c.seat] == choice)
        state.leave_face_up(c.seat, kept, c.fight.zone, out, rule)


@immediate("flip_own_down")
def _flip_own_down(
    c: Ctx, e: Effect, card: Card, choice: str | None, out: list[Event] | None, rule: str
) -> None:
    if choice is not None and choice != PASS:
        slot = _picked(c, choice)
        slot.side = DOWN
        if out is not None:
            out.append(flip_event(c.state, slot, False, f"{card.name}: it becomes energy", rule))


@immediate("exchange_with_basic")
def _exchange_with_basic(
    c: Ctx, e: Effect, card: Card, choice: str | None, out: list[Event] | None, rule: str
) -> None:
    if choice is None or choice == PASS:
        return
    fight = c.fight
    t = c.t
    slot = _picked(c, choice)
    active = c.line[-1]
    slot.card, active.card = active.card, slot.card
    slot.owner, active.owner = active.owner, slot.owner
    if c.state.opts.exchanged_card == "effects" and active.card.immediate:
        # its immediate effects act next, as if it had been revealed now
        # (rv.ruling.exchanged-card); by default it brings only its values
        swapped = tuple(
            (t, x, active.card, None if x.requires is NO_REQUIREMENT else check_of(x))
            for x in active.card.immediate
        )
        at = fight.queue_pos + 1
        fight.queue = fight.queue[:at] + swapped + fight.queue[at:]
    if out is not None:
        _say(
            out,
            c,
            rule,
            card.name,
            f"exchanged with {active.card.name}, now the card of this clash",
        )


@immediate("flip_energy_up")
def _flip_energy_up(
    c: Ctx, e: Effect, card: Card, choice: str | None, out: list[Event] | None, rule: str
) -> None:
    n = min(e.amount, energy(c.line[:-1]))
    if e.choose:
        n = Count.parse(choice).n if choice is not None else 0
    flipped = newest(c.line, DOWN, n, len(c.line) - 1)
    for slot in flipped:
        slot.side = UP
    if e.stat is not None and flipped:
        c.fight.bonus[c.t][STAT_INDEX[e.stat]] += len(flipped)
    if out is not None:
        _say(
            out,
            c,
            rule,
            card.name,
            f"flips {len(flipped)} energy card{'s' if len(flipped) != 1 else ''} face up"
            + (f": +{len(flipped)} {e.stat.capitalize()}" if e.stat and flipped else ""),
        )


@immediate("flip_previous_up")
def _flip_previous_up(
    c: Ctx, e: Effect, card: Card, choice: str | None, out: list[Event] | None, rule: str
) -> None:
    if len(c.line) >= 2 and c.line[-2].face_down:
        slot = c.line[-2]
        slot.side = UP
        if out is not None:
            out.append(flip_event(c.state, slot, True, card.name, rule))
    elif out is not None:
        _say(out, c, rule, card.name, "the previous card is not face down: nothing to flip")


@immediate("refresh")
def _refresh(
    c: Ctx, e: Effect, card: Card, choice: str | None, out: list[Event] | None, rule: str
) -> None:
    refreshed = refresh(c.line, e.amount)
    if out is not None:
        _say(
            out,
            c,
            rule,
            card.name,
            f"{refreshed} exhausted card{'s' if refreshed != 1 else ''} become energy again",
        )


@immediate("show_hand")
def _show_hand(
    c: Ctx, e: Effect, card: Card, choice: str | None, out: list[Event] | None, rule: str
) -> None:
    c.state.show_hand(c.seat, c.rival, out, rule)


def refresh(line: Line, amount: int) -> int:
    """Up to ``amount`` exhausted cards (the most recent first) become energy again."""
    slots = newest(line, SPENT, amount)
    for slot in slots:
        slot.side = DOWN
    return len(slots)


def _say(out: list[Event] | None, c: Ctx, rule: str, source: str, what: str) -> None:
    """An effect's plain-English event (only when events are built)."""
    assert out is not None
    out.append(effect_event(c.state, c.seat, rule, source, what))


def effect_event(state: Engine, seat: int, rule: str, source: str, what: str) -> Event:
    """What ``seat``'s ``source`` (a card, a passive, a rule) did, in words."""
    return ev.EffectApplied(rule=rule, seat=seat, who=state.who[seat], source=source, what=what)


def _picked(c: Ctx, choice: str) -> Slot:
    for slot in c.line[:-1]:
        if slot.card.picks[slot.owner] == choice:
            return slot
    raise AssertionError(f"{choice} is not in the line")  # pragma: no cover - validated


def flip_event(state: Engine, slot: Slot, up: bool, reason: str, rule: str) -> Event:
    """The event of ``slot``'s card flipped face up (``up``) or down."""
    return ev.CardFlipped(
        rule=rule,
        seat=slot.owner,
        who=state.who[slot.owner],
        card=slot.card.id,
        name=slot.card.name,
        up=up,
        reason=reason,
    )


# ------------------------------------------------------------------- end of the clash
AtEnd = Callable[[Ctx, Effect, "list[Event] | None", str, str], None]
"""An end-of-clash op: (context, effect, events or None, rule, source name)."""

AT_END: Final[dict[str, AtEnd]] = {}


def at_end(op: str) -> Callable[[AtEnd], AtEnd]:
    """Register the behaviour of end-of-clash op ``op``."""

    def register(fn: AtEnd) -> AtEnd:
        AT_END[op] = fn
        return fn

    return register


def end_effect(c: Ctx, e: Effect, card: Card | None, out: list[Event] | None) -> None:
    """Apply an end-of-clash effect of a face-up card (``card``) or of a passive (None)."""
    fn = AT_END.get(e.op)
    if fn is None:  # pragma: no cover - the pack schema forbids other end ops
        raise ValueError(e.op)
    # the rule and source name only appear in events: a quiet state does not build them
    rule = src = ""
    if out is not None:
        state = c.state
        rule = rule_of(e, card, state.fighter(c.seat).id)
        src = source_name(state, e, card, c.seat)
    fn(c, e, out, rule, src)


@at_end("no_basic_next_clash")
def _end_no_basic_next_clash(
    c: Ctx, e: Effect, out: list[Event] | None, rule: str, src: str
) -> None:
    c.state.forbid_basics(c.seat, c.fight.zone, out, rule)


@at_end("next_card_bonus")
def _end_next_card_bonus(c: Ctx, e: Effect, out: list[Event] | None, rule: str, src: str) -> None:
    assert e.stat is not None
    c.state.carry[c.seat][STAT_INDEX[e.stat]] += e.amount
    if out is not None:
        _say(out, c, rule, src, f"your next card gets +{e.amount} {e.stat.capitalize()}")


@at_end("refresh")
def _end_refresh(c: Ctx, e: Effect, out: list[Event] | None, rule: str, src: str) -> None:
    n = refresh(c.line, e.amount)
    if out is not None:
        _say(out, c, rule, src, f"{n} exhausted card{'s' if n != 1 else ''} become energy again")


@at_end("flip_self_down")
def _end_flip_self_down(c: Ctx, e: Effect, out: list[Event] | None, rule: str, src: str) -> None:
    slot = c.line[-1]
    if slot.side == UP:
        slot.side = DOWN
        if out is not None:
            out.append(flip_event(c.state, slot, False, f"{src}: it becomes energy", rule))


@at_end("flip_energy_up")
def _end_flip_energy_up(c: Ctx, e: Effect, out: list[Event] | None, rule: str, src: str) -> None:
    # energy cards of earlier clashes: flipping this clash's card up would undo its
    # flip by Damage or an exchange, or the cut of a maximum combo (rv.ruling.curie-energy)
    for slot in newest(c.line, DOWN, e.amount, len(c.line) - 1):
        slot.side = UP
        if out is not None:
            out.append(flip_event(c.state, slot, True, src, rule))
