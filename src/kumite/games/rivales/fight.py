"""One zone's clash: :class:`Fight`."""

from __future__ import annotations

from typing import Any

from kumite.core.game import Decision
from kumite.games.rivales.cards import Card


class Fight:
    """One zone's clash: its two fighters (one per team) and what has happened so far."""

    __slots__ = (
        "attacker",
        "bonus",
        "boost",
        "boost_plan",
        "boost_pos",
        "ctxs",
        "dealt",
        "dodge",
        "guard_boost",
        "maximum",
        "persona",
        "qpos",
        "queue",
        "seats",
        "stage",
        "stats",
        "ties",
        "zone",
    )

    def __init__(self, zone: int, seats: tuple[int, int]) -> None:
        self.zone = zone
        self.seats = seats
        self.bonus = [[0, 0, 0], [0, 0, 0]]
        """Speed, Damage, Guard bonuses per team from boosts, effects and carried bonuses."""
        self.boost = [0, 0]
        self.ties = [False, False]
        self.dodge = [False, False]
        self.persona: list[str | None] = [None, None]
        self.boost_plan: tuple[tuple[tuple[int, ...], tuple[Decision, ...]], ...] | None = None
        """Groups of (teams, their boost decisions), in the order they decide (shared:
        never modified)."""
        self.boost_pos = 0
        self.queue: tuple[tuple[int, Any, Card, Any], ...] = ()
        """Immediate effects to run: (team, effect, card, compiled requirement), in order
        (shared: never modified)."""
        self.qpos = 0
        self.stage = 0
        self.stats: list[tuple[int, int, int]] | None = None
        self.maximum = [False, False]
        self.attacker: int | None = None
        """Attacking team; None before the comparison or for an exchange."""
        self.guard_boost = 0
        self.dealt = [0, 0]
        self.ctxs: list[Any] = [None, None]
        """Effect contexts per team (see :func:`~.effects.ctx`); not copied. They refer back
        to the fight: :meth:`release` breaks that cycle before a player is asked to decide
        inside the resolution and when the clash ends."""

    def reset(self) -> None:
        """Back to the state of a new :class:`Fight` of the same zone and seats (1vs1 reuses
        its one fight every clash: fewer allocations). Lists are cleared in place: a copy
        (:meth:`copy`) never shares them."""
        b0, b1 = self.bonus
        b0[0] = b0[1] = b0[2] = b1[0] = b1[1] = b1[2] = 0
        boost, ties, dodge, persona = self.boost, self.ties, self.dodge, self.persona
        boost[0] = boost[1] = 0
        ties[0] = ties[1] = dodge[0] = dodge[1] = False
        persona[0] = persona[1] = None
        self.boost_plan = None
        self.boost_pos = self.qpos = self.stage = self.guard_boost = 0
        self.queue = ()
        self.stats = None
        self.maximum = [False, False]
        self.attacker = None
        dealt = self.dealt
        dealt[0] = dealt[1] = 0
        ctxs = self.ctxs
        ctxs[0] = ctxs[1] = None

    def release(self) -> None:
        """Drop the cached contexts (a fight <-> context reference cycle), so that the fight
        is freed by reference counting rather than by the cyclic garbage collector."""
        ctxs = self.ctxs
        ctxs[0] = ctxs[1] = None  # in place: each fight has its own list (see :meth:`copy`)

    def copy(self) -> Fight:
        f = Fight(self.zone, self.seats)
        # the new fight's own lists, filled in place (a second set of lists would be made
        # and the first freed at every clash looked ahead)
        for t in (0, 1):
            bonus, mine = f.bonus[t], self.bonus[t]
            bonus[0] = mine[0]
            bonus[1] = mine[1]
            bonus[2] = mine[2]
            f.boost[t] = self.boost[t]
            f.ties[t] = self.ties[t]
            f.dodge[t] = self.dodge[t]
            f.persona[t] = self.persona[t]
            f.maximum[t] = self.maximum[t]
            f.dealt[t] = self.dealt[t]
        f.boost_plan = self.boost_plan
        f.boost_pos = self.boost_pos
        f.queue = self.queue
        f.qpos = self.qpos
        f.stage = self.stage
        f.stats = None if self.stats is None else list(self.stats)
        f.attacker = self.attacker
        f.guard_boost = self.guard_boost
        return f
