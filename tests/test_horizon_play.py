"""``horizon_move``, the depth-limited player's move, and ``column_scores``, every column's exact score counted."""

from __future__ import annotations

import time

from connectx.agents.core.position import Position
from connectx.agents.core.search_result import SearchCounts
from connectx.agents.core.search_time import SearchLimit
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.search.exact_search import analyze, column_scores, search_depth
from connectx.agents.search.horizon_play import horizon_move

MIDDLE = Position.from_moves("4453323125")


def test_the_full_deepening_reaches_its_depth_with_that_depths_value() -> None:
    """Its column may differ from one search of that depth only among equally valued columns: each depth
    tries the previous one's best first."""
    counts = SearchCounts()
    estimate, complete = horizon_move(MIDDLE, 6, counts=counts)
    direct = search_depth(MIDDLE, 6)
    assert complete and direct is not None
    assert estimate.depth == 6 and estimate.score == direct.score and counts.nodes > 0
    chosen = search_depth(MIDDLE.play(estimate.column), 5)
    assert chosen is not None and -chosen.score == estimate.score, "its column is worth the depth's value"


def test_a_limit_that_cuts_the_deepening_short_still_answers_and_says_so() -> None:
    estimate, complete = horizon_move(MIDDLE, 8, SearchLimit(stop_at=time.perf_counter()))
    assert not complete and estimate.depth < 8 and MIDDLE.can_play(estimate.column)


def test_a_proven_result_ends_the_deepening_early_and_complete() -> None:
    estimate, complete = horizon_move(Position.from_moves("112233"), 8)
    assert complete and estimate.column == 3 and estimate.score >= 1 and estimate.depth == 1


def test_column_scores_are_analyzes_with_the_nodes_counted() -> None:
    position = Position.from_moves("3511625745273725327354")
    counts = SearchCounts()
    assert column_scores(position, TranspositionTable(), counts=counts) == analyze(position)
    assert counts.nodes > 0


def test_column_scores_give_up_on_a_board_too_big_and_at_the_limit() -> None:
    assert column_scores(Position.initial(40, 40, 40), TranspositionTable()) is None
    assert column_scores(MIDDLE, TranspositionTable(), SearchLimit(stop_at=time.perf_counter())) is None
