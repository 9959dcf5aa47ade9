"""Which agents a joint fit over the papers' games can place."""

from __future__ import annotations

import math

import pytest

from connectx.evaluation.statistics import elo as st
from connectx.evaluation.statistics import rated_group as rg


def test_only_strongly_connected_players_can_be_rated() -> None:
    results = {
        ("a", "b"): (3.0, 6),
        ("b", "c"): (2.0, 4),
        ("c", "a"): (1.0, 2),  # a, b, c trade points
        ("d", "a"): (0.0, 5),  # d lost every game
        ("e", "d"): (2.0, 2),
        ("e", "a"): (3.0, 3),
    }  # e won every game
    groups = rg.connected_players(results)
    assert groups[0] == {"a", "b", "c"} and {"d"} in groups and {"e"} in groups
    # A draw ties two players both ways.
    assert rg.connected_players({("x", "y"): (0.5, 1)}) == [{"x", "y"}]


def test_only_players_with_enough_points_won_and_lost_are_rankable() -> None:
    results = {
        ("a", "b"): (30.0, 60),
        ("b", "c"): (20.0, 40),
        ("c", "a"): (10.0, 20),  # a, b, c trade points
        ("d", "a"): (1.0, 100),  # d took 1 point of 100
        ("e", "d"): (6.0, 10),
    }  # e met only d
    # d won 5 points in all, too few to be placed; e, with 10 games, neither.
    assert rg.rankable_players(results, "a") == {"a", "b", "c"}
    assert rg.rankable_players(results, "a", minimum=1.0) == {"a", "b", "c", "d", "e"}
    # Nobody trades enough: nothing to rank (not a group of one).
    assert rg.rankable_players({("x", "y"): (3.0, 6)}, "x") == set()


def test_a_transitive_round_robin_fits_and_an_intransitive_one_does_not() -> None:
    # a beats b, b beats c, a beats c, each 60 of 100: one Elo per agent explains it.
    fair = {("a", "b"): (60.0, 100), ("b", "c"): (60.0, 100), ("a", "c"): (69.0, 100)}
    fit = rg.rating_fit(fair, st.fit_ratings(fair, "a"))
    assert fit.df == 1 and not fit.fails and fit.dispersion == pytest.approx(1.0, abs=0.2)
    # Rock, paper, scissors: each beats the next 90 of 100. Every Elo is 0, and the deviance is huge.
    cycle = {("a", "b"): (90.0, 100), ("b", "c"): (90.0, 100), ("c", "a"): (90.0, 100)}
    ratings = st.fit_ratings(cycle, "a")
    fit = rg.rating_fit(cycle, ratings)
    expected = 3 * 2 * (90 * math.log(90 / 50) + 10 * math.log(10 / 50))
    assert fit.deviance == pytest.approx(expected, rel=1e-6) and fit.fails and fit.dispersion == fit.deviance
    # Its quasi-likelihood intervals widen by the root of the dispersion (the Wald ones exactly so).
    wide = st.fit_ratings(cycle, "a", z=st.Z95 * math.sqrt(fit.dispersion))
    for narrow, widened in zip(ratings, wide, strict=True):
        if narrow.name != "a":
            assert widened.high - widened.low == pytest.approx(math.sqrt(fit.dispersion) * (narrow.high - narrow.low))


def test_ranks_come_from_tests_of_differences_with_the_ratings_covariance() -> None:
    # b and c met the anchor a 20 times each (their intervals against a are wide and overlap), but met each other
    # 1000 times: their difference is known well, so b ranks above c though their intervals overlap.
    results = {("a", "b"): (10.0, 20), ("a", "c"): (10.0, 20), ("b", "c"): (700.0, 1000)}
    ratings = st.fit_ratings(results, "a")
    assert [r.name for r in ratings] == ["b", "a", "c"] and ratings[0].low < ratings[2].high
    assert rg.difference_ranks(results, ratings, "a") == [1, 1, 2]
    # Widened by a large dispersion the difference is no longer shown.
    assert rg.difference_ranks(results, ratings, "a", dispersion=100.0) == [1, 1, 1]


def test_the_misfit_is_located_by_pairing_and_a_cycle_is_told_from_a_bad_margin() -> None:
    fair = {("a", "b"): (60.0, 100), ("b", "c"): (60.0, 100), ("a", "c"): (69.0, 100)}
    cycle = {("a", "b"): (90.0, 100), ("b", "c"): (90.0, 100), ("c", "a"): (90.0, 100)}
    assert rg.cyclic_triangles(fair) == (1, 0) and rg.cyclic_triangles(cycle) == (1, 1)
    # Transitive, but one margin far from what the others imply: no cycle, and that pairing carries the deviance.
    margin = {("a", "b"): (60.0, 100), ("b", "c"): (60.0, 100), ("a", "c"): (99.0, 100)}
    assert rg.cyclic_triangles(margin) == (1, 0)
    ratings = st.fit_ratings(margin, "a")
    misfits = rg.pairing_misfits(margin, ratings)
    assert sum(m.deviance for m in misfits) == pytest.approx(rg.rating_fit(margin, ratings).deviance)
    assert {misfits[0].first, misfits[0].second} == {"a", "c"} and misfits[0].observed == pytest.approx(0.99)
    assert misfits[0].fitted < 0.95
