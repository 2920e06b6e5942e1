"""A round around its clashes: set-up, the start of a clash (draws, ultra, restrictions),
boosts before the reveal, the end of a clash, and the end of a round and of the fight.

These functions act on a :class:`~kumite.games.rivales.engine.Engine`; the resolution
of a clash itself is in :mod:`.clash`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from kumite.core.decision import new_decision
from kumite.core.events import Event, private_and_public
from kumite.core.game import Decision, Outcome
from kumite.core.memo import Memo
from kumite.core.rng import shuffle
from kumite.games.rivales import events as ev
from kumite.games.rivales.cards import Card, Effect
from kumite.games.rivales.choice import BOOST_LEVELS, PERSONA_NAMES, Boost, Persona
from kumite.games.rivales.clash import order
from kumite.games.rivales.decisions import OVER, SETUP, START
from kumite.games.rivales.effects import (
    STAT_INDEX,
    Check,
    PassiveBonus,
    check_of,
    compiled_passive,
    ctx,
    effect_event,
    end_effect,
    flip_event,
    requirement_met,
)
from kumite.games.rivales.lines import DOWN, SPENT, UP, energy, spend
from kumite.games.rivales.rules import fighter_rule

if TYPE_CHECKING:
    from kumite.games.rivales.engine import Engine
    from kumite.games.rivales.fight import Fight

PERSONAS: Final = tuple(Persona(name).format() for name in PERSONA_NAMES)
PERSONA_PROMPT: Final = "Choose out loud: HANSEL (+1 Guard) or GRETEL (+1 Damage)"
BOOSTS: Final = tuple(Boost(level).format() for level in BOOST_LEVELS)
BOOST_PROMPT: Final = "Boost your card before the reveal? damage = 1 energy, speed = 2, both = 3"


def setup_round(state: Engine, out: list[Event] | None) -> None:
    """A new round, set up afresh (rv.setup.*, rv.ruling.round-setup)."""
    state.round += 1
    draw = state.catalog.rules.draw_at_setup
    for s in state.seats:
        fighter = state.fighter(s)
        deck = list(fighter.deck)
        shuffle(state.rng, deck)
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
    state.seen = [set() for _ in state.seats]
    state.no_basic_zone = set()
    state.no_basic_facing = set()
    state.restricted = set()
    state.lines = [[[], []] for _ in range(state.zones)]
    state.zone_of = [-1] * state.seat_count
    state.fights = []
    state.clash = 0
    state.caused = set()
    state.round_over = False
    state.passives, state.end_passives, state.persona_decisions = _round_effects(state)
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
        _drawn(state, s, state.hand[s], "rv.setup.life-marker", out)


def _drawn(state: Engine, s: int, cards: list[Card], rule: str, out: list[Event]) -> None:
    """``s`` draws ``cards``: it sees them, the others see how many (none: an empty deck)."""
    ids, names = tuple(c.id for c in cards), tuple(c.name for c in cards)
    drawn = ev.CardsDrawn(
        rule=rule, seat=s, who=state.who[s], count=len(cards), cards=ids, names=names
    )
    out += private_and_public(drawn, s, cards=(), names=()) if cards else [drawn]


RoundEffects = tuple[
    tuple[tuple[PassiveBonus, ...], ...],
    tuple[tuple[tuple[Effect, Check | None], ...], ...],
    tuple[Decision, ...],
]
_ROUND_EFFECTS: Final[Memo[tuple[object, ...], RoundEffects]] = Memo(2_000)
"""Compiled passives of the fighters at the table, by (mode, fighters): immutable."""


def _round_effects(state: Engine) -> RoundEffects:
    """Per seat: the passive bonuses acting on its card (its own, and its teammates' that
    benefit the team), its end-of-clash passives; and the persona decisions of the seats
    that choose one every clash."""
    key = (state.two_vs_two, *state.fighters)
    found = _ROUND_EFFECTS.get(key)
    if found is None:
        fighter = state.fighter
        passives = tuple(
            tuple(
                [compiled_passive(e, s) for e in fighter(s).static]
                + [
                    compiled_passive(e, m)
                    for m in state.teams[state.team_of[s]]
                    for e in fighter(m).team_static
                ]
            )
            for s in state.seats
        )
        ends = tuple(tuple((e, check_of(e)) for e in fighter(s).end_passives) for s in state.seats)
        personas = tuple(
            new_decision(s, "persona", PERSONAS, PERSONA_PROMPT)
            for s in state.seats
            if fighter(s).persona
        )
        found = _ROUND_EFFECTS.put(key, (passives, ends, personas))
    return found


def start_clash(state: Engine, out: list[Event] | None) -> None:
    """A new clash: everyone draws a card (if the deck allows) and takes an uncovered
    ultra (rv.end.next-clash, rv.end.ultra)."""
    state.clash += 1
    if state.caused:
        state.caused = set()
    if out is not None:
        out.append(ev.ClashStarted(rule="rv.clash.play", round=state.round, clash=state.clash))
    if state.clash == 1:
        return
    for s in state.seats:
        deck = state.deck[s]
        drawn = [deck.pop()] if deck else []
        state.hand[s] += drawn
        if out is not None:
            _drawn(state, s, drawn, "rv.end.next-clash", out)
        if state.ultra_due[s]:
            ultra = state.ultra[s]
            if ultra is not None:
                state.hand[s].append(ultra)
                state.ultra[s] = None
                state.ultra_due[s] = False
                if out is not None:
                    out.append(
                        ev.UltraTaken(
                            rule="rv.end.ultra",
                            seat=s,
                            who=state.who[s],
                            card=ultra.id,
                            name=ultra.name,
                        )
                    )


def compute_restrictions(state: Engine) -> None:
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


BoostGroup = tuple[tuple[int, ...], tuple[Decision, ...]]
"""Teams that decide a boost together, and their decisions."""
PlanKey = tuple[tuple[int, int], int, int, int | None, tuple[int, ...]]
_PLANS: Final[Memo[PlanKey, tuple[BoostGroup, ...]]] = Memo(10_000)
"""Boost plans by (seats, energies, last winner, boost costs): the same few recur."""


def _boost_plan(state: Engine, fight: Fight) -> tuple[BoostGroup, ...]:
    """Who decides a boost, in order (rv.energy.boost-order, rv.ruling.boost-no-winner).
    Made once per clash: a team's energy does not change before it decides (only its own
    boost spends it), so its decision is known from the start."""
    lines = state.lines[fight.zone]
    n0, n1 = energy(lines[0]), energy(lines[1])
    if not n0 and not n1:
        return ()  # nobody can boost (every round's first clashes): no key to look up
    w = state.last_winner if n0 and n1 else None
    key = (fight.seats, n0, n1, w, state.boost_key)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _PLANS.put(key, _make_boost_plan(state, fight, n0, n1, w))
    return plan


def _make_boost_plan(
    state: Engine, fight: Fight, n0: int, n1: int, w: int | None
) -> tuple[BoostGroup, ...]:
    if n0 and n1:
        first = _boost_decision(state, fight.seats[0], n0)
        second = _boost_decision(state, fight.seats[1], n1)
        if w is None:
            return (((0, 1), (first, second)),)
        if w == 0:
            return (((0,), (first,)), ((1,), (second,)))
        return (((1,), (second,)), ((0,), (first,)))
    if n0:
        return (((0,), (_boost_decision(state, fight.seats[0], n0),)),)
    if n1:
        return (((1,), (_boost_decision(state, fight.seats[1], n1),)),)
    return ()


def boost_levels(state: Engine) -> dict[str, tuple[int, int, int]]:
    """Boost levels: choice word -> (energy cost, +Speed, +Damage) (rv.energy.boost)."""
    rules = state.catalog.rules
    return {
        "none": (0, 0, 0),
        "damage": (rules.boost_damage_cost, 0, 1),
        "speed": (rules.boost_speed_cost, 1, 0),
        "both": (rules.boost_both_cost, 1, 1),
    }


BoostTables = tuple[
    Mapping[str, tuple[int, int, int]],
    tuple[int, ...],
    Mapping[str, tuple[int, int, int]],
]
_BOOST_TABLES: Final[dict[tuple[int, ...], BoostTables]] = {}
_BOOST_LEGAL: Final[dict[tuple[tuple[int, ...], int], tuple[str, ...]]] = {}
"""Memo of :func:`boost_legal`, by (boost costs, energy)."""


def boost_tables(state: Engine) -> BoostTables:
    """The boost levels (:func:`boost_levels`), their costs (a key) and the levels by
    choice string: read-only tables shared by every state with the same costs."""
    levels = boost_levels(state)
    key = tuple(cost for cost, _, _ in levels.values())
    found = _BOOST_TABLES.get(key)
    if found is None:
        by_choice = {c: levels[k] for k, c in zip(BOOST_LEVELS, BOOSTS, strict=True)}
        found = _BOOST_TABLES[key] = (MappingProxyType(levels), key, MappingProxyType(by_choice))
    return found


def boost_legal(state: Engine, n: int) -> tuple[str, ...]:
    """The boost choices ``n`` energy pays for."""
    key = (state.boost_key, n)
    legal = _BOOST_LEGAL.get(key)
    if legal is None:
        legal = _BOOST_LEGAL[key] = tuple(
            choice
            for level, choice in zip(BOOST_LEVELS, BOOSTS, strict=True)
            if state.boost_costs[level][0] <= n
        )
    return legal


_BOOST_DECISIONS: Final[Memo[tuple[int, tuple[str, ...]], Decision]] = Memo(1_000)


def _boost_decision(state: Engine, seat: int, n: int) -> Decision:
    """``seat``'s boost decision with ``n`` energy."""
    key = (seat, boost_legal(state, n))
    found = _BOOST_DECISIONS.get(key)
    if found is None:
        found = _BOOST_DECISIONS.put(key, new_decision(seat, "boost", key[1], BOOST_PROMPT))
    return found


