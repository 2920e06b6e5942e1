"""What-if: the same simulation before and after a pack change, difference by difference.

The two runs use independent games (different seed streams), so each difference is a
comparison of two independent binomial samples: **Fisher's exact test** (two-sided) gives
its p-value, and the p-values of all the differences of a report are corrected together with
the **Benjamini–Hochberg** procedure (false discovery rate 5%). A difference is
*significant* when its q-value is below 0.05.

Compared: the draw rate, each seat's, agent's and character's win rate, and each card's win
rate when played. (Matchup cells and per-round card rates are shown side by side in the
report but not tested: hundreds of small cells would only dilute the correction.)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from kumite.sim.engine import Counts, Tally
from kumite.sim.stats import bh_adjust, fisher_p, proportion

ALPHA = 0.05


def _metrics(tally: Tally) -> Iterator[tuple[str, str, int, int]]:
    """``(kind, key, successes, trials)`` of every compared rate."""
    yield "draw rate", "all games", tally.draws, tally.games
    for (players, seat), c in sorted(tally.counts("seats").items()):
        yield "seat win rate", f"seat {seat + 1} of {players}", c[1], c[0]
    for name, c in sorted(tally.counts("agents").items()):
        yield "agent win rate", name, c[1], c[0]
    for name, c in sorted(tally.counts("entities").items()):
        yield "win rate", name, c[1], c[0]
    cards: Mapping[tuple[str, str, str], Counts] = tally.counts("cards")
    for (_scope, verb, card), c in sorted(cards.items()):
        yield f"win rate when {verb}", card, c[1], c[0]


def compare(
    before: Tally,
    after: Tally,
    *,
    alpha: float = ALPHA,
    names: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Every compared rate before and after, with its p- and q-value. ``names`` maps
    entity and card ids to display names (``name`` of each row)."""
    names = names or {}
    b = {(kind, key): (k, n) for kind, key, k, n in _metrics(before)}
    a = {(kind, key): (k, n) for kind, key, k, n in _metrics(after)}
    keys = [k for k in b if k in a] + [k for k in a if k not in b]
    rows: list[dict[str, Any]] = []
    for kind, key in keys:
        k1, n1 = b.get((kind, key), (0, 0))
        k2, n2 = a.get((kind, key), (0, 0))
        p1, p2 = proportion(k1, n1), proportion(k2, n2)
        diff = (p2.rate - p1.rate) if n1 and n2 else None
        rows.append(
            {
                "kind": kind,
                "key": key,
                "name": names.get(key, key),
                "before": p1.to_json(),
                "after": p2.to_json(),
                "diff": None if diff is None else round(diff, 6),
                "p": fisher_p(k1, n1, k2, n2),
            }
        )
    for row, q in zip(rows, bh_adjust([r["p"] for r in rows]), strict=True):
        row["q"] = q
        row["significant"] = q < alpha
    return rows
