"""Reference values for the hand-written statistics from SciPy and statsmodels: ``make statistics-reference``.

The project's environment keeps SciPy out (kaggle-environments declares it, the lock's overrides
drop it), so the reference values are computed once, in an environment of their own that this
script runs in, and kept beside it as ``statistics_reference.json``; ``tests/test_statistics_reference.py``
checks every hand-written statistic against them. The inputs are fixed here, so rerunning the
script reproduces the file.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import scipy
import statsmodels
import statsmodels.api as sm
from scipy import optimize, stats
from statsmodels.stats.contingency_tables import Table
from statsmodels.stats.meta_analysis import combine_effects
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import (
    confint_proportions_2indep,
    proportion_confint,
    proportions_ztest,
    proportions_ztost,
    test_proportions_2indep,
    tost_proportions_2indep,
)

OUT = Path(__file__).resolve().parent / "statistics_reference.json"
WDL = [(383, 8, 9), (30, 10, 60), (0, 0, 100), (100, 0, 0), (55, 1, 4), (1, 0, 0), (12, 8, 5), (250, 0, 250)]
Z_VALUES = [0.0, 0.5, 1.959964, -2.3, 3.77, 6.0]
T_CASES = [(0.0, 3.0), (1.2, 5.0), (-2.5, 10.0), (3.1, 29.0), (2.0, 2.5), (4.4, 120.0)]
QUANTILES = [(0.975, 4.0), (0.9, 12.0), (0.025, 30.0), (0.995, 2.0), (0.6, 7.5)]
P_FAMILIES = [[0.01, 0.04, 0.03, 0.005], [0.2, 0.001, 0.5, 0.04, 0.049, 0.9], [0.0002, 0.3]]
TRENDS = [  # successes, totals, scores
    ([89, 94, 96, 99, 98, 98], [100] * 6, [math.log10(b) for b in (10, 50, 100, 250, 500, 1000)]),
    ([15, 40, 46, 60], [250, 250, 250, 250], [1, 2, 3, 4]),
    ([30, 25, 12], [50, 60, 40], [0.0, 1.0, 3.0]),
]
SAMPLES = [[0.1, 0.4, 0.35, 0.8, 0.55], [1.0, 2.0, 2.5, 2.2, 3.1, 4.0, 3.3, 5.1], [-1.0, 0.5, 0.2, 0.9]]
PAIRS = [
    ([1, 2, 3, 4, 5, 6], [2.1, 3.9, 6.2, 8.1, 9.7, 12.5]),
    ([1, 2, 3, 4, 5, 6, 7], [7, 3, 6, 2, 5, 1, 4]),
    ([0.5, 1.5, 2.0, 3.5, 4.0, 6.0, 7.0, 9.0, 10.0], [3, 1, 4, 1, 5, 9, 2, 6, 5]),
]
CHI_SQUARE = [
    (3.841458820694124, 1.0),
    (5.991, 2.0),
    (0.5, 3.0),
    (30.0, 10.0),
    (100.0, 4.0),
    (12.3, 7.5),
    (0.01, 1.0),
    (215.3, 5.0),
]
SLOPES = [  # successes, totals, scores: a weighted least-squares slope of the rates
    ([30, 25, 12], [50, 60, 40], [0.0, 1.0, 3.0]),
    ([121, 20, 15, 43], [250, 250, 250, 250], [-1.0, -2.0, -2.398, -3.0]),
]
STRATIFIED_TRENDS = [  # strata of (successes, totals, scores): a series at one seat each
    [([40, 60, 70], [100, 100, 100], [1.0, 2.0, 3.0]), ([20, 25, 45], [100, 100, 100], [1.0, 2.0, 3.0])],
    [
        ([89, 94, 96, 99], [100] * 4, [1.0, 1.699, 2.0, 2.398]),
        ([70, 60, 66, 64], [100] * 4, [1.0, 1.699, 2.0, 2.398]),
        ([5, 9, 3], [50, 50, 50], [1.0, 2.0, 3.0]),
    ],
    [([12, 8], [30, 30], [0.0, 1.0]), ([3, 9, 14, 20], [25, 25, 25, 25], [0.0, 1.0, 2.0, 3.0])],
]
HETEROGENEITY = [  # slopes and their standard errors; a stratum with error 0 or NaN is left out by definition
    ([0.1, 0.3, 0.2], [0.1, 0.1414, 0.1225]),
    ([0.05, -0.02, 0.11, 0.4], [0.02, 0.03, 0.025, 0.05]),
    ([0.2, 0.25, 0.0, 0.3], [0.05, 0.06, 0.0, 0.1]),
]
RATES = [  # a rate, the claimed rate and the effective games (fractional: clustered)
    (0.93, 0.9375, 400.0),
    (0.62, 0.5, 73.4),
    (0.455, 0.5, 250.0),
    (0.99, 0.9, 37.5),
    (0.3, 0.45, 12.0),
]
MARGINS = [  # a rate, the claimed rate, the margin and the effective games
    (0.93, 0.9375, 0.05, 400.0),
    (0.80, 0.9375, 0.05, 200.0),
    (0.5, 0.52, 0.1, 96.3),
    (0.61, 0.52, 0.05, 150.0),
    (0.97, 0.96, 0.05, 80.0),
    (0.85, 0.96, 0.05, 80.0),
]
DIFFERENCES = [  # successes and games of two groups (fractional: effective), and a margin
    (30.0, 50.0, 20.0, 50.0, 0.1),
    (45.5, 96.2, 41.0, 88.7, 0.1),
    (99.0, 100.0, 62.0, 100.0, 0.15),
    (0.0, 40.0, 3.0, 40.0, 0.1),
    (120.0, 250.0, 118.0, 250.0, 0.1),
]
FRACTIONAL = [(0.62, 73.4), (0.0, 12.5), (1.0, 37.5), (0.455, 250.0), (0.9, 7.2)]  # a rate over effective games
CLUSTERED = [  # openings, cells, games of one opening in each cell, the rate, the draws' share, games dropped, seed
    (10, 1, 2, 0.5, 0.1, 0, 0),  # one cell of colour-swapped pairs: CR1 is statsmodels' own
    (10, 3, 2, 0.6, 0.1, 0, 1),  # three cells pooled, each opening's six games one cluster
    (12, 2, 4, 0.4, 0.1, 5, 2),  # unequal cells
    (20, 1, 2, -0.2, 0.0, 0, 3),  # a rare result: the design effect is shrunk towards n / G
]
RATINGS = {  # (a, b): (points of a, games); anchor "negamax"
    ("minimax", "negamax"): (383.5, 400),
    ("mcts", "negamax"): (98.0, 100),
    ("minimax", "mcts"): (30.0, 100),
    ("random", "negamax"): (3.5, 100),
    ("random", "mcts"): (1.0, 50),
}


def clustered_games(
    openings: int, cells: int, per_cell: int, rate: float, draws: float, dropped: int, seed: int
) -> tuple[list[float], list[int], list[int]]:
    """Games of a design whose openings tie them together: each game's score (1, 0.5, 0), its opening (the
    cluster) and its cell; an opening shifts the rate of all its games, so the clusters matter."""
    rng = np.random.default_rng(seed)
    outcomes, clusters, cells_of = [], [], []
    for opening in range(openings):
        shift = rng.normal(0.0, 0.25)
        for cell in range(cells):
            for _ in range(per_cell):
                u = rng.random()
                p = min(max(rate + shift + 0.1 * cell, 0.0), 1.0)
                outcomes.append(1.0 if u < p else 0.5 if u < p + draws * (1 - p) else 0.0)
                clusters.append(opening)
                cells_of.append(cell)
    keep = len(outcomes) - dropped
    return outcomes[:keep], clusters[:keep], cells_of[:keep]


def clustered_reference(outcomes: list[float], clusters: list[int], cells: list[int]) -> dict[str, object]:
    """The CR1 variance of the mean and the effective games, from statsmodels' cluster-robust OLS.

    The mean of games pooled over cells, each game's residual about its cell's mean, is the cell-size
    weighted mean of an OLS fit on one indicator per cell; its sandwich variance w' V w (w the cells'
    shares of the games) is statsmodels' ``cov_type="cluster"``. Our CR1 factor is G / (G - 1) alone,
    statsmodels' is G / (G - 1) (n - 1) / (n - k) for k cells: both are written out, and they agree for
    one cell. The effective games follow our definition (``clustered_score``): the binomial variance
    over the CR1 variance, at most n, its design effect shrunk towards n / G by the k games of the rarer
    result: (k n / estimated + n / G) / (k + 1).
    """
    y = np.array(outcomes)
    labels = sorted(set(cells))
    design = np.array([[float(c == label) for label in labels] for c in cells])
    weights = design.mean(axis=0)
    fits = {
        correction: sm.OLS(y, design).fit(
            cov_type="cluster", cov_kwds={"groups": np.array(clusters), "use_correction": correction}
        )
        for correction in (False, True)
    }
    n, g = len(y), len(set(clusters))
    ours = float(weights @ fits[False].cov_params() @ weights) * g / (g - 1)
    mean = float(y.mean())
    estimated = min(float(n), mean * (1 - mean) / ours)
    rarer = min(float(y.sum()), n - float(y.sum()))
    effective = n / ((rarer * n / estimated + n / g) / (rarer + 1))
    return {
        "outcomes": outcomes,
        "clusters": clusters,
        "cells": cells,
        "variance": ours,
        "statsmodels_cr1": float(weights @ fits[True].cov_params() @ weights),
        "effective": effective,
    }


CLAIM_GAMES = Path(__file__).resolve().parent / "claim_games.json"
"""Claims 7, 16 and 26's games from the full report (``make_claim_games.py``): outcome, cluster, cell."""
FISHER = [(12, 100, 0, 100), (1, 100, 0, 100), (3, 10, 7, 12), (0, 5, 5, 5), (40, 250, 55, 250), (2, 3, 1, 30)]


