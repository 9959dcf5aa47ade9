"""Pure match statistics: scores, Elo with error bars, LOS, pentanomial pairs, SPRT and a joint Elo fit.

The formulas are the ones chess engine testers publish, so figures here can be compared with
cutechess-cli and fishtest output (tests/test_statistics.py checks them against published runs):
the trinomial (win/draw/loss) Elo interval and LOS of cutechess, the pentanomial Elo interval over
colour-swapped pairs of fishtest, and fishtest's generalised SPRT on logistic Elo with its exact
log-likelihood ratio. Where those normal-approximation intervals break down (every game won, lost
or drawn, or too few games) a score-test interval takes over, which stays finite wherever the data
bound the Elo.

For judging claims about rates (``connectx.papers.verdicts``): the Cochran-Armitage trend test (checked
against R's ``prop.trend.test`` and Agresti's textbook example), score tests of a claimed rate,
their powers, Holm's step-down correction, a clustered (sandwich) score whose effective number of
games accounts for colour-swapped pairs and repeated games, and which players a joint Elo fit can
rate at all (the strongly connected groups of "scored against").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

Z95 = NormalDist().inv_cdf(0.975)
"""The two-sided 95% quantile of the standard normal, 1.959964..."""

GAME_SCORES = (0.0, 0.5, 1.0)
"""What one game scores: a loss, a draw, a win."""

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""What a colour-swapped pair scores per game: 0, 0.5, 1, 1.5 or 2 points out of 2."""

PSEUDO_COUNT = 1e-3
"""What fishtest (LLRcalc.regularize) counts for an outcome never seen, so that every outcome stays possible."""


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
    return wilson_bounds((wins + draws / 2) / games, games, z)


def elo_interval(wins: int, draws: int, losses: int, z: float = Z95) -> Interval:
    """The Elo difference and its interval from W/D/L, as cutechess-cli computes them.

    The per-game score variance comes from the observed trinomial frequencies; the interval of the
    mean score is mapped to Elo through the logistic curve (so it is not symmetric far from 50%).
    That normal approximation fails when every game had the same result (the observed variance is 0
    and the interval a point) or when its interval reaches a score of 0 or 1 (an infinite Elo bound
    after a handful of games); then ``score_test_interval`` is used instead. Its ends are finite
    except the upper one after a 100% score and the lower one after 0%, where the estimate itself is
    infinite and the report prints the finite end as a bound (``> +X``).
    """
    return _elo_interval(GAME_SCORES, (losses, draws, wins), z)


def pentanomial_elo_interval(pairs: Sequence[int], z: float = Z95) -> Interval:
    """The Elo difference and its interval from pentanomial pair counts, as fishtest computes them.

    ``pairs[k]`` is how many colour-swapped pairs scored ``k / 2`` points out of 2 (k = 0..4).
    Pairs share an opening, so their games are correlated; the variance of pair scores captures
    that, and the interval is usually narrower than the trinomial one. The interval of the mean pair
    score is fishtest's (stat_util.get_elo: the normal approximation with the observed pentanomial
    variance) and falls back to ``score_test_interval`` where that fails, as ``elo_interval`` does:
    after n pairs all won its lower end is about Wilson's bound on n Bernoulli pairs,
    n / (n + z^2) (5 pairs: a score of 0.566, +46 Elo), since nothing yet shows how much the two
    games of a pair agree; after n pairs all split 1-1 it is finite and shrinks with n (50 such
    pairs: +-25 Elo), bounded by how many 2-0 or 0-2 pairs could still be unseen.
    """
    if len(pairs) != 5:
        raise ValueError(f"pentanomial counts need 5 entries (0, 0.5, 1, 1.5, 2 points), got {len(pairs)}")
    return _elo_interval(PAIR_SCORES, pairs, z)


def _elo_interval(scores: Sequence[float], counts: Sequence[float], z: float) -> Interval:
    """The normal interval of the mean score mapped to Elo, or the score-test one where it fails."""
    items = sum(counts)
    if items == 0:
        return Interval(0.0, -math.inf, math.inf)
    values, weights = np.asarray(scores, dtype=float), np.asarray(counts, dtype=float) / items
    mean = float(weights @ values)
    spread = z * math.sqrt(float(weights @ (values - mean) ** 2) / items)
    low, high = mean - spread, mean + spread
    if not (spread > 0 and 0 < low and high < 1):
        interval = score_test_interval(scores, counts, z)
        low, high = interval.low, interval.high
    return Interval(elo_from_score(mean), elo_from_score(low), elo_from_score(high))


