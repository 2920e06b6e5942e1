"""One clash, from the set-up of a round to the end of the clash.

The steps of a clash in each zone (``docs/rulings.md`` for the order kumite reads):

1. reveal; bonuses carried for this card; immediate effects in type priority, then Speed
   (rv.clash.immediate-order), each checking its requirement (rv.clash.requirement);
2. Speed = printed + bonuses from effects, boosts, passives and combo (rv.speed.value);
   the higher attacks; ties go by type, an exact tie is an exchange (rv.speed.exchange);
3. the defender may exhaust energy for Guard (rv.energy.guard); Damage beyond Guard flips
   the defender's card and moves the life marker (rv.damage.*);
4. end of clash: card effects still face up, the cut of maximum combos, passives; K.O.,
   the seventh clash, or the next clash with its draw.

These functions act on a :class:`~kumite.games.rivales.state.RivalesState`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kumite.core.events import Event
from kumite.core.game import Decision
from kumite.games.rivales import events as ev
from kumite.games.rivales.cards import Effect
from kumite.games.rivales.effects import (
    STAT_INDEX,
    Ctx,
    counted,
    end_effect,
    execute,
    options,
    requirement_met,
    source_name,
)
from kumite.games.rivales.rules import card_rule, fighter_rule
from kumite.games.rivales.table import DOWN, HIDDEN, SPENT, UP, Slot, combo_of, energy, spend

if TYPE_CHECKING:
    from kumite.games.rivales.state import Fight, RivalesState

BOOSTS = ("boost:none", "boost:damage", "boost:speed", "boost:both")
BOOST_PROMPT = "Boost your card before the reveal? damage = 1 energy, speed = 2, both = 3"
EFFECT_PROMPTS = {
    "dodge": "Dodge: choose the card you leave face up — your card of the next clash",
    "flip_own_down": "You may flip one of your face-up cards in play face down (energy)",
    "exchange_with_basic": "You may exchange this card with one of your face-up basic cards",
    "flip_energy_up": "How many of your energy cards do you flip face up?",
}


# ------------------------------------------------------------------------------ set-up
def setup_round(state: RivalesState, out: list[Event] | None) -> None:
    """A new round, set up afresh (rv.setup.*, rv.ruling.round-setup)."""
    state.round += 1
    draw = state.catalog.rules.draw_at_setup
    for s in state.seats:
        fighter = state.fighter(s)
        deck = list(fighter.deck)
        state.rng.shuffle(deck)
        state.hand[s] = [deck.pop() for _ in range(min(draw, len(deck)))]
        state.deck[s] = deck
        state.marker[s] = None
        state.ultra[s] = fighter.ultra
        state.ultra_due[s] = False
        state.taken[s] = 0
        state.ko[s] = False
        state.ready[s] = None
        state.carry[s] = [0, 0, 0]
    state.known = {}
    state.no_basic_zone = set()
    state.no_basic_facing = set()
    state.restricted = set()
    state.lines = [[[], []] for _ in range(state.zones)]
    state.zone_of = [-1] * state.n
    state.fights = []
    state.clash = 0
    state.caused = set()
    state.round_over = False
    state.passives = [
        [(e, s) for e in state.fighter(s).static]
        + [(e, m) for m in state.teams[state.team_of[s]] for e in state.fighter(m).team_static]
        for s in state.seats
    ]
    state.end_passives = [state.fighter(s).end_passives for s in state.seats]
    if out is None:
        return
    out.append(ev.RoundStarted(rule="rv.play.goal", round=state.round, final=state.final))
    for s in state.seats:
        ultra = state.fighter(s).ultra
        who = state.who[s]
        out.append(
            ev.UltraSetAside(
                rule="rv.setup.ultra-aside", seat=s, who=who, card=ultra.id, name=ultra.name
            )
        )
        hand = state.hand[s]
        rule = "rv.setup.life-marker"
        out.append(
            ev.CardsDrawn(
                rule=rule,
                to=frozenset({s}),
                seat=s,
                who=who,
                count=len(hand),
                cards=tuple(c.id for c in hand),
                names=tuple(c.name for c in hand),
            )
        )
        out.append(ev.CardsDrawn(rule=rule, seat=s, who=who, count=len(hand), cards=(), names=()))


def start_clash(state: RivalesState, out: list[Event] | None) -> None:
    """A new clash: everyone draws a card (if the deck allows) and takes an uncovered
    ultra (rv.end.next-clash, rv.end.ultra)."""
    state.clash += 1
    state.caused = set()
    if out is not None:
        out.append(ev.ClashStarted(rule="rv.clash.play", round=state.round, clash=state.clash))
    if state.clash == 1:
        return
    for s in state.seats:
        who = state.who[s]
        deck = state.deck[s]
        if deck:
            card = deck.pop()
            state.hand[s].append(card)
            if out is not None:
                rule = "rv.end.next-clash"
                out.append(
                    ev.CardsDrawn(
                        rule=rule,
                        to=frozenset({s}),
                        seat=s,
                        who=who,
                        count=1,
                        cards=(card.id,),
                        names=(card.name,),
                    )
                )
                out.append(ev.CardsDrawn(rule=rule, seat=s, who=who, count=1, cards=(), names=()))
        elif out is not None:
            out.append(
                ev.CardsDrawn(
                    rule="rv.end.next-clash", seat=s, who=who, count=0, cards=(), names=()
                )
            )
        ultra = state.ultra[s]
        if state.ultra_due[s] and ultra is not None:
            state.hand[s].append(ultra)
            state.ultra[s] = None
            state.ultra_due[s] = False
            if out is not None:
                out.append(
                    ev.UltraTaken(
                        rule="rv.end.ultra", seat=s, who=who, card=ultra.id, name=ultra.name
                    )
                )


def compute_restrictions(state: RivalesState) -> None:
    """Seats that may not play basic cards this clash (Pinzas de Mantis)."""
    if not state.no_basic_zone and not state.no_basic_facing:
        if state.restricted:
            state.restricted = set()
        return
    restricted = set()
    for s in state.seats:
        team, zone = state.team_of[s], state.zone_of[s]
        if (team, zone) in state.no_basic_zone:
            restricted.add(s)
        for rival_team, mulan in state.no_basic_facing:
            if rival_team == team and state.zone_of[mulan] == zone:
                restricted.add(s)
    state.restricted = restricted


# ------------------------------------------------------------------------------ boosts
def _boost_plan(state: RivalesState, fight: Fight) -> list[tuple[int, ...]]:
    """Who decides a boost, in order (rv.energy.boost-order, rv.ruling.boost-no-winner)."""
    lines = state.lines[fight.zone]
    has = [t for t in (0, 1) if energy(lines[t]) >= 1]
    if len(has) == 2:
        w = state.last_winner
        return [(0, 1)] if w is None else [(w,), (1 - w,)]
    return [(has[0],)] if has else []


def boost_levels(state: RivalesState) -> dict[str, tuple[int, int, int]]:
    """Boost levels: choice word -> (energy cost, +Speed, +Damage) (rv.energy.boost)."""
    rules = state.catalog.rules
    return {
        "none": (0, 0, 0),
        "damage": (rules.boost_damage_cost, 0, 1),
        "speed": (rules.boost_speed_cost, 1, 0),
        "both": (rules.boost_both_cost, 1, 1),
    }


def boost_legal(state: RivalesState, n: int) -> tuple[str, ...]:
    """The boost choices ``n`` energy pays for."""
    legal = state.boost_legal.get(n)
    if legal is None:
        legal = state.boost_legal[n] = tuple(
            choice for choice in BOOSTS if state.boost_costs[choice[6:]][0] <= n
        )
    return legal


def boost_decisions(state: RivalesState) -> tuple[Decision, ...] | None:
    from kumite.games.rivales.state import decision

    waiting: list[Decision] = []
    for fight in state.fights:
        if fight.boost_plan is None:
            fight.boost_plan = _boost_plan(state, fight)
        plan = fight.boost_plan
        while fight.boost_pos < len(plan):
            group = [
                decision(fight.seats[t], "boost", boost_legal(state, n), BOOST_PROMPT)
                for t in plan[fight.boost_pos]
                if (n := energy(state.lines[fight.zone][t])) >= 1
            ]
            if group:
                waiting.extend(group)
                break
            fight.boost_pos += 1
    return tuple(waiting) or None


def apply_boosts(state: RivalesState, choices: dict[int, str], out: list[Event] | None) -> None:
    costs = state.boost_costs
    for fight in state.fights:
        plan = fight.boost_plan
        if plan is None or fight.boost_pos >= len(plan):
            continue
        decided = False
        for t in plan[fight.boost_pos]:
            seat = fight.seats[t]
            if seat not in choices:
                continue
            decided = True
            cost, speed, damage = costs[choices[seat][6:]]
            spend(state.lines[fight.zone][t], cost)
            fight.boost[t] = cost
            fight.bonus[t][0] += speed
            fight.bonus[t][1] += damage
            if out is not None:
                out.append(
                    ev.BoostChosen(
                        rule="rv.energy.boost" if not state.two else "rv.2v2.boosting",
                        seat=seat,
                        who=state.who[seat],
                        energy=cost,
                        speed=speed,
                        damage=damage,
                    )
                )
        if decided:
            fight.boost_pos += 1


# -------------------------------------------------------------------------- resolution
def stats(
    state: RivalesState, fight: Fight, t: int, out: list[Event] | None = None
) -> tuple[int, int, int, bool]:
    """Speed, Damage and Guard of team ``t``'s card now, and whether it closes a maximum
    combo: printed values + bonuses + passives + combo (rv.speed.value)."""
    line = state.lines[fight.zone][t]
    card = line[-1].card
    bonus = fight.bonus[t]
    speed = card.speed + bonus[0]
    damage = card.damage + bonus[1]
    guard = card.guard + bonus[2]
    seat = fight.seats[t]
    passives = state.passives[seat]
    c = Ctx(state, fight, t) if passives else None
    for e, owner in passives:
        assert c is not None
        if not requirement_met(c, e, owner):
            continue
        value = counted(c, e, owner)
        if value <= 0:
            continue
        assert e.stat is not None
        if e.stat == "speed":
            speed += value
        elif e.stat == "damage":
            damage += value
        else:
            guard += value
        if out is not None:
            out.append(
                ev.EffectApplied(
                    rule=fighter_rule(state.fighter(owner).id),
                    seat=owner,
                    who=state.who[owner],
                    source=source_name(state, e, None, owner),
                    what=f"+{value} {e.stat.capitalize()} to {state.who[seat]}'s {card.name}",
                )
            )
    if not card.link or len(line) < 2 or line[-2].side != UP or line[-1].side != UP:
        return speed, damage, guard, False  # not in combo: the common case, decided fast
    links, cs, cd, cg, maximum, starter = combo_of(line, len(line) - 1, state.fighters)  # type: ignore[arg-type]
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


def _order(state: RivalesState, fight: Fight, speeds: tuple[int, int]) -> list[int]:
    """Type priority (ultra, basic, unique), then Speed, then the most recent clash winner,
    then seat (rv.clash.immediate-order, rv.ruling.effect-order-tie)."""
    lines = state.lines[fight.zone]

    def key(t: int) -> tuple[int, int, int, int]:
        return (
            lines[t][-1].card.priority,
            -speeds[t],
            0 if state.last_winner == t else 1,
            fight.seats[t],
        )

    return sorted((0, 1), key=key)


def reveal(state: RivalesState, fight: Fight, out: list[Event] | None) -> None:
    lines = state.lines[fight.zone]
    for t in (0, 1):
        slot = lines[t][-1]
        if slot.side == HIDDEN:
            slot.side = UP
        seat = fight.seats[t]
        card = slot.card
        if out is not None:
            out.append(
                ev.CardRevealed(
                    rule="rv.clash.reveal",
                    seat=seat,
                    who=state.who[seat],
                    card=card.id,
                    name=card.name,
                    type=card.type,
                    speed=card.speed,
                    damage=card.damage,
                    guard=card.guard,
                )
            )
        carry = state.carry[seat]
        if carry != [0, 0, 0]:
            for i in range(3):
                fight.bonus[t][i] += carry[i]
            state.carry[seat] = [0, 0, 0]
            if out is not None:
                parts = [
                    f"+{v} {n}"
                    for v, n in zip(carry, ("Speed", "Damage", "Guard"), strict=True)
                    if v
                ]
                out.append(
                    ev.EffectApplied(
                        rule="rv.speed.value",
                        seat=seat,
                        who=state.who[seat],
                        source="bonus for the next card",
                        what=", ".join(parts),
                    )
                )
    a, b = lines[0][-1].card.immediate, lines[1][-1].card.immediate
    if a and b:  # the order matters only when both cards have immediate effects
        speeds = (stats(state, fight, 0)[0], stats(state, fight, 1)[0])
        order = _order(state, fight, speeds)
    else:
        order = [0] if a else [1]
    fight.queue = [(t, e, lines[t][-1].card) for t in order for e in lines[t][-1].card.immediate]
    fight.qpos = 0


def _effect_decision(state: RivalesState, fight: Fight) -> tuple[Decision, ...]:
    from kumite.games.rivales.state import decision

    t, e, card = fight.queue[fight.qpos]
    opts = options(Ctx(state, fight, t), e)
    assert opts
    return (
        decision(
            fight.seats[t], e.op.replace("_", "-"), opts, f"{card.name}: {EFFECT_PROMPTS[e.op]}"
        ),
    )


def run_immediate(
    state: RivalesState, fight: Fight, out: list[Event] | None
) -> tuple[Decision, ...] | None:
    while fight.qpos < len(fight.queue):
        t, e, card = fight.queue[fight.qpos]
        c = Ctx(state, fight, t)
        if not requirement_met(c, e):
            if out is not None:
                out.append(
                    ev.RequirementUnmet(
                        rule="rv.clash.requirement",
                        seat=c.seat,
                        who=state.who[c.seat],
                        source=card.name,
                        requirement=e.requires.describe(),
                    )
                )
        else:
            opts = options(c, e)
            if opts is None:
                execute(c, e, card, None, out)
            elif len(opts) == 1:
                execute(c, e, card, opts[0], out)
            elif opts:
                state.waiting = "effect"
                return _effect_decision(state, fight)
            elif out is not None:
                out.append(
                    ev.EffectApplied(
                        rule=card_rule(card.id),
                        seat=c.seat,
                        who=state.who[c.seat],
                        source=card.name,
                        what="nothing to act on",
                    )
                )
        fight.qpos += 1
    return None


def _guard_decision(state: RivalesState, fight: Fight) -> tuple[Decision, ...]:
    from kumite.games.rivales.state import decision

    assert fight.attacker is not None and fight.stats is not None
    d = 1 - fight.attacker
    n = energy(state.lines[fight.zone][d])
    damage, guard = fight.stats[fight.attacker][1], fight.stats[d][2]
    return (
        decision(
            fight.seats[d],
            "guard",
            tuple(f"guard:{i}" for i in range(n + 1)),
            f"You defend: Damage {damage} against your Guard {guard}. "
            "Exhaust energy for +1 Guard each?",
        ),
    )


def compare(
    state: RivalesState, fight: Fight, out: list[Event] | None
) -> tuple[Decision, ...] | None:
    """Compare Speeds; resolve an exchange, or set up the attack (rv.speed.*)."""
    a = stats(state, fight, 0, out)
    b = stats(state, fight, 1, out)
    fight.stats = [a[:3], b[:3]]
    fight.maximum = [a[3], b[3]]
    lines = state.lines[fight.zone]
    how, rule = "", "rv.speed.attacker"
    att: int | None
    if a[0] != b[0]:
        att = 0 if a[0] > b[0] else 1
    elif fight.ties[0] != fight.ties[1]:
        att = 0 if fight.ties[0] else 1
        card = lines[att][-1].card
        how, rule = f"{card.name} wins Speed ties", card_rule(card.id)
    else:
        pa, pb = lines[0][-1].card.priority, lines[1][-1].card.priority
        if pa != pb:
            att = 0 if pa < pb else 1
            how, rule = f"tie won by type: {lines[att][-1].card.type} card", "rv.speed.tie-type"
        else:
            att, how, rule = None, "equal Speed and card type", "rv.speed.exchange"
    if out is not None:
        out.append(
            ev.SpeedCompared(
                rule=rule,
                seats=fight.seats,
                whos=(state.who[fight.seats[0]], state.who[fight.seats[1]]),
                speeds=(a[0], b[0]),
                attacker=None if att is None else fight.seats[att],
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
    if fight.stats[att][1] - fight.stats[d][2] >= 1 and energy(lines[d]) >= 1:
        state.waiting = "guard"
        return _guard_decision(state, fight)
    return None


def _attack_event(state: RivalesState, fight: Fight, dealt: int, dodged: bool = False) -> Event:
    assert fight.attacker is not None and fight.stats is not None
    att, d = fight.attacker, 1 - fight.attacker
    rule = "rv.dodge" if dodged else ("rv.defense.guard" if dealt else "rv.defense.no-damage")
    return ev.AttackResolved(
        rule=rule,
        attacker=fight.seats[att],
        defender=fight.seats[d],
        whos=(state.who[fight.seats[att]], state.who[fight.seats[d]]),
        damage=fight.stats[att][1],
        guard=fight.stats[d][2] + fight.guard_boost,
        dealt=dealt,
        dodged=dodged,
    )


def _flip_down(
    state: RivalesState, slot: Slot, reason: str, rule: str, out: list[Event] | None
) -> None:
    if slot.side != UP:
        return
    slot.side = DOWN
    if out is not None:
        out.append(
            ev.CardFlipped(
                rule=rule,
                seat=slot.owner,
                who=state.who[slot.owner],
                card=slot.card.id,
                name=slot.card.name,
                up=False,
                reason=reason,
            )
        )


def _exchange(state: RivalesState, fight: Fight, out: list[Event] | None) -> None:
    """Both flip their card and receive 1 Damage ignoring Guard (rv.speed.exchange)."""
    lines = state.lines[fight.zone]
    for t in (0, 1):
        _flip_down(state, lines[t][-1], "exchange", "rv.speed.exchange", out)
    amount = state.catalog.rules.exchange_damage
    for t in (0, 1):
        seat = fight.seats[t]
        if fight.dodge[t]:
            if out is not None:
                out.append(
                    ev.EffectApplied(
                        rule="rv.ruling.dodge",
                        seat=seat,
                        who=state.who[seat],
                        source="dodge",
                        what="no Damage from the exchange",
                    )
                )
            continue
        state.caused.add(1 - t)
        state.damage(seat, amount, out, "rv.speed.exchange")
    _check_immediate_end(state)


def on_choice(state: RivalesState, choices: dict[int, str], out: list[Event] | None) -> None:
    """A player's answer inside the resolution: an effect's choice or a Guard boost."""
    fight = state.fights[state.fi]
    if state.waiting == "effect":
        t, e, card = fight.queue[fight.qpos]
        execute(Ctx(state, fight, t), e, card, choices[fight.seats[t]], out)
        fight.qpos += 1
    else:
        assert fight.attacker is not None and fight.stats is not None
        d = 1 - fight.attacker
        n = int(choices[fight.seats[d]].partition(":")[2])
        spend(state.lines[fight.zone][d], n)
        fight.guard_boost = n
        if out is not None:
            seat = fight.seats[d]
            out.append(
                ev.GuardBoosted(
                    rule="rv.energy.guard" if not state.two else "rv.2v2.boosting",
                    seat=seat,
                    who=state.who[seat],
                    energy=n,
                    guard=fight.stats[d][2] + n,
                )
            )
    state.waiting = ""


def damage_step(state: RivalesState, fight: Fight, out: list[Event] | None) -> None:
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
        state.damage(fight.seats[d], net, out, "rv.damage.life-marker")
    elif out is not None:
        out.append(_attack_event(state, fight, 0))
    if state.opts.clash_winner == "attacker":
        state.last_winner = att
    _check_immediate_end(state)


def _check_immediate_end(state: RivalesState) -> None:
    """1vs1: a K.O. ends the round at once (rv.end.ko), as does the first Damage caused
    by one fighter alone in the final round (rv.end.final-round)."""
    if state.two:
        return
    if any(state.ko) or (state.final and len(state.caused) == 1):
        state.round_over = True


def resolve(state: RivalesState, out: list[Event] | None) -> tuple[Decision, ...] | None:
    """Run the zones' resolution until a player must decide (or all zones are done)."""
    if state.waiting:
        return current_decisions(state)
    while state.fi < len(state.fights) and not state.round_over:
        fight = state.fights[state.fi]
        if fight.stage == 0:
            reveal(state, fight, out)
            fight.stage = 1
        if fight.stage == 1:
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
        state.fi += 1
    return None


