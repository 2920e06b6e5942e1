"""Matches of several fights, team matches and round-robin tournaments.

The SF Rivals rulebook suggests "team matches or tournaments etc., with every one fight
earning 1 or 2 points" (``sfr.match.points``). kumite reads that as: a won fight earns 2
points and a drawn fight 1 point to each side (``win2-draw1``, the default), or a won fight
earns 1 point and a draw none (``win1``). See ``docs/rulings.md``.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from typing import Any

from kumite.core.errors import OptionsError
from kumite.core.game import Outcome


@dataclasses.dataclass(frozen=True, slots=True)
class Scoring:
    win: int
    draw: int
    loss: int = 0


SCORINGS: dict[str, Scoring] = {
    "win2-draw1": Scoring(win=2, draw=1),
    "win1": Scoring(win=1, draw=0),
}


def scoring(name: str) -> Scoring:
    try:
        return SCORINGS[name]
    except KeyError:
        raise OptionsError(f"unknown scoring {name!r} (one of: {', '.join(SCORINGS)})") from None


def fight_points(outcome: Outcome, rule: Scoring) -> tuple[int, int]:
    """Points of seat 0 and seat 1 for one two-player fight."""
    if outcome.draw or not outcome.winners:
        return (rule.draw, rule.draw)
    return (rule.win, rule.loss) if outcome.winners[0] == 0 else (rule.loss, rule.win)


@dataclasses.dataclass(frozen=True, slots=True)
class Entrant:
    """A player of a match: an agent name and, optionally, a fixed character."""

    agent: str
    character: str | None = None

    @classmethod
    def parse(cls, spec: str) -> Entrant:
        agent, _, character = spec.strip().partition(":")
        if not agent:
            raise OptionsError(f"bad entrant {spec!r}: use AGENT or AGENT:CHARACTER")
        return cls(agent, character or None)

    def __str__(self) -> str:
        return self.agent if self.character is None else f"{self.agent}:{self.character}"


@dataclasses.dataclass(frozen=True, slots=True)
class FightResult:
    a: int
    """Index of the entrant in seat 0."""
    b: int
    outcome: Outcome
    points: tuple[int, int]
    seed: int


@dataclasses.dataclass
class Standings:
    """Running totals of a match, a team match or a tournament."""

    names: list[str]
    points: list[int] = dataclasses.field(default_factory=list)
    wins: list[int] = dataclasses.field(default_factory=list)
    draws: list[int] = dataclasses.field(default_factory=list)
    losses: list[int] = dataclasses.field(default_factory=list)
    fights: list[FightResult] = dataclasses.field(default_factory=list)

    def __post_init__(self) -> None:
        n = len(self.names)
        for field in (self.points, self.wins, self.draws, self.losses):
            field.extend([0] * (n - len(field)))

    def add(self, result: FightResult) -> None:
        self.fights.append(result)
        for index, pts in ((result.a, result.points[0]), (result.b, result.points[1])):
            self.points[index] += pts
        out = result.outcome
        if out.draw or not out.winners:
            self.draws[result.a] += 1
            self.draws[result.b] += 1
        else:
            winner, loser = (result.a, result.b) if out.winners[0] == 0 else (result.b, result.a)
            self.wins[winner] += 1
            self.losses[loser] += 1

    def ranking(self) -> list[int]:
        """Entrant indices, best first (points, then wins)."""
        return sorted(range(len(self.names)), key=lambda i: (-self.points[i], -self.wins[i], i))

    def to_json(self) -> dict[str, Any]:
        return {
            "standings": [
                {
                    "entrant": self.names[i],
                    "points": self.points[i],
                    "wins": self.wins[i],
                    "draws": self.draws[i],
                    "losses": self.losses[i],
                }
                for i in self.ranking()
            ],
            "fights": [
                {
                    "seat0": self.names[f.a],
                    "seat1": self.names[f.b],
                    "points": list(f.points),
                    "seed": f.seed,
                    "outcome": f.outcome.to_json(),
                }
                for f in self.fights
            ],
        }


Fight = Callable[[Entrant, Entrant, int], Outcome]
"""``fight(seat0, seat1, seed)`` plays one fight and returns its outcome."""


def play_match(
    a: Entrant, b: Entrant, fights: int, fight: Fight, rule: Scoring, seeds: Sequence[int]
) -> Standings:
    """``fights`` fights between two entrants."""
    table = Standings([str(a), str(b)])
    entrants = (a, b)
    for n in range(fights):
        outcome = fight(entrants[0], entrants[1], seeds[n])
        table.add(FightResult(0, 1, outcome, fight_points(outcome, rule), seeds[n]))
    return table


def play_team_match(
    team_a: Sequence[Entrant],
    team_b: Sequence[Entrant],
    fight: Fight,
    rule: Scoring,
    seeds: Sequence[int],
) -> tuple[Standings, tuple[int, int]]:
    """Team match: the i-th member of each team fight each other; team points are summed."""
    if len(team_a) != len(team_b) or not team_a:
        raise OptionsError("both teams need the same, non-zero number of members")
    n = len(team_a)
    table = Standings(
        [f"A{i + 1} {e}" for i, e in enumerate(team_a)]
        + [f"B{i + 1} {e}" for i, e in enumerate(team_b)]
    )
    totals = [0, 0]
    for i in range(n):
        outcome = fight(team_a[i], team_b[i], seeds[i])
        pts = fight_points(outcome, rule)
        table.add(FightResult(i, n + i, outcome, pts, seeds[i]))
        totals[0] += pts[0]
        totals[1] += pts[1]
    return table, (totals[0], totals[1])


def play_round_robin(
    entrants: Sequence[Entrant],
    fights: int,
    fight: Fight,
    rule: Scoring,
    seed_of: Callable[[int, int, int], int],
) -> Standings:
    """Every pair of entrants plays ``fights`` fights; ``seed_of(i, j, n)`` seeds fight n."""
    table = Standings([str(e) for e in entrants])
    for i, j in itertools.combinations(range(len(entrants)), 2):
        for n in range(fights):
            seed = seed_of(i, j, n)
            outcome = fight(entrants[i], entrants[j], seed)
            table.add(FightResult(i, j, outcome, fight_points(outcome, rule), seed))
    return table


def entrants_from(specs: str | Sequence[str]) -> list[Entrant]:
    items = specs.split(",") if isinstance(specs, str) else list(specs)
    return [Entrant.parse(s) for s in items if s.strip()]
