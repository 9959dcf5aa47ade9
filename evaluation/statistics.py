"""Pure match statistics: scores, Elo with error bars, LOS, pentanomial pairs, SPRT and a joint Elo fit.

The formulas are the ones chess engine testers use, so figures here can be compared with
cutechess-cli and fishtest output: the trinomial (win/draw/loss) Elo interval and LOS of
cutechess, the pentanomial variance over colour-swapped pairs of fishtest, and the generalised
SPRT on logistic Elo with its normal approximation of the log-likelihood ratio.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

Z95 = NormalDist().inv_cdf(0.975)
"""The two-sided 95% quantile of the standard normal, 1.959964..."""


@dataclass(frozen=True)
class Interval:
    """A point estimate with the low and high ends of its 95% interval."""

    value: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        """The ``+/-`` figure printed beside the value (half the width of the interval)."""
        return (self.high - self.low) / 2


def elo_from_score(score: float) -> float:
    """The logistic Elo difference whose expected score is ``score`` (0.75 -> +190.8); +-inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger than its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def wilson_interval(wins: int, draws: int, losses: int, z: float = Z95) -> Interval:
    """The score (wins and half the draws, per game) with its Wilson score interval.

    Wilson's interval stays inside [0, 1] and is sensible at 0% and 100%, where the normal
    approximation collapses to a point; a draw counts as half a success.
    """
    games = wins + draws + losses
    if games == 0:
        return Interval(0.5, 0.0, 1.0)
    p = (wins + draws / 2) / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return Interval(p, max(0.0, centre - spread), min(1.0, centre + spread))


def elo_interval(wins: int, draws: int, losses: int, z: float = Z95) -> Interval:
    """The Elo difference and its interval from W/D/L, as cutechess-cli computes them.

    The per-game score variance comes from the observed trinomial frequencies; the interval of the
    mean score is mapped to Elo through the logistic curve (so it is not symmetric far from 50%).
    When every game had the same result the observed variance is 0 and that interval would be a
    point; the Wilson interval of the score, mapped to Elo, is used instead.
    """
    games = wins + draws + losses
    if games == 0:
        return Interval(0.0, -math.inf, math.inf)
    mean = (wins + draws / 2) / games
    variance = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / games
    if variance <= 0:
        score = wilson_interval(wins, draws, losses, z)
        return Interval(elo_from_score(mean), elo_from_score(score.low), elo_from_score(score.high))
    return _mean_to_elo(mean, math.sqrt(variance / games), z)


def pentanomial_elo_interval(pairs: Sequence[int], z: float = Z95) -> Interval:
    """The Elo difference and its interval from pentanomial pair counts, as fishtest computes them.

    ``pairs[k]`` is how many colour-swapped pairs scored ``k / 2`` points out of 2 (k = 0..4).
    Pairs share an opening, so their games are correlated; the variance of pair scores captures
    that, and the interval is usually narrower than the trinomial one.
    """
    if len(pairs) != 5:
        raise ValueError(f"pentanomial counts need 5 entries (0, 0.5, 1, 1.5, 2 points), got {len(pairs)}")
    total = sum(pairs)
    if total == 0:
        return Interval(0.0, -math.inf, math.inf)
    scores = [k / 4 for k in range(5)]
    mean = sum(n * s for n, s in zip(pairs, scores, strict=True)) / total
    variance = sum(n * (s - mean) ** 2 for n, s in zip(pairs, scores, strict=True)) / total
    return _mean_to_elo(mean, math.sqrt(variance / total), z)


def _mean_to_elo(mean: float, standard_error: float, z: float) -> Interval:
    return Interval(elo_from_score(mean), elo_from_score(mean - z * standard_error),
                    elo_from_score(mean + z * standard_error))


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


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """The probability that the first player is the stronger one, from decisive games only (0..1)."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))


def pentanomial(pair_points: Sequence[float]) -> tuple[int, int, int, int, int]:
    """Counts of pairs that scored 0, 0.5, 1, 1.5 and 2 points (each pair is two games)."""
    counts = [0] * 5
    for points in pair_points:
        index = round(points * 2)
        if not 0 <= index <= 4 or not math.isclose(index / 2, points):
            raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, not {points}")
        counts[index] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4]


@dataclass(frozen=True)
class SprtBounds:
    """The log-likelihood ratio bounds of an SPRT: below ``lower`` accept H0, above ``upper`` H1."""

    lower: float
    upper: float

    @classmethod
    def of(cls, alpha: float, beta: float) -> SprtBounds:
        """Wald's bounds for false-positive rate ``alpha`` and false-negative rate ``beta``."""
        if not (0 < alpha < 1 and 0 < beta < 1):
            raise ValueError(f"alpha = {alpha}, beta = {beta}: both must lie strictly between 0 and 1")
        return cls(math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha))