def current_decisions(state: RivalesState) -> tuple[Decision, ...]:
    """The decision a resolution is waiting for, recomputed from the state."""
    fight = state.fights[state.fi]
    if state.waiting == "effect":
        return _effect_decision(state, fight)
    return _guard_decision(state, fight)


# ------------------------------------------------------------------------ end of clash
def passive_on_damage(state: RivalesState, seat: int, e: Effect, out: list[Event] | None) -> None:
    """A passive triggered when its fighter receives Damage (``when = "damaged"``)."""
    assert e.stat is not None
    state.carry[seat][STAT_INDEX[e.stat]] += e.amount
    if out is not None:
        fighter = state.fighter(seat)
        out.append(
            ev.EffectApplied(
                rule=fighter_rule(fighter.id),
                seat=seat,
                who=state.who[seat],
                source=f"{fighter.passive_name} (passive)",
                what=f"the next card gets +{e.amount} {e.stat.capitalize()}",
            )
        )


def end_clash(state: RivalesState, out: list[Event] | None) -> None:
    """End of clash (rv.2v2.end-of-clash, rv.ruling.end-order), then the next clash or
    the end of the round."""
    if not state.round_over:
        state.no_basic_zone = set()
        state.no_basic_facing = set()
        cut = SPENT if state.opts.max_combo_card == "exhausted" else DOWN
        for fight in state.fights:
            lines = state.lines[fight.zone]
            ends = [t for t in (0, 1) if lines[t][-1].card.end and lines[t][-1].side == UP]
            if len(ends) == 2:
                speeds = (fight.stats[0][0], fight.stats[1][0]) if fight.stats else (0, 0)
                ends = _order(state, fight, speeds)
            for t in ends:
                slot = lines[t][-1]
                if slot.side != UP:
                    continue
                for e in slot.card.end:
                    c = Ctx(state, fight, t)
                    if requirement_met(c, e) and slot.side == UP:
                        end_effect(c, e, slot.card, out)
            for t in (0, 1):
                slot = lines[t][-1]
                if fight.maximum[t] and slot.side == UP:
                    slot.side = cut
                    if out is not None:
                        out.append(
                            ev.CardFlipped(
                                rule="rv.combo.maximum",
                                seat=slot.owner,
                                who=state.who[slot.owner],
                                card=slot.card.id,
                                name=slot.card.name,
                                up=False,
                                reason="maximum combo: the chain is cut",
                            )
                        )
            for t in (0, 1):
                seat = fight.seats[t]
                for e in state.end_passives[seat]:
                    c = Ctx(state, fight, t)
                    if requirement_met(c, e):
                        end_effect(c, e, None, out)
        if state.two and (any(state.ko) or (state.final and len(state.caused) == 1)):
            state.round_over = True
        if state.clash >= state.clashes_per_round:
            state.round_over = True
    if state.round_over:
        end_round(state, out)
    else:
        from kumite.games.rivales.state import START

        state.phase = START


