"""Resolution of one round: two revealed cards -> damage and effects on later rounds.

The order (``docs/rulings.md``, ``sfr.ruling.power-order``):

1. Powers played without effect (an Ultra played powerless) and powers that cancel
   themselves (a swap against a printed 7) are switched off.
2. Cancellations, simultaneously: an Ultra cancelling the opponent's technique, a card
   cancelling the opponent's power. Conditions read *printed* initiatives.
3. Initiative: printed value + bonuses carried from earlier rounds; then swaps, then a
   forced draw.
4. Comparison: the higher initiative hits; equal initiative, both hit.
5. Damage: hit damage (+ lasting damage bonus), extra damage from powers, reduced by the
   receiver's reductions (not below 0) or prevented entirely; life floors at 0.
6. Effects on later rounds of the surviving powers.

This function is pure: the game state, the solver and the agents all call it.
"""

from __future__ import annotations

from typing import NamedTuple

from kumite.core.events import Event
from kumite.core.memo import Memo
from kumite.games.sfrivals import events as ev
from kumite.games.sfrivals.cards import Card
from kumite.games.sfrivals.effects import RoundWork, run_phase
from kumite.games.sfrivals.rules import card_rule


class Carry(NamedTuple):
    """What a player carries into a round from earlier rounds."""

    bonus: int = 0
    """Initiative bonus for this round only ("in the next round ... increased by N")."""
    lasting_initiative: int = 0
    lasting_damage: int = 0


NO_CARRY = Carry()


class RoundResult(NamedTuple):
    taken: tuple[int, int]
    lives: tuple[int, int]
    carry: tuple[Carry, Carry]
    reveal_first: tuple[bool, bool]
    """Seat must reveal first next round (already voided if both would)."""
    winner: int | None
    """Whose technique won the initiative (None: draw, or no comparison)."""


Powerless = tuple[tuple[str, str] | None, tuple[str, str] | None]
_MemoKey = tuple[Card, Card, Carry, Carry, Powerless, bool]
_MEMO: Memo[_MemoKey, RoundResult] = Memo(1 << 20)


def resolve_round(
    cards: tuple[Card, Card],
    carry: tuple[Carry, Carry],
    lives: tuple[int, int],
    *,
    powerless: Powerless = (None, None),
    swap_printed: bool = False,
    events: list[Event] | None = None,
) -> RoundResult:
    """Resolve one round. ``powerless[s]`` is ``(rule, reason)`` when seat ``s``'s card is
    played without its power, else None. Events are appended to ``events`` if given.

    Without events, results are memoised: a round's effects depend on the cards, the
    carried bonuses and the powerless flags, never on the lives (which only floor at 0).
    """
    if events is not None:
        return _resolve(cards, carry, lives, powerless, swap_printed, events)
    key = (cards[0], cards[1], carry[0], carry[1], powerless, swap_printed)
    hit = _MEMO.get(key)
    if hit is None:
        hit = _MEMO.put(key, _resolve(cards, carry, (99, 99), powerless, swap_printed, None))
    t0, t1 = hit.taken
    a, b = lives
    return RoundResult(
        taken=hit.taken,
        lives=(a - t0 if a > t0 else 0, b - t1 if b > t1 else 0),
        carry=hit.carry,
        reveal_first=hit.reveal_first,
        winner=hit.winner,
    )


