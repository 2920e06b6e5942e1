"""The solved strategy as seen from one seat: what the ``equilibrium`` agent plays and what
the hint API shows.

For a seat's view, :func:`advice` gives every legal choice with its probability under the
solved strategy and its value — the seat's expected result (win +1, draw 0, loss -1)
if it makes that choice and both sides then follow the solution. Only the view is used:
the seat's own hand and cover, the opponent's *unseen* cards (hand and cover together),
the table. The opponent is treated as adaptive (it may still choose which unseen card is
its cover), which is what makes the strategy's guarantee sound (:mod:`.setup`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np

from kumite.games.sfrivals.game import GAME
from kumite.games.sfrivals.resolve import Carry
from kumite.games.sfrivals.solver.fight import Position
from kumite.games.sfrivals.solver.setup import MatchupSolution, solve_matchup
from kumite.games.sfrivals.solver.tight import card_values, play_distribution


@dataclasses.dataclass(frozen=True, slots=True)
class Advice:
    """One legal choice, its equilibrium probability and its value for the advised seat."""

    choice: str
    probability: float
    value: float

    def to_json(self) -> dict[str, Any]:
        return {"choice": self.choice, "probability": self.probability, "value": self.value}


def matchup_for_view(
    view: Mapping[str, Any], options: Mapping[str, Any] | None = None
) -> MatchupSolution:
    """The (cached) solution of the matchup in ``view``; ``options`` are the game's public
    options (rule variants, pack overlay)."""
    chars = tuple(p["character"] for p in view["players"])
    if None in chars:
        raise ValueError("the characters are not chosen yet")
    raw = {k: v for k, v in dict(options or {}).items() if k != "characters"}
    return solve_matchup((str(chars[0]), str(chars[1])), raw)


def advice(view: Mapping[str, Any], solution: MatchupSolution) -> list[Advice]:
    """Every legal choice of the viewing seat with its probability and value."""
    seat = int(view["seat"])
    pending = next((p for p in view["pending"] if p["seat"] == seat), None)
    if pending is None:
        return []
    legal = list(pending.get("legal", []))
    if pending["kind"] == "setup":
        return _setup_advice(seat, legal, solution)
    if pending["kind"] in ("play", "play-first"):
        if solution.method == "tight":
            return _tight_play_advice(view, seat, legal, solution)
        return _play_advice(view, seat, legal, solution)
    return [Advice(c, 1.0 / len(legal), 0.0) for c in legal]


def _setup_advice(seat: int, legal: list[str], sol: MatchupSolution) -> list[Advice]:
    probs = sol.setup[seat]
    values = sol.setup_values(seat)
    return [Advice(c, float(probs.get(c, 0.0)), values[c]) for c in legal]


def position_for_view(view: Mapping[str, Any], sol: MatchupSolution) -> Position:
    """The fight position at the start of the current round, from ``view``'s seat: its own
    hand exactly, the opponent adaptive over its unseen cards."""
    seat = int(view["seat"])
    chars = sol.solver.chars
    hands: list[tuple[int, ...]] = []
    for s, p in enumerate(view["players"]):
        char = chars[s]
        counts = [0] * len(char.cards)
        # The opponent: its hand and hidden cover together, from public data.
        ids = list(p["hand"]) if s == seat else [c.id for c in sol.solver.catalog.unseen(p)]
        if p.get("revealed"):
            ids.append(p["revealed"])  # played face up this round, not yet resolved
        for cid in ids:
            counts[char.card(cid).index] += 1
        hands.append(tuple(counts))
    players = view["players"]
    return Position(
        (hands[0], hands[1]),
        lives=(int(players[0]["life"]), int(players[1]["life"])),
        round=int(view["round"]),
        carry=(_carry(players[0]["carry"]), _carry(players[1]["carry"])),
        reveal_first=(bool(players[0]["must_reveal_first"]), bool(players[1]["must_reveal_first"])),
        adaptive=(seat == 1, seat == 0),
    )


def _play_advice(
    view: Mapping[str, Any], seat: int, legal: list[str], sol: MatchupSolution
) -> list[Advice]:
    pos = position_for_view(view, sol)
    node = sol.solver.solve_node(pos)
    mine = node.cards[seat]
    m = node.matrix if seat == 0 else -node.matrix.T  # rows: my cards, from my side
    revealed = view["players"][1 - seat].get("revealed")
    if revealed:
        theirs = [c.id for c in node.cards[1 - seat]].index(revealed)
        values = m[:, theirs]
        probs = np.zeros(len(mine))
        probs[int(values.argmax())] = 1.0
    else:
        probs = node.strategies[seat]
        opp = node.strategies[1 - seat]
        # revealing first, the opponent answers knowing my card
        values = m.min(axis=1) if pos.reveal_first[seat] else m @ opp
    by_choice = {
        c.choice: (float(p), float(v)) for c, p, v in zip(mine, probs, values, strict=True)
    }
    return [Advice(c, *by_choice.get(c, (0.0, float("nan")))) for c in legal]


def _tight_play_advice(
    view: Mapping[str, Any], seat: int, legal: list[str], sol: MatchupSolution
) -> list[Advice]:
    """Method ``tight``: the seat's behaviour strategy from its view (:mod:`.tight`)."""
    assert sol.plans is not None
    side = sol.side(seat)
    probs = play_distribution(view, side, sol.plans[seat])
    values = card_values(view, side)
    char = side.chars[0]
    out = []
    for choice in legal:
        i = char.by_choice[choice].index
        out.append(Advice(choice, float(probs.get(i, 0.0)), float(values.get(i, float("nan")))))
    return out


def _carry(raw: Mapping[str, int]) -> Carry:
    return Carry(raw["initiative_next_round"], raw["lasting_initiative"], raw["lasting_damage"])


def hints(state: Any, seat: int) -> list[dict[str, Any]]:
    """Coach for UIs: each legal choice of ``seat`` now with its equilibrium probability and
    value, from ``seat``'s view only (JSON-able). Solves (or loads) the matchup if needed."""
    view = state.view(seat)
    if not any(p["seat"] == seat for p in view["pending"]):
        return []
    sol = matchup_for_view(view, GAME.options_to_json(state.opts))
    return [a.to_json() for a in advice(view, sol)]
