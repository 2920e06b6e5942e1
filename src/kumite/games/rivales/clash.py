"""The resolution of a clash, zone by zone (the set-up, boosts and the end of a clash and of
a round are in :mod:`.rounds`).

The steps of a clash in each zone (``docs/rulings.md`` for the order kumite reads):

1. reveal; bonuses carried for this card; immediate effects in type priority, then Speed
   (rv.clash.immediate-order), each checking its requirement (rv.clash.requirement);
2. Speed = printed + bonuses from effects, boosts, passives and combo (rv.speed.value);
   the higher attacks; ties go by type, an exact tie is an exchange (rv.speed.exchange);
3. the defender may exhaust energy for Guard (rv.energy.guard); Damage beyond Guard flips
   the defender's card and moves the life marker (rv.damage.*);
4. end of clash: card effects still face up, the cut of maximum combos, passives; K.O.,
   the seventh clash, or the next clash with its draw.

These functions act on a :class:`~kumite.games.rivales.engine.Engine`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from kumite.core.decision import new_decision
from kumite.core.events import Event
from kumite.core.game import Decision
from kumite.core.memo import Memo
from kumite.games.rivales import events as ev
from kumite.games.rivales.cards import NO_REQUIREMENT, Card, Effect
from kumite.games.rivales.choice import Guard
from kumite.games.rivales.effects import (
    CHOICE_OPS,
    STATS,
    Check,
    check_of,
    ctx,
    effect_event,
    execute,
    flip_event,
    options,
    source_name,
)
from kumite.games.rivales.lines import DOWN, HIDDEN, UP, Slot, combo_of, energy, spend
from kumite.games.rivales.rules import card_rule, fighter_rule

if TYPE_CHECKING:
    from kumite.games.rivales.engine import Engine
    from kumite.games.rivales.fight import Fight

EFFECT_PROMPTS: Final = {
    "dodge": "Dodge: choose the card you leave face up — your card of the next clash",
    "flip_own_down": "You may flip one of your face-up cards in play face down (energy)",
    "exchange_with_basic": "You may exchange this card with one of your face-up basic cards",
    "flip_energy_up": "How many of your energy cards do you flip face up?",
}


def stats(
    state: Engine, fight: Fight, t: int, out: list[Event] | None = None
) -> tuple[int, int, int, bool]:
    """Speed, Damage and Guard of team ``t``'s card now, and whether it closes a maximum
    combo: printed values + bonuses + passives + combo (rv.speed.value)."""
    line = state.lines[fight.zone][t]
    card = line[-1].card
    bonus = fight.bonus[t]
    speed = card.speed + bonus[0]
    damage = card.damage + bonus[1]
    guard = card.guard + bonus[2]
    seat = fight.seat(t)
    passives = state.passives[seat]
    if passives:
        # compiled at the round's set-up: (requirement, amount, counted value, stat, ...)
        for check, amount, value_of, stat_index, e, owner in passives:
            if check is not None and not check.holds(state, fight, t, owner):
                continue
            value = amount if value_of is None else value_of.of(state, fight, t, owner)
            if value <= 0:
                continue
            if stat_index == 0:
                speed += value
            elif stat_index == 1:
                damage += value
            else:
                guard += value
            if out is not None:
                stat = STATS[stat_index]
                rule = fighter_rule(state.fighter(owner).id)
                source = source_name(state, e, None, owner)
                what = f"+{value} {stat.capitalize()} to {state.who[seat]}'s {card.name}"
                out.append(effect_event(state, owner, rule, source, what))
    if not card.link or len(line) < 2 or line[-2].side != UP or line[-1].side != UP:
        return speed, damage, guard, False  # not in combo: the common case, decided fast
    links, cs, cd, cg, maximum, starter = combo_of(line, len(line) - 1, state.fighters)
    if links:
        speed += cs
        damage += cd
        guard += cg
        if out is not None:
            out.append(
                ev.ComboFormed(
                    rule="rv.combo.chained" if links > 1 else "rv.combo.link",
                    seat=seat,
                    who=state.who[seat],
                    links=links,
                    starter=state.who[starter],
                    speed=cs,
                    damage=cd,
                    guard=cg,
                    maximum=maximum,
                )
            )
    return speed, damage, guard, maximum


def order(state: Engine, fight: Fight, speeds: tuple[int, int]) -> list[int]:
    """Type priority (ultra, basic, unique), then Speed, then the most recent clash winner,
    then seat (rv.clash.immediate-order, rv.ruling.effect-order-tie)."""
    lines = state.lines[fight.zone]
    w = state.last_winner
    first = (
        lines[0][-1].card.priority,
        -speeds[0],
        0 if w == 0 else 1,
        fight.seats[0],
    )
    second = (
        lines[1][-1].card.priority,
        -speeds[1],
        0 if w == 1 else 1,
        fight.seats[1],
    )
    return [0, 1] if first < second else [1, 0]  # the seats differ: never equal


Queued = tuple[tuple[int, Effect, Card, Check | None], ...]
_QUEUED: Final[tuple[Memo[Card, Queued], Memo[Card, Queued]]] = (Memo(5_000), Memo(5_000))
"""Per team, queue entries by card (keyed by the card alone: a card hashes by identity,
where a (team, card) key is a tuple to make and hash at every reveal)."""


def _queued(t: int, card: Card) -> Queued:
    """The immediate effects of team ``t``'s ``card`` as queue entries (made once): the
    team, the effect, the card and the effect's compiled requirement (None: it has none)."""
    memo = _QUEUED[1] if t else _QUEUED[0]
    found = memo.get(card)
    if found is None:
        found = memo.put(
            card,
            tuple(
                (t, e, card, None if e.requires is NO_REQUIREMENT else check_of(e))
                for e in card.immediate
            ),
        )
    return found


