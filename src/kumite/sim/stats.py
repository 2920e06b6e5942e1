"""Statistics for simulation results: intervals, tests and ratings.

* Proportions get a **Wilson score interval** (default) or the exact **Clopper–Pearson**
  interval, both from :func:`scipy.stats.binomtest`.
* Two proportions (before/after a pack change, a card played or not) are compared with
  **Fisher's exact test** (:func:`scipy.stats.fisher_exact`, two-sided).
* Many comparisons at once are corrected with the **Benjamini–Hochberg** procedure
  (:func:`scipy.stats.false_discovery_control`): a difference is called significant when its
  adjusted p-value (q) is below 0.05, so that on average at most 5% of the differences a
  report calls significant are flukes.
* Seat effects: a two-sided binomial test of seat 0's wins among decisive two-player games
  (p = 1/2), or a chi-square goodness-of-fit test of wins across seats for more players.
* **Bradley–Terry** ratings from pairwise results (draws count half a win to each side),
  fitted by maximum a posteriori with a weak normal prior (sd 3 on the log-strength, i.e.
  about 520 Elo points) so that an unbeaten side keeps a finite rating; standard errors come
  from the inverse of the observed information. Ratings are shown on the Elo scale
  (400/ln 10 per unit of log-strength, mean 1500).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence

import numpy as np
from scipy import optimize, stats

Z95 = 1.959963984540054
ELO = 400.0 / math.log(10.0)
PRIOR_SD = 3.0


@dataclasses.dataclass(frozen=True, slots=True)
class Proportion:
    """``k`` successes out of ``n`` with a confidence interval."""

    k: int
    n: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.k / self.n if self.n else math.nan

    def to_json(self) -> dict[str, float | int | None]:
        return {
            "k": self.k,
            "n": self.n,
            "rate": _num(self.rate),
            "low": _num(self.low),
            "high": _num(self.high),
        }


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(float(x), 6)


def proportion(k: int, n: int, *, method: str = "wilson", level: float = 0.95) -> Proportion:
    """``k/n`` with a ``level`` confidence interval: ``wilson`` (score interval) or
    ``exact`` (Clopper–Pearson). With ``n == 0`` the interval is the whole of [0, 1].

    The Wilson interval is the closed form of Wilson (1927), the same as
    ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")`` (a test checks it) but
    without computing a p-value, which a report with thousands of rates cannot afford.
    """
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return Proportion(0, 0, 0.0, 1.0)
    alpha = 1.0 - level
    if method == "exact":
        low = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2, k, n - k + 1))
        high = 1.0 if k == n else float(stats.beta.ppf(1 - alpha / 2, k + 1, n - k))
        return Proportion(k, n, low, high)
    if method != "wilson":
        raise ValueError(f"unknown interval method {method!r} (wilson or exact)")
    z = Z95 if level == 0.95 else float(stats.norm.ppf(1 - alpha / 2))
    p = k / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(p * (1 - p) / n + z2n / (4 * n)) / (1 + z2n)
    # At k = 0 and k = n the bounds are exactly 0 and 1; rounding would miss them.
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return Proportion(k, n, low, high)


def fisher_p(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of Fisher's exact test that ``k1/n1`` and ``k2/n2`` share one rate."""
    if n1 == 0 or n2 == 0:
        return 1.0
    result = stats.fisher_exact([[k1, n1 - k1], [k2, n2 - k2]])
    return float(result.pvalue)