def score_test_interval(scores: Sequence[float], counts: Sequence[float], z: float = Z95) -> Interval:
    """The mean score with the interval of the score test: every mean m the counts do not reject.

    ``counts[i]`` items scored ``scores[i]`` (ascending). m is kept while n (mean - m)^2 <= z^2 V(m),
    V(m) being the variance of the most likely distribution of mean m (``most_likely_distribution``).
    This is Wilson's interval carried from two outcomes to several: with the outcomes 0 and 1 that
    distribution is Bernoulli(m) and the interval is exactly Wilson's. It needs no observed variance,
    so it is meaningful when every item had the same result; an end reaches the lowest (highest)
    score only when every item scored it. Outcomes never seen get fishtest's pseudo-count, so V(m)
    exists for every m strictly between the lowest and highest scores.
    """
    items = sum(counts)
    lowest, highest = scores[0], scores[-1]
    if items == 0:
        return Interval(math.nan, lowest, highest)
    mean = sum(s * n for s, n in zip(scores, counts, strict=True)) / items
    family = _most_likely_family(scores, _regularized(counts))

    def excess(u: float) -> float:  # negative while the mean of family(u) is kept
        fitted = family(u)
        m = _mean(scores, fitted)
        return items * (mean - m) ** 2 - z * z * sum(p * (s - m) ** 2 for p, s in zip(fitted, scores, strict=True))

    # family(0) is the observed frequencies, which the test keeps; u > 0 lowers the mean, u < 0 raises it.
    low = lowest if mean <= lowest else _mean(scores, family(_crossing(excess, 1.0)))
    high = highest if mean >= highest else _mean(scores, family(_crossing(excess, -1.0)))
    return Interval(mean, low, high)


def most_likely_distribution(scores: Sequence[float], observed: Sequence[float], mean: float) -> list[float]:
    """The distribution over ``scores`` with expectation ``mean`` under which ``observed`` is most likely.

    Maximising sum f_i log p_i subject to sum p_i = 1 and sum p_i a_i = mean gives
    p_i = f_i / (1 + x (a_i - mean)) for a Lagrange multiplier x (Van den Bergh, "A note on the
    maximum likelihood estimate of a multinomial with given expectation value",
    support_MLE_multinomial.pdf, Proposition 1.1; fishtest's LLRcalc.MLE_expected). Here x is not
    solved for directly: ``_most_likely_family`` writes these distributions for every mean as one
    family, and the member with the asked mean is found by a one-dimensional search. ``observed``
    are frequencies summing to 1, none of them zero; ``mean`` lies strictly between the lowest and
    highest score.
    """
    family = _most_likely_family(scores, observed)
    direction = 1.0 if mean < _mean(scores, observed) else -1.0  # the family's mean falls as u grows
    return family(_crossing(lambda u: direction * (mean - _mean(scores, family(u))), direction))


def _most_likely_family(scores: Sequence[float], observed: Sequence[float]) -> Callable[[float], list[float]]:
    """The most likely distributions of every mean as one family u -> p(u), p(0) = ``observed``.

    Factoring 1 + x (a_i - m) = (1 + x (a_0 - m)) (1 + t (a_i - a_0)), t = x / (1 + x (a_0 - m)),
    shows that the fits p_i = f_i / (1 + x (a_i - m)) of all means m are p_i proportional to
    f_i / (1 + t (a_i - a_0)), one t each, the mean falling as t grows. With e^u = 1 + t (a_n - a_0)
    and w_i = (a_i - a_0) / (a_n - a_0) that is f_i / (1 - w_i + w_i e^u): defined for every real u,
    and u spreads the near-certain means, where all the mass sits on one outcome, over a wide range.
    """
    lowest, spread = scores[0], scores[-1] - scores[0]
    weights = [(a - lowest) / spread for a in scores]

    def member(u: float) -> list[float]:
        growth = math.exp(u)
        unscaled = [f / (1 - w + w * growth) for f, w in zip(observed, weights, strict=True)]
        total = sum(unscaled)
        return [p / total for p in unscaled]

    return member


