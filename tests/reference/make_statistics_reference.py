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
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

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
PAIRS = [([1, 2, 3, 4, 5, 6], [2.1, 3.9, 6.2, 8.1, 9.7, 12.5]), ([1, 2, 3, 4, 5, 6, 7], [7, 3, 6, 2, 5, 1, 4]),
         ([0.5, 1.5, 2.0, 3.5, 4.0, 6.0, 7.0, 9.0, 10.0], [3, 1, 4, 1, 5, 9, 2, 6, 5])]
CHI_SQUARE = [(3.841458820694124, 1.0), (5.991, 2.0), (0.5, 3.0), (30.0, 10.0), (100.0, 4.0), (12.3, 7.5),
              (0.01, 1.0), (215.3, 5.0)]
SLOPES = [  # successes, totals, scores: a weighted least-squares slope of the rates
    ([30, 25, 12], [50, 60, 40], [0.0, 1.0, 3.0]),
    ([121, 20, 15, 43], [250, 250, 250, 250], [-1.0, -2.0, -2.398, -3.0]),
]
RATINGS = {  # (a, b): (points of a, games); anchor "negamax"
    ("minimax", "negamax"): (383.5, 400), ("mcts", "negamax"): (98.0, 100), ("minimax", "mcts"): (30.0, 100),
    ("random", "negamax"): (3.5, 100), ("random", "mcts"): (1.0, 50),
}


def bradley_terry(results: dict[tuple[str, str], tuple[float, int]], anchor: str) -> dict[str, list[float]]:
    """Elo and its 95% interval of every player but the anchor: a binomial GLM of each pairing's score
    on +1 / -1 player columns, the anchor's column left out (its rating 0), trials as variance weights."""
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
    fit = sm.GLM(np.array(scores), np.array(rows), family=sm.families.Binomial(), var_weights=np.array(games)).fit()
    scale = 400 / math.log(10)
    z = stats.norm.ppf(0.975)
    return {name: [fit.params[i] * scale, (fit.params[i] - z * fit.bse[i]) * scale,
                   (fit.params[i] + z * fit.bse[i]) * scale] for i, name in enumerate(players)}


def profile_intervals(results: dict[tuple[str, str], tuple[float, int]], anchor: str) -> dict[str, list[float]]:
    """Each player's 95% profile-likelihood interval (Elo): every rating whose likelihood ratio against the
    maximum, the other ratings refitted by SciPy's BFGS, stays within the chi-square(1) 95% quantile."""
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
    critical = stats.chi2.ppf(0.95, 1)
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
        intervals[name] = [centre, optimize.brentq(excess, centre - 2000, centre, xtol=1e-6),
                           optimize.brentq(excess, centre, centre + 2000, xtol=1e-6)]
    return intervals


def main() -> None:
    reference = {
        "versions": {"scipy": scipy.__version__, "statsmodels": statsmodels.__version__},
        "wilson": [[wins, draws, losses, *proportion_confint(wins + draws / 2, wins + draws + losses, alpha=0.05,
                                                             method="wilson")] for wins, draws, losses in WDL],
        "normal_p": [[z, 2 * stats.norm.sf(abs(z))] for z in Z_VALUES],
        "upper_p": [[z, stats.norm.sf(z)] for z in Z_VALUES],
        "t_p": [[t, df, 2 * stats.t.sf(abs(t), df)] for t, df in T_CASES],
        "t_quantile": [[p, df, stats.t.ppf(p, df)] for p, df in QUANTILES],
        "holm": [[ps, list(multipletests(ps, method="holm")[1])] for ps in P_FAMILIES],
        # The linear-by-linear association test of a 2 x k table is Agresti's M^2 = (N - 1) r^2; the
        # Cochran-Armitage statistic is N r^2 (R's prop.trend.test): the same test with N for N - 1.
        "cochran_armitage": [],
        "mean_interval": [[values, float(np.mean(values)),
                           *(float(np.mean(values)) + sign * stats.norm.ppf(0.975) * stats.sem(values)
                             for sign in (-1, 1))] for values in SAMPLES],
        "correlation": [[xs, ys, stats.pearsonr(xs, ys).statistic,
                         *stats.pearsonr(xs, ys).confidence_interval(0.95)] for xs, ys in PAIRS],
        "ratings": {"results": [[a, b, points, played] for (a, b), (points, played) in RATINGS.items()],
                    "anchor": "negamax", "fit": bradley_terry(RATINGS, "negamax"),
                    "profile": profile_intervals(RATINGS, "negamax")},
        "chi_square": [[x, df, stats.chi2.sf(x, df)] for x, df in CHI_SQUARE],
        "slopes": [[successes, totals, scores, sm.WLS(np.divide(successes, totals), sm.add_constant(np.array(scores)),
                                                      weights=totals).fit().params[1]]
                   for successes, totals, scores in SLOPES],
    }
    for successes, totals, scores in TRENDS:
        table = np.array([successes, [n - x for x, n in zip(successes, totals, strict=True)]], dtype=float)
        association = Table(table).test_ordinal_association(row_scores=np.array([1.0, 0.0]),
                                                            col_scores=np.array(scores))
        total = table.sum()
        # statsmodels' z is M, with the (N - 1) variance: rescaled to N.
        z = association.zscore * math.sqrt(total / (total - 1))
        reference["cochran_armitage"].append([successes, totals, scores, z])
    OUT.write_text(json.dumps(reference, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
