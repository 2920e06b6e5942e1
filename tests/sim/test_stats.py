"""Intervals, tests and ratings checked against known binomial cases and textbook values."""

from __future__ import annotations

import math
import random

import pytest
from scipy import stats

from kumite.sim.stats import (
    bh_adjust,
    bradley_terry,
    fisher_p,
    proportion,
    seat_test,
)

CASES = [(0, 10), (1, 10), (3, 10), (10, 10), (1, 1), (37, 120), (5012, 10000)]


@pytest.mark.parametrize(("k", "n"), CASES)
@pytest.mark.parametrize("method", ["wilson", "exact"])
def test_intervals_match_scipy_binomtest(k, n, method):
    ours = proportion(k, n, method=method)
    ref = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method=method)
    assert ours.low == pytest.approx(ref.low, abs=1e-12)
    assert ours.high == pytest.approx(ref.high, abs=1e-12)
    assert ours.low <= k / n <= ours.high


def test_known_values():
    """Textbook values: Wilson 0/10 is [0, 0.2775]; Clopper-Pearson 0/10 has upper bound
    1 - 0.025^(1/10); Wilson 3/10 is [0.1078, 0.6032]."""
    assert proportion(0, 10).low == 0.0
    assert proportion(0, 10).high == pytest.approx(0.27753, abs=1e-5)
    assert proportion(0, 10, method="exact").high == pytest.approx(1 - 0.025**0.1, abs=1e-12)
    assert proportion(10, 10, method="exact").low == pytest.approx(0.025**0.1, abs=1e-12)
    w = proportion(3, 10)
    assert (round(w.low, 4), round(w.high, 4)) == (0.1078, 0.6032)
    assert proportion(0, 0).to_json() == {"k": 0, "n": 0, "rate": None, "low": 0.0, "high": 1.0}
    with pytest.raises(ValueError):
        proportion(11, 10)


@pytest.mark.parametrize(("p", "n"), [(0.5, 40), (0.3, 50), (0.1, 200), (0.52, 1000)])
def test_coverage_of_intervals_is_what_they_promise(p, n):
    """Exact coverage, summed over the binomial distribution: Clopper-Pearson never covers
    less than 95%; Wilson stays close to 95%."""
    pmf = stats.binom.pmf(range(n + 1), n, p)
    for method, floor in (("exact", 0.95), ("wilson", 0.92)):
        cover = sum(
            pmf[k]
            for k in range(n + 1)
            if proportion(k, n, method=method).low <= p
            and p <= proportion(k, n, method=method).high
        )
        assert cover >= floor, (method, cover)


def test_fisher_exact_lady_tasting_tea():
    """Fisher's own example: 3 of 4 right each way, two-sided p = 34/70."""
    assert fisher_p(3, 4, 1, 4) == pytest.approx(34 / 70)
    assert fisher_p(5, 10, 5, 10) == pytest.approx(1.0)
    assert fisher_p(0, 0, 3, 4) == 1.0


def test_benjamini_hochberg_adjustment():
    """q_i = min over j >= i of p_(j) * m / j, in input order."""
    ps = [0.01, 0.04, 0.03, 0.5]
    assert bh_adjust(ps) == pytest.approx([0.04, 0.04 * 4 / 3, 0.04 * 4 / 3, 0.5])
    assert bh_adjust([]) == []


def test_seat_test_binomial_and_chi_square():
    assert seat_test([50, 50]) == pytest.approx(1.0)
    assert seat_test([600, 400]) < 1e-9
    assert seat_test([100, 100, 100]) == pytest.approx(1.0)
    assert seat_test([150, 100, 50]) < 1e-9
    assert seat_test([0, 0]) == 1.0


def test_bradley_terry_recovers_known_strengths():
    """Pairs drawn from known log-strengths: the fitted ratings keep their order and their
    gaps within the reported intervals."""
    truth = {"a": 1.0, "b": 0.4, "c": 0.0, "d": -1.4}
    rng = random.Random(4)
    pairs = {}
    for x in truth:
        for y in truth:
            if x < y:
                p = 1 / (1 + math.exp(-(truth[x] - truth[y])))
                n = 3000
                wins = sum(rng.random() < p for _ in range(n))
                pairs[x, y] = (n, wins, 0)
    ratings = bradley_terry(pairs)
    assert [r.name for r in ratings] == ["a", "b", "c", "d"]
    mean = sum(truth.values()) / 4
    for r in ratings:
        expected = 1500 + 400 / math.log(10) * (truth[r.name] - mean)
        assert r.low <= expected <= r.high, (r, expected)
        assert r.high - r.low < 60


def test_bradley_terry_ties_mirrors_and_unbeaten():
    even = bradley_terry({("a", "b"): (100, 40, 20), ("b", "a"): (100, 40, 20)})
    assert all(r.elo == pytest.approx(1500, abs=1e-6) for r in even)
    assert bradley_terry({("a", "a"): (10, 5, 0)}) == []
    unbeaten = bradley_terry({("a", "b"): (20, 20, 0)})
    assert unbeaten[0].name == "a"
    assert math.isfinite(unbeaten[0].elo) and unbeaten[0].elo > 1600
