"""The phases of a Rivales fight: on entering each, what it does or whom it waits for
(``enter_*``), and how it applies the choices it waited for (``on_*``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from kumite.core.decision import new_decision
from kumite.core.events import Event, private_and_public
from kumite.core.game import Decision
from kumite.games.rivales import clash as cl
from kumite.games.rivales import events as ev
from kumite.games.rivales import rounds as rd
from kumite.games.rivales.choice import PERSONA_NAMES, CallZone, PickFighter, ZoneOrder
from kumite.games.rivales.decisions import (
    BOOST,
    END,
    FIGHTER,
    MARKER,
    ORDER,
    PERSONA,
    PLAY,
    PLAY_PROMPT,
    RESOLVE,
    SETUP,
    START,
    ZONES,
    decision,
)
from kumite.games.rivales.fight import Fight
from kumite.games.rivales.lines import HIDDEN, UP, Slot

if TYPE_CHECKING:
    from kumite.games.rivales.engine import Engine

# Zone z's choice is at index z (zones are 1 and 2 in choices, 0 and 1 here).
ZONE_CHOICES: Final = (CallZone(1).format(), CallZone(2).format())
ORDER_CHOICES: Final = (ZoneOrder(1).format(), ZoneOrder(2).format())
ORDER_PROMPT: Final = (
    "Choose the zone resolved first: its boosts, then its clash; the other zone follows"
)
MARKER_PROMPT: Final = "Choose the card that becomes your life marker (the other 4 are your hand)"


def enter_fighter(state: Engine, out: list[Event] | None) -> tuple[Decision, ...] | None:
    missing = [s for s in state.seats if state.fighters[s] is None]
    if not missing:
        state.phase = SETUP
        return None
    ids = state.catalog.fighter_choices
    if not state.two_vs_two:
        return tuple(decision(s, "fighter", ids, "Choose your fighter") for s in missing)
    seat = missing[0]  # 2vs2: in seat order, teammates must differ
    mates = {state.fighters[m] for m in state.teams[state.team_of[seat]]} - {None}
    legal = tuple(
        choice
        for f, choice in zip(state.catalog.fighters.values(), ids, strict=True)
        if f not in mates
    )
    return (decision(seat, "fighter", legal, "Choose your fighter (not your partner's)"),)


def on_fighter(state: Engine, choices: dict[int, str], out: list[Event] | None) -> None:
    for seat in sorted(choices):
        fighter = state.catalog.fighters[PickFighter.parse(choices[seat]).fighter]
        state._set_fighter(seat, fighter)
        if out is not None:
            out.append(
                ev.FighterChosen(
                    rule="rv.setup.fighter", seat=seat, who=state.who[seat], fighter=fighter.name
                )
            )


def enter_setup(state: Engine, out: list[Event] | None) -> None:
    rd.setup_round(state, out)
    state.phase = MARKER


def enter_marker(state: Engine, out: list[Event] | None) -> tuple[Decision, ...] | None:
    # not cached (as :func:`decision` would): the hands of a round rarely recur
    return tuple(
        [
            new_decision(s, "marker", tuple([c.mark for c in state.hand[s]]), MARKER_PROMPT)
            for s in state.seats
        ]
    )


def on_marker(state: Engine, choices: dict[int, str], out: list[Event] | None) -> None:
    for s in state.seats:
        card = state.fighter(s).by_mark[choices[s]]
        state.hand[s].remove(card)
        state.marker[s] = card
        if out is not None:
            chosen = ev.LifeMarkerChosen(
                rule="rv.setup.life-marker", seat=s, who=state.who[s], card=card.id, name=card.name
            )
            out += private_and_public(chosen, s, card=None, name=None)
    state.phase = START


def enter_start(state: Engine, out: list[Event] | None) -> tuple[Decision, ...] | None:
    rd.start_clash(state, out)
    if state.two_vs_two:
        state.phase = ZONES
        state.zone_of = [-1] * 4  # until the teams have chosen
        state.fights = []
        return None
    state.phase = PLAY
    fights = state.fights
    if fights:  # the fight of the last clash, made anew (1vs1 always has one zone)
        fights[0].reset()
    else:
        state.zone_of = [0, 0]
        state.fights = [Fight(0, (0, 1))]
    return enter_play(state, out)  # the next phase at once (as ``_advance`` would)


def enter_zones(state: Engine, out: list[Event] | None) -> tuple[Decision, ...] | None:
    waiting = []
    state._forced = {}
    for team in (0, 1):
        a, b = state.teams[team]
        caller = (a, b)[(state.clash - 1) % 2]
        bound = [s for s in (a, b) if state.ready[s] is not None]
        if bound:
            zone = state.ready_zone[bound[0]]
            if bound[0] != caller:
                zone = 1 - zone
            state._forced[caller] = ZONE_CHOICES[zone]
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
    on_zones(state, state._forced, out)
    state._forced = {}
    return None


def on_zones(state: Engine, choices: dict[int, str], out: list[Event] | None) -> None:
    for caller, choice in choices.items():
        zone = ZONE_CHOICES.index(choice)
        team = state.team_of[caller]
        partner = next(s for s in state.teams[team] if s != caller)
        state.zone_of[caller] = zone
        state.zone_of[partner] = 1 - zone
    state.fights = []
    for z in range(2):
        seats = tuple(next(s for s in state.teams[t] if state.zone_of[s] == z) for t in (0, 1))
        state.fights.append(Fight(z, (seats[0], seats[1])))
    if out is not None:
        out.append(
            ev.ZonesTaken(
                rule="rv.2v2.zone-choice",
                zones=tuple(tuple(state.who[s] for s in f.seats) for f in state.fights),
            )
        )
    state.phase = PLAY


def prepare_play(state: Engine, out: list[Event] | None) -> None:
    """Before the cards are played: whom Pinzas de Mantis binds this clash (and, option
    pinzas_dodge=back, the basic cards they left face up going back to their hands)."""
    if state.restricted or state.no_basic_zone or state.no_basic_facing:
        rd.compute_restrictions(state)
        if state.opts.pinzas_dodge == "back":
            _return_ready_basics(state, out)


def enter_play(state: Engine, out: list[Event] | None) -> tuple[Decision, ...] | None:
    prepare_play(state, out)
    ready = state.ready
    restricted = state.restricted
    hands = state.hand
    # not cached: hands recur in too many orders for a cache to pay (half the look-ups
    # missed)
    if state.seat_count == 2 and not restricted and ready[0] is None and ready[1] is None:
        return (  # the common case, without a list to gather the decisions
            new_decision(0, "play", tuple([c.play for c in hands[0]]), PLAY_PROMPT),
            new_decision(1, "play", tuple([c.play for c in hands[1]]), PLAY_PROMPT),
        )
    waiting: list[Decision] = []
    for s in state.seats:
        if ready[s] is None:
            legal = state.playable(s) if restricted else tuple([c.play for c in hands[s]])
            waiting.append(new_decision(s, "play", legal, PLAY_PROMPT))
    if waiting:
        return tuple(waiting)
    on_play(state, {}, out)  # every card was left face up by a dodge
    return None


def _return_ready_basics(state: Engine, out: list[Event] | None) -> None:
    """Option pinzas_dodge=back: a basic card left face up by a dodge goes back to the
    hand of a seat Pinzas de Mantis binds, in sight of everyone (rv.ruling.pinzas-dodge)."""
    for s in sorted(state.restricted):
        card = state.ready[s]
        if card is None or not card.is_basic:
            continue
        state.ready[s] = None
        state.hand[s].append(card)
        state.seen[s].add(card.id)
        if out is not None:
            out.append(
                ev.ReadyCardReturned(
                    rule="rv.ruling.pinzas-dodge",
                    seat=s,
                    who=state.who[s],
                    card=card.id,
                    name=card.name,
                )
            )


def on_play(state: Engine, choices: dict[int, str], out: list[Event] | None) -> None:
    lines = state.lines
    ready_cards = state.ready
    fighters = state.fighters
    hands = state.hand
    for fight in state.fights:
        zone = lines[fight.zone]
        for t in range(2):
            s = fight.seat(t)
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
                        else ("rv.2v2.preparation" if state.two_vs_two else "rv.clash.play"),
                        seat=s,
                        who=state.who[s],
                        zone=fight.zone,
                        card=card.id if up else None,
                        name=card.name if up else None,
                    )
                )
    state.phase = PERSONA if state.persona_decisions else _after_cards(state)


def enter_persona(state: Engine, out: list[Event] | None) -> tuple[Decision, ...] | None:
    waiting = state.persona_decisions
    if waiting:
        return waiting
    state.phase = _after_cards(state)
    return None


def on_persona(state: Engine, choices: dict[int, str], out: list[Event] | None) -> None:
    for fight in state.fights:
        for t in range(2):
            s = fight.seat(t)
            if s in choices:
                persona = PERSONA_NAMES[rd.PERSONAS.index(choices[s])]
                fight.persona[t] = persona
                if out is not None:
                    out.append(
                        ev.PersonaChosen(
                            rule="rv.ruling.persona-order",
                            seat=s,
                            who=state.who[s],
                            persona=persona,
                        )
                    )
    state.phase = _after_cards(state)


def _after_cards(state: Engine) -> str:
    """The phase once the cards are down (and HANSEL or GRETEL called): 2vs2 first
    chooses the order of the zones."""
    return ORDER if state.two_vs_two else BOOST


def enter_order(state: Engine, out: list[Event] | None) -> tuple[Decision, ...] | None:
    return (decision(state.zone_order_seat(), "zone-order", ORDER_CHOICES, ORDER_PROMPT),)


def on_order(state: Engine, choices: dict[int, str], out: list[Event] | None) -> None:
    ((seat, choice),) = choices.items()
    first = ORDER_CHOICES.index(choice)
    if state.fights[0].zone != first:
        state.fights.reverse()  # boosts, resolution and the end of the clash go in order
    if out is not None:
        out.append(
            ev.ZoneOrderChosen(
                rule="rv.ruling.zone-order",
                seat=seat,
                who=state.who[seat],
                team=("Team A", "Team B")[state.team_of[seat]],
                first=first,
            )
        )
    state.phase = BOOST


def enter_boost(state: Engine, out: list[Event] | None) -> tuple[Decision, ...] | None:
    waiting = rd.boost_decisions(state)
    if waiting:
        return waiting
    state.phase = RESOLVE
    state.fight_index = 0
    return enter_resolve(state, out)  # at once, as ``_advance`` would (every clash)


def on_boost(state: Engine, choices: dict[int, str], out: list[Event] | None) -> None:
    rd.apply_boosts(state, choices, out)


def enter_resolve(state: Engine, out: list[Event] | None) -> tuple[Decision, ...] | None:
    waiting = cl.resolve(state, out)
    if waiting is not None:
        for fight in state.fights:
            fight.release()  # no reference cycle left in a state waiting for a player
        return waiting
    state.phase = END
    return enter_end(state, out)  # at once, as ``_advance`` would


def on_resolve(state: Engine, choices: dict[int, str], out: list[Event] | None) -> None:
    cl.on_choice(state, choices, out)


def enter_end(state: Engine, out: list[Event] | None) -> tuple[Decision, ...] | None:
    rd.end_clash(state, out)
    if state.phase == START:
        return enter_start(state, out)  # the next clash at once (as ``_advance`` would)
    return None


ENTER: Final[dict[str, Callable[[Engine, list[Event] | None], tuple[Decision, ...] | None]]] = {
    FIGHTER: enter_fighter,
    SETUP: enter_setup,
    MARKER: enter_marker,
    START: enter_start,
    ZONES: enter_zones,
    PLAY: enter_play,
    PERSONA: enter_persona,
    ORDER: enter_order,
    BOOST: enter_boost,
    RESOLVE: enter_resolve,
    END: enter_end,
}
HANDLERS: Final[dict[str, Callable[[Engine, dict[int, str], list[Event] | None], None]]] = {
    FIGHTER: on_fighter,
    MARKER: on_marker,
    ZONES: on_zones,
    PLAY: on_play,
    PERSONA: on_persona,
    ORDER: on_order,
    BOOST: on_boost,
    RESOLVE: on_resolve,
}
