"""Events of SF Rivals. Each carries the rule it applies and who may see it."""

from __future__ import annotations

from typing import ClassVar

from kumite.core.events import Event


def _who(seat: int) -> str:
    return f"Player {seat + 1}"


class CharacterChosen(Event):
    seat: int
    character: str

    def describe(self) -> str:
        return f"{_who(self.seat)} fights as {self.character}."


class CardShown(Event):
    """The unused card a player reveals at set-up."""

    seat: int
    card: str
    name: str

    def describe(self) -> str:
        return f"{_who(self.seat)} sets aside {self.name} face up (not used this fight)."


class CoverChosen(Event):
    """Private to its owner: the card put face down on the life gauge."""

    seat: int
    card: str
    name: str

    def describe(self) -> str:
        # named like every other line of the log: a replay shows both players' covers
        return (
            f"{_who(self.seat)} covers their life gauge with {self.name} "
            "(hidden from the opponent)."
        )


class CardRevealed(Event):
    seat: int
    card: str
    name: str
    initiative: int
    damage: int
    damage_mark: str = ""
    """The provenance mark of the damage value (``*`` for an estimate)."""
    early: bool = False
    """Revealed before the opponent chooses (a "reveal first" power)."""

    def describe(self) -> str:
        how = " first, before the opponent chooses" if self.early else ""
        return (
            f"{_who(self.seat)} reveals {self.name}{how} "
            f"(initiative {self.initiative}, damage {self.damage}{self.damage_mark})."
        )


class PowerCancelled(Event):
    seat: int
    """Whose power is cancelled."""
    card: str
    by_seat: int
    by_card: str
    reason: str

    def describe(self) -> str:
        return f"{_who(self.seat)}'s {self.card} loses its power: {self.reason}."


class TechniqueCancelled(Event):
    seat: int
    card: str
    by_card: str

    def describe(self) -> str:
        return f"{_who(self.seat)}'s {self.card} is cancelled outright by {self.by_card}."


class PowerInactive(Event):
    seat: int
    card: str
    reason: str

    def describe(self) -> str:
        return f"{_who(self.seat)}'s {self.card} is played without its power: {self.reason}."


class InitiativeBonus(Event):
    seat: int
    amount: int
    initiative: int

    def describe(self) -> str:
        return (
            f"{_who(self.seat)}'s initiative is raised by {self.amount} from an earlier power "
            f"(now {self.initiative})."
        )


class InitiativeSwapped(Event):
    by_seat: int
    card: str
    initiatives: tuple[int, int]

    def describe(self) -> str:
        a, b = self.initiatives
        return f"{self.card} swaps the initiatives: now {a} against {b}."


class InitiativeDrawForced(Event):
    by_seat: int
    card: str

    template = "{card}: the initiative counts as a draw this round."


class InitiativeCompared(Event):
    initiatives: tuple[int, int]
    winner: int | None

    def describe(self) -> str:
        a, b = self.initiatives
        if self.winner is None:
            return f"Initiative {a} against {b}: a draw, both techniques hit."
        return f"Initiative {a} against {b}: {_who(self.winner)}'s technique wins."


class DamageDealt(Event):
    seat: int
    """Who receives the damage."""
    amount: int
    prevented: int
    life: int
    source: str

    def describe(self) -> str:
        note = f" ({self.prevented} prevented)" if self.prevented else ""
        return (
            f"{_who(self.seat)} takes {self.amount} damage from {self.source}{note}; "
            f"life {self.life}."
        )


class NextRoundBonus(Event):
    seat: int
    amount: int
    card: str

    def describe(self) -> str:
        return f"{self.card}: {_who(self.seat)} gets +{self.amount} initiative next round."


class LastingEffect(Event):
    seat: int
    initiative: int
    damage: int
    card: str

    def describe(self) -> str:
        gains = [f"+{self.initiative} initiative"] if self.initiative else []
        if self.damage:
            gains.append(f"+{self.damage} damage")
        return (
            f"{self.card}: from the next round on, every card of {_who(self.seat)} gets "
            f"{' and '.join(gains)}."
        )


class RevealFirstNext(Event):
    seat: int
    """The player who must reveal first next round."""
    card: str

    def describe(self) -> str:
        return f"{self.card}: {_who(self.seat)} must reveal first next round."


class RevealFirstVoided(Event):
    template: ClassVar[str] = (
        "Both players would have to reveal first: the next round is played simultaneously."
    )


class FightEnded(Event):
    winner: int | None
    reason: str
    lives: tuple[int, int]

    def describe(self) -> str:
        result = "a draw" if self.winner is None else f"{_who(self.winner)} wins"
        return f"The fight is over ({self.reason}): {result}. Life {self.lives[0]}-{self.lives[1]}."