def boost_decisions(state: Engine) -> tuple[Decision, ...] | None:
    fights = state.fights
    if len(fights) == 1:  # 1vs1: one zone, its group's decisions as they are
        fight = fights[0]
        plan = fight.boost_plan
        if plan is None:
            plan = fight.boost_plan = _boost_plan(state, fight)
        return plan[fight.boost_pos][1] if fight.boost_pos < len(plan) else None
    for fight in fights:  # 2vs2: zone by zone, in the order chosen (rv.2v2.boosting)
        plan = fight.boost_plan
        if plan is None:
            plan = fight.boost_plan = _boost_plan(state, fight)
        if fight.boost_pos < len(plan):
            return plan[fight.boost_pos][1]
    return None


def apply_boosts(state: Engine, choices: dict[int, str], out: list[Event] | None) -> None:
    costs = state.boost_by_choice
    for fight in state.fights:
        plan = fight.boost_plan
        if plan is None or fight.boost_pos >= len(plan):
            continue
        decided = False
        for t in plan[fight.boost_pos][0]:
            seat = fight.seat(t)
            if seat not in choices:
                continue
            decided = True
            cost, speed, damage = costs[choices[seat]]
            if cost:
                spend(state.lines[fight.zone][t], cost)
            fight.boost[t] = cost
            fight.bonus[t][0] += speed
            fight.bonus[t][1] += damage
            if out is not None:
                out.append(
                    ev.BoostChosen(
                        rule="rv.energy.boost" if not state.two_vs_two else "rv.2v2.boosting",
                        seat=seat,
                        who=state.who[seat],
                        energy=cost,
                        speed=speed,
                        damage=damage,
                    )
                )
        if decided:
            fight.boost_pos += 1