def _mean(scores: Sequence[float], distribution: Sequence[float]) -> float:
    return sum(a * p for a, p in zip(scores, distribution, strict=True))


_FAR = 700.0
"""How far ``_crossing`` searches: e^-700 is still a normal float, and the family's means are then extreme."""


def _crossing(function: Callable[[float], float], direction: float) -> float:
    """Where ``function``, negative at 0 and increasing along ``direction`` (+1 or -1), turns positive.

    The step doubles until the sign changes (or ``_FAR`` is reached, which is returned), then false
    position with the Illinois halving, which keeps both ends of the bracket moving, narrows it.
    """
    a, fa = 0.0, function(0.0)
    step = direction
    while True:
        b = max(-_FAR, min(_FAR, a + step))
        fb = function(b)
        if fb > 0:
            break
        if abs(b) == _FAR:
            return b
        a, fa, step = b, fb, 2 * step
    moved = 0
    for _ in range(200):
        c = (a * fb - b * fa) / (fb - fa)
        fc = function(c)
        if fc > 0:
            b, fb = c, fc
            fa = fa / 2 if moved == 1 else fa
            moved = 1
        else:
            a, fa = c, fc
            fb = fb / 2 if moved == -1 else fb
            moved = -1
        if fc == 0 or abs(b - a) < 1e-12:
            break
    return a


def _regularized(counts: Sequence[float]) -> list[float]:
    """Frequencies with fishtest's pseudo-count in place of every zero count (LLRcalc.results_to_pdf)."""
    padded = [n if n > 0 else PSEUDO_COUNT for n in counts]
    total = sum(padded)
    return [n / total for n in padded]


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

    ``outcome_counts`` maps each possible per-item score in [0, 1] to how often it occurred: the
    trinomial {0: L, 0.5: D, 1: W} for games, or {0, 0.25, 0.5, 0.75, 1} for colour-swapped pairs
    (the pentanomial, which is what matches test). This is fishtest's LLR_logistic
    (official-stockfish/fishtest, server/fishtest/stats/LLRcalc.py), the GSPRT of Van den Bergh's
    support_MLE_multinomial.pdf: under each hypothesis the outcome distribution is the most likely
    one whose mean is that hypothesis's expected score (``most_likely_distribution``), and the LLR
    is N * sum f_i log(p1_i / p0_i) over the observed frequencies f. As in fishtest, an outcome
    never seen counts as 1e-3 of an item (N includes it), and scores 0 and 1 are always possible
    outcomes. So a run of straight wins ends the test, after about bound / log(s1 / s0) items
    (s the expected scores), and the LLR is exact rather than the normal approximation that
    cutechess prints (the two agree closely on large samples).
    """
    if any(not 0.0 <= score <= 1.0 for score in outcome_counts):
        raise ValueError(f"scores lie in [0, 1]: {sorted(outcome_counts)}")
    scores = sorted(set(outcome_counts) | {0.0, 1.0})
    counts = [outcome_counts.get(score, 0) for score in scores]
    if sum(counts) <= 0:
        return 0.0
    items = sum(n if n > 0 else PSEUDO_COUNT for n in counts)
    observed = _regularized(counts)
    h0, h1 = (most_likely_distribution(scores, observed, score_from_elo(elo)) for elo in (elo0, elo1))
    return items * float(np.dot(observed, np.log(np.divide(h1, h0))))


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
                anchor_elo: float = 0.0, z: float = Z95, iterations: int = 100,
                profile: bool = False) -> list[Rating]:
    """A joint maximum-likelihood Elo fit of every player (Bradley-Terry, draws as half points).

    ``results[(a, b)] = (points of a, games)`` for each pairing (either order; both are summed).
    The ``anchor`` is pinned at ``anchor_elo``; the others' intervals come from the inverse Fisher
    information at the optimum, so they measure uncertainty relative to the anchor. A player who
    won or lost every game has no finite maximum; then, as BayesElo's prior does, one virtual draw
    is added to every pairing, which keeps all ratings finite and shrinks them a little. When some
    player is tied to the anchor by no chain of games the fit is not identified: every rating stays
    at the anchor's, with an unbounded interval. With ``profile`` the intervals are the profile-likelihood
    ones instead (``_profile_interval``): asymmetric where the likelihood is, as it is for a player
    who lost or won nearly every game, where the Wald interval's symmetry misleads. Sorted strongest first.
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
    ratings = _maximise(np.zeros(len(players)), points, games, free, iterations)
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
        low, high = elo - spread, elo + spread
        if profile and math.isfinite(spread):
            low, high = (anchor_elo + _profile_interval(ratings, points, games, free, i, spread, z * z, side)
                         for side in (-1.0, 1.0))
        fitted.append(Rating(name, elo, low, high, played_games[i]))
    return sorted(fitted, key=lambda rating: -rating.elo)