def claim_intervals(games: dict[str, dict[str, object]]) -> dict[str, dict[str, object]]:
    """Each claim's 95% interval two ways, from statsmodels: Wilson's score interval at the effective number of
    games (``proportion_confint(method="wilson")`` at count = mean x effective, nobs = effective, the effective
    games from the cluster-robust CR1 variance as ``clustered_reference`` derives them), the report's method; and
    the cluster-robust Wald interval of the mean (OLS on the cells with ``cov_type="cluster"``, statsmodels'
    small-sample correction), a referee's."""
    out = {}
    for number, case in games.items():
        outcomes, clusters, cells = case["outcomes"], case["clusters"], case["cells"]
        reference = clustered_reference(outcomes, clusters, cells)  # type: ignore[arg-type]
        mean = float(np.mean(outcomes))  # type: ignore[arg-type]
        effective = float(reference["effective"])  # type: ignore[arg-type]
        wilson = proportion_confint(mean * effective, effective, alpha=0.05, method="wilson")
        error = math.sqrt(float(reference["statsmodels_cr1"]))  # type: ignore[arg-type]
        critical = stats.norm.ppf(0.975)
        out[number] = {
            "mean": mean,
            "effective": effective,
            "wilson": [float(end) for end in wilson],
            "wald_cluster": [mean - critical * error, mean + critical * error],
        }
    return out


