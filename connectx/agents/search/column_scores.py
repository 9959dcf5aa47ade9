"""Every column's exact score, with the searches' nodes counted: what a move's statistics report.

``exact_search.analyze`` with two differences the players need: the nodes of every solve are
added to a ``SearchCounts`` (so ``fallible``'s exact moves and ``solver``'s trap report the work
they did), and a board with more empty cells than an exact search may recurse gets None, like a
limit that came first, rather than an exception.
"""

from __future__ import annotations

from connectx.agents.core.position import Position
from connectx.agents.core.scores import win_score
from connectx.agents.core.search_result import SearchCounts
from connectx.agents.core.search_time import NO_LIMIT, SearchLimit
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.search.exact_search import MAX_SEARCH_PLIES, solve


def column_scores(position: Position, table: TranspositionTable, limit: SearchLimit = NO_LIMIT,
                  counts: SearchCounts | None = None) -> dict[int, int] | None:
    """The exact score of playing each legal column (0-based) of ``position`` (not over), or None if ``limit``
    came first or the board is too big to search exactly. ``limit`` applies to each column's solve."""
    if position.geometry.cells - position.moves > MAX_SEARCH_PLIES:
        return None
    scores = {}
    for column in sorted(position.legal_columns()):
        if position.is_winning_move(column):
            scores[column] = win_score(position.geometry, position.moves)
            continue
        solution = solve(position.play(column), table, limit, counts)
        if solution is None:
            return None
        scores[column] = -solution.score
    return scores
