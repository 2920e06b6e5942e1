"""From tallies to statistics: rates with intervals, seat effects, ratings, matchups and
card impact. Everything returned is plain JSON-able data (it goes into the result file, the
CSV and the HTML report).

Definitions (each rate has a 95% Wilson interval):

* **win rate** = wins / games, **draw rate** = draws / games;
* **win share** = wins / (wins + losses), the share of decisive games won: 50% is an even
  matchup whatever the draw rate (matchup tables);
* **card impact**: the win rate of the seats that played (bought, …) a card at least once,
  next to the win rate of the seats with the same character that did not; the difference is
  tested with Fisher's exact test and Benjamini–Hochberg corrected over all cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kumite.sim.engine import Counts, Tally
from kumite.sim.restricted import entity_values
from kumite.sim.stats import bh_adjust, bradley_terry, fisher_p, proportion, seat_test


def plural(word: str) -> str:
    """``character`` -> ``characters``, ``hero`` -> ``heroes`` (for headings)."""
    return word + ("es" if word.endswith("o") else "s")


def rates(counts: Counts) -> dict[str, Any]:
    n, wins, draws = counts
    losses = n - wins - draws
    return {
        "n": n,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win": proportion(wins, n).to_json(),
        "draw": proportion(draws, n).to_json(),
        "share": proportion(wins, wins + losses).to_json(),
    }


def analyze(
    tally: Tally,
    *,
    entity: str = "",
    turn: str = "turn",
    entity_names: Mapping[str, str] | None = None,
    card_names: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """All statistics of one simulation run."""
    lengths = tally.lengths
    n_games = tally.games
    out: dict[str, Any] = {
        "games": n_games,
        "draw": proportion(tally.draws, n_games).to_json(),
        "reasons": dict(sorted(tally.reasons.items(), key=lambda kv: -kv[1])),
        "mean_length": (sum(k * v for k, v in lengths.items()) / n_games) if n_games else None,
        "turn": turn,
        "entity": entity,
        "seats": _seats(tally),
        "agents": _sides(tally.counts("agents"), tally.counts("agent_pairs")),
    }
    if tally.entities:
        sides = _sides(tally.counts("entities"), tally.counts("entity_pairs"))
        sides["names"] = dict(entity_names or {})
        sides["matchups"] = _matchups(tally.counts("entity_pairs"))
        sides["restricted"] = entity_values(tally.counts("entity_pairs"))
        sides["by_players"] = [
            {"entity": e, "players": p, **rates(c)}
            for (e, p), c in sorted(tally.counts("entity_players").items())
        ]
        out["entities"] = sides
    if tally.cards:
        out["cards"] = _cards(tally, card_names or {})
    out["flags"] = flags(tally)
    return out


UNUSUAL = 0.01
"""An end reason met in fewer than this share of the games is flagged as unusual."""


def flags(tally: Tally) -> list[dict[str, Any]]:
    """Games to look at, with the seeds to replay them: those that stopped at a limit rule,
    repeated a position, or ended by a reason met in under 1% of the games."""
    out = []
    for flag, what in (("limit", "hit a limit rule"), ("loop", "repeated a position")):
        if tally.flags.get(flag):
            out.append(
                {
                    "flag": flag,
                    "what": what,
                    "games": tally.flags[flag],
                    "examples": [list(x) for x in tally.flagged.get(flag, [])],
                }
            )
    games = tally.games
    for reason, count in sorted(tally.reasons.items(), key=lambda kv: kv[1]):
        if games and count / games < UNUSUAL:
            out.append(
                {
                    "flag": "unusual",
                    "what": f"ended by {reason!r} ({count} of {games} games)",
                    "games": count,
                    "examples": [list(x) for x in tally.flagged.get("reason:" + reason, [])],
                }
            )
    return out


def _seats(tally: Tally) -> list[dict[str, Any]]:
    counts = tally.counts("seats")
    out = []
    for players in sorted({p for p, _ in counts}):
        seats = sorted(s for p, s in counts if p == players)
        wins = [counts[players, s][1] for s in seats]
        out.append(
            {
                "players": players,
                "seats": [{"seat": s, **rates(counts[players, s])} for s in seats],
                "p_equal": seat_test(wins),
            }
        )
    return out


def _sides(
    singles: Mapping[str, Counts], pairs: Mapping[tuple[str, str], Counts]
) -> dict[str, Any]:
    return {
        "table": [{"name": k, **rates(c)} for k, c in sorted(singles.items())],
        "ratings": [r.to_json() for r in bradley_terry(pairs)],
    }


def _matchups(pairs: Mapping[tuple[str, str], Counts]) -> dict[str, Any]:
    names = sorted({x for pair in pairs for x in pair})
    cells = []
    for a in names:
        for b in names:
            c = pairs.get((a, b))
            if c is not None:
                cells.append({"row": a, "col": b, **rates(c)})
    return {"names": names, "cells": cells}


def _cards(tally: Tally, names: Mapping[str, str]) -> dict[str, Any]:
    cards = tally.counts("cards")
    entities = tally.counts("entities")
    base_all = tally.seat_games
    rows: list[dict[str, Any]] = []
    pvalues = []
    for (scope, verb, card), c in sorted(cards.items()):
        base = entities.get(scope) if scope != "*" else None
        n_all, w_all, d_all = base if base is not None else base_all
        rest = [n_all - c[0], w_all - c[1], d_all - c[2]]
        p = fisher_p(c[1], c[0], rest[1], rest[0])
        pvalues.append(p)
        rows.append(
            {
                "scope": scope,
                "verb": verb,
                "card": card,
                "name": names.get(card, card),
                "with": rates(c),
                "without": rates(rest),
                "diff": _diff(c, rest),
                "p": p,
            }
        )
    for row, q in zip(rows, bh_adjust(pvalues), strict=True):
        row["q"] = q
        row["significant"] = q < 0.05
    when = [
        {
            "scope": s,
            "verb": v,
            "card": card,
            "when": w,
            "n": c[0],
            "wins": c[1],
            "draws": c[2],
            "win": proportion(c[1], c[0]).to_json(),
        }
        for (s, v, card, w), c in sorted(tally.counts("card_when").items())
    ]
    return {"impact": rows, "by_when": when}


def _diff(a: Counts, b: Counts) -> float | None:
    if not a[0] or not b[0]:
        return None
    return round(a[1] / a[0] - b[1] / b[0], 6)
