"""The negamax baseline: exhaustive to its depth, scored by how soon a win comes, deepened on the clock."""

from __future__ import annotations

import random
import time

import pytest

from connectx.agents.core.position import Position
from connectx.agents.core.search_time import Deadline, SearchLimit
from connectx.agents.players.negamax import WIN_OFFSET, NegamaxSearch, NegamaxStrategy
from connectx.agents.search.exact_search import MAX_SEARCH_PLIES


def test_sees_a_win_in_two_and_prefers_the_sooner_win() -> None:
    position = Position.from_moves("4455")  # X plays 3 or 6 and has two threats
    found = NegamaxSearch(3, random.Random(1)).best_move(position)
    assert found is not None
    score, column = found
    assert column in (2, 5)
    assert score == WIN_OFFSET + (position.geometry.cells + 1 - (position.moves + 2)) // 2


def test_visits_every_node_of_the_depth_limited_tree() -> None:
    search = NegamaxSearch(2, random.Random(1))
    search.best_move(Position.initial(6, 7, 4))
    assert search.nodes == 1 + 7 + 49  # nodes at depth 0 score their moves without expanding them


def test_a_seed_fixes_tie_breaks() -> None:
    position = Position.initial()
    picks = {NegamaxSearch(2, random.Random(5)).best_move(position) for _ in range(5)}
    assert len(picks) == 1


def test_iterative_deepening_plays_the_fixed_depth_move_when_time_allows() -> None:
    strategy = NegamaxStrategy(depth=4, seed=7)
    tie_seed = random.Random(7).getrandbits(64)
    for moves in ("", "4453", "3344"):
        position = Position.from_moves(moves)
        expected = NegamaxSearch(4, random.Random(tie_seed)).best_move(position)
        assert expected is not None
        strategy.reset()
        assert strategy.choose(position, Deadline.after(60)) == expected[1]
        assert strategy.last_depth == 4


def test_depth_one_answers_even_when_the_time_is_gone() -> None:
    strategy = NegamaxStrategy(depth=4, seed=1)
    position = Position.from_moves("445566")
    expired = Deadline(time.perf_counter() - 1.0, time.perf_counter() - 0.5)
    assert strategy.choose(position, expired) in position.winning_columns()
    assert strategy.last_depth == 1


@pytest.mark.parametrize("rows,columns,inarow", [(6, 25, 4), (6, 20, 4), (40, 40, 40)])
def test_wide_boards_stop_at_the_deadline(rows: int, columns: int, inarow: int) -> None:
    """Depth 4 over 25 columns is 400,000 nodes (12 s of CPU before the deadline was kept), over 40 columns
    2.6 million: the clock must cut it. CPU time bounds it without depending on the machine's load."""
    position = Position.initial(rows, columns, inarow)
    strategy = NegamaxStrategy(depth=4, seed=1)
    started = time.process_time()
    column = strategy.choose(position, Deadline.after(0.2))
    assert time.process_time() - started < 1.5
    assert column in position.legal_columns() and 1 <= strategy.last_depth < 4


def test_a_node_limit_stops_one_search() -> None:
    search = NegamaxSearch(4, random.Random(1), SearchLimit(max_nodes=2000))
    assert search.best_move(Position.initial(6, 25, 4)) is None
    assert 2000 <= search.nodes < 2000 + 64  # the limit is read every 64 nodes on 6x25 (clock_check_mask)


def test_the_deepest_search_allowed_runs_within_the_default_recursion_limit() -> None:
    tall = Position.initial(MAX_SEARCH_PLIES + 10, 1, MAX_SEARCH_PLIES + 10)  # one column: one move per ply
    search = NegamaxSearch(MAX_SEARCH_PLIES, random.Random(1))
    assert search.best_move(tall) == (0, 0)  # alternating stones in one column: no line, no own stone adjacent
    assert search.nodes == MAX_SEARCH_PLIES + 1
    with pytest.raises(ValueError, match="depth"):
        NegamaxStrategy(depth=MAX_SEARCH_PLIES + 1, seed=1)
