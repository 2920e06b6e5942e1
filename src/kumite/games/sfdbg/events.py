"""Events of SF DBG. Each carries the rule it applies and who may see it.

Cards are named by their printed name (``name``) and id (``card``). Private events (cards a
player draws) go to their owner only, with a redacted public twin.
"""

from __future__ import annotations

from typing import ClassVar

from kumite.core.events import Event


def who(seat: int | None) -> str:
    return "The Stage Boss" if seat is None else f"Player {seat + 1}"


class GameSetUp(Event):
    heroes: tuple[str, ...]
    """Each seat's Super Hero name (``?`` when face down)."""
    first: int
    line_up: tuple[str, ...]
    stage: str

    def describe(self) -> str:
        seats = ", ".join(f"{who(s)}: {h}" for s, h in enumerate(self.heroes))
        return (
            f"Set-up — {seats}. {who(self.first)} goes first. Line-Up: "
            f"{', '.join(self.line_up)}. Stage 1 face up: {self.stage}."
        )


class TurnStarted(Event):
    seat: int
    turn: int

    heading: ClassVar[bool] = True

    def describe(self) -> str:
        return f"— Turn {self.turn}: {who(self.seat)} —"


class CardPlayed(Event):
    seat: int
    card: str
    name: str
    power: int
    """The player's Power now."""
    gained: int = 0
    """Power given by a card whose whole text is "+N Power" (other cards' Power follows in
    their own events)."""

    def describe(self) -> str:
        if self.gained:
            return f"{who(self.seat)} plays {self.name}: +{self.gained} Power (now {self.power})."
        return f"{who(self.seat)} plays {self.name}."


class PowerChanged(Event):
    seat: int
    amount: int
    power: int
    source: str

    def describe(self) -> str:
        verb = f"+{self.amount}" if self.amount >= 0 else str(self.amount)
        return f"{who(self.seat)}: {verb} Power from {self.source} (now {self.power})."


class CardsDrawn(Event):
    """Private to the drawer with the names; the public twin has only the count."""

    seat: int
    count: int
    names: tuple[str, ...] = ()

    def visible_to(self, seat: int | None) -> bool:
        """The public twin goes to everyone but the drawer, who has the private one."""
        if self.to is None:
            return seat != self.seat
        return seat is not None and seat in self.to

    def describe(self) -> str:
        what = f": {'; '.join(self.names)}" if self.names else ""
        plural = "s" if self.count != 1 else ""
        return f"{who(self.seat)} draws {self.count} card{plural}{what}."


class DeckShuffled(Event):
    seat: int
    size: int

    def describe(self) -> str:
        return (
            f"{who(self.seat)}'s deck is empty: the discard pile ({self.size} cards) is "
            f"shuffled into a new deck."
        )


class CardMoved(Event):
    """A public card movement: bought, gained, discarded, destroyed, put somewhere."""

    seat: int | None
    card: str
    name: str
    verb: str
    """``buys``, ``gains``, ``discards``, ``destroys``, ``puts ... under``, ..."""
    where: str = ""

    def describe(self) -> str:
        tail = f" {self.where}" if self.where else ""
        return f"{who(self.seat)} {self.verb} {self.name}{tail}."


class CardRevealed(Event):
    seat: int | None
    card: str
    name: str
    where: str

    def describe(self) -> str:
        return f"{who(self.seat)} reveals {self.name} {self.where}."


class AttackMade(Event):
    seat: int | None
    source: str
    targets: tuple[int, ...]
    counter: bool = False

    def describe(self) -> str:
        kind = "Counter-Attacks" if self.counter else f"attacks with {self.source}:"
        targets = ", ".join(who(t) for t in self.targets) or "nobody"
        if self.counter:
            return f"{self.source}: {who(self.seat)} Counter-Attacks {targets}."
        return f"{who(self.seat)} {kind} {targets}."


class AttackAvoided(Event):
    seat: int
    card: str
    name: str
    where: str = ""
    """Where the Defense went: ``is shuffled into his deck`` (an Ultra), ``is discarded``."""

    def describe(self) -> str:
        went = f" ({self.name} {self.where})" if self.where else ""
        return f"{who(self.seat)} plays {self.name} as a Defense and avoids the Attack{went}."


class AttackNotAvoided(Event):
    seat: int
    forced: bool = False

    def describe(self) -> str:
        if self.forced:
            return f"{who(self.seat)} cannot avoid this Attack."
        return f"{who(self.seat)} does not avoid the Attack."


class WeaknessGained(Event):
    seat: int
    left: int
    """Weaknesses left in the stack."""

    def describe(self) -> str:
        return f"{who(self.seat)} gains a Weakness ({self.left} left in the stack)."


class NoWeaknessLeft(Event):
    seat: int

    def describe(self) -> str:
        return f"The Weakness stack is empty: {who(self.seat)} gains no Weakness."


class PowerLost(Event):
    seat: int
    amount: int
    power: int

    def describe(self) -> str:
        if not self.amount:
            return f"{who(self.seat)} has no Power left to lose."
        return f"{who(self.seat)} loses {self.amount} Power (now {self.power})."


class Noted(Event):
    """A rule took effect without moving a card (cannot buy, cannot avoid, Rose...)."""

    seat: int | None
    note: str

    def describe(self) -> str:
        return f"{who(self.seat)}: {self.note}"


class Named(Event):
    seat: int
    what: str

    def describe(self) -> str:
        return f"{who(self.seat)} names {self.what}."


class StageChallenged(Event):
    seat: int
    stage: str
    cost: int
    boss: str

    def describe(self) -> str:
        return (
            f"{who(self.seat)} challenges the Stage {self.stage} (cost {self.cost}): the Boss "
            f"is {self.boss}!"
        )


class StageDefeated(Event):
    seat: int
    stage: str
    boss: str

    def describe(self) -> str:
        return (
            f"{who(self.seat)} defeats {self.boss} and puts the Stage {self.stage} into his "
            f"discard pile."
        )


class LineUpRefilled(Event):
    cards: tuple[str, ...]

    def describe(self) -> str:
        return f"The Line-Up is refilled with {', '.join(self.cards)}."


class StageFlipped(Event):
    stage: str
    cost: int

    template = "The next Stage is flipped face up: {stage} (cost {cost})."


class HeroRevealed(Event):
    seat: int
    hero: str

    def describe(self) -> str:
        return f"{who(self.seat)} flips his Super Hero face up: {self.hero}."


class HeroReplaced(Event):
    seat: int
    old: str

    def describe(self) -> str:
        return f"{who(self.seat)} discards {self.old} and receives a new face-down Super Hero."


class TurnEnded(Event):
    seat: int

    def describe(self) -> str:
        return f"{who(self.seat)} ends the turn, discards and draws a new hand of five."


class GameEnded(Event):
    reason: str
    vp: tuple[int, ...]
    winners: tuple[int, ...]

    def describe(self) -> str:
        scores = ", ".join(f"{who(s)} {v} VP" for s, v in enumerate(self.vp))
        won = " & ".join(who(w) for w in self.winners)
        return f"The game is over ({self.reason}). {scores}. Winner: {won}."