def _maximise(ratings: np.ndarray, points: np.ndarray, games: np.ndarray, free: list[int],
              iterations: int = 100) -> np.ndarray:
    """The Bradley-Terry maximum in the ``free`` ratings by Newton's method, the others held where they are."""
    ratings = ratings.copy()
    for _ in range(iterations):
        gradient, hessian = _log_likelihood_derivatives(ratings, points, games, free)
        if np.linalg.matrix_rank(hessian) < len(free):
            break  # some player is not tied to the anchor by any chain of games
        step = np.linalg.solve(hessian, gradient)
        ratings[free] -= np.clip(step, -400.0, 400.0)
        if np.max(np.abs(step), initial=0.0) < 1e-9:
            break
    return ratings


def _expected_scores(ratings: np.ndarray) -> np.ndarray:
    """Row player's expected score against the column player, for every pair of ratings (Elo)."""
    return 1 / (1 + 10 ** (-(ratings[:, None] - ratings[None, :]) / 400))


def _log_likelihood(ratings: np.ndarray, points: np.ndarray) -> float:
    """The Bradley-Terry log-likelihood: every ordered pair's points times the log of its expected score."""
    expected = _expected_scores(ratings)
    met = points > 0
    return float((points[met] * np.log(expected[met])).sum())


def _profile_interval(best: np.ndarray, points: np.ndarray, games: np.ndarray, free: list[int], player: int,
                      spread: float, critical: float, side: float) -> float:
    """Where, on ``side`` (-1 below, +1 above) of the maximum, player's profile likelihood ratio reaches ``critical``.

    The profile at a rating v holds the player at v and maximises over everyone else;
    2 (l_max - l_profile(v)) <= critical (3.84 for 95%) is the interval. The Wald ``spread`` sets the first
    bracket, widened until it holds the crossing; bisection then narrows it to a hundredth of a point.
    """
    others = [i for i in free if i != player]
    top = _log_likelihood(best, points)
    start = best.copy()

    def excess(offset: float) -> float:
        trial = start.copy()
        trial[player] = best[player] + side * offset
        fitted = _maximise(trial, points, games, others)
        start[:] = fitted  # the next profile starts from this one's optimum
        return 2 * (top - _log_likelihood(fitted, points)) - critical

    low, high = 0.0, spread
    while excess(high) < 0:
        low, high = high, 2 * high
        if high > 1e5:
            return float(best[player] + side * math.inf)
    while high - low > 0.01:
        middle = (low + high) / 2
        low, high = (middle, high) if excess(middle) < 0 else (low, middle)
    return float(best[player] + side * (low + high) / 2)


