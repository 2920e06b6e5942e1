"""Lines of played cards: cards in play, energy and combos — pure helpers.

(Not "table": in kumite a table is a game at the server and its web page.)

Each team has one *line* of played cards per zone (1vs1: one zone, one line per player). A
card in a line is a :class:`Slot`: the card, who played it, and its side:

* ``UP`` — face up;
* ``DOWN`` — flipped face down: 1 energy (rv.energy.flipped);
* ``SPENT`` — face down and moved down: an exhausted energy (rv.energy.boost);
* ``HIDDEN`` — played face down this clash and not yet revealed.

The functions here read lines only; the engine and the bots share them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from kumite.core.memo import Memo
from kumite.games.rivales.cards import Card, ComboStep, Fighter

# Final: the compiled build reads them as constants, not from the module dict.
UP: Final = 0
DOWN: Final = 1
SPENT: Final = 2
HIDDEN: Final = 3
SIDES: Final = ("up", "down", "exhausted", "hidden")


class Slot:
    """One card in a line. ``cut``: it closed a maximum combo, so the card after it started
    a new combo; no chain reaches back to it, even face up again (rv.combo.maximum,
    rv.ruling.max-combo-cut)."""

    __slots__ = ("card", "cut", "owner", "side")

    def __init__(self, card: Card, owner: int, side: int, cut: bool = False) -> None:
        self.card = card
        self.owner = owner
        self.side = side
        self.cut = cut

    def copy(self) -> Slot:
        return Slot(self.card, self.owner, self.side, self.cut)

    @property
    def face_down(self) -> bool:
        return self.side in (DOWN, SPENT)

    def __repr__(self) -> str:
        return f"<{self.card.id}@{self.owner} {SIDES[self.side]}>"


Line = list[Slot]
_COUNTED: Final = {
    "energy": (DOWN,),
    "exhausted": (SPENT,),
    "face_up": (UP,),
    "face_down": (DOWN, SPENT),
}
"""The sides :func:`count` counts for each ``what``."""


def count(
    line: Sequence[Slot], what: str, owner: int | None = None, upto: int | None = None
) -> int:
    """Cards of ``line[:upto]`` (of ``owner`` only, if given) that are ``what``:
    ``face_down`` (energy or exhausted), ``face_up``, ``exhausted``, ``energy`` or
    ``basic_face_up``."""
    # by index up to where line[:upto] ends, without making the slice
    size = len(line)
    if upto is None:
        end = size
    elif upto < 0:
        end = max(0, size + upto)
    else:
        end = min(upto, size)
    n = 0
    if what == "basic_face_up":
        for i in range(end):
            slot = line[i]
            if slot.side == UP and slot.card.is_basic and (owner is None or slot.owner == owner):
                n += 1
        return n
    sides = _COUNTED[what]
    for i in range(end):
        slot = line[i]
        if slot.side in sides and (owner is None or slot.owner == owner):
            n += 1
    return n


def energy(line: Sequence[Slot]) -> int:
    """Energy cards of a line: flipped, not exhausted."""
    n = 0
    for slot in line:  # a plain loop, as in :func:`count` (this runs several times a clash)
        if slot.side == DOWN:
            n += 1
    return n


def spend(line: Sequence[Slot], n: int) -> list[Slot]:
    """Move ``n`` energy cards down (exhaust them), the oldest first
    (``rv.ruling.boost-level``); return them."""
    spent: list[Slot] = []
    for slot in line:
        if len(spent) == n:
            break
        if slot.side == DOWN:
            slot.side = SPENT
            spent.append(slot)
    return spent


def newest(line: Sequence[Slot], side: int, n: int, upto: int | None = None) -> list[Slot]:
    """Up to ``n`` slots of ``side``, the most recent first."""
    out: list[Slot] = []
    for slot in reversed(line[:upto]):
        if len(out) == n:
            break
        if slot.side == side:
            out.append(slot)
    return out


def chain(line: Sequence[Slot], index: int) -> tuple[int, int]:
    """``(start, links)`` of the combo the card at ``index`` closes: the run of adjacent
    face-up link cards ending there, after the last cut (rv.combo.link, rv.combo.maximum).
    ``links`` is 0 when not in combo."""
    slot = line[index]
    if slot.side != UP or not slot.card.link:
        return index, 0
    start = index
    while start > 0:
        prev = line[start - 1]
        if prev.side != UP or not prev.card.link or prev.cut:
            break
        start -= 1
    return start, index - start


def combo_bonus(steps: Sequence[ComboStep], links: int) -> tuple[int, int, int, bool]:
    """Speed, Damage and Guard bonuses of a chain of ``links`` links under a fighter card's
    ``steps`` (chained combos add up), and whether it is the maximum combo."""
    top = min(links, len(steps))
    speed = damage = guard = 0
    for step in steps[:top]:
        speed += step.speed
        damage += step.damage
        guard += step.guard
    return speed, damage, guard, links >= len(steps) > 0


_COMBOS: Final[Memo[tuple[Fighter, int], tuple[int, int, int, bool]]] = Memo(1_000)
""":func:`combo_bonus` by (starting fighter, links): fighters are immutable."""


def combo_of(
    line: Sequence[Slot], index: int, fighters: list[Fighter | None]
) -> tuple[int, int, int, int, bool, int]:
    """The combo of the card at ``index``: ``(links, speed, damage, guard, maximum,
    starter)`` using the chain of the fighter who started it (rv.2v2.combined-combos);
    ``starter`` is that fighter's seat (-1 if no combo)."""
    slot = line[index]
    if slot.side != UP or not slot.card.link:
        return 0, 0, 0, 0, False, -1
    start = index  # :func:`chain`, inline
    while start > 0:
        prev = line[start - 1]
        if prev.side != UP or not prev.card.link or prev.cut:
            break
        start -= 1
    links = index - start
    if links == 0:
        return 0, 0, 0, 0, False, -1
    starter = line[start].owner
    fighter = fighters[starter]
    assert fighter is not None  # a card in play has a fighter
    key = (fighter, links)
    bonus = _COMBOS.get(key)
    if bonus is None:
        bonus = _COMBOS.put(key, combo_bonus(fighter.combo, links))
    return links, bonus[0], bonus[1], bonus[2], bonus[3], starter
