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
        "queue",
        "queue_pos",
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
        """Where in :attr:`boost_plan` the next group to decide is."""
        self.queue: tuple[tuple[int, Any, Card, Any], ...] = ()
        """Immediate effects to run: (team, effect, card, compiled requirement), in order
        (shared: never modified)."""
        self.queue_pos = 0
        """Where in :attr:`queue` the next immediate effect to run is."""
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

    def seat(self, t: int) -> int:
        """The seat of team ``t`` (0 or 1): ``seats[t]`` without making a tuple (compiled,
        indexing a tuple field by a variable boxes the tuple first)."""
        return self.seats[1] if t else self.seats[0]

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
        self.boost_pos = self.queue_pos = self.stage = self.guard_boost = 0
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
        f.refill(self)
        return f

    def refill(self, other: Fight) -> None:
        """Become a copy of ``other``, in this fight's own lists (filled in place: a copy
        never shares them, and making a second set of lists only to free the first would
        cost a clash looked ahead as much again)."""
        self.zone = other.zone
        self.seats = other.seats
        for t in range(2):  # compiled, a loop over (0, 1) goes through a generic iterator
            bonus, theirs = self.bonus[t], other.bonus[t]
            bonus[0] = theirs[0]
            bonus[1] = theirs[1]
            bonus[2] = theirs[2]
            self.boost[t] = other.boost[t]
            self.ties[t] = other.ties[t]
            self.dodge[t] = other.dodge[t]
            self.persona[t] = other.persona[t]
            self.maximum[t] = other.maximum[t]
            self.dealt[t] = other.dealt[t]
            self.ctxs[t] = None
        self.boost_plan = other.boost_plan
        self.boost_pos = other.boost_pos
        self.queue = other.queue
        self.queue_pos = other.queue_pos
        self.stage = other.stage
        self.stats = None if other.stats is None else list(other.stats)
        self.attacker = other.attacker
        self.guard_boost = other.guard_boost
