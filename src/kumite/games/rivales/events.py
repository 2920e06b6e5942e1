"""Events of Rivales. Each carries the rule it applies and who may see it.

``who`` is the seat's label ("P1 Zorro"), precomputed so that every line reads well.
"""

from __future__ import annotations

from kumite.core.events import Event


def _stats(speed: int, damage: int, guard: int) -> str:
    out = f"Speed {speed}, Damage {damage}"
    return out + (f", Guard {guard}" if guard else "")


class FighterChosen(Event):
    seat: int
    who: str
    fighter: str

    def describe(self) -> str:
        return f"Player {self.seat + 1} fights as {self.fighter}."


class RoundStarted(Event):
    round: int
    final: bool

    def describe(self) -> str:
        if self.final:
            return f"Round {self.round}: FINAL ROUND — the first to cause Damage wins."
        return f"Round {self.round} begins."


class ClashStarted(Event):
    round: int
    clash: int

    template = "Clash {clash} of round {round}."


class UltraSetAside(Event):
    seat: int
    who: str
    card: str
    name: str

    template = "{who} sets the ultra {name} aside, face up."


class LifeMarkerChosen(Event):
    """Private to the owner with the card; the public twin has ``card=None``."""

    seat: int
    who: str
    card: str | None
    name: str | None

    def describe(self) -> str:
        if self.name is None:
            return f"{self.who} covers the life bar with a life marker (face down)."
        return f"You cover your life bar with {self.name} as life marker (hidden from rivals)."


class CardsDrawn(Event):
    """Private to the drawer with the cards; the public twin lists none."""

    seat: int
    who: str
    count: int
    cards: tuple[str, ...]
    names: tuple[str, ...]

    def describe(self) -> str:
        if self.names:
            return f"You draw {', '.join(self.names)}."
        if self.count == 0:
            return f"{self.who}'s deck is exhausted: no card drawn."
        return f"{self.who} draws {self.count} card{'s' if self.count > 1 else ''}."


class ZonesTaken(Event):
    zones: tuple[tuple[str, ...], ...]
    """Per zone, the labels of the fighters playing there."""

    def describe(self) -> str:
        return "Zones: " + "; ".join(
            f"Zone {z + 1}: {' vs '.join(who)}" for z, who in enumerate(self.zones)
        )


class ReadyCardReturned(Event):
    seat: int
    who: str
    card: str
    name: str

    template = (
        "{who}'s {name}, left face up by a dodge, goes back to the hand in sight: "
        "Pinzas de Mantis forbids basic cards this clash."
    )


class ZoneOrderChosen(Event):
    seat: int
    who: str
    team: str
    first: int
    """The zone boosted and resolved first (0 or 1)."""

    def describe(self) -> str:
        return (
            f"{self.team} ({self.who}) chooses the order: Zone {self.first + 1} is boosted and "
            f"resolved first, then Zone {2 - self.first}."
        )


class CardPlayed(Event):
    seat: int
    who: str
    zone: int
    card: str | None
    """Set only when the card is played face up (a dodge's card)."""
    name: str | None

    def describe(self) -> str:
        if self.name is not None:
            return f"{self.who} plays {self.name} face up, first (left by a dodge)."
        return f"{self.who} plays a card face down."


class PersonaChosen(Event):
    seat: int
    who: str
    persona: str

    def describe(self) -> str:
        icon = "candy cane" if self.persona == "hansel" else "cookie"
        return f"{self.who} calls out {self.persona.upper()} ({icon})."


class BoostChosen(Event):
    seat: int
    who: str
    energy: int
    speed: int
    damage: int

    def describe(self) -> str:
        if self.energy == 0:
            return f"{self.who} does not boost."
        parts = [p for p in (self.speed and "+1 Speed", self.damage and "+1 Damage") if p]
        return f"{self.who} spends {self.energy} energy (cards moved down): {' and '.join(parts)}."


class CardRevealed(Event):
    seat: int
    who: str
    card: str
    name: str
    card_type: str
    """basic, unique or ultra (not ``type``: the JSON form's ``type`` names the event)."""
    speed: int
    damage: int
    guard: int

    def describe(self) -> str:
        return (
            f"{self.who} reveals {self.name} ({self.card_type}; "
            f"{_stats(self.speed, self.damage, self.guard)})."
        )


class EffectApplied(Event):
    """One effect of a card or a fighter's passive, in words."""

    seat: int
    who: str
    source: str
    what: str

    template = "{who}'s {source}: {what}."


class RequirementUnmet(Event):
    seat: int
    who: str
    source: str
    requirement: str

    template = "{who}'s {source} has no effect: it requires {requirement}."


