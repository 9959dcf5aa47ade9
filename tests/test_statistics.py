"""Match statistics against published figures (cutechess-cli and fishtest output) and textbook values."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from connectx.evaluation.statistics import elo as st

# cutechess computes the 97.5% normal quantile with Winitzki's approximation of erf^-1, which gives
# 1.95716 rather than 1.95996; its printed error bars are reproduced with that quantile.
CUTECHESS_Z = 1.9571619316560775

# "Score of A vs B: W - L - D" lines and the "Elo difference: E +/- M, LOS: P %" line printed under
# them, copied from match logs published in GitHub pull requests and issues.
PUBLISHED_CUTECHESS = [
    # (wins, losses, draws, elo, margin, los %)
    (332, 316, 352, 5.6, 17.3, 73.5),  # JoAnnP38/Pedantic#8
    (143, 129, 368, 7.6, 17.5, 80.2),  # kelseyde/calvin-chess-engine#97
    (1216, 1199, 3939, 0.9, 5.3, 63.5),  # kelseyde/calvin-chess-engine#97
    (880, 759, 1863, 12.0, 7.9, 99.9),  # cutechess/cutechess#543
    (745, 678, 501, 12.1, 13.3, 96.2),  # princesslana/princhess#210
]

# fishtest's "ELO: E +-M (95%)" for fixed-length runs, computed from the pentanomial counts printed
# under it (server/fishtest/stats/stat_util.py, get_elo).
PUBLISHED_FISHTEST_ELO = [
    # (pairs with 0, 0.5, 1, 1.5, 2 points, elo, margin)
    # Stockfish blog, "Introducing NNUE Evaluation" (2020-08-07): tests/view/5f28fe6ea5abc164f05e4c4c
    ((609, 3850, 9708, 10948, 4885), 92.77, 2.1),
    # ... and tests/view/5f290229a5abc164f05e4c58
    ((74, 1583, 8550, 7776, 2017), 89.47, 2.0),
    # tests/view/696a9e83cec152c6220c1d1d, "Elo: 55.03 ± 1.4 (95%)", quoted in a public repository's notes
    ((48, 3203, 14470, 11835, 444), 55.03, 1.4),
]

# fishtest SPRTs with logistic-Elo bounds (printed in braces, {elo0,elo1}, by fishtest's
# util.format_bounds): the pentanomial counts and the "LLR: x" line of the run, as quoted in the
# Stockfish commit that closes official-stockfish/Stockfish#3273 (LMR for captures at allNodes).
PUBLISHED_FISHTEST_SPRT = [
    # (pairs with 0, 0.5, 1, 1.5, 2 points, elo0, elo1, llr)
    ((292, 5905, 28939, 6129, 299), -0.25, 1.25, 2.95),  # STC, tests/view/5fe50b9d3932f79192d3973c
    ((5, 418, 6043, 506, 12), 0.25, 1.25, 2.92),  # LTC, tests/view/5fe552e43932f79192d39744
]


def pair_outcomes(pairs: tuple[int, ...]) -> dict[float, float]:
    """Pentanomial counts as the per-game pair scores ``sprt_llr`` takes, as the match does."""
    return dict(zip(st.PAIR_SCORES, pairs, strict=True))


def test_a_75_percent_score_is_190_8_elo() -> None:
    assert st.elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)
    assert st.elo_from_score(0.25) == pytest.approx(-190.85, abs=0.01)
    assert st.elo_from_score(0.5) == 0.0
    assert st.score_from_elo(st.elo_from_score(0.631)) == pytest.approx(0.631)
    assert st.elo_from_score(1.0) == math.inf and st.elo_from_score(0.0) == -math.inf


@pytest.mark.parametrize("wins, losses, draws, elo, margin, los", PUBLISHED_CUTECHESS)
def test_elo_interval_and_los_match_published_cutechess_lines(
    wins: int, losses: int, draws: int, elo: float, margin: float, los: float
) -> None:
    interval = st.elo_interval(wins, draws, losses, z=CUTECHESS_Z)
    assert round(interval.value, 1) == elo
    assert round(interval.half_width, 1) == margin
    assert round(100 * st.likelihood_of_superiority(wins, losses), 1) == los


def test_the_default_interval_uses_the_exact_normal_quantile() -> None:
    assert st.Z95 == pytest.approx(1.959964, abs=1e-6)
    exact = st.elo_interval(332, 352, 316)
    approximate = st.elo_interval(332, 352, 316, z=CUTECHESS_Z)
    assert exact.half_width / approximate.half_width == pytest.approx(st.Z95 / CUTECHESS_Z, rel=1e-3)


def test_sprt_bounds_at_alpha_beta_5_percent_are_2_944() -> None:
    bounds = st.SprtBounds.of(0.05, 0.05)
    assert bounds.lower == pytest.approx(-2.944, abs=1e-3)
    assert bounds.upper == pytest.approx(2.944, abs=1e-3)
    with pytest.raises(ValueError, match="between 0 and 1"):
        st.SprtBounds.of(0.0, 0.05)


def test_sprt_llr_matches_cutechess_logistic_sprt() -> None:
    # cutechess/cutechess#543: "-sprt elo0=0.0 elo1=5.0", 880 - 759 - 1863, "SPRT: llr 2.95 ... H1 was accepted".
    # cutechess prints the normal approximation; the exact GSPRT here gives 2.947, the same to 2 decimals.
    llr = st.sprt_llr({1.0: 880, 0.5: 1863, 0.0: 759}, 0.0, 5.0)
    assert round(llr, 2) == 2.95
    assert st.sprt_decision(llr, st.SprtBounds.of(0.05, 0.05)) == "H1"


@pytest.mark.parametrize("pairs, elo0, elo1, llr", PUBLISHED_FISHTEST_SPRT)
def test_pentanomial_llr_matches_published_fishtest_runs(
    pairs: tuple[int, ...], elo0: float, elo1: float, llr: float
) -> None:
    assert round(st.sprt_llr(pair_outcomes(pairs), elo0, elo1), 2) == llr


def test_pentanomial_llr_matches_a_fishtest_raw_statistics_page_to_five_decimals() -> None:
    """montytest.muzhen.org/tests/stats/69d3c8dc7c5b3724e29d2712, a fishtest instance's raw statistics.

    The page lists "Results [0-2] [13, 37, 50, 25, 3]", SPRT bounds of 0 and 4 normalized Elo shown
    as 0.000 and 2.716 logistic Elo (score 0.50391), and "Logistic (exact) -0.53772". The page
    converts the bounds with the run's own pentanomial spread, score = 0.5 + nelo / (800 / ln 10) *
    sqrt(2 var) (fishtest's sprt.elo_to_score); the conversion is redone here at full precision,
    checked against the 3 decimals shown, and fed to the LLR.
    """
    pairs = (13, 37, 50, 25, 3)
    scores = np.array(st.PAIR_SCORES)
    frequencies = np.array(pairs) / sum(pairs)
    variance = frequencies @ (scores - frequencies @ scores) ** 2
    elo1 = st.elo_from_score(0.5 + 4.0 / (800 / math.log(10)) * math.sqrt(2 * variance))
    assert round(elo1, 3) == 2.716 and round(st.score_from_elo(elo1), 5) == 0.50391
    assert round(st.sprt_llr(pair_outcomes(pairs), 0.0, elo1), 5) == -0.53772


def test_the_most_likely_distribution_has_the_mean_asked_and_beats_its_neighbours() -> None:
    """An independent check of the constrained maximum-likelihood step the GSPRT rests on.

    Every distribution over the same outcomes with the same mean differs from the fitted one by a
    direction d with sum d = 0 and sum d * score = 0; the observed log-likelihood must be lower
    along every such direction: the definition that fishtest's formula solves.
    """
    scores = list(st.PAIR_SCORES)
    observed = [0.05, 0.2, 0.4, 0.3, 0.05]
    rng = np.random.default_rng(3)
    for mean in (0.2, 0.5, 0.58, 0.9):
        fitted = np.array(st.most_likely_distribution(scores, observed, mean))
        assert fitted.sum() == pytest.approx(1.0) and fitted @ scores == pytest.approx(mean)
        best = np.dot(observed, np.log(fitted))
        constraints = np.array([np.ones(5), scores])
        for _ in range(200):
            direction = rng.normal(size=5)
            direction -= constraints.T @ np.linalg.lstsq(constraints.T, direction, rcond=None)[0]
            neighbour = fitted + 1e-3 * direction / np.abs(direction).max() * fitted.min()
            assert np.dot(observed, np.log(neighbour)) < best


def test_sprt_llr_sign_follows_the_evidence() -> None:
    weak = st.sprt_llr({1.0: 40, 0.5: 20, 0.0: 60}, 0.0, 10.0)
    strong = st.sprt_llr({1.0: 60, 0.5: 20, 0.0: 40}, 0.0, 10.0)
    assert weak < 0 < strong
    bounds = st.SprtBounds.of(0.05, 0.05)
    assert st.sprt_decision(-3.0, bounds) == "H0" and st.sprt_decision(0.0, bounds) is None
    assert st.sprt_llr({}, 0.0, 10.0) == 0.0
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        st.sprt_llr({2.0: 3}, 0.0, 10.0)


def test_straight_wins_end_an_sprt_only_after_several() -> None:
    bounds = st.SprtBounds.of(0.05, 0.05)
    assert st.sprt_decision(st.sprt_llr({1.0: 1}, 0.0, 50.0), bounds) is None
    assert st.sprt_decision(st.sprt_llr({1.0: 30}, 0.0, 50.0), bounds) == "H1"


def test_straight_pair_wins_end_the_pentanomial_sprt_after_bound_over_log_score_ratio_pairs() -> None:
    # With nothing but won pairs the most likely distributions put mass s on a won pair and 1 - s on a
    # lost one, so each pair adds log(s1 / s0): 2.944 / log(0.5715 / 0.5) = 22.04, the 23rd pair decides.
    bounds = st.SprtBounds.of(0.05, 0.05)
    per_pair = math.log(st.score_from_elo(50.0) / 0.5)
    assert st.sprt_llr(pair_outcomes((0, 0, 0, 0, 22)), 0.0, 50.0) == pytest.approx(22 * per_pair, rel=1e-3)
    assert st.sprt_decision(st.sprt_llr(pair_outcomes((0, 0, 0, 0, 22)), 0.0, 50.0), bounds) is None
    assert st.sprt_decision(st.sprt_llr(pair_outcomes((0, 0, 0, 0, 23)), 0.0, 50.0), bounds) == "H1"
    assert st.sprt_decision(st.sprt_llr(pair_outcomes((20, 0, 0, 0, 0)), 0.0, 50.0), bounds) == "H0"


def test_wilson_interval_contains_the_score_and_stays_in_bounds() -> None:
    interval = st.wilson_interval(10, 0, 0)
    assert interval.value == 1.0 and interval.high == 1.0
    # Wilson lower bound for 10/10 at z = 1.96 is n / (n + z^2).
    assert interval.low == pytest.approx(10 / (10 + st.Z95**2))
    half = st.wilson_interval(30, 40, 30)
    assert half.value == 0.5 and half.low == pytest.approx(1 - half.high)


def test_all_wins_still_gets_a_finite_lower_elo_bound() -> None:
    interval = st.elo_interval(6, 0, 0)
    assert interval.value == math.inf
    assert math.isfinite(interval.low) and interval.low > 0


def test_pentanomial_counts_and_its_interval_is_narrower_for_correlated_pairs() -> None:
    assert st.pentanomial([0, 0.5, 1, 1, 2, 1.5]) == (1, 1, 2, 1, 1)
    with pytest.raises(ValueError):
        st.pentanomial([2.5])
    # Pairs that always split 1-1 say the agents are close, but 50 pairs cannot show them exactly
    # equal: the interval used to collapse to a point (zero observed variance). It is now finite and
    # still much narrower than the same games read as independent wins and losses.
    pairs = st.pentanomial_elo_interval((0, 0, 50, 0, 0))
    assert pairs.value == 0 and pairs.low == pytest.approx(-pairs.high)
    assert st.elo_interval(50, 0, 50).half_width > 50
    assert 10 < pairs.half_width < st.elo_interval(50, 0, 50).half_width / 2
    # With some spread fishtest's formula applies; the pairs' games: 90 wins, 20 draws, 90 losses.
    assert st.pentanomial_elo_interval((2, 10, 76, 10, 2)).half_width < st.elo_interval(90, 20, 90).half_width


@pytest.mark.parametrize("pairs, elo, margin", PUBLISHED_FISHTEST_ELO)
def test_pentanomial_elo_interval_matches_published_fishtest_runs(
    pairs: tuple[int, ...], elo: float, margin: float
) -> None:
    interval = st.pentanomial_elo_interval(pairs)
    assert round(interval.value, 2) == elo and round(interval.half_width, 1) == margin


# Wilson's lower bound on the score after n straight successes is n / (n + z^2).
def wilson_elo_bound(n: int) -> float:
    return st.elo_from_score(n / (n + st.Z95**2))


def test_five_pairs_all_won_or_all_lost_bound_the_elo_on_one_side_only() -> None:
    """The case that failed: 5 pairs all won printed "+inf [+inf, +inf]"; the low end is now finite.

    Nothing in five won pairs shows how much a pair's two games agree, so the bound is Wilson's for
    five Bernoulli pairs, score 5 / (5 + z^2) = 0.566, +46 Elo (the pseudo-counts move it by 0.1).
    """
    won, lost = st.pentanomial_elo_interval((0, 0, 0, 0, 5)), st.pentanomial_elo_interval((5, 0, 0, 0, 0))
    assert won.value == won.high == math.inf and lost.value == lost.low == -math.inf
    assert won.low == pytest.approx(wilson_elo_bound(5), abs=0.5) and lost.high == pytest.approx(-won.low)
    # The same ten games read one by one give a higher bound, about Wilson's for ten games.
    assert st.elo_interval(10, 0, 0).low == pytest.approx(wilson_elo_bound(10), abs=0.5)


def test_five_pairs_all_drawn_give_a_finite_symmetric_interval() -> None:
    drawn = st.pentanomial_elo_interval((0, 0, 5, 0, 0))
    assert drawn.value == 0 and math.isfinite(drawn.low) and drawn.low == pytest.approx(-drawn.high)
    assert 50 < drawn.high < 400
    # More drawn pairs: narrower.
    assert st.pentanomial_elo_interval((0, 0, 50, 0, 0)).high < drawn.high


def test_a_single_game_gives_a_one_sided_or_finite_interval() -> None:
    won, drawn, lost = st.elo_interval(1, 0, 0), st.elo_interval(0, 1, 0), st.elo_interval(0, 0, 1)
    assert won.value == won.high == math.inf and won.low == pytest.approx(wilson_elo_bound(1), abs=0.5)
    assert lost.value == lost.low == -math.inf and lost.high == pytest.approx(-won.low)
    assert drawn.value == 0 and -1000 < drawn.low < 0 < drawn.high < 1000
    pair = st.pentanomial_elo_interval((0, 0, 0, 0, 1))
    assert pair.value == math.inf and pair.low == pytest.approx(wilson_elo_bound(1), abs=0.5)


def test_nothing_played_bounds_nothing() -> None:
    for interval in (st.elo_interval(0, 0, 0), st.pentanomial_elo_interval((0, 0, 0, 0, 0))):
        assert interval.low == -math.inf and interval.high == math.inf


def test_few_games_near_a_perfect_score_keep_a_finite_upper_end() -> None:
    # 4 wins and a draw: the normal interval, 0.9 +/- 0.175, runs past a score of 1 (an infinite
    # upper end); the score-test interval takes over and stays below it.
    interval = st.elo_interval(4, 1, 0)
    assert 0 < interval.low < interval.value < interval.high < 1000
    assert 0 < st.pentanomial_elo_interval((0, 0, 0, 1, 4)).low


def test_the_score_test_interval_on_two_outcomes_is_wilsons() -> None:
    for wins, losses in ((7, 3), (10, 0), (1, 19)):
        score = st.score_test_interval((0.0, 1.0), (losses, wins))
        wilson = st.wilson_interval(wins, 0, losses)
        assert score.value == pytest.approx(wilson.value)
        assert score.low == pytest.approx(wilson.low, abs=1e-9) and score.high == pytest.approx(wilson.high, abs=1e-9)


def test_joint_fit_recovers_ratings_of_a_simulated_round_robin() -> None:
    truth = {"a": 200.0, "b": 100.0, "c": 0.0, "d": -150.0}
    rng = random.Random(7)
    results = {}
    names = sorted(truth)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            expected = st.score_from_elo(truth[first] - truth[second])
            points = sum(rng.random() < expected for _ in range(400))
            results[(first, second)] = (float(points), 400)
    ratings = {r.name: r for r in st.fit_ratings(results, anchor="c")}
    assert ratings["c"].elo == 0.0 and ratings["c"].low == ratings["c"].high == 0.0
    for name in ("a", "b", "d"):
        assert ratings[name].low < truth[name] < ratings[name].high
        assert ratings[name].games == 1200
    assert [r.name for r in st.fit_ratings(results, anchor="c")] == ["a", "b", "c", "d"]


def test_joint_fit_of_two_players_is_the_match_elo() -> None:
    ratings = {r.name: r for r in st.fit_ratings({("x", "y"): (75.0, 100)}, anchor="y")}
    assert ratings["x"].elo == pytest.approx(190.85, abs=0.01)


def test_joint_fit_needs_a_playing_anchor() -> None:
    with pytest.raises(ValueError, match="anchor"):
        st.fit_ratings({("x", "y"): (5.0, 10)}, anchor="z")


def test_a_perfect_score_gets_a_finite_rating_above_the_rest() -> None:
    ratings = st.fit_ratings({("n", "r"): (4.0, 4), ("n", "k"): (4.0, 4), ("r", "k"): (2.0, 4)}, anchor="r")
    assert [r.name for r in ratings][0] == "n"
    best = ratings[0]
    assert 0 < best.elo < 1000 and math.isfinite(best.low) and math.isfinite(best.high)
    assert best.games == 8
    assert {r.name: r for r in ratings}["k"].elo == pytest.approx(0.0, abs=1e-6)


def test_players_no_game_ties_to_the_anchor_leave_the_fit_unidentified() -> None:
    ratings = st.fit_ratings({("a", "b"): (3.0, 4), ("c", "d"): (2.0, 4)}, anchor="a")
    assert all(r.elo == 0.0 for r in ratings)
    assert all(r.low == -math.inf and r.high == math.inf for r in ratings if r.name != "a")
