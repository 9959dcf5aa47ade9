"""Match statistics against published figures (cutechess-cli output) and textbook values."""

from __future__ import annotations

import math
import random

import pytest

from evaluation import statistics as st

# cutechess computes the 97.5% normal quantile with Winitzki's approximation of erf^-1, which gives
# 1.95716 rather than 1.95996; its printed error bars are reproduced with that quantile.
CUTECHESS_Z = 1.9571619316560775

# "Score of A vs B: W - L - D" lines and the "Elo difference: E +/- M, LOS: P %" line printed under
# them, copied from match logs published in GitHub pull requests and issues.
PUBLISHED_CUTECHESS = [
    # (wins, losses, draws, elo, margin, los %)
    (332, 316, 352, 5.6, 17.3, 73.5),     # JoAnnP38/Pedantic#8
    (143, 129, 368, 7.6, 17.5, 80.2),     # kelseyde/calvin-chess-engine#97
    (1216, 1199, 3939, 0.9, 5.3, 63.5),   # kelseyde/calvin-chess-engine#97
    (880, 759, 1863, 12.0, 7.9, 99.9),    # cutechess/cutechess#543
    (745, 678, 501, 12.1, 13.3, 96.2),    # princesslana/princhess#210
]


def test_a_75_percent_score_is_190_8_elo() -> None:
    assert st.elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)
    assert st.elo_from_score(0.25) == pytest.approx(-190.85, abs=0.01)
    assert st.elo_from_score(0.5) == 0.0
    assert st.score_from_elo(st.elo_from_score(0.631)) == pytest.approx(0.631)
    assert st.elo_from_score(1.0) == math.inf and st.elo_from_score(0.0) == -math.inf


@pytest.mark.parametrize("wins, losses, draws, elo, margin, los", PUBLISHED_CUTECHESS)
def test_elo_interval_and_los_match_published_cutechess_lines(wins: int, losses: int, draws: int,
                                                               elo: float, margin: float, los: float) -> None:
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
    llr = st.sprt_llr({1.0: 880, 0.5: 1863, 0.0: 759}, 0.0, 5.0)
    assert round(llr, 2) == 2.95
    assert st.sprt_decision(llr, st.SprtBounds.of(0.05, 0.05)) == "H1"


def test_sprt_llr_sign_follows_the_evidence() -> None:
    weak = st.sprt_llr({1.0: 40, 0.5: 20, 0.0: 60}, 0.0, 10.0)
    strong = st.sprt_llr({1.0: 60, 0.5: 20, 0.0: 40}, 0.0, 10.0)
    assert weak < 0 < strong
    bounds = st.SprtBounds.of(0.05, 0.05)
    assert st.sprt_decision(-3.0, bounds) == "H0" and st.sprt_decision(0.0, bounds) is None


def test_straight_wins_end_an_sprt_only_after_several() -> None:
    bounds = st.SprtBounds.of(0.05, 0.05)
    assert st.sprt_decision(st.sprt_llr({1.0: 1}, 0.0, 50.0), bounds) is None
    assert st.sprt_decision(st.sprt_llr({1.0: 30}, 0.0, 50.0), bounds) == "H1"


def test_wilson_interval_contains_the_score_and_stays_in_bounds() -> None:
    interval = st.wilson_interval(10, 0, 0)
    assert interval.value == 1.0 and interval.high == 1.0
    # Wilson lower bound for 10/10 at z = 1.96 is n / (n + z^2).
    assert interval.low == pytest.approx(10 / (10 + st.Z95 ** 2))
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
    # Pairs that always split 1-1 carry no information beyond "equal": their interval collapses,
    # while the same games read as independent W/L still have a wide trinomial interval.
    pairs = st.pentanomial_elo_interval((0, 0, 50, 0, 0))
    assert pairs.value == 0 and pairs.half_width == 0
    assert st.elo_interval(50, 0, 50).half_width > 50


def test_joint_fit_recovers_ratings_of_a_simulated_round_robin() -> None:
    truth = {"a": 200.0, "b": 100.0, "c": 0.0, "d": -150.0}
    rng = random.Random(7)
    results = {}
    names = sorted(truth)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
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