def reveal(state: Engine, fight: Fight, out: list[Event] | None) -> None:
    lines = state.lines[fight.zone]
    for t in range(2):
        slot = lines[t][-1]
        seat = fight.seat(t)
        card = slot.card
        if slot.side == HIDDEN:
            slot.side = UP
            if state.known or state.seen[seat]:
                state.forget(seat, card)  # it left the hand in sight
        if out is not None:
            out.append(
                ev.CardRevealed(
                    rule="rv.clash.reveal",
                    seat=seat,
                    who=state.who[seat],
                    card=card.id,
                    name=card.name,
                    card_type=card.type,
                    speed=card.speed,
                    damage=card.damage,
                    guard=card.guard,
                )
            )
        carry = state.carry[seat]
        if carry[0] or carry[1] or carry[2]:
            for i in range(3):
                fight.bonus[t][i] += carry[i]
            state.carry[seat] = [0, 0, 0]
            if out is not None:
                parts = [
                    f"+{v} {n}"
                    for v, n in zip(carry, ("Speed", "Damage", "Guard"), strict=True)
                    if v
                ]
                what = ", ".join(parts)
                out.append(
                    effect_event(state, seat, "rv.speed.value", "bonus for the next card", what)
                )
    card_a, card_b = lines[0][-1].card, lines[1][-1].card
    if card_a.immediate and card_b.immediate:  # the order matters only when both have some
        if card_a.priority != card_b.priority:  # decided by type: Speed is not needed
            first = 0 if card_a.priority < card_b.priority else 1
        else:
            speeds = (stats(state, fight, 0)[0], stats(state, fight, 1)[0])
            first = order(state, fight, speeds)[0]
        qa, qb = _queued(0, card_a), _queued(1, card_b)
        fight.queue = qa + qb if first == 0 else qb + qa
    elif card_a.immediate:
        fight.queue = _queued(0, card_a)
    elif card_b.immediate:
        fight.queue = _queued(1, card_b)
    else:
        fight.queue = ()
    fight.queue_pos = 0


