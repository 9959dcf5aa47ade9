"""Pure match statistics: scores, Elo with error bars, LOS, pentanomial pairs, SPRT and a joint Elo fit.

The formulas are the ones chess engine testers publish, so figures here can be compared with
cutechess-cli and fishtest output (tests/test_statistics.py checks them against published runs):
the trinomial (win/draw/loss) Elo interval and LOS of cutechess, the pentanomial Elo interval over
colour-swapped pairs of fishtest, and fishtest's generalised SPRT on logistic Elo with its exact
log-likelihood ratio. Where those normal-approximation intervals break down (every game won, lost
or drawn, or too few games) a score-test interval takes over, which stays finite wherever the data
bound the Elo.

The hypothesis tests that judge the papers' claims are beside them, in ``hypothesis_tests``.
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
    return 1.0 / (1.0 + float(10.0 ** (-elo / 400.0)))


def wilson_interval(wins: int, draws: int, losses: int, z: float = Z95) -> Interval:
    """The score (wins and half the draws, per game) with its Wilson score interval.

    Wilson's interval stays inside [0, 1] and is sensible at 0% and 100%, where the normal
    approximation collapses to a point; a draw counts as half a success.
    """
    games = wins + draws + losses
    if games == 0:
        return Interval(0.5, 0.0, 1.0)
    return wilson_bounds((wins + draws / 2) / games, games, z)


def wilson_bounds(value: float, games: float, z: float = Z95) -> Interval:
    """Wilson's score interval of a proportion ``value`` observed over ``games`` (which may be fractional)."""
    if games <= 0:
        return Interval(value, 0.0, 1.0)
    denominator = 1 + z * z / games
    centre = (value + z * z / (2 * games)) / denominator
    spread = z * math.sqrt(value * (1 - value) / games + z * z / (4 * games * games)) / denominator
    return Interval(value, max(0.0, centre - spread), min(1.0, centre + spread))


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


def fit_ratings(
    results: Mapping[tuple[str, str], tuple[float, int]],
    anchor: str,
    anchor_elo: float = 0.0,
    z: float = Z95,
    iterations: int = 100,
    profile: bool = False,
) -> list[Rating]:
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
            low, high = (
                anchor_elo + _profile_interval(ratings, points, games, free, i, spread, z * z, side)
                for side in (-1.0, 1.0)
            )
        fitted.append(Rating(name, elo, low, high, played_games[i]))
    return sorted(fitted, key=lambda rating: -rating.elo)


def _maximise(
    ratings: np.ndarray, points: np.ndarray, games: np.ndarray, free: list[int], iterations: int = 100
) -> np.ndarray:
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
    scores: np.ndarray = 1 / (1 + 10 ** (-(ratings[:, None] - ratings[None, :]) / 400))
    return scores


def _log_likelihood(ratings: np.ndarray, points: np.ndarray) -> float:
    """The Bradley-Terry log-likelihood: every ordered pair's points times the log of its expected score."""
    expected = _expected_scores(ratings)
    met = points > 0
    return float((points[met] * np.log(expected[met])).sum())


def _profile_interval(
    best: np.ndarray,
    points: np.ndarray,
    games: np.ndarray,
    free: list[int],
    player: int,
    spread: float,
    critical: float,
    side: float,
) -> float:
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


def _log_likelihood_derivatives(
    ratings: np.ndarray, points: np.ndarray, games: np.ndarray, free: list[int]
) -> tuple[np.ndarray, np.ndarray]:
    """Gradient and Hessian of the Bradley-Terry log-likelihood in the free ratings (Elo units)."""
    c = math.log(10) / 400
    expected = _expected_scores(ratings)
    curvature = c * c * games * expected * (1 - expected)
    gradient = c * (points - games * expected).sum(axis=1)
    hessian = curvature - np.diag(curvature.sum(axis=1))
    return gradient[free], hessian[np.ix_(free, free)]