def _resolve(
    cards: tuple[Card, Card],
    carry: tuple[Carry, Carry],
    lives: tuple[int, int],
    powerless: Powerless,
    swap_printed: bool,
    events: list[Event] | None,
) -> RoundResult:
    a, b = cards
    printed = (a.initiative, b.initiative)
    bonus = [
        carry[0].bonus + carry[0].lasting_initiative,
        carry[1].bonus + carry[1].lasting_initiative,
    ]
    w = RoundWork(
        cards=cards,
        printed=printed,
        active=[a.has_power, b.has_power],
        technique=[True, True],
        initiative=[printed[0] + bonus[0], printed[1] + bonus[1]],
        base=[printed[0], printed[1]],
        bonus=bonus,
        swap_printed=swap_printed,
        damage_bonus=(carry[0].lasting_damage, carry[1].lasting_damage),
        events=events,
    )
    # 1. powers without effect
    for s in (0, 1):
        card = cards[s]
        if not w.active[s]:
            continue
        why = powerless[s]
        if why is not None:
            w.active[s] = False
            if events is not None:
                events.append(ev.PowerInactive(rule=why[0], seat=s, card=card.name, reason=why[1]))
        elif printed[1 - s] in card.power_cancelled_if_opponent_printed:
            w.active[s] = False
            if events is not None:
                events.append(
                    ev.PowerCancelled(
                        rule="sfr.powers.check-printed-initiative",
                        seat=s,
                        card=card.name,
                        by_seat=s,
                        by_card=card.name,
                        reason=f"the opponent's card is printed with initiative {printed[1 - s]}",
                    )
                )
    # 2. cancellations, simultaneous
    run_phase(w, "cancel")
    for s in (0, 1):
        o = 1 - s
        if w.cancel_technique[s]:
            w.technique[s] = False
            w.active[s] = False
            if events is not None:
                events.append(
                    ev.TechniqueCancelled(
                        rule=card_rule(cards[o].id),
                        seat=s,
                        card=cards[s].name,
                        by_card=cards[o].name,
                    )
                )
        elif w.cancel_power[s] and w.active[s]:
            w.active[s] = False
            if events is not None:
                events.append(
                    ev.PowerCancelled(
                        rule=card_rule(cards[o].id),
                        seat=s,
                        card=cards[s].name,
                        by_seat=o,
                        by_card=cards[o].name,
                        reason=f"cancelled by {cards[o].name}",
                    )
                )
    # 3-4. initiative and comparison
    hits = [False, False]
    winner: int | None = None
    if w.technique[0] and w.technique[1]:
        if events is not None:
            for s in (0, 1):
                if bonus[s]:
                    events.append(
                        ev.InitiativeBonus(
                            rule="sfr.ruling.carried-bonus",
                            seat=s,
                            amount=bonus[s],
                            initiative=w.initiative[s],
                        )
                    )
        run_phase(w, "initiative")
        i0, i1 = w.initiative
        if w.draw_forced or i0 == i1:
            hits = [True, True]
            rule = "sfr.round.equal-initiative"
        else:
            winner = 0 if i0 > i1 else 1
            hits[winner] = True
            rule = "sfr.round.higher-initiative"
        if events is not None:
            events.append(ev.InitiativeCompared(rule=rule, initiatives=(i0, i1), winner=winner))
    # 5. damage
    run_phase(w, "damage")
    raw = [w.extra_damage[0], w.extra_damage[1]]
    sources: list[list[str]] = [[], []]
    for s in (0, 1):
        o = 1 - s
        if w.extra_damage[o]:
            sources[o].append(cards[s].name + "'s power")
        if hits[s]:
            raw[o] += cards[s].damage + w.damage_bonus[s]
            sources[o].append(cards[s].name)
    taken = [0, 0]
    new_lives = [lives[0], lives[1]]
    for s in (0, 1):
        if raw[s] == 0 and not sources[s]:
            continue
        if w.immune[s]:
            taken[s] = 0
        else:
            taken[s] = max(0, raw[s] - w.reduction[s])
        new_lives[s] = max(0, lives[s] - taken[s])
        if events is not None:
            rule = "sfr.life.gauge"
            if taken[s] < raw[s]:
                rule = card_rule(cards[s].id)
            events.append(
                ev.DamageDealt(
                    rule=rule,
                    seat=s,
                    amount=taken[s],
                    prevented=raw[s] - taken[s],
                    life=new_lives[s],
                    source=" and ".join(sources[s]),
                )
            )
    # 6. later rounds
    run_phase(w, "after")
    reveal = (w.reveal_first[0], w.reveal_first[1])
    if reveal[0] and reveal[1]:
        reveal = (False, False)
        if events is not None:
            events.append(ev.RevealFirstVoided(rule="sfr.ruling.reveal-first-both"))
    new_carry = (
        Carry(
            w.next_bonus[0],
            carry[0].lasting_initiative + w.lasting_initiative[0],
            carry[0].lasting_damage + w.lasting_damage[0],
        ),
        Carry(
            w.next_bonus[1],
            carry[1].lasting_initiative + w.lasting_initiative[1],
            carry[1].lasting_damage + w.lasting_damage[1],
        ),
    )
    return RoundResult(
        taken=(taken[0], taken[1]),
        lives=(new_lives[0], new_lives[1]),
        carry=new_carry,
        reveal_first=reveal,
        winner=winner,
    )