def passive_on_damage(state: Engine, seat: int, e: Effect, out: list[Event] | None) -> None:
    """A passive triggered when its fighter receives Damage (``when = "damaged"``)."""
    assert e.stat is not None
    state.carry[seat][STAT_INDEX[e.stat]] += e.amount
    if out is not None:
        fighter = state.fighter(seat)
        source = f"{fighter.passive_name} (passive)"
        what = f"the next card gets +{e.amount} {e.stat.capitalize()}"
        out.append(effect_event(state, seat, fighter_rule(fighter.id), source, what))


def end_clash(state: Engine, out: list[Event] | None) -> None:
    """End of clash (rv.2v2.end-of-clash, rv.ruling.end-order), then the next clash or
    the end of the round."""
    if not state.round_over:
        _lift_basic_bans(state)
        for fight in state.fights:
            _card_end_effects(state, fight, out)
            _cut_maximum_combos(state, fight, out)
            _passive_end_effects(state, fight, out)
    for fight in state.fights:
        fight.release()
    if not state.round_over and _round_ends(state):
        state.round_over = True
    if state.round_over:
        end_round(state, out)
    else:
        state.phase = START


def _lift_basic_bans(state: Engine) -> None:
    """The bans on basic cards set for this clash (``no_basic_next_clash``) end with it."""
    if state.no_basic_zone:
        state.no_basic_zone = set()
    if state.no_basic_facing:
        state.no_basic_facing = set()


def _card_end_effects(state: Engine, fight: Fight, out: list[Event] | None) -> None:
    """The end-of-clash effects of the face-up cards of this clash, in the order of immediate
    effects when both have some (rv.ruling.end-order); a card an earlier effect flipped face
    down does nothing more."""
    lines = state.lines[fight.zone]
    a, b = lines[0][-1], lines[1][-1]
    end_a = a.side == UP and a.card.end  # truthy: face up with end-of-clash effects
    end_b = b.side == UP and b.card.end
    if not (end_a or end_b):
        return
    if end_a and end_b:
        speeds = (fight.stats[0][0], fight.stats[1][0]) if fight.stats else (0, 0)
        ends = order(state, fight, speeds)
    else:
        ends = [0] if end_a else [1]
    for t in ends:
        slot = lines[t][-1]
        if slot.side != UP:
            continue
        for e in slot.card.end:
            c = ctx(state, fight, t)
            if requirement_met(c, e) and slot.side == UP:
                end_effect(c, e, slot.card, out)