def stratified_trend(strata: list[tuple[list[int], list[int], list[float]]]) -> float:
    """The Mantel extension test over strata from statsmodels' linear-by-linear association test of each 2 x k
    table: the strata's statistics less their null means, summed, over the root of their summed null
    variances. statsmodels' null variance is the hypergeometric one (N - 1); ours, Cochran-Armitage's,
    is the binomial one (N): each stratum's is rescaled by (N - 1) / N."""
    numerator = variance = 0.0
    for successes, totals, scores in strata:
        table = np.array([successes, [n - x for x, n in zip(successes, totals, strict=True)]], dtype=float)
        association = Table(table).test_ordinal_association(
            row_scores=np.array([1.0, 0.0]), col_scores=np.array(scores)
        )
        total = table.sum()
        numerator += association.statistic - association.null_mean
        variance += association.null_sd**2 * (total - 1) / total
    return numerator / math.sqrt(variance)


def trend_error(successes: list[int], totals: list[int], scores: list[float]) -> float:
    """The unrestricted standard error of the weighted least-squares slope of the rates on the scores: the slope
    is the contrast sum_i n_i (s_i - mean s) r_i / S of the group rates r_i, whose variances are HC0's of an
    OLS fit of each game's outcome on one indicator per group (p_i (1 - p_i) / n_i)."""
    y, groups = [], []
    for i, (x, n) in enumerate(zip(successes, totals, strict=True)):
        y += [1.0] * x + [0.0] * (n - x)
        groups += [i] * n
    design = np.array([[float(g == i) for i in range(len(totals))] for g in groups])
    fit = sm.OLS(np.array(y), design).fit(cov_type="HC0")
    n, s = np.array(totals, dtype=float), np.array(scores)
    centred = s - (n @ s) / n.sum()
    contrast = n * centred / (n @ centred**2)
    return float(math.sqrt(contrast @ fit.cov_params() @ contrast))


