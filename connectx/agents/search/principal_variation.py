"""Depth-limited principal-variation search with a transposition table, for boards nothing can prove yet.

``deepening`` searches depth 1, 2, 3, ... and yields one ``SearchResult`` per completed depth; the
caller plays the column of the last one it received, so the search can be cut off at any moment.
What makes each depth cheaper than a plain alpha-beta of that depth:

* a **transposition table** kept for the whole game: each entry holds the depth it was searched
  to, a lower and an upper bound and the best move found, so a later, deeper search tries that
  move first and a position reached by another order of moves is not searched twice;
* **principal-variation search**: the first move (the table's, else the best-ordered) gets the
  full window, every other one a null window that only asks "is it better?", re-searched with
  the full window in the rare case it is;
* **late-move reductions**: from the fourth move of a node on (the ordering puts the likely best
  first), the null window first searches ``REDUCTION`` ply shallower, and only a move that still
  looks better is searched again at the full depth. Reductions stop where the full depth would
  reach the end of the game, so a depth that does is still exact, and a proof found in a reduced
  search is still a proof (only the end of a game scores beyond ``PROVEN``);
* the exact search's rules: a position whose mover can complete a line is never entered (its
  parent won there), only moves that do not hand the opponent a line are tried, and the window
  is clipped to the scores still possible.

A node also works less than it would naively: the table's move is searched before the other moves
are scored for the ordering (they are not scored at all when it cuts off), and each side's winning
cells are passed down rather than computed again (a child's mover has the winning cells its
opponent's ``threats`` were, less the cell just filled), so a leaf's evaluation needs none of its
own. The search is the same, node for node (``benchmarks/open_board_speed.py`` compares the nodes,
the moves and the time against another revision).

Scores are ``connectx.agents.core.scores``' scale: a win with the stone played when ``moves``
stones are on the board scores ``(cells + 1 - moves) // 2``, a loss the opponent's win negated, a
draw 0; a position cut off at the horizon is worth the evaluation, strictly inside (-1, 1). A
value of at least 1 (at most -1) is therefore a proven win (loss), whatever depth found it, and
the table keeps such bounds for every depth. ``negamax`` is fail-soft, as ``exact_search``'s.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection, Iterator

from connectx.agents.core.move_order import centre_first_masks, sorted_moves
from connectx.agents.core.position import Geometry, Position
from connectx.agents.core.scores import loss_score, win_score
from connectx.agents.core.search_result import SearchCounts, SearchResult, deepen
from connectx.agents.core.search_time import NO_LIMIT, OutOfTime, SearchLimit, clock_check_mask
from connectx.agents.heuristics.line_evaluation import LineEvaluation, line_evaluator
from connectx.agents.search.exact_search import MAX_SEARCH_PLIES, NodeCounter, paused_gc

DEFAULT_CAPACITY = 1 << 20
"""Entries the table holds before it is emptied: about 250 MB of dict, tuples and floats at most."""

PROVEN = 1.0
"""Values at or beyond this (in magnitude) are proven wins or losses, valid at any depth."""

NULL_WIDTH = 1e-9
"""The width of a null window: below the gap between any two distinct values (evaluations are
multiples of ``1 / line_evaluation.raw_bound``, proven scores whole numbers)."""


REDUCED_FROM = 3
"""Index (0-based, in search order) of the first move of a node whose null window searches reduced.
The ordering puts the likely best moves first: reducing from the fourth move on gained against the
same search without reductions on every board measured, while reducing from the third lost on some."""

REDUCTION = 1
"""Plies a late move's null window searches less: one ply roughly halves the nodes of a deep
middlegame search without changing its best move (``benchmarks/open_board_reductions.py`` counts them)."""

REDUCTION_MIN_DEPTH = 3
"""Nodes searched fewer plies deep than this are not reduced: near the horizon the saving is small."""


class VariationTable:
    """``key -> (depth, lower, upper, move)`` for one board size, bounded by emptying when full.

    ``lower`` and ``upper`` bound the value of the position searched ``depth`` plies deep
    (proven bounds, beyond ``PROVEN``, hold at every depth); ``move`` is the best move found, a
    single bit, or 0. Entries are written only by completed searches, so a search the clock cut
    short leaves no wrong entry.
    """

    __slots__ = ("entries", "capacity")

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError(f"table capacity {capacity}: expected at least 1 entry")
        self.entries: dict[int, tuple[int, float, float, int]] = {}
        self.capacity = capacity

    def clear(self) -> None:
        self.entries.clear()

    def __len__(self) -> int:
        return len(self.entries)


DepthNegamax = Callable[[int, int, int, float, float, int, int, int], float]


def variation_negamax(
    shape: Geometry, evaluate: LineEvaluation, table: VariationTable, limit: SearchLimit, reductions: bool = True
) -> tuple[DepthNegamax, NodeCounter]:
    """``negamax(current, mask, moves, alpha, beta, threats, depth, own)`` and its counts of nodes and evaluations.

    The mover of ``current`` cannot complete a line at once; ``threats`` are the opponent's
    winning cells and ``own`` the mover's. Raises ``OutOfTime`` at ``limit``.
    ``reductions=False`` searches every move to the full depth (each depth's value is then a plain
    negamax's of that depth).
    """
    cells = shape.cells
    non_losing_moves = shape.non_losing_moves
    winning_cells_of = shape.winning_cells_of
    column_masks = centre_first_masks(shape)
    entries = table.entries
    probe = entries.get
    capacity = table.capacity
    clock = time.perf_counter
    stop_at, max_nodes = limit.stop_at, limit.max_nodes
    check_mask = clock_check_mask(shape)
    null_width = NULL_WIDTH
    min_depth = REDUCTION_MIN_DEPTH if reductions else cells  # no node is searched as deep as the board has cells
    reduced_from, reduction = REDUCED_FROM, REDUCTION
    nodes = 0
    evaluations = 0

    def negamax(
        current: int, mask: int, moves: int, alpha: float, beta: float, threats: int, depth: int, own: int
    ) -> float:
        nonlocal nodes, evaluations
        nodes += 1
        if not nodes & check_mask:  # one node in 1024 (a power of two: a mask, not a modulo) looks at the limit
            if clock() >= stop_at or nodes >= max_nodes:
                raise OutOfTime
            if len(entries) >= capacity:  # forgetting costs time, never correctness: cheaper than evicting
                entries.clear()
        possible = non_losing_moves(mask, threats)
        if not possible:
            return -((cells - moves) // 2)  # every move hands the opponent a win: scores.loss_score
        if moves >= cells - 2:  # neither side can win with the last two stones (checked above): a draw
            return 0
        if depth <= 0:
            evaluations += 1
            return evaluate(current, mask, moves, threats, own)
        low: float = -((cells - 2 - moves) // 2)  # we survive the next move, so at worst we lose two plies later
        high: float = (cells - 1 - moves) // 2  # we cannot win now, so at best with our next stone
        key = current + mask  # unique per position: mask's bits mark each column's height, current's who owns them
        entry = probe(key)
        first = 0
        if entry is not None:
            stored_depth, lower, upper, first = entry
            # A bound from a search at least this deep holds here; a proven win or loss holds at any depth.
            if stored_depth >= depth or lower >= PROVEN:
                low = max(low, lower)
            if stored_depth >= depth or upper <= -PROVEN:
                high = min(high, upper)
        if alpha < low:
            alpha = low
        if beta > high:
            beta = high
        if alpha >= beta:
            return alpha
        original_alpha = alpha
        opponent = current ^ mask
        if first & possible:
            # The table's move alone first: the others are scored only if it does not cut off
            # (the order is the same as sorting them all with it in front).
            ordered = [(0, first, winning_cells_of(current | first, mask | first))]
            rest = possible & ~first
        else:
            ordered = sorted_moves(winning_cells_of, column_masks, current, mask, possible)
            rest = 0
        best, best_move = -math.inf, 0
        # never where the full depth reaches the end of the game, so that a search to the end stays exact
        reduce_here = min_depth <= depth < cells - moves
        for index, (_, move, child_threats) in enumerate(ordered):
            child_own = threats & ~move  # the opponent's winning cells, less the one this move fills
            if index == 0:
                score = -negamax(opponent, mask | move, moves + 1, -beta, -alpha, child_threats, depth - 1, child_own)
            else:
                reduced = reduce_here and index >= reduced_from
                score = -negamax(
                    opponent,
                    mask | move,
                    moves + 1,
                    -alpha - null_width,
                    -alpha,
                    child_threats,
                    depth - 1 - reduction if reduced else depth - 1,
                    child_own,
                )
                if reduced and score > alpha:  # better, as far as the shallower search sees: ask again at full depth
                    score = -negamax(
                        opponent,
                        mask | move,
                        moves + 1,
                        -alpha - null_width,
                        -alpha,
                        child_threats,
                        depth - 1,
                        child_own,
                    )
                if alpha < score < beta:
                    score = -negamax(
                        opponent, mask | move, moves + 1, -beta, -score, child_threats, depth - 1, child_own
                    )
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
            if rest:  # the table's move did not cut off: the loop goes on over the others, best first
                ordered += sorted_moves(winning_cells_of, column_masks, current, mask, rest)
                rest = 0
        lower = best if best > original_alpha else -math.inf
        upper = best if best < beta else math.inf
        if entry is not None:  # keep what still holds: the same depth's bounds, and proven ones from any depth
            if entry[0] == depth or entry[1] >= PROVEN:
                lower = max(lower, entry[1])
            if entry[0] == depth or entry[2] <= -PROVEN:
                upper = min(upper, entry[2])
        entries[key] = (depth, lower, upper, best_move)
        return best

    return negamax, NodeCounter(lambda: nodes, lambda: evaluations)


def deepening(
    position: Position,
    table: VariationTable | None = None,
    limit: SearchLimit = NO_LIMIT,
    evaluate: LineEvaluation | None = None,
    first_column: int | None = None,
    counts: SearchCounts | None = None,
    reductions: bool = True,
    columns: Collection[int] | None = None,
) -> Iterator[SearchResult]:
    """One ``SearchResult`` per completed depth of ``position`` (not over), until ``limit`` or a proof.

    ``first_column`` is searched first at depth 1 (a hint, such as the column the previous move's
    search expected); later depths start with the previous depth's best. The iterations stop once
    a value is proven or a depth reaches the end of the game. A result is ``proven`` when its value
    is a proven win or loss (or ``exact``: the search saw the end of every line of play); a move
    with nothing to weigh (an immediate win, a forced loss, the only safe move) comes at depth 0.
    ``counts`` gets the nodes of every depth added, the one the limit cut short (or the caller
    stopped) included. ``reductions`` as in ``variation_negamax``. ``columns``, when given, are
    the only root moves weighed (the safe ones among them; a win is still played at once).
    """
    if position.is_over():
        raise ValueError(f"the game is over in {position!r}: there is no move to search")
    shape = position.geometry
    current, mask, moves = position.current, position.mask, position.moves
    wins = position.winning_columns()
    if wins:
        yield SearchResult((wins[0],), float(win_score(shape, moves)), 0, 1, exact=True, proven=True)
        return
    safe = position.non_losing_columns()
    if safe and columns is not None:
        safe = [column for column in safe if column in columns] or safe
    if not safe:
        threats = position.opponent_winning_cells() & shape.possible(mask)
        block = [c for c in position.legal_columns() if threats & shape.column_masks[c]]
        yield SearchResult(
            ((block or position.legal_columns())[0],), float(loss_score(shape, moves)), 0, 1, exact=True, proven=True
        )
        return
    if len(safe) == 1:
        yield SearchResult((safe[0],), 0.0, 0, 1)  # forced: nothing to weigh, whatever it is worth
        return
    table = table if table is not None else VariationTable()
    negamax, counter = variation_negamax(shape, evaluate or line_evaluator(shape), table, limit, reductions)
    opponent = current ^ mask
    their_cells = position.opponent_winning_cells()
    remaining = shape.cells - moves

    def at_depth(depth: int, previous: SearchResult | None) -> SearchResult:
        first = previous.column if previous is not None else first_column
        before = counter.nodes
        alpha, best = -math.inf, safe[0]
        for column in [c for c in safe if c == first] + [c for c in safe if c != first]:
            move = position.move_bit(column)
            threats = shape.winning_cells_of(current | move, mask | move)  # the child's threats: ours after the move
            own = their_cells & ~move
            if alpha == -math.inf:
                score = -negamax(opponent, mask | move, moves + 1, -math.inf, math.inf, threats, depth - 1, own)
            else:  # a null window asks only "better than alpha?"; the full window re-searches a yes
                score = -negamax(opponent, mask | move, moves + 1, -alpha - NULL_WIDTH, -alpha, threats, depth - 1, own)
                if score > alpha:
                    score = -negamax(opponent, mask | move, moves + 1, -math.inf, -score, threats, depth - 1, own)
            if score > alpha:
                alpha, best = score, column
        exact = depth >= remaining
        return SearchResult((best,), alpha, depth, counter.nodes - before, exact, exact or abs(alpha) >= PROVEN)

    with paused_gc():
        try:
            for result in deepen(at_depth, range(1, min(remaining, MAX_SEARCH_PLIES) + 1), limit):
                yield result
                if result.proven:
                    return
        finally:
            if counts is not None:
                counts.nodes += counter.nodes
                counts.evaluations += counter.evaluations