def end_round(state: RivalesState, out: list[Event] | None) -> None:
    """Decide the round (rv.end.*, rv.2v2.team-ko) and then the fight (rv.end.match)."""
    from kumite.games.rivales.state import SETUP

    winners, reason, rule = _round_winners(state)
    if not state.final:
        for team in winners:
            state.rounds_won[team] += 1
    if out is not None:
        out.append(
            ev.RoundEnded(
                rule=rule,
                round=state.round,
                winners=winners,
                team_names=state.team_names(),
                reason=reason,
                rounds_won=tuple(state.rounds_won),
            )
        )
    if state.final:
        if len(winners) == 1:
            state.finish(winners[0], "first Damage in the final round", "rv.end.final-round", out)
        elif state.finals >= state.opts.final_round_limit:
            state.finish(None, "no final round decided the fight", "rv.ruling.final-round", out)
        else:
            state.finals += 1
            state.phase = SETUP
        return
    a, b = state.rounds_won
    need = state.catalog.rules.rounds_to_win
    if max(a, b) >= need and a != b:
        state.finish(0 if a > b else 1, f"{max(a, b)} rounds won", "rv.end.match", out)
    elif state.round >= 2 * need - 1:
        state.final = True
        state.finals = 1
        state.phase = SETUP
    else:
        state.phase = SETUP