def sprt_llr(outcome_counts: Mapping[float, float], elo0: float, elo1: float) -> float:
    """The generalised SPRT log-likelihood ratio of H1 (``elo1``) over H0 (``elo0``), logistic Elo.

    ``outcome_counts`` maps each observed per-item score in [0, 1] to how often it occurred: the
    trinomial {1: W, 0.5: D, 0: L} for games, or {0, 0.25, 0.5, 0.75, 1} for pairs (pentanomial).
    The LLR uses the normal approximation of the GSPRT (as cutechess and fishtest do). While every
    item has the same score the variance is 0 and the approximation is undefined; half a pseudo-item
    at each extreme (0 and 1) then stands in, so a run of straight wins does end the test, but only
    after several items rather than the first.
    """
    items = sum(outcome_counts.values())
    if items == 0:
        return 0.0
    mean = sum(score * n for score, n in outcome_counts.items()) / items
    variance = sum(n * (score - mean) ** 2 for score, n in outcome_counts.items()) / items
    if variance <= 0:
        padded: dict[float, float] = dict(outcome_counts)
        for extreme in (0.0, 1.0):
            padded[extreme] = padded.get(extreme, 0) + 0.5
        return sprt_llr(padded, elo0, elo1)
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return items * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def sprt_decision(llr: float, bounds: SprtBounds) -> str | None:
    """``"H1"`` or ``"H0"`` once the LLR crosses a bound, otherwise None (keep playing)."""
    if llr >= bounds.upper:
        return "H1"
    if llr <= bounds.lower:
        return "H0"
    return None


@dataclass(frozen=True)
class Rating:
    """A player's fitted Elo relative to the anchor, with its 95% interval."""

    name: str
    elo: float
    low: float
    high: float
    games: int


def fit_ratings(results: Mapping[tuple[str, str], tuple[float, int]], anchor: str,
                anchor_elo: float = 0.0, z: float = Z95, iterations: int = 100) -> list[Rating]:
    """A joint maximum-likelihood Elo fit of every player (Bradley-Terry, draws as half points).

    ``results[(a, b)] = (points of a, games)`` for each pairing (either order; both are summed).
    The ``anchor`` is pinned at ``anchor_elo``; the others' intervals come from the inverse Fisher
    information at the optimum, so they measure uncertainty relative to the anchor. A player who
    won or lost every game has no finite maximum; then, as BayesElo's prior does, one virtual draw
    is added to every pairing, which keeps all ratings finite and shrinks them a little. When some
    player is tied to the anchor by no chain of games the fit is not identified: every rating stays
    at the anchor's, with an unbounded interval. Sorted strongest first.
    """
    players = sorted({name for pair in results for name in pair} | {anchor})
    if anchor not in {name for pair in results for name in pair}:
        raise ValueError(f"anchor {anchor!r} played no games; pick one of {', '.join(players)}")
    index = {name: i for i, name in enumerate(players)}
    points = np.zeros((len(players), len(players)))
    games = np.zeros((len(players), len(players)))
    for (a, b), (score, played) in results.items():
        i, j = index[a], index[b]
        points[i, j] += score
        points[j, i] += played - score
        games[i, j] += played
        games[j, i] += played
    played_games = [int(n) for n in games.sum(axis=1)]
    scored = points.sum(axis=1)
    if np.any((scored == 0) | (scored == games.sum(axis=1))):
        met = games > 0
        points[met] += 0.5
        games[met] += 1
    np.fill_diagonal(points, 0.0)  # a player's games against itself say nothing about its rating
    np.fill_diagonal(games, 0.0)
    free = [i for i, name in enumerate(players) if name != anchor]
    ratings = np.zeros(len(players))
    for _ in range(iterations):
        gradient, hessian = _log_likelihood_derivatives(ratings, points, games, free)
        if np.linalg.matrix_rank(hessian) < len(free):
            break  # some player is not tied to the anchor by any chain of games
        step = np.linalg.solve(hessian, gradient)
        ratings[free] -= np.clip(step, -400.0, 400.0)
        if np.max(np.abs(step), initial=0.0) < 1e-9:
            break
    _, hessian = _log_likelihood_derivatives(ratings, points, games, free)
    covariance = np.linalg.inv(-hessian) if np.linalg.matrix_rank(hessian) == len(free) else None
    fitted = []
    for i, name in enumerate(players):
        if name == anchor:
            fitted.append(Rating(name, anchor_elo, anchor_elo, anchor_elo, played_games[i]))
            continue
        k = free.index(i)
        variance = covariance[k, k] if covariance is not None else math.nan
        spread = z * math.sqrt(variance) if variance > 0 else math.inf
        elo = float(ratings[i]) + anchor_elo
        fitted.append(Rating(name, elo, elo - spread, elo + spread, played_games[i]))
    return sorted(fitted, key=lambda rating: -rating.elo)


def _log_likelihood_derivatives(ratings: np.ndarray, points: np.ndarray, games: np.ndarray,
                                free: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Gradient and Hessian of the Bradley-Terry log-likelihood in the free ratings (Elo units)."""
    c = math.log(10) / 400
    expected = 1 / (1 + 10 ** (-(ratings[:, None] - ratings[None, :]) / 400))
    curvature = c * c * games * expected * (1 - expected)
    gradient = c * (points - games * expected).sum(axis=1)
    hessian = curvature - np.diag(curvature.sum(axis=1))
    return gradient[free], hessian[np.ix_(free, free)]