def _cut_maximum_combos(state: Engine, fight: Fight, out: list[Event] | None) -> None:
    """A card that made a maximum combo is flipped (face down, or exhausted: an option) and
    cuts the chain (rv.combo.maximum)."""
    maximum = fight.maximum
    if not (maximum[0] or maximum[1]):
        return
    lines = state.lines[fight.zone]
    cut = SPENT if state.opts.max_combo_card == "exhausted" else DOWN
    for t in range(2):
        slot = lines[t][-1]
        if maximum[t] and state.opts.max_combo_cut == "holds":
            # the next card starts a new combo, even if an effect turns this one
            # face up again (rv.ruling.max-combo-cut)
            slot.cut = True
        if maximum[t] and slot.side == UP:
            slot.side = cut
            if out is not None:
                reason = "maximum combo: the chain is cut"
                out.append(flip_event(state, slot, False, reason, "rv.combo.maximum"))


def _passive_end_effects(state: Engine, fight: Fight, out: list[Event] | None) -> None:
    """The fighters' end-of-clash passives whose requirement holds, team 0's first."""
    end_passives = state.end_passives
    seats = fight.seats
    if not (end_passives[seats[0]] or end_passives[seats[1]]):  # most fighters have none
        return
    for t in range(2):
        for e, check in end_passives[fight.seat(t)]:
            if check is None or check.holds(state, fight, t, None):
                end_effect(ctx(state, fight, t), e, None, out)


def _round_ends(state: Engine) -> bool:
    """Whether this clash ends the round: in 2vs2 a K.O. or the final round's first Damage
    (rv.2v2.team-ko); in every game the last clash of the round (rv.end.seventh-clash)."""
    if state.two_vs_two and (True in state.ko or (state.final and len(state.caused) == 1)):
        return True
    return state.clash >= state.clashes_per_round


def end_round(state: Engine, out: list[Event] | None) -> None:
    """Decide the round (rv.end.*, rv.2v2.team-ko) and then the fight (rv.end.match)."""
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
            finish(state, winners[0], "first Damage in the final round", "rv.end.final-round", out)
        elif state.finals >= state.opts.final_round_limit:
            finish(state, None, "no final round decided the fight", "rv.ruling.final-round", out)
        else:
            state.finals += 1
            state.phase = SETUP
        return
    a, b = state.rounds_won
    need = state.catalog.rules.rounds_to_win
    if max(a, b) >= need and a != b:
        finish(state, 0 if a > b else 1, f"{max(a, b)} rounds won", "rv.end.match", out)
    elif state.round >= 2 * need - 1:
        state.final = True
        state.finals = 1
        state.phase = SETUP
    else:
        state.phase = SETUP


def _round_winners(state: Engine) -> tuple[tuple[int, ...], str, str]:
    if state.final and len(state.caused) == 1:
        return (next(iter(state.caused)),), "first Damage", "rv.end.final-round"
    ko_teams = {state.team_of[s] for s in state.seats if state.ko[s]}
    if len(ko_teams) == 1:
        loser = next(iter(ko_teams))
        return (1 - loser,), "K.O.", "rv.2v2.team-ko" if state.two_vs_two else "rv.end.ko"
    if ko_teams:
        if not state.two_vs_two:
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
        "rv.ruling.team-life" if state.two_vs_two else "rv.end.seventh-clash",
    )


def _by_value(values: list[int], reason: str, rule: str) -> tuple[tuple[int, ...], str, str]:
    if values[0] == values[1]:
        return (0, 1), f"{reason}: a tie", "rv.end.round-tie" if "K.O." not in reason else rule
    return ((0 if values[0] > values[1] else 1),), reason, rule


def finish(
    state: Engine, winner: int | None, reason: str, rule: str, out: list[Event] | None
) -> None:
    """The fight is over: ``winner`` is a team, or None for a draw."""
    state.phase = OVER
    state._pending = ()
    state.is_terminal = True
    returns = tuple(
        0.0 if winner is None else (1.0 if state.team_of[s] == winner else -1.0)
        for s in state.seats
    )
    state._outcome = Outcome(
        winners=() if winner is None else state.teams[winner],
        draw=winner is None,
        returns=returns,
        reason=reason,
        rule=rule,
        detail={
            "mode": state.opts.mode,
            "teams": [list(t) for t in state.teams],
            "winning_team": winner,
            "rounds_won": list(state.rounds_won),
            "rounds_won_by_seat": [state.rounds_won[state.team_of[s]] for s in state.seats],
            "rounds": state.round,
            "final_rounds": state.finals,
            "fighters": [state.fighter(s).id for s in state.seats],
            "lives": [state.life(s) for s in state.seats],
        },
    )
    if out is not None:
        out.append(
            ev.FightEnded(
                rule=rule,
                winner=winner,
                team_names=state.team_names(),
                reason=reason,
                rounds_won=tuple(state.rounds_won),
                teams=state.two_vs_two,
            )
        )
