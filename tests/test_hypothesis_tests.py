"""The papers' hypothesis tests against textbook examples, published values and simulation."""

from __future__ import annotations

import math
from statistics import NormalDist, correlation, variance

import numpy as np
import pytest

from connectx.evaluation.statistics import elo as st
from connectx.evaluation.statistics import hypothesis_tests as ht


def test_cochran_armitage_matches_rs_prop_trend_test_example() -> None:
    # R's ?prop.trend.test: smokers <- c(83, 90, 129, 70); patients <- c(86, 93, 136, 82)
    # prints X-squared = 8.2249, df = 1, p-value = 0.004132 (scores 1..4; the proportion falls).
    z = ht.cochran_armitage([83, 90, 129, 70], [86, 93, 136, 82], [1, 2, 3, 4])
    assert z * z == pytest.approx(8.2249, abs=1e-4) and z < 0
    assert ht.normal_p_value(z) == pytest.approx(0.004132, abs=1e-6)


def test_cochran_armitage_matches_agrestis_alcohol_and_malformation_example() -> None:
    # Agresti, Categorical Data Analysis (2002), Table 2.7 / Sec. 3.4: malformations by drinks per day,
    # scores 0, 0.5, 1.5, 4, 7; M^2 = (n - 1) r^2 = 6.57 (P = 0.01); Cochran-Armitage uses n for n - 1.
    present = [48, 38, 5, 1, 1]
    absent = [17066, 14464, 788, 126, 37]
    totals = [a + b for a, b in zip(present, absent, strict=True)]
    z = ht.cochran_armitage(present, totals, [0, 0.5, 1.5, 4, 7])
    n = sum(totals)
    assert z * z * (n - 1) / n == pytest.approx(6.57, abs=0.005)
    assert ht.normal_p_value(z) == pytest.approx(0.0104, abs=5e-4)
    # With equally spaced scores 1..5 the trend is far weaker: M^2 = 1.83 (P = 0.18).
    assert ht.cochran_armitage(present, totals, [1, 2, 3, 4, 5]) ** 2 == pytest.approx(1.83, abs=0.01)
    assert math.isnan(ht.cochran_armitage([5, 5], [5, 5], [0, 1]))  # all successes: no trend to test


def test_holm_matches_the_textbook_example() -> None:
    # Four hypotheses with p = 0.01, 0.04, 0.03, 0.005 (Wikipedia, "Holm-Bonferroni method", Example):
    # at alpha = 0.05 Holm rejects H1 and H4 only; R's p.adjust(..., "holm") gives 0.03 0.06 0.06 0.02.
    p = [0.01, 0.04, 0.03, 0.005]
    assert ht.holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert [adjusted < 0.05 for adjusted in ht.holm(p)] == [True, False, False, True]
    # H4 and H1 were rejected at 0.05 / 4 and 0.05 / 3; the step-down stopped at 0.05 / 2 (k = 2 rejections),
    # the level both others are held to (H2's own rank would give it 0.05, overstating its power).
    assert ht.holm_levels(p, 0.05) == pytest.approx([0.05 / 3, 0.05 / 2, 0.05 / 2, 0.05 / 4])
    assert ht.holm_levels([0.2, 0.3, 0.9], 0.05) == pytest.approx([0.05 / 3] * 3)  # nothing rejected
    assert ht.holm_levels([0.001, 0.002], 0.05) == pytest.approx([0.025, 0.05])  # everything rejected
    assert ht.holm([0.5]) == [0.5] and ht.holm([0.9, 0.8]) == [1.0, 1.0]