class ComboFormed(Event):
    seat: int
    who: str
    links: int
    starter: str
    speed: int
    damage: int
    guard: int
    maximum: bool

    def describe(self) -> str:
        parts = [
            f"+{v} {k}"
            for k, v in (("Speed", self.speed), ("Damage", self.damage), ("Guard", self.guard))
            if v
        ]
        chain = f"{self.links} link{'s' if self.links > 1 else ''}"
        tail = " — MAXIMUM COMBO" if self.maximum else ""
        return (
            f"{self.who}'s card is in combo ({chain}, {self.starter}'s chain): "
            f"{', '.join(parts) or 'no bonus'}{tail}."
        )


class SpeedCompared(Event):
    seats: tuple[int, int]
    whos: tuple[str, str]
    speeds: tuple[int, int]
    attacker: int | None
    """The attacker's seat; None for an exchange."""
    how: str

    def describe(self) -> str:
        (a, b), (sa, sb) = self.whos, self.speeds
        head = f"Speed {a} {sa} against {b} {sb}"
        if self.attacker is None:
            return f"{head}: {self.how} — an exchange."
        att = self.whos[self.seats.index(self.attacker)]
        return f"{head}: {att} attacks{self.how and ' (' + self.how + ')'}."


class GuardBoosted(Event):
    seat: int
    who: str
    energy: int
    guard: int

    def describe(self) -> str:
        if self.energy == 0:
            return f"{self.who} does not boost Guard."
        return f"{self.who} exhausts {self.energy} energy: Guard now {self.guard}."


class AttackResolved(Event):
    attacker: int
    defender: int
    whos: tuple[str, str]
    damage: int
    guard: int
    dealt: int
    dodged: bool = False

    def describe(self) -> str:
        att, dfn = self.whos
        if self.dodged:
            return f"{dfn} dodges {att}'s attack: no Damage."
        if self.dealt == 0:
            return (
                f"{att}'s Damage {self.damage} against Guard {self.guard}: no Damage; the clash "
                f"ends with both cards face up."
            )
        guard = f" minus Guard {self.guard}" if self.guard else ""
        return f"{att} deals {self.damage}{guard} = {self.dealt} Damage to {dfn}."


class DamageTaken(Event):
    seat: int
    who: str
    amount: int
    life: int
    life_max: int

    def describe(self) -> str:
        return (
            f"{self.who} moves the life marker {self.amount} space"
            f"{'s' if self.amount > 1 else ''}: life {self.life}/{self.life_max}."
        )


class CardFlipped(Event):
    seat: int
    who: str
    card: str
    name: str
    up: bool
    reason: str

    def describe(self) -> str:
        side = "face up" if self.up else "face down"
        return f"{self.who}'s {self.name} is flipped {side} ({self.reason})."


class UltraIconUncovered(Event):
    seat: int
    who: str

    template = "{who} uncovers the ultra icon: the ultra card comes to hand next clash."


class UltraTaken(Event):
    seat: int
    who: str
    card: str
    name: str

    template = "{who} takes the ultra {name} into hand."


class KnockedOut(Event):
    seat: int
    who: str

    template = "{who} uncovers K.O.!"


class HandShown(Event):
    """Private to the seat shown the hand; the public twin names no card."""

    seat: int
    who: str
    to_seat: int
    to_who: str
    cards: tuple[str, ...]
    names: tuple[str, ...]

    def describe(self) -> str:
        if self.cards or self.to is not None:
            shown = ", ".join(self.names) or "no cards"
            return f"{self.who} shows you their hand: {shown}."
        return f"{self.who} shows their hand to {self.to_who} only."


class DodgeCardLeft(Event):
    seat: int
    who: str
    card: str
    name: str

    template = "{who} leaves {name} face up: it is their card next clash."


class NoBasicNextClash(Event):
    seat: int
    """Mulan's seat."""
    who: str
    target: str

    template = "{target} may not play basic cards next clash."


class RoundEnded(Event):
    round: int
    winners: tuple[int, ...]
    """Winning teams (both for a tie)."""
    team_names: tuple[str, ...]
    reason: str
    rounds_won: tuple[int, ...]

    def describe(self) -> str:
        names = [self.team_names[t] for t in self.winners]
        who = " and ".join(names) if names else "nobody"
        score = "-".join(str(r) for r in self.rounds_won)
        return f"Round {self.round} ({self.reason}) won by {who}. Rounds won: {score}."


class FightEnded(Event):
    winner: int | None
    """Winning team; None for a draw."""
    team_names: tuple[str, ...]
    reason: str
    rounds_won: tuple[int, ...]
    teams: bool = False
    """2vs2: the winner is a team of two."""

    def describe(self) -> str:
        score = "-".join(str(r) for r in self.rounds_won)
        if self.winner is None:
            return f"The fight is a draw ({self.reason}). Rounds won: {score}."
        name = self.team_names[self.winner]
        verb = "win" if self.teams else "wins"
        return f"{name} {verb} the fight ({self.reason}), rounds {score}."
