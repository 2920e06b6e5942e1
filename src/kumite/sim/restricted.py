"""Restricted play (Jaffe et al., AIIDE 2012): what a card or an entity is worth, as the
change of win share when one side may not use it.

* **An entity** (character, fighter, hero): a side that may not pick ``e`` picks among the
  others; its win share against a side that may pick any, from the balanced design's
  pairwise results (every pair of entities equally often), is the pooled share of the rows
  ``a != e``. Unrestricted, a side's share is ½ (every comparison counts for both sides),
  so ``value(e) = ½ - share(rows other than e)``; its 95% interval is the Wilson interval of
  that pooled share, mirrored. No extra game is played.
* **A card**: games where one seat's agent may not use it (:class:`~kumite.sim.banned.
  Restricted`) against the same agent, beside the same games (same seeds) where that seat
  may (the agent wrapped with an empty ban, so the line-ups rotate alike).
  ``value(c) = share(may) - share(may not)``, with the normal interval of a difference of
  two proportions. A card that belongs to one entity is measured with that entity in the
  restricted seat, against every entity.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

from kumite.core.registry import get_game
from kumite.sim.adapters import adapter_for
from kumite.sim.backends import simulate
from kumite.sim.banned import restricted_name
from kumite.sim.engine import Counts, SimSpec, Tally
from kumite.sim.stats import Z95, proportion


def entity_values(pairs: Mapping[tuple[str, str], Counts]) -> list[dict[str, Any]]:
    """Each entity's restricted-play value from pairwise counts ``(a, b) -> [n, a_won,
    draws]`` (both orders, as :class:`~kumite.sim.engine.Tally` keeps them)."""
    names = sorted({x for pair in pairs for x in pair})
    out = []
    for e in names:
        wins = losses = 0
        for (a, _b), (n, w, d) in pairs.items():
            if a != e:
                wins += w
                losses += n - w - d
        p = proportion(wins, wins + losses)
        out.append(
            {
                "entity": e,
                "value": round(0.5 - p.rate, 6) if p.n else None,
                "low": round(0.5 - p.high, 6),
                "high": round(0.5 - p.low, 6),
                "decisive": p.n,
            }
        )
    return sorted(out, key=lambda r: -(r["value"] or 0))


def _share(c: Counts | None) -> tuple[float, int]:
    if c is None:
        return math.nan, 0
    n, w, d = c
    decisive = n - d
    return (w / decisive if decisive else math.nan), decisive


def difference(may: Counts | None, may_not: Counts | None) -> dict[str, Any]:
    """``share(may) - share(may not)`` with a 95% normal interval."""
    p1, n1 = _share(may)
    p2, n2 = _share(may_not)
    if not n1 or not n2:
        return {"value": None, "low": None, "high": None, "n": n1 + n2}
    diff = p1 - p2
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    return {
        "value": round(diff, 6),
        "low": round(diff - Z95 * se, 6),
        "high": round(diff + Z95 * se, 6),
        "may": round(p1, 6),
        "may_not": round(p2, 6),
        "n": n1 + n2,
    }


@dataclasses.dataclass(frozen=True)
class CardRuns:
    card: str
    entity: str | None
    specs: tuple[SimSpec, ...]


def card_specs(
    base: SimSpec, cards: Sequence[str], games: int, owners: Mapping[str, str | None]
) -> list[CardRuns]:
    """The simulations that value each card: the base spec's line-up (its first), seat 0's
    agent restricted, ``games`` games each with and without the ban (same seeds)."""
    lineup = base.lineups[0]
    agent = lineup[0]
    out = []
    for card in cards:
        owner = owners.get(card)
        specs = []
        for banned, label in (((card,), "may not"), ((), "may")):
            seat = restricted_name(agent, banned)
            if owner is not None and len(lineup) == 2:
                # the card's owner sits in the restricted seat, against every entity
                others = _entities(base)
                half = max(1, games // 2)
                for flip in (False, True):
                    tables = tuple((o, owner) if flip else (owner, o) for o in others)
                    seats = (lineup[1], seat) if flip else (seat, lineup[1])
                    specs.append(
                        dataclasses.replace(
                            base,
                            lineups=(seats,),
                            games=half,
                            rotate=False,
                            tables=tables,
                            design="balanced",
                            label=f"{label}:{card}",
                            stream=f"restricted:{card}:{int(flip)}",
                        )
                    )
            else:
                specs.append(
                    dataclasses.replace(
                        base,
                        lineups=((seat, *lineup[1:]),),
                        games=games,
                        rotate=True,
                        label=f"{label}:{card}",
                        stream=f"restricted:{card}",
                    )
                )
        out.append(CardRuns(card, owner, tuple(specs)))
    return out


def _entities(spec: SimSpec) -> list[str]:
    game = get_game(spec.game)
    return adapter_for(spec.game).entity_ids(game, spec.options)


def card_values(
    base: SimSpec,
    cards: Sequence[str],
    games: int,
    owners: Mapping[str, str | None] | None = None,
    *,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
) -> list[dict[str, Any]]:
    """Every card's restricted-play value (best first)."""
    out = []
    for runs in card_specs(base, cards, games, owners or {}):
        tallies: dict[str, Tally] = {"may": Tally(), "may not": Tally()}
        agents: dict[str, Counts] = {}
        for spec in runs.specs:
            result = simulate(spec, jobs=jobs, backend=backend, address=address, rows=False)
            label = spec.label.split(":")[0]
            tallies[label].merge(result.tally)
            for name, c in result.tally.counts("agents").items():
                if "!without=" in name:
                    slot = agents.setdefault(label, [0, 0, 0])
                    for k in range(3):
                        slot[k] += c[k]
        out.append(
            {
                "card": runs.card,
                "entity": runs.entity,
                **difference(agents.get("may"), agents.get("may not")),
            }
        )
    return sorted(out, key=lambda r: -(r["value"] if r["value"] is not None else -9))
