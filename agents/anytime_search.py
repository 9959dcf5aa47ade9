"""The anytime search: iterative deepening with a horizon evaluation, then an exact solve.

``iterative_deepening`` yields one ``SearchResult`` per completed iteration, and the caller plays
the move of the last one it received, so the search can be cut off at any moment:

1. depth 1, 2, 3, ... of ``alphabeta.search_depth`` (the horizon scored by ``horizon``), until
   the heuristic limit, or until a depth reaches the end of the game or proves a win or a loss;
   each iteration searches the previous one's best move first;
2. an exact ``alphabeta.solve`` until the exact limit, whose result, when it completes, is perfect
   play (the fastest win, else a draw, else the slowest loss).

An iteration the clock cuts short yields nothing, so only completed depths are ever played.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from agents.alphabeta import NO_LIMIT, SearchLimit, search_depth, solve
from agents.position import Position
from agents.transposition_table import TranspositionTable


@dataclass(frozen=True)
class SearchResult:
    """The outcome of one completed iteration.

    ``score`` is ``alphabeta``'s exact score when ``exact``; otherwise the depth-limited value (a
    proven win >= 1 or loss <= -1, or a horizon estimate in between). ``depth`` is the number of
    plies searched; ``nodes`` counts this iteration's positions.
    """

    column: int
    score: float
    exact: bool
    depth: int
    nodes: int


def iterative_deepening(position: Position, table: TranspositionTable | None = None,
                        exact_limit: SearchLimit = NO_LIMIT,
                        heuristic_limit: SearchLimit | None = None) -> Iterator[SearchResult]:
    """Results of ever deeper searches of ``position`` (not over), ending with an exact one if the limits allow.

    The depth-limited iterations stop at ``heuristic_limit`` (default: ``exact_limit``), whose
    node count covers all of them together; the exact solve then runs until ``exact_limit``.
    """
    if position.is_over():
        raise ValueError(f"the game is over in {position!r}: there is no move to search")
    remaining = position.geometry.cells - position.moves
    heuristic_limit = heuristic_limit if heuristic_limit is not None else exact_limit
    used = 0
    best: int | None = None
    for depth in range(1, remaining + 1):
        limit = SearchLimit(heuristic_limit.stop_at, heuristic_limit.max_nodes - used)
        estimate = search_depth(position, depth, limit, best)
        if estimate is None:
            break
        used += estimate.nodes
        best = estimate.column
        yield SearchResult(estimate.column, estimate.score, estimate.exact, depth, estimate.nodes)
        if estimate.exact:
            return
        if abs(estimate.score) >= 1:
            break
    solution = solve(position, table, exact_limit)
    if solution is not None and solution.column is not None:
        yield SearchResult(solution.column, solution.score, True, remaining, solution.nodes)