_EFFECT_DECISIONS: Final[Memo[tuple[int, str, str, tuple[str, ...]], tuple[Decision, ...]]] = Memo(
    10_000
)
"""Effect decisions by (seat, card name, op, options)."""


def _effect_decision(
    state: Engine, fight: Fight, opts: tuple[str, ...] | None = None
) -> tuple[Decision, ...]:
    """The decision of the queued effect (``opts``: its options, if known already)."""
    t, e, card, _ = fight.queue[fight.queue_pos]
    if opts is None:
        opts = options(ctx(state, fight, t), e)
    assert opts
    if e.op == "dodge":  # its choices are the hand, in order: they rarely recur, not cached
        return (
            new_decision(fight.seat(t), "dodge", opts, f"{card.name}: {EFFECT_PROMPTS['dodge']}"),
        )
    key = (fight.seat(t), card.name, e.op, opts)
    found = _EFFECT_DECISIONS.get(key)
    if found is None:
        found = _EFFECT_DECISIONS.put(
            key,
            (
                new_decision(
                    key[0], e.op.replace("_", "-"), opts, f"{card.name}: {EFFECT_PROMPTS[e.op]}"
                ),
            ),
        )
    return found


def run_immediate(
    state: Engine, fight: Fight, out: list[Event] | None
) -> tuple[Decision, ...] | None:
    while fight.queue_pos < len(fight.queue):
        t, e, card, check = fight.queue[fight.queue_pos]
        if check is not None and not check.holds(state, fight, t, None):
            if out is not None:
                seat = fight.seat(t)
                out.append(
                    ev.RequirementUnmet(
                        rule="rv.clash.requirement",
                        seat=seat,
                        who=state.who[seat],
                        source=card.name,
                        requirement=e.requires.describe(),
                    )
                )
        else:
            c = ctx(state, fight, t)
            opts = options(c, e) if e.op in CHOICE_OPS else None
            if opts is None:
                execute(c, e, card, None, out)
            elif len(opts) == 1:
                execute(c, e, card, opts[0], out)
            elif opts:
                state.waiting = "effect"
                return _effect_decision(state, fight, opts)
            elif out is not None:
                out.append(
                    effect_event(state, c.seat, card_rule(card.id), card.name, "nothing to act on")
                )
        fight.queue_pos += 1
    return None


_GUARDS: Final[Memo[tuple[int, int, int, int], tuple[Decision, ...]]] = Memo(10_000)
"""Guard decisions by (seat, energy, Damage, Guard): the same few recur all the time."""


def _guard_decision(state: Engine, fight: Fight) -> tuple[Decision, ...]:
    assert fight.attacker is not None and fight.stats is not None
    d = 1 - fight.attacker
    n = energy(state.lines[fight.zone][d])
    damage, guard = fight.stats[fight.attacker][1], fight.stats[d][2]
    key = (fight.seat(d), n, damage, guard)
    found = _GUARDS.get(key)
    if found is None:
        found = _GUARDS.put(
            key,
            (
                new_decision(
                    key[0],
                    "guard",
                    tuple(Guard(i).format() for i in range(n + 1)),
                    f"You defend: Damage {damage} against your Guard {guard}. "
                    "Exhaust energy for +1 Guard each?",
                ),
            ),
        )
    return found


