"""The closed vocabulary of SF Rivals power primitives.

Every card power in a pack is a list of these primitives. Each primitive belongs to one
phase of the round's resolution (see :mod:`.resolve` and ``docs/rulings.md``):

* ``cancel`` — before initiative: cancelling the opponent's power or whole technique;
* ``initiative`` — after carried bonuses: swapping initiative, forcing a draw;
* ``damage`` — while damage is dealt: extra damage, reduction, immunity;
* ``after`` — effects on later rounds: initiative bonuses, "reveal first", lasting boosts.

Primitives only read and write a :class:`RoundWork`; they never touch the game state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from kumite.core.events import Event
from kumite.games.sfrivals import events as ev
from kumite.games.sfrivals.cards import Card, Effect
from kumite.games.sfrivals.rules import card_rule

PHASES = ("cancel", "initiative", "damage", "after")


@dataclasses.dataclass(slots=True)
class RoundWork:
    """Scratch data of one round's resolution, indexed by seat."""

    cards: tuple[Card, Card]
    printed: tuple[int, int]
    active: list[bool]
    """The card's power takes effect (not inactive, not cancelled)."""
    technique: list[bool]
    """The technique itself takes place (not cancelled by an Ultra)."""
    initiative: list[int]
    base: list[int]
    bonus: list[int]
    swap_printed: bool
    draw_forced: bool = False
    extra_damage: list[int] = dataclasses.field(default_factory=lambda: [0, 0])
    """Damage dealt *to* each seat by powers (not by winning the initiative)."""
    reduction: list[int] = dataclasses.field(default_factory=lambda: [0, 0])
    immune: list[bool] = dataclasses.field(default_factory=lambda: [False, False])
    next_bonus: list[int] = dataclasses.field(default_factory=lambda: [0, 0])
    reveal_first: list[bool] = dataclasses.field(default_factory=lambda: [False, False])
    """Seat must reveal first next round."""
    lasting_initiative: list[int] = dataclasses.field(default_factory=lambda: [0, 0])
    lasting_damage: list[int] = dataclasses.field(default_factory=lambda: [0, 0])
    damage_bonus: tuple[int, int] = (0, 0)
    cancel_power: list[bool] = dataclasses.field(default_factory=lambda: [False, False])
    cancel_technique: list[bool] = dataclasses.field(default_factory=lambda: [False, False])
    events: list[Event] | None = None


Primitive = Callable[[RoundWork, int, Effect], None]


def reduce_damage(w: RoundWork, me: int, e: Effect) -> None:
    """Reduce the damage ``me`` receives this round by ``amount``."""
    w.reduction[me] += e.amount


def no_damage(w: RoundWork, me: int, e: Effect) -> None:
    """``me`` receives no damage this round."""
    w.immune[me] = True


def deal_damage(w: RoundWork, me: int, e: Effect) -> None:
    """Deal ``amount`` damage to the opponent, whatever the initiative."""
    w.extra_damage[1 - me] += e.amount + w.damage_bonus[me]


def next_round_initiative(w: RoundWork, me: int, e: Effect) -> None:
    """``me``'s card gets +``amount`` initiative next round."""
    w.next_bonus[me] += e.amount
    if w.events is not None:
        card = w.cards[me]
        w.events.append(
            ev.NextRoundBonus(rule=card_rule(card.id), seat=me, amount=e.amount, card=card.name)
        )


def opponent_reveals_first(w: RoundWork, me: int, e: Effect) -> None:
    """Next round the opponent reveals their card before ``me`` chooses."""
    w.reveal_first[1 - me] = True
    if w.events is not None:
        card = w.cards[me]
        w.events.append(ev.RevealFirstNext(rule=card_rule(card.id), seat=1 - me, card=card.name))


def lasting_initiative(w: RoundWork, me: int, e: Effect) -> None:
    """From the next round on, every card of ``me`` gets +``amount`` initiative."""
    w.lasting_initiative[me] += e.amount
    _announce_lasting(w, me)


def lasting_damage(w: RoundWork, me: int, e: Effect) -> None:
    """From the next round on, the damage ``me`` deals is increased by ``amount``."""
    w.lasting_damage[me] += e.amount
    _announce_lasting(w, me)


def _announce_lasting(w: RoundWork, me: int) -> None:
    """One event for a card's lasting bonuses (Feng Shui Engine has two): the first
    primitive announces it, the next one updates that announcement."""
    if w.events is None:
        return
    card = w.cards[me]
    event = ev.LastingEffect(
        rule=card_rule(card.id),
        seat=me,
        initiative=w.lasting_initiative[me],
        damage=w.lasting_damage[me],
        card=card.name,
    )
    last = w.events[-1] if w.events else None
    if isinstance(last, ev.LastingEffect) and last.seat == me and last.card == card.name:
        w.events[-1] = event
    else:
        w.events.append(event)


def swap_initiative(w: RoundWork, me: int, e: Effect) -> None:
    """Swap the two cards' initiative values this round (current values, or printed
    values with each player keeping their bonuses under the ``printed`` swap rule)."""
    if w.swap_printed:
        w.base[0], w.base[1] = w.base[1], w.base[0]
        w.initiative[0] = w.base[0] + w.bonus[0]
        w.initiative[1] = w.base[1] + w.bonus[1]
    else:
        w.initiative[0], w.initiative[1] = w.initiative[1], w.initiative[0]
    if w.events is not None:
        card = w.cards[me]
        w.events.append(
            ev.InitiativeSwapped(
                rule=card_rule(card.id),
                by_seat=me,
                card=card.name,
                initiatives=(w.initiative[0], w.initiative[1]),
            )
        )


def force_initiative_draw(w: RoundWork, me: int, e: Effect) -> None:
    """The initiative counts as a draw this round: both techniques hit."""
    w.draw_forced = True
    if w.events is not None:
        card = w.cards[me]
        w.events.append(
            ev.InitiativeDrawForced(rule=card_rule(card.id), by_seat=me, card=card.name)
        )


def cancel_opponent_power(w: RoundWork, me: int, e: Effect) -> None:
    """The opponent's card's special power is cancelled."""
    w.cancel_power[1 - me] = True


def cancel_opponent_technique(w: RoundWork, me: int, e: Effect) -> None:
    """The opponent's technique is cancelled: no initiative, no damage, no power."""
    w.cancel_technique[1 - me] = True


PRIMITIVES: dict[str, tuple[str, Primitive]] = {
    "cancel_opponent_power": ("cancel", cancel_opponent_power),
    "cancel_opponent_technique": ("cancel", cancel_opponent_technique),
    "swap_initiative": ("initiative", swap_initiative),
    "force_initiative_draw": ("initiative", force_initiative_draw),
    "deal_damage": ("damage", deal_damage),
    "reduce_damage": ("damage", reduce_damage),
    "no_damage": ("damage", no_damage),
    "next_round_initiative": ("after", next_round_initiative),
    "opponent_reveals_first": ("after", opponent_reveals_first),
    "lasting_initiative": ("after", lasting_initiative),
    "lasting_damage": ("after", lasting_damage),
}


def run_phase(w: RoundWork, phase: str, seats: tuple[int, ...] = (0, 1)) -> None:
    """Apply the effects of ``phase`` of each active card (in seat order)."""
    for me in seats:
        if not w.active[me]:
            continue
        opp_printed = w.printed[1 - me]
        for effect in w.cards[me].effects:
            ph, fn = PRIMITIVES[effect.op]
            if ph == phase and effect.applies(opp_printed):
                fn(w, me, effect)