def bh_adjust(pvalues: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (q-values), in the input order."""
    if not pvalues:
        return []
    return [float(q) for q in stats.false_discovery_control(np.asarray(pvalues), method="bh")]


def seat_test(wins: Sequence[int]) -> float:
    """p-value for "every seat wins equally often": binomial for two seats, chi-square
    goodness of fit for more (wins only; draws carry no seat information)."""
    total = sum(wins)
    if total == 0 or len(wins) < 2:
        return 1.0
    if len(wins) == 2:
        return float(stats.binomtest(wins[0], total, 0.5).pvalue)
    return float(stats.chisquare(wins).pvalue)


@dataclasses.dataclass(frozen=True, slots=True)
class Rating:
    name: str
    elo: float
    low: float
    high: float
    games: int
    """Pairwise comparisons involving this side."""

    def to_json(self) -> dict[str, float | int | str]:
        return {
            "name": self.name,
            "elo": round(self.elo, 1),
            "low": round(self.low, 1),
            "high": round(self.high, 1),
            "games": self.games,
        }


def bradley_terry(pairs: Mapping[tuple[str, str], Sequence[int]]) -> list[Rating]:
    """Bradley–Terry ratings from ``pairs[(a, b)] = (n, a_beat_b, ties)`` (either order or
    both may be given; mirror pairs ``(a, a)`` carry no information and are ignored).
    Best first."""
    names = sorted({x for pair in pairs for x in pair})
    if len(names) < 2:
        return []
    index = {name: i for i, name in enumerate(names)}
    # Merge both orders into one (i < j) entry: wins of i, wins of j; a tie is half of each.
    merged: dict[tuple[int, int], list[float]] = {}
    for (a, b), (n, wins, ties) in ((k, tuple(v)[:3]) for k, v in pairs.items()):
        if a == b or n == 0:
            continue
        i, j = index[a], index[b]
        losses = n - wins - ties
        score_i, score_j = wins + ties / 2.0, losses + ties / 2.0
        if i > j:
            i, j, score_i, score_j = j, i, score_j, score_i
        slot = merged.setdefault((i, j), [0.0, 0.0])
        slot[0] += score_i
        slot[1] += score_j
    if not merged:
        return []
    ii = np.array([k[0] for k in merged])
    jj = np.array([k[1] for k in merged])
    wi = np.array([v[0] for v in merged.values()])
    wj = np.array([v[1] for v in merged.values()])
    nn = wi + wj
    m = len(names)

    def nll(theta: np.ndarray) -> tuple[float, np.ndarray]:
        d = theta[ii] - theta[jj]
        # -log P: wi * log(1 + e^-d) + wj * log(1 + e^d)
        value = float(np.sum(wi * np.logaddexp(0.0, -d) + wj * np.logaddexp(0.0, d)))
        value += float(np.sum(theta**2)) / (2 * PRIOR_SD**2)
        p = 1.0 / (1.0 + np.exp(-d))
        g_pair = nn * p - wi  # d(-log L)/d(d)
        grad = np.zeros(m)
        np.add.at(grad, ii, g_pair)
        np.add.at(grad, jj, -g_pair)
        return value, grad + theta / PRIOR_SD**2

    fit = optimize.minimize(nll, np.zeros(m), jac=True, method="L-BFGS-B")
    theta = fit.x - fit.x.mean()
    d = theta[ii] - theta[jj]
    p = 1.0 / (1.0 + np.exp(-d))
    info = np.eye(m) / PRIOR_SD**2
    w = nn * p * (1 - p)
    for a, b, x in zip(ii, jj, w, strict=True):
        info[a, a] += x
        info[b, b] += x
        info[a, b] -= x
        info[b, a] -= x
    cov = np.linalg.inv(info)
    # Ratings are relative: take the variance of each side against the mean of all.
    centre = np.eye(m) - np.full((m, m), 1.0 / m)
    var = np.diag(centre @ cov @ centre.T)
    counts = np.zeros(m)
    np.add.at(counts, ii, nn)
    np.add.at(counts, jj, nn)
    out = [
        Rating(
            name=names[k],
            elo=1500.0 + ELO * theta[k],
            low=1500.0 + ELO * (theta[k] - Z95 * math.sqrt(var[k])),
            high=1500.0 + ELO * (theta[k] + Z95 * math.sqrt(var[k])),
            games=round(counts[k]),
        )
        for k in range(m)
    ]
    return sorted(out, key=lambda r: -r.elo)