def heterogeneity(slopes: list[float], errors: list[float]) -> list[float]:
    """Cochran's Q, its df and p-value, and the inverse-variance (fixed-effect) mean and its standard error, from
    statsmodels' ``combine_effects``, over the strata with a positive error (ours leaves the others out)."""
    kept = [(b, e) for b, e in zip(slopes, errors, strict=True) if e > 0]
    effects, variances = np.array([b for b, _ in kept]), np.array([e * e for _, e in kept])
    combined = combine_effects(effects, variances)
    return [
        float(combined.q),
        int(combined.df),
        float(stats.chi2.sf(combined.q, combined.df)),
        float(combined.mean_effect_fe),
        float(combined.sd_eff_w_fe),
    ]


def margin_tests(value: float, claimed: float, margin: float, effective: float) -> list[float]:
    """The p-values of a rate within ``margin`` of ``claimed`` (TOST) and beyond it (at the nearer edge), from
    statsmodels' score tests of one proportion, each edge's variance its own (``prop_var`` at the edge).
    An edge outside (0, 1) cannot be crossed: its side is left out, as ours does."""
    count = value * effective
    edges = [edge for edge in (claimed - margin, claimed + margin) if 0.0 < edge < 1.0]
    if len(edges) == 2:
        within = float(proportions_ztost(count, effective, edges[0], edges[1], prop_var="limits")[0])
    else:
        alternative = "larger" if edges[0] < claimed else "smaller"
        within = float(
            proportions_ztest(count, effective, value=edges[0], prop_var=edges[0], alternative=alternative)[1]
        )
    nearer = min(edges, key=lambda edge: abs(edge - value))
    beyond = float(
        proportions_ztest(
            count, effective, value=nearer, prop_var=nearer, alternative="smaller" if nearer < claimed else "larger"
        )[1]
    )
    return [within, beyond]


