"""Dense integer action ids for Rivales choices (for array-based code: RL, solvers).

=============  =========================================  ======
range          choice                                     size
=============  =========================================  ======
0-15           ``fighter:<id>`` (pack order)              16
16-25          ``marker:<card>`` (deck position)          10
26-35          ``play:<card>``                            10
36-37          ``zone:1``, ``zone:2``                     2
38-39          ``persona:hansel``, ``persona:gretel``     2
40-43          ``boost:none|damage|speed|both``           4
44-59          ``guard:<n>``                              16
60-99          ``pick:<seat>:<card>`` (seat x position)   40
100            ``pass``                                   1
101-104        ``count:<n>``                              4
105-106        ``order:1``, ``order:2`` (the zone first)  2
=============  =========================================  ======
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kumite.core.choice import ChoiceSyntaxError
from kumite.core.errors import MalformedChoiceError
from kumite.games.rivales.choice import (
    BOOST_LEVELS,
    PERSONA_NAMES,
    Boost,
    CallZone,
    Count,
    Guard,
    Marker,
    Pass,
    Persona,
    Pick,
    PickFighter,
    Play,
    ZoneOrder,
    parse,
)

if TYPE_CHECKING:
    from kumite.games.rivales.cards import Card
    from kumite.games.rivales.state import RivalesState

A_FIGHTER, A_MARKER, A_PLAY, A_ZONE, A_PERSONA = 0, 16, 26, 36, 38
A_BOOST, A_GUARD, A_PICK, A_PASS, A_COUNT, A_ORDER = 40, 44, 60, 100, 101, 105
NUM_ACTIONS = 107
MAX_GUARD = A_PICK - A_GUARD - 1


def choice_to_action(state: RivalesState, seat: int, choice: str) -> int:
    try:
        typed = parse(choice)
        match typed:
            case PickFighter(fighter=fighter):
                return A_FIGHTER + list(state.catalog.fighters).index(fighter)
            case Marker(card=card):
                return A_MARKER + state.fighter(seat).by_id[card].index
            case Play(card=card):
                return A_PLAY + state.fighter(seat).by_id[card].index
            case CallZone(zone=zone):
                return A_ZONE + zone - 1
            case Persona(persona=persona):
                return A_PERSONA + PERSONA_NAMES.index(persona)
            case Boost(level=level):
                return A_BOOST + BOOST_LEVELS.index(level)
            case Guard(energy=n) if n <= MAX_GUARD:
                return A_GUARD + n
            case Pick(seat=who, card=card) if who < state.seat_count:
                return A_PICK + who * 10 + state.fighter(who).by_id[card].index
            case Pass():
                return A_PASS
            case Count(n=n) if n <= 3:
                return A_COUNT + n
            case ZoneOrder(first=first):
                return A_ORDER + first - 1
    except ChoiceSyntaxError as exc:
        raise MalformedChoiceError(seat, choice, exc.reason) from None
    except (KeyError, ValueError, AssertionError):
        pass
    raise MalformedChoiceError(seat, choice, "unknown choice")


def _cards(state: RivalesState, seat: int, action: int) -> tuple[Card, ...]:
    fighter = state.fighters[seat] if 0 <= seat < state.seat_count else None
    if fighter is None:
        raise MalformedChoiceError(
            seat, action, f"action id {action}: seat {seat} has no fighter yet"
        )
    return fighter.cards


def action_to_choice(state: RivalesState, seat: int, action: int) -> str:
    """The choice string of a dense action id; a :class:`MalformedChoiceError` for an id
    outside the table (or one naming a card before a fighter is chosen)."""
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        raise MalformedChoiceError(
            seat, action, f"unknown action id {action!r} (Rivales ids are 0..{NUM_ACTIONS - 1})"
        )
    if A_FIGHTER <= action < A_MARKER:
        fighters = list(state.catalog.fighters)
        if action - A_FIGHTER >= len(fighters):
            raise MalformedChoiceError(
                seat, action, f"action id {action}: the pack has {len(fighters)} fighters"
            )
        return PickFighter(fighters[action - A_FIGHTER]).format()
    if A_MARKER <= action < A_PLAY:
        return _cards(state, seat, action)[action - A_MARKER].mark
    if A_PLAY <= action < A_ZONE:
        return _cards(state, seat, action)[action - A_PLAY].play
    if A_ZONE <= action < A_PERSONA:
        return CallZone(action - A_ZONE + 1).format()
    if A_PERSONA <= action < A_BOOST:
        return Persona(PERSONA_NAMES[action - A_PERSONA]).format()
    if A_BOOST <= action < A_GUARD:
        return Boost(BOOST_LEVELS[action - A_BOOST]).format()
    if A_GUARD <= action < A_PICK:
        return Guard(action - A_GUARD).format()
    if A_PICK <= action < A_PASS:
        who, index = divmod(action - A_PICK, 10)
        if who >= state.seat_count:
            raise MalformedChoiceError(seat, action, f"action id {action}: no seat {who} here")
        return Pick(who, _cards(state, who, action)[index].id).format()
    if action == A_PASS:
        return Pass().format()
    if A_COUNT <= action < A_ORDER:
        return Count(action - A_COUNT).format()
    return ZoneOrder(action - A_ORDER + 1).format()