def test_benjamini_hochberg_matches_r() -> None:
    # R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH") gives 0.02 0.04 0.04 0.02; BH rejects all four at 0.05,
    # where Holm rejects two: it controls the share of false rejections, not the chance of any.
    assert ht.benjamini_hochberg([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    # A larger p-value's adjusted value caps the smaller ones' (0.01 * 3 = 0.03 becomes 0.012 * 3 / 2 = 0.018).
    assert ht.benjamini_hochberg([0.01, 0.012, 0.2]) == pytest.approx([0.018, 0.018, 0.2])
    assert ht.benjamini_hochberg([0.9, 0.95]) == pytest.approx([0.95, 0.95]) and ht.benjamini_hochberg([]) == []


def test_student_t_matches_the_printed_table() -> None:
    # Two-sided 5% points of Student's t (any textbook table): 12.706 (1 df), 2.776 (4), 2.228 (10), 2.042 (30).
    for df, point in ((1, 12.706), (4, 2.776), (10, 2.228), (30, 2.042)):
        assert ht.t_p_value(point, df) == pytest.approx(0.05, abs=2e-4)
        assert ht.t_quantile(0.975, df) == pytest.approx(point, abs=1e-3)
    assert ht.t_quantile(0.025, 4) == pytest.approx(-2.776, abs=1e-3)
    assert ht.t_p_value(1.959964, 1e7) == pytest.approx(0.05, abs=1e-5)  # the normal's, with df -> infinity
    assert ht.t_p_value(math.nan, 5) == 1.0 and ht.t_p_value(0.0, 5) == pytest.approx(1.0)


def test_the_equivalence_test_and_its_power_match_simulation() -> None:
    rng = np.random.default_rng(11)
    trials, n, claimed, margin = 4000, 400, 0.9375, 0.05
    # The rate really is the claimed one: TOST at 5% shows the +-5 point margin this often.
    z = np.array([ht.equivalence_z(w / n, claimed, margin, n) for w in rng.binomial(n, claimed, trials)])
    assert ht.equivalence_power(claimed, margin, n, 0.05) == pytest.approx(
        (z > NormalDist().inv_cdf(0.95)).mean(), abs=0.03
    )
    # At the boundary (88.75%) it shows equivalence at most 5% of the time: the test keeps its size.
    z = np.array([ht.equivalence_z(w / n, claimed, margin, n) for w in rng.binomial(n, claimed - margin, trials)])
    assert (z > NormalDist().inv_cdf(0.95)).mean() <= 0.06
    # 96.5% of 400 lies within 5 points of 93.75% (both one-sided tests reject), 100% of 20 does not show it.
    assert ht.upper_p_value(ht.equivalence_z(0.965, claimed, margin, 400)) < 0.001
    assert ht.upper_p_value(ht.equivalence_z(1.0, claimed, margin, 20)) > 0.05
    assert ht.equivalence_z(0.5, 0.98, 0.05, 100) < 0  # far below: no equivalence; the upper side is vacuous


def test_newcombes_difference_interval_matches_his_example() -> None:
    # Newcombe (1998), Stat. Med. 17:873, example (a): 56/70 against 48/80, method 10: 0.0524 to 0.3339.
    difference = ht.difference_interval(st.wilson_interval(56, 0, 14), st.wilson_interval(48, 0, 32))
    assert difference.value == pytest.approx(0.2)
    assert (difference.low, difference.high) == pytest.approx((0.0524, 0.3339), abs=1e-4)


def test_the_stated_powers_match_simulation() -> None:
    rng = np.random.default_rng(7)
    trials = 4000
    # A score test of 50% over 200 games when the true rate is 60%.
    wins = rng.binomial(200, 0.6, trials)
    rejected = np.abs((wins / 200 - 0.5) / math.sqrt(0.25 / 200)) > st.Z95
    assert ht.rate_power(0.5, 0.6, 200, 0.05) == pytest.approx(rejected.mean(), abs=0.03)
    # A test of a claimed 93.75% over 300 games when the truth is 88.75%.
    wins = rng.binomial(300, 0.8875, trials)
    rejected = np.abs(np.array([ht.rate_z(w / 300, 0.9375, 300) for w in wins])) > st.Z95
    assert ht.rate_power(0.9375, 0.8875, 300, 0.05) == pytest.approx(rejected.mean(), abs=0.03)
    # Cochran-Armitage over four groups of 150 rising from 40% to 55%.
    truth, scores = [0.40, 0.45, 0.50, 0.55], [0, 1, 2, 3]
    counts = rng.binomial(150, truth, (trials, 4))
    z = np.array([ht.cochran_armitage(row, [150] * 4, scores) for row in counts])
    assert ht.trend_power([150] * 4, scores, truth, 0.05) == pytest.approx((np.abs(z) > st.Z95).mean(), abs=0.03)
    # A claim of 100% is refuted by one loss: at a true 99%, 100 games show one with probability 1 - 0.99^100.
    assert ht.rate_power(1.0, 0.99, 100, 0.05) == pytest.approx(1 - 0.99**100)
    assert math.isnan(ht.rate_z(1.0, 1.0, 100)) and ht.rate_z(0.99, 1.0, 100) == -math.inf
    # Fisher's z: r = 0.3 over 84 pairs gives atanh(0.3) * 9 = 2.79 standard errors, power 0.79.
    assert ht.correlation_power(0.3, 84, 0.05) == pytest.approx(0.79, abs=0.01)


def test_a_trend_is_tested_within_strata_and_its_strata_compared() -> None:
    successes, totals, scores = [30.0, 25.0, 12.0], [50.0, 60.0, 40.0], [0.0, 1.0, 3.0]
    one = ht.trend(successes, totals, scores)
    assert ht.stratified_trend_z([one]) == pytest.approx(ht.cochran_armitage(successes, totals, scores))
    # Two strata alike: the numerators and variances add, so z grows by the square root of two.
    assert ht.stratified_trend_z([one, one]) == pytest.approx(math.sqrt(2) * ht.stratified_trend_z([one]))
    # The slope's unrestricted error: sum n (s - mean s)^2 p (1 - p) over S^2, by hand.
    mean = sum(n * s for n, s in zip(totals, scores, strict=True)) / sum(totals)
    spread = sum(n * (s - mean) ** 2 for n, s in zip(totals, scores, strict=True))
    rates = [x / n for x, n in zip(successes, totals, strict=True)]
    error = math.sqrt(sum(n * (s - mean) ** 2 * p * (1 - p) for n, s, p in zip(totals, scores, rates, strict=True)))
    assert one.error == pytest.approx(error / spread)
    # A rising and a falling stratum: the pooled statistic cancels, Cochran's Q sees them differ.
    falling = ht.trend(successes, totals, [-s for s in scores])
    assert ht.stratified_trend_z([one, falling]) == pytest.approx(0.0, abs=1e-12)
    q, df, p = ht.heterogeneity([one.slope, falling.slope], [one.error, falling.error])
    weights = [1 / one.error**2, 1 / falling.error**2]
    centre = (weights[0] * one.slope + weights[1] * falling.slope) / sum(weights)
    assert q == pytest.approx(weights[0] * (one.slope - centre) ** 2 + weights[1] * (falling.slope - centre) ** 2)
    assert df == 1 and p == pytest.approx(ht.chi_square_p_value(q, 1)) and p < 0.001
    assert ht.heterogeneity([one.slope, one.slope], [one.error, one.error]) == (0.0, 1, 1.0)
    # A stratum whose games all went one way has no error: left out of Q, which then has nothing to compare.
    assert ht.heterogeneity([one.slope, 0.0], [one.error, 0.0])[1] == 0


def test_a_scores_variance_takes_off_what_its_draws_do() -> None:
    # Mean 1/2 with 40% of games drawn: wins and losses 30% each, so E[(y - 1/2)^2] = 0.6 / 4 = 0.15, not 0.25.
    assert ht.score_variance(0.5, 0.4) == pytest.approx(0.15)
    assert ht.score_variance(0.3) == pytest.approx(0.21)  # no draw: the binomial variance
    assert ht.score_variance(0.1, 0.9) == pytest.approx(0.0009)  # floored at a hundredth of the binomial
    # The margin's tests use it at each edge: 50% within 10 points of 50% over 200 games with 80% drawn.
    z = (0.5 - 0.4) / math.sqrt((0.24 - 0.2) / 200)
    assert ht.equivalence_z(0.5, 0.5, 0.1, 200, draws=0.8) == pytest.approx(z)
    assert ht.equivalence_z(0.5, 0.5, 0.1, 200) == pytest.approx((0.5 - 0.4) / math.sqrt(0.24 / 200))
    assert ht.beyond_margin_z(0.3, 0.5, 0.1, 200, draws=0.4) == pytest.approx(0.1 / math.sqrt((0.24 - 0.1) / 200))


def test_mean_and_correlation_intervals() -> None:
    values = [1.0, 2.0, 3.0, 4.0]
    standard_error = math.sqrt(variance(values) / len(values))
    mean = ht.mean_interval(values)
    assert mean.value == 2.5 and mean.low == pytest.approx(2.5 - st.Z95 * standard_error)
    assert ht.mean_interval([7.0]).low == ht.mean_interval([7.0]).high == 7.0
    xs, ys = [1, 2, 3, 4, 5, 6, 7], [2, 1, 4, 3, 7, 5, 6]
    r = ht.correlation_interval(xs, ys)
    assert r.value == pytest.approx(correlation(xs, ys))
    assert r.low < r.value < r.high and r.low == pytest.approx(math.tanh(math.atanh(r.value) - st.Z95 / 2))
    assert ht.correlation_interval([1, 2, 3], [1, 2, 3]).low == -1.0  # too few pairs for an interval