def difference_tests(x1: float, n1: float, x2: float, n2: float, margin: float) -> dict[str, float]:
    """statsmodels' two-group intervals and tests of a difference of rates: Agresti-Caffo's interval, its TOST of
    the margin and its one-sided tests beyond the margin's nearer edge and of a difference of at least the
    margin; Newcombe's hybrid score interval (its method 10, from the groups' Wilson intervals)."""
    caffo = confint_proportions_2indep(x1, n1, x2, n2, method="agresti-caffo")
    newcombe = confint_proportions_2indep(x1, n1, x2, n2, method="newcomb")
    adjusted = (x1 + 1) / (n1 + 2) - (x2 + 1) / (n2 + 2)
    beyond = test_proportions_2indep(
        x1,
        n1,
        x2,
        n2,
        value=math.copysign(margin, adjusted),
        method="agresti-caffo",
        alternative="larger" if adjusted > 0 else "smaller",
    )
    at_least = test_proportions_2indep(x1, n1, x2, n2, value=margin, method="agresti-caffo", alternative="smaller")
    return {
        "caffo_low": float(caffo[0]),
        "caffo_high": float(caffo[1]),
        "within": float(tost_proportions_2indep(x1, n1, x2, n2, -margin, margin, method="agresti-caffo").pvalue),
        "beyond": float(beyond.pvalue),
        "at_least": float(at_least.pvalue),
        "newcombe_low": float(newcombe[0]),
        "newcombe_high": float(newcombe[1]),
    }


def plus_four_variance(value: float, games: float) -> list[float | None]:
    """The variance of a rate with two successes and two failures added: SciPy's Bernoulli variance of the adjusted
    rate over the games plus four, and, where statsmodels' ``agresti_coull`` interval at z = 2 stays inside
    [0, 1] (it clips its ends, always at 0% and 100%), the square of its half-width over z (None where clipped)."""
    adjusted = (value * games + 2) / (games + 4)
    bernoulli = float(stats.bernoulli(adjusted).var() / (games + 4))
    low, high = proportion_confint(value * games, games, alpha=2 * stats.norm.sf(2.0), method="agresti_coull")
    return [bernoulli, float(((high - low) / 4) ** 2) if 0 < low and high < 1 else None]


def bradley_terry(results: dict[tuple[str, str], tuple[float, int]], anchor: str) -> dict[str, list[float]]:
    """Elo and its 95% interval of every player but the anchor, from the binomial GLM (``rating_glm``)."""
    players, fit = rating_glm(results, anchor)
    scale = 400 / math.log(10)
    z = stats.norm.ppf(0.975)
    return {
        name: [
            fit.params[i] * scale,
            (fit.params[i] - z * fit.bse[i]) * scale,
            (fit.params[i] + z * fit.bse[i]) * scale,
        ]
        for i, name in enumerate(players)
    }


def rating_glm(results: dict[tuple[str, str], tuple[float, int]], anchor: str, scale: str | None = None):
    """The Bradley-Terry fit as statsmodels' binomial GLM of each pairing's score on +1 / -1 player columns, the
    anchor's left out (its rating 0), trials as variance weights; ``scale="dev"`` is the quasi-likelihood fit
    whose dispersion is deviance / df."""
    players = sorted({name for pair in results for name in pair} - {anchor})
    rows, scores, games = [], [], []
    for (a, b), (points, played) in results.items():
        row = [0.0] * len(players)
        if a != anchor:
            row[players.index(a)] = 1.0
        if b != anchor:
            row[players.index(b)] = -1.0
        rows.append(row)
        scores.append(points / played)
        games.append(played)
    model = sm.GLM(np.array(scores), np.array(rows), family=sm.families.Binomial(), var_weights=np.array(games))
    return players, model.fit(scale=scale)


