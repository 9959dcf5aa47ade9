"""The hypothesis tests the papers' verdicts rest on: p-values, trend and rate tests, their powers, Holm.

Matches and tournaments need none of these (``connectx.evaluation.statistics.elo`` holds what they
print); the verdicts (``connectx.papers.claims.verdicts``) hold claims about rates, trends, correlations
and speed-ups to them. The Cochran-Armitage trend test is checked against R's ``prop.trend.test``
and Agresti's textbook example, and every test against SciPy and statsmodels
(``tests/test_statistics_reference.py``). The tails of the normal, t and chi-square distributions
are written out here because the project's environment keeps SciPy out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from connectx.evaluation.statistics.elo import Z95, Interval


def normal_p_value(z: float) -> float:
    """The two-sided p-value of a standard normal statistic ``z`` (1 for NaN: no evidence either way)."""
    if math.isnan(z):
        return 1.0
    return 2.0 * (1.0 - NormalDist().cdf(abs(z)))


def cochran_armitage(successes: Sequence[float], totals: Sequence[float], scores: Sequence[float]) -> float:
    """The Cochran-Armitage trend statistic z of proportions ``successes / totals`` over ``scores``.

    z > 0 when the proportion rises with the score; z^2 is the chi-square of R's
    ``prop.trend.test`` and, with n for n - 1, Agresti's M^2 (Categorical Data Analysis, 3.4.6).
    Counts may be fractional (effective counts of clustered games, ``clustered_score``): scaling a
    group's counts by 1 / design effect is the Rao-Scott correction. NaN when the data are all
    successes, all failures, or the scores do not vary.
    """
    fitted = trend(successes, totals, scores)
    return math.nan if fitted.variance <= 0 else fitted.statistic / math.sqrt(fitted.variance)


@dataclass(frozen=True)
class Trend:
    """One stratum's linear trend of a proportion over scores: the rise per unit score and its standard error."""

    slope: float
    error: float
    statistic: float
    """The Cochran-Armitage numerator sum (x_i - n_i p)(s_i - mean s), whose null variance is ``variance``."""
    variance: float


def trend(successes: Sequence[float], totals: Sequence[float], scores: Sequence[float]) -> Trend:
    """The least-squares slope of the proportions ``successes / totals`` on ``scores`` (weights ``totals``).

    Its standard error is the unrestricted one, sum n_i (s_i - mean s)^2 p_i (1 - p_i) / S^2 with
    S = sum n_i (s_i - mean s)^2, so that it measures how precisely the slope is known whatever it is;
    ``statistic`` and ``variance`` are those of the Cochran-Armitage test of no trend, S times the
    slope and p (1 - p) S (``cochran_armitage`` is their ratio to the root).
    """
    x, n, s = (np.asarray(values, dtype=float) for values in (successes, totals, scores))
    total = n.sum()
    if total <= 0:
        return Trend(math.nan, math.nan, 0.0, 0.0)
    p = x.sum() / total
    centred = s - (n @ s) / total
    spread = float(n @ centred**2)
    if spread <= 0:
        return Trend(math.nan, math.nan, 0.0, 0.0)
    rates = np.divide(x, n, out=np.zeros_like(x), where=n > 0)
    statistic = float((x - n * p) @ centred)
    error = math.sqrt(float((n * rates * (1 - rates)) @ centred**2)) / spread
    return Trend(statistic / spread, error, statistic, p * (1 - p) * spread)


def stratified_trend_z(strata: Sequence[Trend]) -> float:
    """The stratified Cochran-Armitage statistic: the strata's numerators summed over the root of their summed
    null variances (the Mantel extension test), so a trend is judged within strata, never between them."""
    variance = sum(t.variance for t in strata)
    return math.nan if variance <= 0 else sum(t.statistic for t in strata) / math.sqrt(variance)


