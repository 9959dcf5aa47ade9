"""The anytime search: iterative deepening with a horizon evaluation, then proofs, then an exact solve.

``iterative_deepening`` yields one ``SearchResult`` per completed step, and the caller plays the
move of the last one it received, so the search can be cut off at any moment:

1. depth 1, 2, 3, ... of ``exact_search.search_depth`` (the horizon scored by ``horizon_evaluation``), until
   the heuristic limit, or until a depth reaches the end of the game or proves a win or a loss;
   each iteration searches the previous one's best move first;
2. ``proofs``: whether the position is won (one null-window search), and if not whether it is at
   least drawn, each yielding a move that keeps that outcome once proven; then the exact
   ``exact_search.solve``, whose result is perfect play (the fastest win, else a draw, else the
   slowest loss). The proofs come first because they cost a fraction of the exact solve and are
   what decides a game: a won position stays won, and a drawn one is never lost, whatever the
   clock leaves of the exact solve. The transposition table carries their work into the solve.

A step the clock cuts short yields nothing, so only completed searches are ever played. No step
recurses deeper than ``exact_search.MAX_SEARCH_PLIES``: the depths stop there, and on a board with
more empty cells than that the proofs and the exact solve are skipped.
"""

from __future__ import annotations

from collections.abc import Iterator

from connectx.agents.core.position import Position
from connectx.agents.core.search_result import SearchCounts, SearchResult, deepen
from connectx.agents.core.search_time import NO_LIMIT, SearchLimit
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.search.exact_search import MAX_SEARCH_PLIES, prove_at_least, search_depth, solve

PROOF_TARGETS = (1, 0)
"""The scores ``proofs`` tries to guarantee, in order: a win, then at least a draw."""


def iterative_deepening(
    position: Position,
    table: TranspositionTable | None = None,
    exact_limit: SearchLimit = NO_LIMIT,
    heuristic_limit: SearchLimit | None = None,
    counts: SearchCounts | None = None,
) -> Iterator[SearchResult]:
    """Results of ever deeper searches of ``position`` (not over), then of ``proofs`` if the limits allow.

    The depth-limited iterations stop at ``heuristic_limit`` (default, and on boards too big for
    the proofs: ``exact_limit``), whose node count covers all of them together; the proofs and the
    exact solve then run until ``exact_limit``, whose node count covers those together. ``counts``
    gets every step's nodes and evaluations added, the step the limit cut short included.
    """
    if position.is_over():
        raise ValueError(f"the game is over in {position!r}: there is no move to search")
    remaining = position.geometry.cells - position.moves
    if heuristic_limit is None or remaining > MAX_SEARCH_PLIES:
        heuristic_limit = exact_limit
    used = 0

    def at_depth(depth: int, previous: SearchResult | None) -> SearchResult | None:
        first = previous.column if previous is not None else None
        estimate = search_depth(position, depth, heuristic_limit.less(used), first, counts)
        if estimate is None:
            return None
        return SearchResult(
            (estimate.column,), estimate.score, depth, estimate.nodes, estimate.exact, proven=estimate.exact
        )

    for result in deepen(at_depth, range(1, min(remaining, MAX_SEARCH_PLIES) + 1), heuristic_limit):
        used += result.nodes
        yield result
        if result.exact:
            return
        if abs(result.score) >= 1:  # a proven win or loss (horizon values lie strictly inside (-1, 1))
            break
    yield from proofs(position, table if table is not None else TranspositionTable(), exact_limit, counts)


def proofs(
    position: Position, table: TranspositionTable, limit: SearchLimit = NO_LIMIT, counts: SearchCounts | None = None
) -> Iterator[SearchResult]:
    """A proven win, else a proven draw (if either holds), then the exact solution, as far as ``limit`` allows.

    ``limit``'s node count covers all of them together. Nothing is yielded on a board with more
    than ``MAX_SEARCH_PLIES`` empty cells: the exact searches recurse once per empty cell.
    """
    remaining = position.geometry.cells - position.moves
    if remaining > MAX_SEARCH_PLIES:
        return
    used = 0
    for target in PROOF_TARGETS:
        proof = prove_at_least(position, target, table, limit.less(used), counts)
        if proof is None:
            return
        used += proof.nodes
        if proof.holds and proof.column is not None:
            yield SearchResult((proof.column,), float(target), remaining, proof.nodes, proven=True)
            break
    solution = solve(position, table, limit.less(used), counts)
    if solution is not None and solution.column is not None:
        yield SearchResult((solution.column,), solution.score, remaining, solution.nodes, exact=True, proven=True)