def compare(state: Engine, fight: Fight, out: list[Event] | None) -> tuple[Decision, ...] | None:
    """Compare Speeds; resolve an exchange, or set up the attack (rv.speed.*)."""
    a = stats(state, fight, 0, out)
    b = stats(state, fight, 1, out)
    # the stats stored once, as tuples; read below from the unboxed results (compiled, a
    # slice or a tuple of the results would box them again)
    fight.stats = [(a[0], a[1], a[2]), (b[0], b[1], b[2])]
    fight.maximum = [a[3], b[3]]
    lines = state.lines[fight.zone]
    att: int | None
    if a[0] != b[0]:
        att = 0 if a[0] > b[0] else 1
    elif fight.ties[0] != fight.ties[1]:
        att = 0 if fight.ties[0] else 1
    else:
        pa, pb = lines[0][-1].card.priority, lines[1][-1].card.priority
        att = None if pa == pb else (0 if pa < pb else 1)
    if out is not None:
        how, rule = "", "rv.speed.attacker"
        if a[0] == b[0]:  # how the tie was decided (only events say it)
            if att is None:
                how, rule = "equal Speed and card type", "rv.speed.exchange"
            elif fight.ties[0] != fight.ties[1]:
                card = lines[att][-1].card
                how, rule = f"{card.name} wins Speed ties", card_rule(card.id)
            else:
                how = f"tie won by type: {lines[att][-1].card.type} card"
                rule = "rv.speed.tie-type"
        out.append(
            ev.SpeedCompared(
                rule=rule,
                seats=fight.seats,
                whos=(state.who[fight.seats[0]], state.who[fight.seats[1]]),
                speeds=(a[0], b[0]),
                attacker=None if att is None else fight.seat(att),
                how=how,
            )
        )
    if att is None:
        _exchange(state, fight, out)
        fight.stage = 4
        return None
    fight.attacker = att
    d = 1 - att
    if fight.dodge[d]:
        if out is not None:
            out.append(_attack_event(state, fight, 0, dodged=True))
        if state.opts.clash_winner == "attacker":
            state.last_winner = att
        fight.stage = 4
        return None
    fight.stage = 3
    net = a[1] - b[2] if att == 0 else b[1] - a[2]
    if net >= 1 and energy(lines[d]) >= 1:
        state.waiting = "guard"
        return _guard_decision(state, fight)
    return None


def _attack_event(state: Engine, fight: Fight, dealt: int, dodged: bool = False) -> Event:
    assert fight.attacker is not None and fight.stats is not None
    att, d = fight.attacker, 1 - fight.attacker
    rule = "rv.dodge" if dodged else ("rv.defense.guard" if dealt else "rv.defense.no-damage")
    return ev.AttackResolved(
        rule=rule,
        attacker=fight.seat(att),
        defender=fight.seat(d),
        whos=(state.who[fight.seat(att)], state.who[fight.seat(d)]),
        damage=fight.stats[att][1],
        guard=fight.stats[d][2] + fight.guard_boost,
        dealt=dealt,
        dodged=dodged,
    )


def _flip_down(state: Engine, slot: Slot, reason: str, rule: str, out: list[Event] | None) -> None:
    if slot.side != UP:
        return
    slot.side = DOWN
    if out is not None:
        out.append(flip_event(state, slot, False, reason, rule))


def _exchange(state: Engine, fight: Fight, out: list[Event] | None) -> None:
    """Both flip their card and receive 1 Damage ignoring Guard (rv.speed.exchange)."""
    lines = state.lines[fight.zone]
    for t in range(2):
        _flip_down(state, lines[t][-1], "exchange", "rv.speed.exchange", out)
    amount = state.catalog.rules.exchange_damage
    for t in range(2):
        seat = fight.seat(t)
        if fight.dodge[t]:
            if out is not None:
                out.append(
                    effect_event(
                        state, seat, "rv.ruling.dodge", "dodge", "no Damage from the exchange"
                    )
                )
            continue
        state.caused.add(1 - t)
        state.damage(seat, amount, out, "rv.speed.exchange")
    _check_immediate_end(state)


