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

from connectx.evaluation.statistics import clustered_scores, rated_group
from connectx.evaluation.statistics import elo as st
from connectx.evaluation.statistics import hypothesis_tests as ht
from connectx.papers.claims import verdicts

REFERENCE: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parent / "reference" / "statistics_reference.json").read_text()
)
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
def test_cochran_armitage_is_statsmodels_linear_by_linear_test_with_n(
    successes: list[float], totals: list[float], scores: list[float], z: float
) -> None:
    assert ht.cochran_armitage(successes, totals, scores) == pytest.approx(z, rel=1e-9)


@pytest.mark.parametrize("values, mean, low, high", REFERENCE["mean_interval"])
def test_mean_interval_is_the_normal_interval_of_scipys_standard_error(
    values: list[float], mean: float, low: float, high: float
) -> None:
    interval = ht.mean_interval(values)
    assert (interval.value, interval.low, interval.high) == pytest.approx((mean, low, high), **CLOSE)


@pytest.mark.parametrize("xs, ys, r, low, high", REFERENCE["correlation"])
def test_correlation_interval_is_scipys_fisher_interval(
    xs: list[float], ys: list[float], r: float, low: float, high: float
) -> None:
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
def test_trend_slope_is_statsmodels_weighted_least_squares(
    successes: list[float], totals: list[float], scores: list[float], slope: float
) -> None:
    trend = ht.trend(successes, totals, scores)
    assert trend.slope == pytest.approx(slope, **CLOSE)
    # Its numerator and null variance are the Cochran-Armitage test's, checked above against statsmodels.
    assert trend.statistic / trend.variance**0.5 == pytest.approx(ht.cochran_armitage(successes, totals, scores))


@pytest.mark.parametrize("p_values, rejected", REFERENCE["holm_reject"])
def test_holm_levels_reject_what_statsmodels_holm_rejects(p_values: list[float], rejected: list[bool]) -> None:
    # The level a power is stated at is the one Holm's step-down compared the p-value with: a p-value is
    # below its level exactly when statsmodels' Holm rejects it.
    levels = ht.holm_levels(p_values, 0.05)
    assert [p < level for p, level in zip(p_values, levels, strict=True)] == rejected
    assert [adjusted < 0.05 for adjusted in ht.holm(p_values)] == rejected


@pytest.mark.parametrize("xs, ys, z", REFERENCE["correlation_z"])
def test_correlation_z_is_fisher_z_of_scipys_r(xs: list[float], ys: list[float], z: float) -> None:
    assert ht.correlation_z(ht.correlation_interval(xs, ys).value, len(xs)) == pytest.approx(z, rel=1e-9)


@pytest.mark.parametrize("successes, totals, scores, error", REFERENCE["trend_error"])
def test_trend_error_is_the_hc0_error_of_the_slopes_contrast(
    successes: list[float], totals: list[float], scores: list[float], error: float
) -> None:
    assert ht.trend(successes, totals, scores).error == pytest.approx(error, **CLOSE)


@pytest.mark.parametrize("strata, z", REFERENCE["stratified_trend"])
def test_stratified_trend_is_the_mantel_extension_of_statsmodels_association_tests(
    strata: list[list[list[float]]], z: float
) -> None:
    assert ht.stratified_trend_z([ht.trend(*stratum) for stratum in strata]) == pytest.approx(z, **CLOSE)


@pytest.mark.parametrize("slopes, errors, q, df, p, mean, error", REFERENCE["heterogeneity"])
def test_heterogeneity_is_statsmodels_combine_effects_q(
    slopes: list[float], errors: list[float], q: float, df: int, p: float, mean: float, error: float
) -> None:
    assert ht.heterogeneity(slopes, errors) == (pytest.approx(q, **CLOSE), df, pytest.approx(p, rel=1e-9))
    kept = [(b, e) for b, e in zip(slopes, errors, strict=True) if e > 0]
    combined = ht.inverse_variance_mean([b for b, _ in kept], [e for _, e in kept])
    assert combined == (pytest.approx(mean, **CLOSE), pytest.approx(error, **CLOSE))