def heterogeneity(slopes: Sequence[float], errors: Sequence[float]) -> tuple[float, int, float]:
    """Cochran's Q of the ``slopes`` (each with its standard error) about their inverse-variance mean, its
    degrees of freedom and its chi-square p-value: small when the strata's trends differ. Strata whose
    error is 0 or undefined (every game alike) are left out."""
    kept = [(b, e) for b, e in zip(slopes, errors, strict=True) if e > 0 and not math.isnan(b)]
    if len(kept) < 2:
        return math.nan, 0, 1.0
    mean, _ = inverse_variance_mean([b for b, _ in kept], [e for _, e in kept])
    q = sum((b - mean) ** 2 / (e * e) for b, e in kept)
    return q, len(kept) - 1, chi_square_p_value(q, len(kept) - 1)


def inverse_variance_mean(values: Sequence[float], errors: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` weighted by 1 / error^2, and its standard error (the errors must be positive)."""
    weights = [1 / (e * e) for e in errors]
    total = sum(weights)
    return sum(w * v for w, v in zip(weights, values, strict=True)) / total, 1 / math.sqrt(total)


def chi_square_p_value(statistic: float, df: float) -> float:
    """P(X >= ``statistic``) for a chi-square X with ``df`` degrees of freedom: the regularized upper incomplete
    gamma Q(df / 2, statistic / 2), by its series below a + 1 and its continued fraction above (Numerical
    Recipes 6.2)."""
    if math.isnan(statistic):
        return 1.0
    if statistic <= 0:
        return 1.0
    a, x = df / 2, statistic / 2
    front = math.exp(a * math.log(x) - x - math.lgamma(a))
    if x < a + 1:
        term = total = 1 / a
        for k in range(1, 1000):
            term *= x / (a + k)
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - front * total)
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    result = d
    for k in range(1, 1000):
        numerator = -k * (k - a)
        b += 2
        d = numerator * d + b
        d = 1 / (d if abs(d) > tiny else tiny)
        c = b + numerator / c
        c = c if abs(c) > tiny else tiny
        result *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return front * result


def trend_power(totals: Sequence[float], scores: Sequence[float], alternative: Sequence[float], alpha: float) -> float:
    """The power of the two-sided Cochran-Armitage test at ``alpha`` when group i's true proportion is
    ``alternative[i]`` (Nam 1987: the statistic's mean and variance under the alternative, normal)."""
    n, s, p = (np.asarray(values, dtype=float) for values in (totals, scores, alternative))
    total = n.sum()
    centred = s - (n @ s) / total
    pooled = float(n @ p) / total
    null_sd = math.sqrt(pooled * (1 - pooled) * float(n @ centred**2))
    mean = float((n * p) @ centred)
    sd = math.sqrt(float((n * p * (1 - p)) @ centred**2))
    if null_sd == 0 or sd == 0:
        return math.nan
    z = NormalDist().inv_cdf(1 - alpha / 2)
    normal = NormalDist()
    return normal.cdf((abs(mean) - z * null_sd) / sd) + normal.cdf((-abs(mean) - z * null_sd) / sd)


def rate_z(value: float, claimed: float, effective: float) -> float:
    """The score-test statistic of an observed rate ``value`` against a ``claimed`` one over ``effective`` games.

    A claim of 0% or 100% is refuted by one counterexample, so there z is -inf/+inf on any
    departure; without one the statistic is 0 / 0, NaN (no evidence either way, never a placeholder z
    of 0; ``rate_power`` gives the chance of seeing that counterexample).
    """
    if claimed in (0.0, 1.0):
        return math.nan if value == claimed else math.copysign(math.inf, value - claimed)
    return (value - claimed) / math.sqrt(claimed * (1 - claimed) / effective)


def rate_power(claimed: float, true: float, effective: float, alpha: float) -> float:
    """The power of the two-sided score test of ``claimed`` at ``alpha`` when the rate is really ``true``.

    For a claim of 0% or 100% it is the chance of at least one counterexample in ``effective`` games.
    """
    if claimed in (0.0, 1.0):
        return 1.0 - float((1.0 - abs(true - claimed)) ** effective)
    z = NormalDist().inv_cdf(1 - alpha / 2)
    shift = abs(true - claimed) * math.sqrt(effective)
    spread = math.sqrt(true * (1 - true))
    if spread == 0:
        return 1.0
    normal = NormalDist()
    return normal.cdf((shift - z * math.sqrt(claimed * (1 - claimed))) / spread) + normal.cdf(
        (-shift - z * math.sqrt(claimed * (1 - claimed))) / spread
    )


def fisher_z(r: float) -> float:
    """Fisher's transform atanh(r) of a correlation, ``r`` held just inside (-1, 1): a perfect one stays finite."""
    return math.atanh(max(-0.999999, min(0.999999, r)))


def correlation_z(r: float, n: int) -> float:
    """Fisher's z statistic of a sample correlation ``r`` of ``n`` pairs against 0."""
    if n < 4 or math.isnan(r):
        return math.nan
    return fisher_z(r) * math.sqrt(n - 3)


def correlation_power(rho: float, n: int, alpha: float) -> float:
    """The power of the two-sided Fisher-z test of no correlation at ``alpha`` when the correlation is ``rho``."""
    if n < 4:
        return 0.0
    z = NormalDist().inv_cdf(1 - alpha / 2)
    shift = abs(math.atanh(rho)) * math.sqrt(n - 3)
    return NormalDist().cdf(shift - z) + NormalDist().cdf(-shift - z)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given (compare each with the family's alpha).

    Sorted ascending, the i-th smallest (from 0) is multiplied by m - i, and the adjusted values
    are made non-decreasing in that order, capped at 1 (R's ``p.adjust(p, "holm")``).
    """
    m = len(p_values)
    adjusted = [1.0] * m
    running = 0.0
    for rank, index in enumerate(sorted(range(m), key=lambda i: p_values[i])):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg's adjusted p-values (the false discovery rate), in the order given.

    Sorted ascending, the i-th smallest (from 1) is multiplied by m / i, and the adjusted values are
    made non-increasing from the largest down, capped at 1 (R's ``p.adjust(p, "BH")``).
    """
    m = len(p_values)
    adjusted = [1.0] * m
    running = 1.0
    for rank, index in reversed(list(enumerate(sorted(range(m), key=lambda i: p_values[i]), 1))):
        running = min(running, m / rank * p_values[index])
        adjusted[index] = min(1.0, running)
    return adjusted


def holm_levels(p_values: Sequence[float], alpha: float) -> list[float]:
    """The significance level Holm's procedure holds each p-value to, for stating a test's power.

    Sorted ascending, Holm rejects the i-th smallest (from 0) at alpha / (m - i) while every smaller
    one was rejected; say it rejects k. A rejected p-value met the level alpha / (m - its rank). One
    not rejected was never compared with a level of its own: it would have been rejected at
    alpha / (m - k), the level the step-down stopped at, if it had been the smallest left (and no
    higher level could reach it), so that is the level its power is stated at. Giving it
    alpha / (m - its rank) instead would overstate the power of exactly the tests with large p-values.
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    rejected = 0
    while rejected < m and p_values[order[rejected]] < alpha / (m - rejected):
        rejected += 1
    levels = [alpha / (m - rejected) if rejected < m else alpha] * m
    for rank in range(rejected):
        levels[order[rank]] = alpha / (m - rank)
    return levels


def t_p_value(t: float, df: float) -> float:
    """The two-sided p-value of Student's t statistic ``t`` with ``df`` degrees of freedom (1 for NaN)."""
    if math.isnan(t):
        return 1.0
    if math.isinf(t):
        return 0.0
    return _incomplete_beta(df / 2, 0.5, df / (df + t * t))


def t_quantile(probability: float, df: float) -> float:
    """The ``probability`` quantile of Student's t with ``df`` degrees of freedom (by bisection on ``t_p_value``)."""
    if probability == 0.5:
        return 0.0
    tail = 2 * min(probability, 1 - probability)
    low, high = 0.0, 1.0
    while t_p_value(high, df) > tail:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        low, high = (middle, high) if t_p_value(middle, df) > tail else (low, middle)
    return math.copysign((low + high) / 2, probability - 0.5)


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction (Numerical Recipes 6.4)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _incomplete_beta(b, a, 1.0 - x)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 300):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return front * result / a


def upper_p_value(z: float) -> float:
    """The one-sided p-value P(Z >= z) of a standard normal statistic (1 for NaN)."""
    return 1.0 if math.isnan(z) else 1.0 - NormalDist().cdf(z)


def equivalence_z(value: float, claimed: float, margin: float, effective: float, draws: float = 0.0) -> float:
    """The statistic of the two one-sided score tests (TOST) that a rate lies within ``margin`` of ``claimed``.

    Each side is the score test of its boundary (claimed - margin, claimed + margin), with that
    boundary's variance (``score_variance``: binomial, less what a share ``draws`` of drawn games takes
    off a score), so it stays finite at 0% and 100%; a boundary outside [0, 1] cannot be crossed and
    its side is +inf. The smaller of the two is returned: equivalence is shown at alpha when it
    exceeds the one-sided alpha quantile (the TOST p-value is ``upper_p_value`` of it).
    """
    sides = []
    for boundary, sign in ((claimed - margin, 1.0), (claimed + margin, -1.0)):
        if not 0.0 < boundary < 1.0:
            sides.append(math.inf)
        else:
            sides.append(sign * (value - boundary) / math.sqrt(score_variance(boundary, draws) / effective))
    return min(sides)


def score_variance(mean: float, draws: float = 0.0) -> float:
    """The variance of one game's score (1, 1/2 or 0) whose mean is ``mean`` when a share ``draws`` of games is
    drawn: mean (1 - mean) - draws / 4, as a draw sits half a point nearer the mean than a win or a loss would;
    kept above a hundredth of the binomial variance, so a claim near a boundary no draw can reach stays testable."""
    binomial = mean * (1 - mean)
    return max(binomial - draws / 4, binomial / 100)


def equivalence_power(claimed: float, margin: float, effective: float, alpha: float) -> float:
    """The power of ``equivalence_z``'s TOST at ``alpha`` when the rate really is ``claimed`` (normal approximation)."""
    if effective <= 0:
        return 0.0
    normal = NormalDist()
    critical = normal.inv_cdf(1 - alpha)
    spread = math.sqrt(claimed * (1 - claimed)) or 1e-12
    misses = 0.0
    for boundary in (claimed - margin, claimed + margin):
        if 0.0 < boundary < 1.0:
            shift = margin * math.sqrt(effective) - critical * math.sqrt(boundary * (1 - boundary))
            misses += 1 - normal.cdf(shift / spread)
    return max(0.0, 1.0 - misses)


def beyond_margin_z(value: float, claimed: float, margin: float, effective: float, draws: float = 0.0) -> float:
    """The one-sided score statistic that a rate lies beyond the edge of ``claimed`` +- ``margin`` nearer to it.

    The edge is the one of claimed - margin and claimed + margin (those inside (0, 1)) nearer to
    ``value``; the statistic is the score test of that edge, with the edge's variance (``score_variance``),
    signed so that it is positive when ``value`` lies outside the margin: its ``upper_p_value`` is
    the p-value of "within the margin" (large while the rate lies inside it).
    """
    edges = [edge for edge in (claimed - margin, claimed + margin) if 0.0 < edge < 1.0]
    if not edges:
        return math.nan
    nearer = min(edges, key=lambda edge: abs(edge - value))
    beyond = abs(value - nearer) / math.sqrt(score_variance(nearer, draws) / effective)
    outside = (
        not min(edges) <= value <= max(edges)
        if len(edges) == 2
        else (value < nearer if nearer < claimed else value > nearer)
    )
    return beyond if outside else -beyond


def agresti_caffo_difference(
    successes_a: float, games_a: float, successes_b: float, games_b: float
) -> tuple[float, float]:
    """The difference of two independent rates and its standard error by Agresti and Caffo (2000): one success
    and one failure added to each group, which keeps the error sensible at 0% and 100%.

    The difference is of the adjusted rates (x + 1) / (n + 2), as statsmodels' ``test_proportions_2indep``
    (method ``agresti-caffo``) tests it; counts may be fractional (effective games).
    """
    adjusted = [((x + 1) / (n + 2), n + 2) for x, n in ((successes_a, games_a), (successes_b, games_b))]
    return adjusted[0][0] - adjusted[1][0], math.sqrt(sum(p * (1 - p) / n for p, n in adjusted))


def difference_margin_z(difference: float, error: float, margin: float) -> tuple[float, float]:
    """The two statistics of a ``difference`` (with its standard ``error``) against +- ``margin``: that of the two
    one-sided tests (TOST) of lying within it, the smaller of (difference + margin) / error and
    (margin - difference) / error, and that of the one-sided test at the nearer edge of lying beyond it,
    (|difference| - margin) / error. Each one's ``upper_p_value`` is its p-value."""
    return min(difference + margin, margin - difference) / error, (abs(difference) - margin) / error


def plus_four_variance(value: float, games: float) -> float:
    """The variance of a rate ``value`` over ``games`` with two successes and two failures added (Agresti-Coull's
    at z = 2): kept off zero, so that a cell won 100% of the time is not taken as certain."""
    adjusted = (value * games + 2) / (games + 4)
    return adjusted * (1 - adjusted) / (games + 4)


def difference_interval(a: Interval, b: Interval) -> Interval:
    """The difference ``a - b`` of two independent proportions with Newcombe's hybrid score interval.

    Built from each proportion's own (Wilson) interval (Newcombe 1998, method 10), so it stays sensible
    at 0% and 100%, where the Wald interval of a difference collapses.
    """
    value = a.value - b.value
    low = value - math.sqrt((a.value - a.low) ** 2 + (b.high - b.value) ** 2)
    high = value + math.sqrt((a.high - a.value) ** 2 + (b.value - b.low) ** 2)
    return Interval(value, max(-1.0, low), min(1.0, high))


def mean_interval(values: Sequence[float], z: float = Z95) -> Interval:
    """The mean with its normal 95% interval (z times the standard error); a point for one value."""
    if not values:
        return Interval(math.nan, math.nan, math.nan)
    mean = sum(values) / len(values)
    if len(values) < 2:
        return Interval(mean, mean, mean)
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    spread = z * math.sqrt(variance / len(values))
    return Interval(mean, mean - spread, mean + spread)


def geometric_interval(values: Sequence[float]) -> Interval:
    """The geometric mean and its 95% interval (the normal interval of the logarithms, mapped back).

    Counts and times spread over orders of magnitude and never go below zero, which the
    interval of their plain mean would. The values must be positive.
    """
    logs = mean_interval([math.log(v) for v in values])
    return Interval(math.exp(logs.value), math.exp(logs.low), math.exp(logs.high))


def correlation_interval(xs: Sequence[float], ys: Sequence[float], z: float = Z95) -> Interval:
    """Pearson's r with its 95% interval by Fisher's z-transform (needs 4 pairs or more, else [-1, 1])."""
    if len(xs) != len(ys):
        raise ValueError(f"correlation of {len(xs)} values with {len(ys)}: give one y per x")
    n = len(xs)
    if n < 2:
        return Interval(math.nan, -1.0, 1.0)
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mean_x) ** 2 for x in xs)
    syy = sum((y - mean_y) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return Interval(math.nan, -1.0, 1.0)
    r = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / math.sqrt(sxx * syy)
    if n < 4 or abs(r) >= 1.0:
        return Interval(r, -1.0 if n < 4 else r, 1.0 if n < 4 else r)
    centre, spread = math.atanh(r), z / math.sqrt(n - 3)
    return Interval(r, math.tanh(centre - spread), math.tanh(centre + spread))


def fisher_exact_p(successes_a: int, games_a: int, successes_b: int, games_b: int) -> float:
    """Fisher's exact two-sided p-value for equal rates in two groups of games (a 2 x 2 table, margins fixed).

    The sum of the hypergeometric probabilities of every table no more likely than the one observed, as
    SciPy's Fisher test sums them (with its relative tolerance of 1e-7 for ties): the test a reader
    reaches for when one rate is at 0%, where a normal approximation is least to be trusted.
    """
    total, column = games_a + games_b, successes_a + successes_b
    low, high = max(0, column - games_b), min(games_a, column)

    def probability(k: int) -> float:
        return math.comb(games_a, k) * math.comb(games_b, column - k) / math.comb(total, column)

    observed = probability(successes_a)
    return min(1.0, sum(p for p in map(probability, range(low, high + 1)) if p <= observed * (1 + 1e-7)))