def on_choice(state: Engine, choices: dict[int, str], out: list[Event] | None) -> None:
    """A player's answer inside the resolution: an effect's choice or a Guard boost."""
    fight = state.fights[state.fight_index]
    if state.waiting == "effect":
        t, e, card, _ = fight.queue[fight.queue_pos]
        execute(ctx(state, fight, t), e, card, choices[fight.seat(t)], out)
        fight.queue_pos += 1
    else:
        assert fight.attacker is not None and fight.stats is not None
        d = 1 - fight.attacker
        n = Guard.parse(choices[fight.seat(d)]).energy
        spend(state.lines[fight.zone][d], n)
        fight.guard_boost = n
        if out is not None:
            seat = fight.seat(d)
            out.append(
                ev.GuardBoosted(
                    rule="rv.energy.guard" if not state.two_vs_two else "rv.2v2.boosting",
                    seat=seat,
                    who=state.who[seat],
                    energy=n,
                    guard=fight.stats[d][2] + n,
                )
            )
    state.waiting = ""


def damage_step(state: Engine, fight: Fight, out: list[Event] | None) -> None:
    """Damage beyond Guard flips the defender's card and moves their life marker."""
    assert fight.attacker is not None and fight.stats is not None
    att, d = fight.attacker, 1 - fight.attacker
    net = fight.stats[att][1] - fight.stats[d][2] - fight.guard_boost
    if net >= 1:
        if out is not None:
            out.append(_attack_event(state, fight, net))
        _flip_down(
            state,
            state.lines[fight.zone][d][-1],
            "Damage: its effect is cancelled",
            "rv.damage.flip",
            out,
        )
        fight.dealt[att] = net
        state.caused.add(att)
        state.last_winner = att
        state.damage(fight.seat(d), net, out, "rv.damage.life-marker")
    elif out is not None:
        out.append(_attack_event(state, fight, 0))
    if state.opts.clash_winner == "attacker":
        state.last_winner = att
    if not state.two_vs_two:
        if True in state.ko or (state.final and len(state.caused) == 1):
            state.round_over = True  # :func:`_check_immediate_end`, inline
    elif state.final:
        _check_immediate_end(state)


def _check_immediate_end(state: Engine) -> None:
    """1vs1: a K.O. ends the round at once (rv.end.ko), as does the first Damage caused
    by one fighter alone in the final round (rv.end.final-round). 2vs2: a K.O. waits for
    the end of the clash (rv.2v2.team-ko), but the zones resolve one at a time, so the first
    Damage caused by one team alone, in the order of the zones, ends the final round at once
    (rv.ruling.final-round; option final_round_zones=together: at the end of the clash)."""
    if state.two_vs_two:
        if state.final and len(state.caused) == 1 and state.opts.final_round_zones == "in-order":
            state.round_over = True
        return
    if True in state.ko or (state.final and len(state.caused) == 1):
        state.round_over = True


def resolve(state: Engine, out: list[Event] | None) -> tuple[Decision, ...] | None:
    """Run the zones' resolution until a player must decide (or all zones are done)."""
    if state.waiting:
        return current_decisions(state)
    fights = state.fights
    while state.fight_index < len(fights) and not state.round_over:
        fight = fights[state.fight_index]
        if fight.stage == 0:
            if state.caused and state.opts.final_round_zones == "in-order":
                # who caused Damage is told zone by zone: an exchange in the first zone
                # (both teams at once) leaves the final round to the next (rv.ruling.final-round)
                state.caused = set()
            reveal(state, fight, out)
            fight.stage = 1
        if fight.stage == 1:
            if fight.queue_pos < len(fight.queue):  # immediate effects to run
                waiting = run_immediate(state, fight, out)
                if waiting:
                    return waiting
            fight.stage = 2
        if fight.stage == 2:
            waiting = compare(state, fight, out)
            if waiting:
                return waiting
        if fight.stage == 3:
            damage_step(state, fight, out)
            fight.stage = 4
        state.fight_index += 1
    return None


def current_decisions(state: Engine) -> tuple[Decision, ...]:
    """The decision a resolution is waiting for, recomputed from the state."""
    fight = state.fights[state.fight_index]
    if state.waiting == "effect":
        return _effect_decision(state, fight)
    return _guard_decision(state, fight)