@pytest.mark.parametrize("value, claimed, effective, z", REFERENCE["rate_z"])
def test_rate_z_is_statsmodels_score_test_of_one_proportion(
    value: float, claimed: float, effective: float, z: float
) -> None:
    assert ht.rate_z(value, claimed, effective) == pytest.approx(z, **CLOSE)


@pytest.mark.parametrize("value, claimed, margin, effective, within, beyond", REFERENCE["margin"])
def test_rate_margin_tests_are_statsmodels_score_tost_and_one_sided_test(
    value: float, claimed: float, margin: float, effective: float, within: float, beyond: float
) -> None:
    equivalence = ht.equivalence_z(value, claimed, margin, effective)
    assert ht.upper_p_value(equivalence) == pytest.approx(within, rel=1e-7, abs=1e-15)
    assert ht.upper_p_value(ht.beyond_margin_z(value, claimed, margin, effective)) == pytest.approx(
        beyond, rel=1e-7, abs=1e-15
    )


@pytest.mark.parametrize("x1, n1, x2, n2, margin, expected", REFERENCE["difference"])
def test_difference_tests_are_statsmodels_agresti_caffo_and_newcombe(
    x1: float, n1: float, x2: float, n2: float, margin: float, expected: dict[str, float]
) -> None:
    difference, error = ht.agresti_caffo_difference(x1, n1, x2, n2)
    assert (difference - st.Z95 * error, difference + st.Z95 * error) == (
        pytest.approx(expected["caffo_low"], **CLOSE),
        pytest.approx(expected["caffo_high"], **CLOSE),
    )
    within, beyond = ht.difference_margin_z(difference, error, margin)
    assert ht.upper_p_value(within) == pytest.approx(expected["within"], rel=1e-7, abs=1e-15)
    assert ht.upper_p_value(beyond) == pytest.approx(expected["beyond"], rel=1e-7, abs=1e-15)
    # The size a rise must reach: "a difference of the margin or more", rejected when it falls short.
    at_least = verdicts.size_hypothesis([(difference - margin) / error], "at least the margin")
    assert at_least.p_value == pytest.approx(expected["at_least"], rel=1e-7, abs=1e-15)
    newcombe = ht.difference_interval(st.wilson_bounds(x1 / n1, n1), st.wilson_bounds(x2 / n2, n2))
    assert (newcombe.value, newcombe.low, newcombe.high) == (
        pytest.approx(x1 / n1 - x2 / n2),
        pytest.approx(expected["newcombe_low"], **CLOSE),
        pytest.approx(expected["newcombe_high"], **CLOSE),
    )


@pytest.mark.parametrize("value, games, low, high", REFERENCE["wilson_fractional"])
def test_wilson_bounds_of_effective_games_are_statsmodels_wilson(
    value: float, games: float, low: float, high: float
) -> None:
    interval = st.wilson_bounds(value, games)
    assert (interval.low, interval.high) == (pytest.approx(low, **CLOSE), pytest.approx(high, **CLOSE))


@pytest.mark.parametrize("value, games, bernoulli, agresti_coull", REFERENCE["plus_four"])
def test_plus_four_variance_is_agresti_coulls_at_z_2(
    value: float, games: float, bernoulli: float, agresti_coull: float | None
) -> None:
    assert ht.plus_four_variance(value, games) == pytest.approx(bernoulli, rel=1e-9)
    if agresti_coull is not None:  # statsmodels' interval, where it is not clipped to [0, 1]
        assert ht.plus_four_variance(value, games) == pytest.approx(agresti_coull, rel=1e-9)


@pytest.mark.parametrize("case", REFERENCE["clustered"], ids=["one cell", "three cells", "unequal cells", "rare"])
def test_clustered_score_is_statsmodels_cluster_robust_cr1(case: dict[str, Any]) -> None:
    outcomes, cells = case["outcomes"], case["cells"]
    groups = [[g for g, c in enumerate(case["clusters"]) if c == label] for label in sorted(set(case["clusters"]))]
    variance = clustered_scores.clustered_variance(outcomes, groups, cells)
    assert variance == pytest.approx(case["variance"], **CLOSE)
    # Ours is CR1 with G / (G - 1) alone; statsmodels' also has (n - 1) / (n - cells), 1 for one cell.
    n, k = len(outcomes), len(set(cells))
    assert variance == pytest.approx(case["statsmodels_cr1"] * (n - k) / (n - 1), **CLOSE)
    score = clustered_scores.clustered_score(outcomes, groups, cells)
    assert (score.value, score.clusters) == (pytest.approx(sum(outcomes) / n), len(groups))
    assert score.effective == pytest.approx(case["effective"], **CLOSE)


