"""Clustered scores: colour-swapped pairs and shared openings counted as what they are worth."""

from __future__ import annotations

import pytest

from connectx.evaluation.statistics import clustered_scores as cs
from connectx.evaluation.statistics import elo as st


def shrunk(sandwich: float, games: int, clusters: int, rarer: float) -> float:
    """The effective games of a sandwich estimate once its design effect is shrunk by the rarer result's games."""
    return games / ((rarer * games / sandwich + games / clusters) / (rarer + 1))


def test_clustered_scores_count_agreeing_pairs_once_with_the_small_sample_correction() -> None:
    outcomes = [1.0, 1.0, 0.0, 0.0] * 10  # 20 pairs, each won or lost twice
    pairs = [[i, i + 1] for i in range(0, 40, 2)]
    agreeing = cs.clustered_score(outcomes, pairs)
    # A pair says what one game says: 20 clusters, and CR1's G / (G - 1) = 20 / 19 leaves 19 effective games.
    assert agreeing.value == 0.5 and agreeing.clusters == 20
    assert agreeing.effective == pytest.approx(shrunk(19, 40, 20, 20))
    assert agreeing.few_clusters  # 20 clusters of two games: fewer than 30
    split = cs.clustered_score([1.0, 0.0] * 20, pairs)
    # Pairs split 1-1 have no pair variance: the sandwich gives all 40 games (never more), shrunk a little.
    assert split.effective == pytest.approx(shrunk(40, 40, 20, 20)) and split.effective < 40
    independent = cs.clustered_score(outcomes, [[i] for i in range(40)], distinct=7)
    # Independent games are binomial whatever their moves: n, no correction, and the distinct games carried.
    assert independent.effective == 40 and independent.distinct == 7 and not independent.few_clusters
    assert independent.interval() == st.wilson_interval(20, 0, 20)
    perfect = cs.clustered_score([1.0] * 40, pairs)
    # Every game won: nothing measures how alike a pair's games are, so each pair counts once.
    assert perfect.effective == 20 and perfect.interval().low == pytest.approx(20 / (20 + st.Z95**2))
    assert cs.clustered_score([1.0] * 40, [[i] for i in range(40)]).effective == 40


def test_pooled_cells_are_clustered_about_their_own_means() -> None:
    # Two cells of 20 agreeing pairs: one wins 70% of its pairs, the other 30%. About the grand mean (50%) every
    # pair is a full point off; about its own cell's mean a won pair is 0.6 off and a lost one 1.4.
    first = [1.0, 1.0] * 14 + [0.0, 0.0] * 6
    second = [1.0, 1.0] * 6 + [0.0, 0.0] * 14
    pairs = [[i, i + 1] for i in range(0, 80, 2)]
    pooled = cs.clustered_score(first + second, pairs, strata=[0] * 40 + [1] * 40)
    grand = cs.clustered_score(first + second, pairs)
    correction = 40 / 39  # CR1 over 40 clusters
    # 40 pairs at one point each
    assert grand.effective == pytest.approx(shrunk(0.25 * 80**2 / (40 * correction), 80, 40, 40))
    # A won pair's residuals sum to 0.6 and a lost one's to -1.4: 14 * 0.36 + 6 * 1.96 = 16.8 a cell, 33.6 in all.
    assert pooled.effective == pytest.approx(shrunk(0.25 * 80**2 / (33.6 * correction), 80, 40, 40))
    assert pooled.effective > grand.effective
    # Each cell scored alike within itself (all won, all lost): nothing to estimate from but the clusters.
    assert cs.clustered_score([1.0] * 4 + [0.0] * 4, pairs[:4], strata=[0] * 4 + [1] * 4).effective == 4


def test_one_win_more_moves_the_effective_games_a_little_not_from_the_clusters_to_the_games() -> None:
    pairs = [[i, i + 1] for i in range(0, 100, 2)]
    # Each win splits a pair (the pair's other game lost): evidence that a pair's games differ, gathered slowly.
    counts = [cs.clustered_score([1.0, 0.0] * wins + [0.0] * (100 - 2 * wins), pairs).effective for wins in range(8)]
    assert counts[0] == 50  # nothing won: each pair counts once
    assert all(later > earlier for earlier, later in zip(counts, counts[1:], strict=False))
    assert counts[1] < 70  # one win: not the 99 the sandwich alone gives
    # Wins that come in agreeing pairs keep the pairs as the unit: about 50 whatever their number.
    agreeing = [cs.clustered_score([1.0] * 2 * wins + [0.0] * (100 - 2 * wins), pairs).effective for wins in (1, 3)]
    assert all(48 < count < 51 for count in agreeing)
