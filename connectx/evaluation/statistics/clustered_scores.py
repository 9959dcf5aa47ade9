"""A rate over games the design ties together (colour-swapped pairs, shared openings), and what it is worth.

The papers' cells pool games that share an opening; their rates are clustered (sandwich) estimates
with an effective number of games, so that an interval or a test does not count one opening twice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from connectx.evaluation.statistics.elo import Z95, Interval, wilson_bounds


@dataclass(frozen=True)
class ClusteredScore:
    """A mean score over games that are not all independent, and how many independent games it is worth.

    ``clusters`` counts the groups of games the design ties together (the two games of a colour-swapped
    pair share their opening; cells played from the same openings share them pair by pair); games
    with independent seeds and no shared opening are clusters of one. ``effective`` is the number of
    independent games whose binomial variance equals the clustered variance of the mean
    (``clustered_score``), never more than ``games``. ``distinct`` counts the games that differ move
    for move: deterministic agents repeat whole games, which are still independent draws of a seeded
    schedule, so it is reported, not used.
    """

    value: float
    games: int
    clusters: int
    effective: float
    distinct: int

    def interval(self, z: float = Z95) -> Interval:
        """Wilson's interval of the score with the effective number of games in place of the games."""
        return wilson_bounds(self.value, self.effective, z)

    @property
    def few_clusters(self) -> bool:
        """Whether the clustered variance rests on fewer than ``ENOUGH_CLUSTERS`` clusters of several games."""
        return self.clusters < min(self.games, ENOUGH_CLUSTERS)


ENOUGH_CLUSTERS = 30
"""Below about 30 clusters a sandwich variance is unreliable even after the small-sample correction."""


def clustered_score(
    outcomes: Sequence[float],
    groups: Sequence[Sequence[int]],
    strata: Sequence[int] | None = None,
    distinct: int | None = None,
) -> ClusteredScore:
    """The mean of ``outcomes`` (1 win, 0.5 draw, 0 loss) with the games of each of ``groups`` (indices into
    ``outcomes``, together covering every game once) as one cluster of the design.

    ``strata[g]`` names the cell game g was played in when several cells are pooled (default: one
    cell). Cells can differ in rate, so each game's residual is taken about its own cell's mean, not
    the grand mean: differences between the cells, fixed by the design, do not count as noise, and a
    cluster may span cells (the games of one shared opening). The clustered (sandwich) variance with
    the small-sample correction of CR1, V = G / (G - 1) sum_c (sum_{g in c} (y_g - mean_{cell of g}))^2 / n^2
    over G clusters, gives the effective number of games mean (1 - mean) / V, at most n. With
    clusters of one game (independent games) it is n: the binomial variance. When every cell's games
    scored alike there is nothing to estimate the clusters' correlation from, and each cluster counts
    as one game (the design effect n / G of clusters whose games all agree). A rate near 0% or 100% says
    little more: one win in 100 games would give a design effect near 1 and twice the effective games of
    no win at all. So the estimated design effect is shrunk towards that worst case by the evidence behind
    it, the k games of the rarer result: (k d + n / G) / (k + 1), which moves from G effective games at
    k = 0 to the sandwich estimate as k grows. ``distinct`` (default n) is carried through for the report.
    """
    y = np.asarray(outcomes, dtype=float)
    n = len(y)
    if n == 0:
        return ClusteredScore(math.nan, 0, 0, 0.0, 0)
    mean = float(y.mean())
    cells = np.zeros(n, dtype=int) if strata is None else np.asarray(strata, dtype=int)
    varied = any(bool(np.any(y[cells == cell] != y[cells == cell][0])) for cell in np.unique(cells))
    clusters = len(groups)
    binomial = mean * (1 - mean)
    if clusters == n:
        effective = float(n)
    elif binomial <= 0 or not varied or clusters < 2:  # one cluster: no variance between clusters to estimate
        effective = float(clusters)
    else:
        clustered = clustered_variance(outcomes, groups, strata)
        estimated = float(n) if clustered <= 0 else min(float(n), binomial / clustered)
        rarer = min(float(y.sum()), n - float(y.sum()))
        design_effect = (rarer * n / estimated + n / clusters) / (rarer + 1)
        effective = n / design_effect
    return ClusteredScore(mean, n, clusters, effective, n if distinct is None else distinct)


def clustered_variance(
    outcomes: Sequence[float], groups: Sequence[Sequence[int]], strata: Sequence[int] | None = None
) -> float:
    """The CR1 clustered (sandwich) variance of the mean of ``outcomes``, each game's residual about its own
    cell's mean (``clustered_score`` explains the arguments): G / (G - 1) sum_c (sum_{g in c} e_g)^2 / n^2.

    This is the sandwich variance of the cell-size-weighted mean of an OLS fit on one indicator per cell,
    with the small-sample factor G / (G - 1) alone: statsmodels' and Stata's CR1 for a linear model also
    multiply by (n - 1) / (n - cells), which is 1 for one cell and within a few per cent of 1 for the
    papers' hundreds of games over a handful of cells. Infinite for a single cluster.
    """
    y = np.asarray(outcomes, dtype=float)
    n = len(y)
    cells = np.zeros(n, dtype=int) if strata is None else np.asarray(strata, dtype=int)
    residuals = y.copy()
    for cell in np.unique(cells):
        residuals[cells == cell] -= y[cells == cell].mean()
    clusters = len(groups)
    if clusters < 2:
        return math.inf
    return clusters / (clusters - 1) * sum(float(residuals[list(group)].sum()) ** 2 for group in groups) / (n * n)
