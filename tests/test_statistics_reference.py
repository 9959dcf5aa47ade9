"""Every hand-written statistic, the matches' and the papers' tests, against SciPy and statsmodels.

The reference values come from ``tests/reference/make_statistics_reference.py``, run once in an
environment of its own (``make statistics-reference``): the project's lean environment keeps
SciPy out. Each case here reads its inputs from that file, so a changed input there is a changed
check here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from connectx.evaluation import statistics as st
from connectx.papers import hypothesis_tests as ht

REFERENCE: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parent / "reference" / "statistics_reference.json").read_text())
CLOSE = {"rel": 1e-9, "abs": 1e-12}


@pytest.mark.parametrize("wins, draws, losses, low, high", REFERENCE["wilson"])
def test_wilson_interval_is_statsmodels_wilson(wins: int, draws: int, losses: int, low: float, high: float) -> None:
    interval = st.wilson_interval(wins, draws, losses)
    assert (interval.low, interval.high) == (pytest.approx(low, **CLOSE), pytest.approx(high, **CLOSE))
    assert interval.value == pytest.approx((wins + draws / 2) / (wins + draws + losses))


@pytest.mark.parametrize("z, p", REFERENCE["normal_p"])
def test_two_sided_normal_p_value_is_scipys(z: float, p: float) -> None:
    assert ht.normal_p_value(z) == pytest.approx(p, rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("z, p", REFERENCE["upper_p"])
def test_upper_normal_p_value_is_scipys(z: float, p: float) -> None:
    assert ht.upper_p_value(z) == pytest.approx(p, rel=1e-7, abs=1e-15)


@pytest.mark.parametrize("t, df, p", REFERENCE["t_p"])
def test_t_p_value_is_scipys(t: float, df: float, p: float) -> None:
    assert ht.t_p_value(t, df) == pytest.approx(p, rel=1e-7, abs=1e-12)


@pytest.mark.parametrize("probability, df, quantile", REFERENCE["t_quantile"])
def test_t_quantile_is_scipys(probability: float, df: float, quantile: float) -> None:
    assert ht.t_quantile(probability, df) == pytest.approx(quantile, rel=1e-6, abs=1e-9)


@pytest.mark.parametrize("p_values, adjusted", REFERENCE["holm"])
def test_holm_is_statsmodels_multipletests(p_values: list[float], adjusted: list[float]) -> None:
    assert ht.holm(p_values) == pytest.approx(adjusted, **CLOSE)


@pytest.mark.parametrize("successes, totals, scores, z", REFERENCE["cochran_armitage"])
def test_cochran_armitage_is_statsmodels_linear_by_linear_test_with_n(successes: list[float], totals: list[float],
                                                                        scores: list[float], z: float) -> None:
    assert ht.cochran_armitage(successes, totals, scores) == pytest.approx(z, rel=1e-9)


@pytest.mark.parametrize("values, mean, low, high", REFERENCE["mean_interval"])
def test_mean_interval_is_the_normal_interval_of_scipys_standard_error(values: list[float], mean: float,
                                                                       low: float, high: float) -> None:
    interval = ht.mean_interval(values)
    assert (interval.value, interval.low, interval.high) == pytest.approx((mean, low, high), **CLOSE)


@pytest.mark.parametrize("xs, ys, r, low, high", REFERENCE["correlation"])
def test_correlation_interval_is_scipys_fisher_interval(xs: list[float], ys: list[float], r: float,
                                                        low: float, high: float) -> None:
    interval = ht.correlation_interval(xs, ys)
    assert (interval.value, interval.low, interval.high) == pytest.approx((r, low, high), rel=1e-9)


def test_joint_rating_fit_is_statsmodels_binomial_glm() -> None:
    ratings = REFERENCE["ratings"]
    results = {(a, b): (points, played) for a, b, points, played in ratings["results"]}
    fitted = {rating.name: rating for rating in st.fit_ratings(results, ratings["anchor"])}
    assert (fitted[ratings["anchor"]].elo, fitted[ratings["anchor"]].low) == (0.0, 0.0)
    for name, (elo, low, high) in ratings["fit"].items():
        assert (fitted[name].elo, fitted[name].low, fitted[name].high) == pytest.approx((elo, low, high), rel=1e-6)


def test_profile_likelihood_intervals_are_scipys_refitted_likelihood_ratio_intervals() -> None:
    ratings = REFERENCE["ratings"]
    results = {(a, b): (points, played) for a, b, points, played in ratings["results"]}
    fitted = {rating.name: rating for rating in st.fit_ratings(results, ratings["anchor"], profile=True)}
    wald = {rating.name: rating for rating in st.fit_ratings(results, ratings["anchor"])}
    for name, (elo, low, high) in ratings["profile"].items():
        # SciPy's BFGS and brentq and our bisection each stop within a hundredth of an Elo point or so.
        assert (fitted[name].elo, fitted[name].low, fitted[name].high) == pytest.approx((elo, low, high), abs=0.05)
        assert fitted[name].elo == wald[name].elo
    # random, 3.5 of 100 against negamax, has a lopsided likelihood: its profile interval is not symmetric.
    random = fitted["random"]
    assert random.elo - random.low > random.high - random.elo + 20


@pytest.mark.parametrize("statistic, df, p", REFERENCE["chi_square"])
def test_chi_square_p_value_is_scipys(statistic: float, df: float, p: float) -> None:
    assert ht.chi_square_p_value(statistic, df) == pytest.approx(p, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("successes, totals, scores, slope", REFERENCE["slopes"])
def test_trend_slope_is_statsmodels_weighted_least_squares(successes: list[float], totals: list[float],
                                                           scores: list[float], slope: float) -> None:
    trend = ht.trend(successes, totals, scores)
    assert trend.slope == pytest.approx(slope, **CLOSE)
    # Its numerator and null variance are the Cochran-Armitage test's, checked above against statsmodels.
    assert trend.statistic / trend.variance ** 0.5 == pytest.approx(ht.cochran_armitage(successes, totals, scores))
