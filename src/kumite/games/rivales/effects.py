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

from typing import TYPE_CHECKING

from kumite.core.events import Event
from kumite.games.rivales import events as ev
from kumite.games.rivales.cards import NO_REQUIREMENT, Card, Effect
from kumite.games.rivales.rules import card_rule, fighter_rule
from kumite.games.rivales.table import DOWN, SPENT, UP, Line, Slot, chain, count, energy, newest

if TYPE_CHECKING:
    from kumite.games.rivales.state import Fight, RivalesState

STATS = ("speed", "damage", "guard")
STAT_INDEX = {"speed": 0, "damage": 1, "guard": 2}
PASS = "pass"
CHOICE_OPS = frozenset({"flip_own_down", "exchange_with_basic", "flip_energy_up", "dodge"})
"""Immediate ops that may offer a choice (:func:`options` is None for every other op)."""


class Ctx:
    """Where an effect acts: a fight (zone), a team's side of it, its seat and line."""

    __slots__ = ("fight", "line", "rival", "rline", "seat", "state", "t")

    def __init__(self, state: RivalesState, fight: Fight, t: int) -> None:
        self.state = state
        self.fight = fight
        self.t = t
        self.seat = fight.seats[t]
        self.rival = fight.seats[1 - t]
        self.line: Line = state.lines[fight.zone][t]
        self.rline: Line = state.lines[fight.zone][1 - t]


def ctx(state: RivalesState, fight: Fight, t: int) -> Ctx:
    """The context of team ``t``'s side of ``fight`` (made once per clash and state; the end
    of the clash releases it, see :meth:`~.fight.Fight.release`)."""
    c: Ctx | None = fight.ctxs[t]
    if c is None or c.state is not state:
        c = fight.ctxs[t] = Ctx(state, fight, t)
    return c


def source_name(state: RivalesState, e: Effect, card: Card | None, seat: int) -> str:
    if card is not None:
        return card.name
    fighter = state.fighter(seat)
    return f"{fighter.passive_name} (passive)"


def rule_of(e: Effect, card: Card | None, seat_fighter: str) -> str:
    return card_rule(card.id) if card is not None else fighter_rule(seat_fighter)


# ----------------------------------------------------------------------------- reading
def requirement_met(c: Ctx, e: Effect, owner: int | None = None) -> bool:
    """Whether ``e``'s requirement (red text) holds for team ``c.t`` of the fight."""
    r = e.requires
    if r is NO_REQUIREMENT:
        return True
    line = c.line
    upto = len(line) - 1
    if r.previous is not None:
        if upto < 1:
            return False
        prev = line[upto - 1]
        if r.previous == "face_up" and prev.side != UP:
            return False
        if r.previous == "face_down" and not prev.face_down:
            return False
    if r.rival_type is not None and c.rline[-1].card.type != r.rival_type:
        return False
    if r.card_type is not None and line[-1].card.type != r.card_type:
        return False
    if r.min_energy is not None and count(line, "energy", _owner(c, e, owner)) < r.min_energy:
        return False
    if (
        r.min_exhausted is not None
        and count(line, "exhausted", _owner(c, e, owner), upto) < r.min_exhausted
    ):
        return False
    if r.more_damage_than_rival and c.state.taken[c.seat] <= c.state.taken[c.rival]:
        return False
    if r.persona is not None and c.fight.persona[c.t] != r.persona:
        return False
    return not (r.dealt_damage and c.fight.dealt[c.t] < 1)


def _owner(c: Ctx, e: Effect, owner: int | None) -> int | None:
    """Whose cards an effect counts: the whole line (``team``), or one fighter's."""
    if e.scope != "own":
        return None
    return c.seat if owner is None else owner