def rating_fit(results: dict[tuple[str, str], tuple[float, int]], anchor: str) -> dict[str, object]:
    """The fit's goodness: statsmodels' deviance, Pearson's X^2, residual df and the deviance's chi-square p; the
    dispersion deviance / df (at least 1, ours); the Wald intervals of the quasi-likelihood fit (its
    standard errors times the root of the dispersion) and the profile intervals at the chi-square
    quantile times the dispersion (the quasi-likelihood ratio)."""
    players, fit = rating_glm(results, anchor)
    dispersion = max(1.0, fit.deviance / fit.df_resid)
    _, quasi = rating_glm(results, anchor, scale="dev")
    scale, z = 400 / math.log(10), stats.norm.ppf(0.975)
    return {
        "deviance": float(fit.deviance),
        "pearson": float(fit.pearson_chi2),
        "df": int(fit.df_resid),
        "p": float(stats.chi2.sf(fit.deviance, fit.df_resid)),
        "dispersion": dispersion,
        "quasi_wald": {
            name: [
                quasi.params[i] * scale,
                (quasi.params[i] - z * quasi.bse[i]) * scale,
                (quasi.params[i] + z * quasi.bse[i]) * scale,
            ]
            for i, name in enumerate(players)
        },
        "quasi_profile": profile_intervals(results, anchor, stats.chi2.ppf(0.95, 1) * dispersion),
    }


def profile_intervals(
    results: dict[tuple[str, str], tuple[float, int]], anchor: str, critical: float | None = None
) -> dict[str, list[float]]:
    """Each player's 95% profile-likelihood interval (Elo): every rating whose likelihood ratio against the
    maximum, the other ratings refitted by SciPy's BFGS, stays within ``critical`` (default: the
    chi-square(1) 95% quantile)."""
    players = sorted({name for pair in results for name in pair} - {anchor})
    scale = 400 / math.log(10)

    def negative_log_likelihood(ratings: np.ndarray) -> float:
        value = {anchor: 0.0} | dict(zip(players, ratings, strict=True))
        total = 0.0
        for (a, b), (points, played) in results.items():
            p = 1 / (1 + math.exp(-(value[a] - value[b]) / scale))
            total -= points * math.log(p) + (played - points) * math.log(1 - p)
        return total

    best = optimize.minimize(negative_log_likelihood, np.zeros(len(players)), method="BFGS", options={"gtol": 1e-10})
    critical = stats.chi2.ppf(0.95, 1) if critical is None else critical
    intervals = {}
    for i, name in enumerate(players):

        def excess(v: float, i: int = i) -> float:
            others = [j for j in range(len(players)) if j != i]

            def fixed(rest: np.ndarray) -> float:
                ratings = np.empty(len(players))
                ratings[i], ratings[others] = v, rest
                return negative_log_likelihood(ratings)

            fit = optimize.minimize(fixed, best.x[others], method="BFGS", options={"gtol": 1e-10})
            return 2 * (fit.fun - best.fun) - critical

        centre = best.x[i]
        intervals[name] = [
            centre,
            optimize.brentq(excess, centre - 2000, centre, xtol=1e-6),
            optimize.brentq(excess, centre, centre + 2000, xtol=1e-6),
        ]
    return intervals