def _round_winners(state: RivalesState) -> tuple[tuple[int, ...], str, str]:
    if state.final and len(state.caused) == 1:
        return (next(iter(state.caused)),), "first Damage", "rv.end.final-round"
    ko_teams = {state.team_of[s] for s in state.seats if state.ko[s]}
    if len(ko_teams) == 1:
        loser = next(iter(ko_teams))
        return (1 - loser,), "K.O.", "rv.2v2.team-ko" if state.two else "rv.end.ko"
    if ko_teams:
        if not state.two:
            return (0, 1), "double K.O.", "rv.ruling.double-ko"
        surviving = [
            max((state.life(s) for s in state.teams[t] if not state.ko[s]), default=0)
            for t in (0, 1)
        ]
        return _by_value(surviving, "both teams K.O.", "rv.2v2.team-ko")
    if state.final:
        return (), "no Damage caused by one side alone", "rv.ruling.final-round"
    lives = [sum(state.life(s) for s in state.teams[t]) for t in (0, 1)]
    return _by_value(
        lives,
        "life after the last clash",
        "rv.ruling.team-life" if state.two else "rv.end.seventh-clash",
    )


def _by_value(values: list[int], reason: str, rule: str) -> tuple[tuple[int, ...], str, str]:
    if values[0] == values[1]:
        return (0, 1), f"{reason}: a tie", "rv.end.round-tie" if "K.O." not in reason else rule
    return ((0 if values[0] > values[1] else 1),), reason, rule