def counted(c: Ctx, e: Effect, owner: int | None = None) -> int:
    """The value of a ``bonus``: ``amount`` times ``count // every``, capped by ``max``."""
    if e.count is None:
        return e.amount
    what = e.count
    upto = len(c.line) - 1
    who = _owner(c, e, owner)
    if what == "rival_face_up":
        n = count(c.rline, "face_up", None, len(c.rline) - 1)
    elif what == "combo_links":
        n = chain(c.line, upto)[1]
    elif what == "basic_in_hand":
        n = sum(1 for card in c.state.hand[c.seat] if card.is_basic)
    else:
        n = count(c.line, what, who, upto)
    value = e.amount * (n // e.every)
    return value if e.max is None else min(value, e.max)


# ------------------------------------------------------------------ immediate effects
def options(c: Ctx, e: Effect) -> tuple[str, ...] | None:
    """The choices an immediate effect offers (``None``: it needs none; ``()``: there is
    nothing it could act on)."""
    op = e.op
    if op == "flip_own_down":
        who = _owner(c, e, None)
        picks = tuple(
            f"pick:{s.owner}:{s.card.id}"
            for s in c.line[:-1]
            if s.side == UP and (who is None or s.owner == who)
        )
        return (*picks, PASS) if picks else ()
    if op == "exchange_with_basic":
        who = _owner(c, e, None)
        picks = tuple(
            f"pick:{s.owner}:{s.card.id}"
            for s in c.line[:-1]
            if s.side == UP and s.card.is_basic and (who is None or s.owner == who)
        )
        return (*picks, PASS) if picks else ()
    if op == "flip_energy_up" and e.choose:
        most = min(e.amount, energy(c.line[:-1]))
        return tuple(f"count:{n}" for n in range(most + 1)) if most else ()
    if op == "dodge":
        state = c.state
        if state.clash >= state.clashes_per_round or not state.hand[c.seat]:
            return None  # no next clash this round, or nothing to leave: dodge only
        return tuple(f"pick:{c.seat}:{card.id}" for card in state.hand[c.seat])
    return None


def execute(c: Ctx, e: Effect, card: Card, choice: str | None, out: list[Event] | None) -> None:
    """Apply immediate effect ``e`` of ``card`` (``choice``: the player's pick, if any)."""
    op = e.op
    state = c.state
    fight = c.fight
    t = c.t
    name = card.name
    rule = "" if out is None else card_rule(card.id)  # only events name the rule

    # messages are built only for events (``out``): a quiet state skips them
    if op == "bonus":
        assert e.stat is not None
        value = e.amount if e.count is None else counted(c, e)
        fight.bonus[t][STAT_INDEX[e.stat]] += value
        if out is not None:
            _say(out, c, rule, name, f"+{value} {e.stat.capitalize()}")
    elif op == "win_speed_ties":
        fight.ties[t] = True
        if out is not None:
            _say(out, c, rule, name, "wins Speed ties whatever the card types")
    elif op == "dodge":
        fight.dodge[t] = True
        if out is not None:
            _say(out, c, rule, name, "dodges: no Damage this clash")
        if choice is not None:
            kept = state.fighter(c.seat).by_id[choice.rpartition(":")[2]]
            state.leave_face_up(c.seat, kept, fight.zone, out, rule)
    elif op == "flip_own_down":
        if choice is not None and choice != PASS:
            slot = _picked(c, choice)
            slot.side = DOWN
            if out is not None:
                out.append(_flip(state, slot, False, f"{name}: it becomes energy", rule))
    elif op == "exchange_with_basic":
        if choice is not None and choice != PASS:
            slot = _picked(c, choice)
            active = c.line[-1]
            slot.card, active.card = active.card, slot.card
            slot.owner, active.owner = active.owner, slot.owner
            if out is not None:
                _say(
                    out,
                    c,
                    rule,
                    name,
                    f"exchanged with {active.card.name}, now the card of this clash",
                )
    elif op == "flip_energy_up":
        n = min(e.amount, energy(c.line[:-1]))
        if e.choose:
            n = int(choice.partition(":")[2]) if choice is not None else 0
        flipped = newest(c.line, DOWN, n, len(c.line) - 1)
        for slot in flipped:
            slot.side = UP
        if e.stat is not None and flipped:
            fight.bonus[t][STAT_INDEX[e.stat]] += len(flipped)
        if out is not None:
            _say(
                out,
                c,
                rule,
                name,
                f"flips {len(flipped)} energy card{'s' if len(flipped) != 1 else ''} face up"
                + (f": +{len(flipped)} {e.stat.capitalize()}" if e.stat and flipped else ""),
            )
    elif op == "flip_previous_up":
        if len(c.line) >= 2 and c.line[-2].face_down:
            slot = c.line[-2]
            slot.side = UP
            if out is not None:
                out.append(_flip(state, slot, True, name, rule))
        elif out is not None:
            _say(out, c, rule, name, "the previous card is not face down: nothing to flip")
    elif op == "refresh":
        refreshed = refresh(c.line, e.amount)
        if out is not None:
            _say(
                out,
                c,
                rule,
                name,
                f"{refreshed} exhausted card{'s' if refreshed != 1 else ''} become energy again",
            )
    elif op == "show_hand":
        state.show_hand(c.seat, c.rival, out, rule)
    else:  # pragma: no cover - the pack schema forbids other immediate ops
        raise ValueError(op)


def refresh(line: Line, amount: int) -> int:
    """Up to ``amount`` exhausted cards (the most recent first) become energy again."""
    slots = newest(line, SPENT, amount)
    for slot in slots:
        slot.side = DOWN
    return len(slots)


def _say(out: list[Event] | None, c: Ctx, rule: str, source: str, what: str) -> None:
    """An effect's plain-English event (only when events are built)."""
    assert out is not None
    out.append(
        ev.EffectApplied(rule=rule, seat=c.seat, who=c.state.who[c.seat], source=source, what=what)
    )


def _picked(c: Ctx, choice: str) -> Slot:
    _, owner, card_id = choice.split(":")
    seat = int(owner)
    for slot in c.line[:-1]:
        if slot.owner == seat and slot.card.id == card_id:
            return slot
    raise AssertionError(f"{choice} is not in the line")  # pragma: no cover - validated


def _flip(state: RivalesState, slot: Slot, up: bool, reason: str, rule: str) -> Event:
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
def end_effect(c: Ctx, e: Effect, card: Card | None, out: list[Event] | None) -> None:
    """Apply an end-of-clash effect of a face-up card (``card``) or of a passive (None)."""
    state = c.state
    # the rule and source name only appear in events: a quiet state does not build them
    rule = src = ""
    if out is not None:
        rule = rule_of(e, card, state.fighter(c.seat).id)
        src = source_name(state, e, card, c.seat)

    op = e.op
    if op == "no_basic_next_clash":
        state.forbid_basics(c.seat, c.fight.zone, out, rule)
    elif op == "next_card_bonus":
        assert e.stat is not None
        state.carry[c.seat][STAT_INDEX[e.stat]] += e.amount
        if out is not None:
            _say(out, c, rule, src, f"your next card gets +{e.amount} {e.stat.capitalize()}")
    elif op == "refresh":
        n = refresh(c.line, e.amount)
        if out is not None:
            _say(
                out, c, rule, src, f"{n} exhausted card{'s' if n != 1 else ''} become energy again"
            )
    elif op == "flip_self_down":
        slot = c.line[-1]
        if slot.side == UP:
            slot.side = DOWN
            if out is not None:
                out.append(_flip(state, slot, False, f"{src}: it becomes energy", rule))
    elif op == "flip_energy_up":
        for slot in newest(c.line, DOWN, e.amount):
            slot.side = UP
            if out is not None:
                out.append(_flip(state, slot, True, src, rule))
    else:  # pragma: no cover - the pack schema forbids other end ops
        raise ValueError(op)
