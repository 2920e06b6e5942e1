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

from kumite.core.errors import MalformedChoiceError

if TYPE_CHECKING:
    from kumite.games.rivales.cards import Card
    from kumite.games.rivales.state import RivalesState

A_FIGHTER, A_MARKER, A_PLAY, A_ZONE, A_PERSONA = 0, 16, 26, 36, 38
A_BOOST, A_GUARD, A_PICK, A_PASS, A_COUNT, A_ORDER = 40, 44, 60, 100, 101, 105
NUM_ACTIONS = 107
MAX_GUARD = A_PICK - A_GUARD - 1
PERSONA_NAMES = ("hansel", "gretel")
BOOST_NAMES = ("none", "damage", "speed", "both")


def choice_to_action(state: RivalesState, seat: int, choice: str) -> int:
    verb, _, rest = choice.partition(":")
    try:
        if verb == "fighter":
            return A_FIGHTER + list(state.catalog.fighters).index(rest)
        if verb in ("marker", "play"):
            index = state.fighter(seat).by_id[rest].index
            return (A_MARKER if verb == "marker" else A_PLAY) + index
        if verb == "zone" and rest in ("1", "2"):
            return A_ZONE + int(rest) - 1
        if verb == "persona":
            return A_PERSONA + PERSONA_NAMES.index(rest)
        if verb == "boost":
            return A_BOOST + BOOST_NAMES.index(rest)
        if verb == "guard" and 0 <= int(rest) <= MAX_GUARD:
            return A_GUARD + int(rest)
        if verb == "pick":
            owner, _, card_id = rest.partition(":")
            who = int(owner)
            if 0 <= who < state.n:
                return A_PICK + who * 10 + state.fighter(who).by_id[card_id].index
        if choice == "pass":
            return A_PASS
        if verb == "count" and 0 <= int(rest) <= 3:
            return A_COUNT + int(rest)
        if verb == "order" and rest in ("1", "2"):
            return A_ORDER + int(rest) - 1
    except (KeyError, ValueError, AssertionError):
        pass
    raise MalformedChoiceError(seat, choice, "unknown choice")


def _cards(state: RivalesState, seat: int, action: int) -> tuple[Card, ...]:
    fighter = state.fighters[seat] if 0 <= seat < state.n else None
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
        return "fighter:" + fighters[action - A_FIGHTER]
    if A_MARKER <= action < A_PLAY:
        return "marker:" + _cards(state, seat, action)[action - A_MARKER].id
    if A_PLAY <= action < A_ZONE:
        return "play:" + _cards(state, seat, action)[action - A_PLAY].id
    if A_ZONE <= action < A_PERSONA:
        return f"zone:{action - A_ZONE + 1}"
    if A_PERSONA <= action < A_BOOST:
        return "persona:" + PERSONA_NAMES[action - A_PERSONA]
    if A_BOOST <= action < A_GUARD:
        return "boost:" + BOOST_NAMES[action - A_BOOST]
    if A_GUARD <= action < A_PICK:
        return f"guard:{action - A_GUARD}"
    if A_PICK <= action < A_PASS:
        who, index = divmod(action - A_PICK, 10)
        if who >= state.n:
            raise MalformedChoiceError(seat, action, f"action id {action}: no seat {who} here")
        return f"pick:{who}:{_cards(state, who, action)[index].id}"
    if action == A_PASS:
        return "pass"
    if A_COUNT <= action < A_ORDER:
        return f"count:{action - A_COUNT}"
    return f"order:{action - A_ORDER + 1}"