def test_rating_fit_and_its_quasi_likelihood_intervals_are_statsmodels_glms() -> None:
    ratings = REFERENCE["ratings"]
    expected = REFERENCE["rating_fit"]
    results = {(a, b): (points, played) for a, b, points, played in ratings["results"]}
    fit = rated_group.rating_fit(results, st.fit_ratings(results, ratings["anchor"]))
    assert (fit.deviance, fit.pearson, fit.df) == (
        pytest.approx(expected["deviance"], rel=1e-7),
        pytest.approx(expected["pearson"], rel=1e-7),
        expected["df"],
    )
    assert fit.p_value == pytest.approx(expected["p"], rel=1e-6)
    assert fit.dispersion == pytest.approx(expected["dispersion"], rel=1e-7) and fit.dispersion > 1
    # The report widens z by the root of the dispersion: the Wald intervals are the quasi-likelihood GLM's, the
    # profile ones the likelihood ratio held to the chi-square quantile times the dispersion.
    z = st.Z95 * fit.dispersion**0.5
    wald = {r.name: r for r in st.fit_ratings(results, ratings["anchor"], z=z)}
    profile = {r.name: r for r in st.fit_ratings(results, ratings["anchor"], z=z, profile=True)}
    for name, (elo, low, high) in expected["quasi_wald"].items():
        assert (wald[name].elo, wald[name].low, wald[name].high) == pytest.approx((elo, low, high), rel=1e-6)
    for name, (_, low, high) in expected["quasi_profile"].items():
        assert (profile[name].low, profile[name].high) == pytest.approx((low, high), abs=0.05)


@pytest.mark.parametrize("successes_a, games_a, successes_b, games_b, p", REFERENCE["fisher"])
def test_fisher_exact_p_is_scipys(successes_a: int, games_a: int, successes_b: int, games_b: int, p: float) -> None:
    assert ht.fisher_exact_p(successes_a, games_a, successes_b, games_b) == pytest.approx(p, rel=1e-9)


REPORTED = {"7": (59.6, 64.5), "16": (28.0, 34.0), "26": (36.3, 48.3)}
"""The three intervals a referee recomputed, as the full report prints them (Wilson at the effective games)."""
REFEREE = {"7": (59.7, 64.4), "16": (28.0, 33.9), "26": (36.2, 48.1)}
"""The referee's: the cluster-robust Wald interval, which the report names as not its method."""


@pytest.mark.parametrize("number", sorted(REFERENCE["claim_intervals"]))
def test_claim_intervals_are_statsmodels_wilson_at_the_effective_games(number: str) -> None:
    games = json.loads((Path(__file__).resolve().parent / "reference" / "claim_games.json").read_text())[number]
    expected = REFERENCE["claim_intervals"][number]
    labels = sorted(set(games["clusters"]))
    groups = [[g for g, c in enumerate(games["clusters"]) if c == label] for label in labels]
    score = clustered_scores.clustered_score(games["outcomes"], groups, games["cells"])
    interval = score.interval()
    assert score.effective == pytest.approx(expected["effective"], **CLOSE)
    assert (interval.low, interval.high) == (
        pytest.approx(expected["wilson"][0], **CLOSE),
        pytest.approx(expected["wilson"][1], **CLOSE),
    )
    assert (round(100 * interval.low, 1), round(100 * interval.high, 1)) == REPORTED[number]
    # The referee's cluster-robust Wald interval differs from ours in the last digit: the method the report names.
    wald = expected["wald_cluster"]
    assert (round(100 * wald[0], 1), round(100 * wald[1], 1)) == REFEREE[number]