def main() -> None:
    reference = {
        "versions": {"scipy": scipy.__version__, "statsmodels": statsmodels.__version__},
        "wilson": [
            [
                wins,
                draws,
                losses,
                *proportion_confint(wins + draws / 2, wins + draws + losses, alpha=0.05, method="wilson"),
            ]
            for wins, draws, losses in WDL
        ],
        "normal_p": [[z, 2 * stats.norm.sf(abs(z))] for z in Z_VALUES],
        "upper_p": [[z, stats.norm.sf(z)] for z in Z_VALUES],
        "t_p": [[t, df, 2 * stats.t.sf(abs(t), df)] for t, df in T_CASES],
        "t_quantile": [[p, df, stats.t.ppf(p, df)] for p, df in QUANTILES],
        "holm": [[ps, list(multipletests(ps, method="holm")[1])] for ps in P_FAMILIES],
        # The linear-by-linear association test of a 2 x k table is Agresti's M^2 = (N - 1) r^2; the
        # Cochran-Armitage statistic is N r^2 (R's prop.trend.test): the same test with N for N - 1.
        "cochran_armitage": [],
        "mean_interval": [
            [
                values,
                float(np.mean(values)),
                *(float(np.mean(values)) + sign * stats.norm.ppf(0.975) * stats.sem(values) for sign in (-1, 1)),
            ]
            for values in SAMPLES
        ],
        "correlation": [
            [xs, ys, stats.pearsonr(xs, ys).statistic, *stats.pearsonr(xs, ys).confidence_interval(0.95)]
            for xs, ys in PAIRS
        ],
        "ratings": {
            "results": [[a, b, points, played] for (a, b), (points, played) in RATINGS.items()],
            "anchor": "negamax",
            "fit": bradley_terry(RATINGS, "negamax"),
            "profile": profile_intervals(RATINGS, "negamax"),
        },
        "chi_square": [[x, df, stats.chi2.sf(x, df)] for x, df in CHI_SQUARE],
        "slopes": [
            [
                successes,
                totals,
                scores,
                sm.WLS(np.divide(successes, totals), sm.add_constant(np.array(scores)), weights=totals).fit().params[1],
            ]
            for successes, totals, scores in SLOPES
        ],
    }
    reference |= {
        # Holm's decisions (reject or not at 0.05) from statsmodels: the levels ours states powers at must agree.
        "holm_reject": [[ps, [bool(r) for r in multipletests(ps, alpha=0.05, method="holm")[0]]] for ps in P_FAMILIES],
        "correlation_z": [
            [xs, ys, math.atanh(stats.pearsonr(xs, ys).statistic) * math.sqrt(len(xs) - 3)] for xs, ys in PAIRS
        ],
        "trend_error": [
            [successes, totals, scores, trend_error(successes, totals, scores)]
            for successes, totals, scores in TRENDS + SLOPES
        ],
        "stratified_trend": [[strata, stratified_trend(strata)] for strata in STRATIFIED_TRENDS],
        "heterogeneity": [[slopes, errors, *heterogeneity(slopes, errors)] for slopes, errors in HETEROGENEITY],
        # The score test of one rate: its variance is the claimed rate's (prop_var), not the observed one's.
        "rate_z": [
            [
                value,
                claimed,
                effective,
                float(proportions_ztest(value * effective, effective, value=claimed, prop_var=claimed)[0]),
            ]
            for value, claimed, effective in RATES
        ],
        "margin": [
            [value, claimed, margin, effective, *margin_tests(value, claimed, margin, effective)]
            for value, claimed, margin, effective in MARGINS
        ],
        "difference": [
            [x1, n1, x2, n2, margin, difference_tests(x1, n1, x2, n2, margin)] for x1, n1, x2, n2, margin in DIFFERENCES
        ],
        "wilson_fractional": [
            [value, games, *(float(end) for end in proportion_confint(value * games, games, method="wilson"))]
            for value, games in FRACTIONAL
        ],
        "plus_four": [[value, games, *plus_four_variance(value, games)] for value, games in FRACTIONAL],
        "clustered": [clustered_reference(*clustered_games(*case)) for case in CLUSTERED],
        "rating_fit": rating_fit(RATINGS, "negamax"),
        "fisher": [[a, n, b, m, float(stats.fisher_exact([[a, n - a], [b, m - b]]).pvalue)] for a, n, b, m in FISHER],
        "claim_intervals": claim_intervals(json.loads(CLAIM_GAMES.read_text())),
    }
    for successes, totals, scores in TRENDS:
        table = np.array([successes, [n - x for x, n in zip(successes, totals, strict=True)]], dtype=float)
        association = Table(table).test_ordinal_association(
            row_scores=np.array([1.0, 0.0]), col_scores=np.array(scores)
        )
        total = table.sum()
        # statsmodels' z is M, with the (N - 1) variance: rescaled to N.
        z = association.zscore * math.sqrt(total / (total - 1))
        reference["cochran_armitage"].append([successes, totals, scores, z])
    OUT.write_text(json.dumps(reference, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