def _log_likelihood_derivatives(ratings: np.ndarray, points: np.ndarray, games: np.ndarray,
                                free: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Gradient and Hessian of the Bradley-Terry log-likelihood in the free ratings (Elo units)."""
    c = math.log(10) / 400
    expected = _expected_scores(ratings)
    curvature = c * c * games * expected * (1 - expected)
    gradient = c * (points - games * expected).sum(axis=1)
    hessian = curvature - np.diag(curvature.sum(axis=1))
    return gradient[free], hessian[np.ix_(free, free)]


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
    spread = float(n @ centred ** 2)
    if spread <= 0:
        return Trend(math.nan, math.nan, 0.0, 0.0)
    rates = np.divide(x, n, out=np.zeros_like(x), where=n > 0)
    statistic = float((x - n * p) @ centred)
    error = math.sqrt(float((n * rates * (1 - rates)) @ centred ** 2)) / spread
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


def trend_power(totals: Sequence[float], scores: Sequence[float], alternative: Sequence[float],
                alpha: float) -> float:
    """The power of the two-sided Cochran-Armitage test at ``alpha`` when group i's true proportion is
    ``alternative[i]`` (Nam 1987: the statistic's mean and variance under the alternative, normal)."""
    n, s, p = (np.asarray(values, dtype=float) for values in (totals, scores, alternative))
    total = n.sum()
    centred = s - (n @ s) / total
    pooled = float(n @ p) / total
    null_sd = math.sqrt(pooled * (1 - pooled) * float(n @ centred ** 2))
    mean = float((n * p) @ centred)
    sd = math.sqrt(float((n * p * (1 - p)) @ centred ** 2))
    if null_sd == 0 or sd == 0:
        return math.nan
    z = NormalDist().inv_cdf(1 - alpha / 2)
    normal = NormalDist()
    return normal.cdf((abs(mean) - z * null_sd) / sd) + normal.cdf((-abs(mean) - z * null_sd) / sd)


def rate_z(value: float, claimed: float, effective: float) -> float:
    """The score-test statistic of an observed rate ``value`` against a ``claimed`` one over ``effective`` games.

    A claim of 0% or 100% is refuted by one counterexample, so there z is -inf/+inf on any
    departure and 0 without one (``rate_power`` gives the chance of seeing that counterexample).
    """
    if claimed in (0.0, 1.0):
        return 0.0 if value == claimed else math.copysign(math.inf, value - claimed)
    return (value - claimed) / math.sqrt(claimed * (1 - claimed) / effective)


def rate_power(claimed: float, true: float, effective: float, alpha: float) -> float:
    """The power of the two-sided score test of ``claimed`` at ``alpha`` when the rate is really ``true``.

    For a claim of 0% or 100% it is the chance of at least one counterexample in ``effective`` games.
    """
    if claimed in (0.0, 1.0):
        return 1.0 - (1.0 - abs(true - claimed)) ** effective
    z = NormalDist().inv_cdf(1 - alpha / 2)
    shift = abs(true - claimed) * math.sqrt(effective)
    spread = math.sqrt(true * (1 - true))
    if spread == 0:
        return 1.0
    normal = NormalDist()
    return normal.cdf((shift - z * math.sqrt(claimed * (1 - claimed))) / spread) + normal.cdf(
        (-shift - z * math.sqrt(claimed * (1 - claimed))) / spread)


def correlation_z(r: float, n: int) -> float:
    """Fisher's z statistic of a sample correlation ``r`` of ``n`` pairs against 0."""
    if n < 4 or math.isnan(r):
        return math.nan
    return math.atanh(max(-0.999999, min(0.999999, r))) * math.sqrt(n - 3)


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
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
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


def equivalence_z(value: float, claimed: float, margin: float, effective: float) -> float:
    """The statistic of the two one-sided score tests (TOST) that a rate lies within ``margin`` of ``claimed``.

    Each side is the score test of its boundary (claimed - margin, claimed + margin), with that
    boundary's binomial variance, so it stays finite at 0% and 100%; a boundary outside [0, 1]
    cannot be crossed and its side is +inf. The smaller of the two is returned: equivalence is shown
    at alpha when it exceeds the one-sided alpha quantile (the TOST p-value is ``upper_p_value`` of it).
    """
    sides = []
    for boundary, sign in ((claimed - margin, 1.0), (claimed + margin, -1.0)):
        if not 0.0 < boundary < 1.0:
            sides.append(math.inf)
        else:
            sides.append(sign * (value - boundary) / math.sqrt(boundary * (1 - boundary) / effective))
    return min(sides)


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


def difference_interval(a: Interval, b: Interval) -> Interval:
    """The difference ``a - b`` of two independent proportions with Newcombe's hybrid score interval.

    Built from each proportion's own (Wilson) interval (Newcombe 1998, method 10), so it stays sensible
    at 0% and 100%, where the Wald interval of a difference collapses.
    """
    value = a.value - b.value
    low = value - math.sqrt((a.value - a.low) ** 2 + (b.high - b.value) ** 2)
    high = value + math.sqrt((a.high - a.value) ** 2 + (b.value - b.low) ** 2)
    return Interval(value, max(-1.0, low), min(1.0, high))


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


def wilson_bounds(value: float, games: float, z: float = Z95) -> Interval:
    """Wilson's score interval of a proportion ``value`` observed over ``games`` (which may be fractional)."""
    if games <= 0:
        return Interval(value, 0.0, 1.0)
    denominator = 1 + z * z / games
    centre = (value + z * z / (2 * games)) / denominator
    spread = z * math.sqrt(value * (1 - value) / games + z * z / (4 * games * games)) / denominator
    return Interval(value, max(0.0, centre - spread), min(1.0, centre + spread))


def clustered_score(outcomes: Sequence[float], groups: Sequence[Sequence[int]], strata: Sequence[int] | None = None,
                    distinct: int | None = None) -> ClusteredScore:
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
    as one game. ``distinct`` (default n) is carried through for the report.
    """
    y = np.asarray(outcomes, dtype=float)
    n = len(y)
    if n == 0:
        return ClusteredScore(math.nan, 0, 0, 0.0, 0)
    mean = float(y.mean())
    cells = np.zeros(n, dtype=int) if strata is None else np.asarray(strata, dtype=int)
    residuals = y.copy()
    varied = False
    for cell in np.unique(cells):
        members = cells == cell
        residuals[members] -= y[members].mean()
        varied = varied or bool(np.any(y[members] != y[members][0]))
    clusters = len(groups)
    binomial = mean * (1 - mean)
    if clusters == n:
        effective = float(n)
    elif binomial <= 0 or not varied:
        effective = float(clusters)
    else:
        clustered = sum(float(residuals[list(group)].sum()) ** 2 for group in groups) / (n * n)
        clustered *= clusters / (clusters - 1) if clusters > 1 else math.inf
        effective = float(n) if clustered <= 0 else min(float(n), binomial / clustered)
    return ClusteredScore(mean, n, clusters, effective, n if distinct is None else distinct)


def connected_players(results: Mapping[tuple[str, str], tuple[float, int]]) -> list[set[str]]:
    """The groups of players whose joint Elo fit has a finite maximum: the strongly connected components of
    "scored at least a draw against" (Zermelo 1929, Ford 1957), largest first.

    A player who lost every game (or won every game) against the rest of its group has no finite
    rating: Bradley-Terry would push it to -inf (+inf). Within a component every player has taken
    points from, and given points to, the others along some chain of games.
    """
    beats: dict[str, set[str]] = {}
    for (a, b), (points, games) in results.items():
        beats.setdefault(a, set())
        beats.setdefault(b, set())
        if a == b or games <= 0:
            continue
        if points > 0:
            beats[a].add(b)
        if points < games:
            beats[b].add(a)
    return sorted(_strongly_connected(beats), key=lambda group: (-len(group), sorted(group)))


MIN_DECISIVE_POINTS = 10.0
"""The points a player must both win and lose within a rated group before a joint fit places it: fewer, and
its rating rests on a handful of games that went the other way (a 99-1 record), wherever the schedule put it."""


def rankable_players(results: Mapping[tuple[str, str], tuple[float, int]], anchor: str,
                     minimum: float = MIN_DECISIVE_POINTS) -> set[str]:
    """The group of players a joint fit can place: strongly connected (``connected_players``), each having won
    and lost at least ``minimum`` points (a draw is half a point each way) against the others of the group.

    Dropping a player changes the others' counts, so this repeats until nothing changes. Where the
    players split into several groups, the one holding ``anchor`` is preferred, else the largest;
    empty when no two players qualify.
    """
    def chosen(pairs: Mapping[tuple[str, str], tuple[float, int]]) -> set[str]:
        groups = [g for g in connected_players(pairs) if len(g) > 1]
        return next((g for g in groups if anchor in g), groups[0] if groups else set())

    group = chosen(results)
    while group:
        won = dict.fromkeys(group, 0.0)
        lost = dict.fromkeys(group, 0.0)
        for (a, b), (points, games) in results.items():
            if a in group and b in group and a != b:
                won[a], lost[a] = won[a] + points, lost[a] + games - points
                won[b], lost[b] = won[b] + games - points, lost[b] + points
        kept = {name for name in group if min(won[name], lost[name]) >= minimum}
        if kept == group:
            return group
        group = chosen({pair: value for pair, value in results.items() if pair[0] in kept and pair[1] in kept})
    return set()


def _strongly_connected(edges: Mapping[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components of a small directed graph (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(component)
    return components
