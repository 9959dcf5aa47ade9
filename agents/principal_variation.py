"""Depth-limited principal-variation search with a transposition table, for boards nothing can prove yet.

``deepening`` searches depth 1, 2, 3, ... and yields one ``Estimate`` per completed depth; the
caller plays the column of the last one it received, so the search can be cut off at any moment.
What makes each depth cheaper than a plain alpha-beta of that depth:

* a **transposition table** kept for the whole game: each entry holds the depth it was searched
  to, a lower and an upper bound and the best move found, so a later, deeper search tries that
  move first and a position reached by another order of moves is not searched twice;
* **principal-variation search**: the first move (the table's, else the best-ordered) gets the
  full window, every other one a null window that only asks "is it better?", re-searched with
  the full window in the rare case it is;
* the exact search's rules: a position whose mover can complete a line is never entered (its
  parent won there), only moves that do not hand the opponent a line are tried, and the window
  is clipped to the scores still possible.

Scores are the exact search's scale (``alphabeta``): a win with the stone played when ``moves``
stones are on the board scores ``(cells + 1 - moves) // 2``, a loss the opponent's win negated, a
draw 0; a position cut off at the horizon is worth the evaluation, strictly inside (-1, 1). A
value of at least 1 (at most -1) is therefore a proven win (loss), whatever depth found it, and
the table keeps such bounds for every depth. ``negamax`` is fail-soft, as ``alphabeta``'s.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from agents.alphabeta import MAX_SEARCH_PLIES, NO_LIMIT, SearchLimit, clock_check_mask, paused_gc, win_score
from agents.line_evaluation import Evaluation, line_evaluator
from agents.move_order import centre_first_masks, sorted_moves
from agents.position import Geometry, Position

DEFAULT_CAPACITY = 1 << 20
"""Entries the table holds before it is emptied: about 150 MB of dict and tuples at most."""

PROVEN = 1.0
"""Values at or beyond this (in magnitude) are proven wins or losses, valid at any depth."""

NULL_WIDTH = 1e-9
"""The width of a null window: below the gap between any two distinct values (evaluations are
multiples of ``1 / line_evaluation.raw_bound``, proven scores whole numbers)."""


class _OutOfTime(Exception):
    """Raised inside a search at its limit; it never leaves this module's functions."""


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


@dataclass(frozen=True)
class Estimate:
    """The best column at one depth and its value (see the module docstring for the scale).

    ``exact`` when the search saw the end of every line of play (the value is then the game's
    exact result, a win's size aside); ``nodes`` counts the positions this depth entered.
    """

    column: int
    score: float
    depth: int
    nodes: int
    exact: bool

    @property
    def proven(self) -> bool:
        """Whether the value is a proven win or loss (or the search saw to the end)."""
        return self.exact or abs(self.score) >= PROVEN


DepthNegamax = Callable[[int, int, int, float, float, int, int], float]


def variation_negamax(shape: Geometry, evaluate: Evaluation, table: VariationTable,
                      limit: SearchLimit) -> tuple[DepthNegamax, Callable[[], int]]:
    """``negamax(current, mask, moves, alpha, beta, threats, depth)`` and a node counter.

    The mover of ``current`` cannot complete a line at once; ``threats`` are the opponent's
    winning cells. Raises ``_OutOfTime`` at ``limit``.
    """
    cells = shape.cells
    bottom = shape.bottom_mask
    board = shape.board_mask
    winning_cells_of = shape.winning_cells_of
    column_masks = centre_first_masks(shape)
    entries = table.entries
    probe = entries.get
    capacity = table.capacity
    clock = time.perf_counter
    stop_at, max_nodes = limit.stop_at, limit.max_nodes
    check_mask = clock_check_mask(shape)
    null_width = NULL_WIDTH
    nodes = 0

    def negamax(current: int, mask: int, moves: int, alpha: float, beta: float, threats: int, depth: int) -> float:
        nonlocal nodes
        nodes += 1
        if not nodes & check_mask:
            if clock() >= stop_at or nodes >= max_nodes:
                raise _OutOfTime
            if len(entries) >= capacity:
                entries.clear()
        possible = (mask + bottom) & board
        forced = possible & threats
        if forced:
            if forced & (forced - 1):
                return -((cells - moves) // 2)  # two threats to block: the opponent wins next move
            possible = forced
        possible &= ~(threats >> 1)  # never play just below an opponent's threat
        if not possible:
            return -((cells - moves) // 2)
        if moves >= cells - 2:
            return 0
        if depth <= 0:
            return evaluate(current, mask, moves, threats)
        low: float = -((cells - 2 - moves) // 2)
        high: float = (cells - 1 - moves) // 2
        key = current + mask
        entry = probe(key)
        first = 0
        if entry is not None:
            stored_depth, lower, upper, first = entry
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
        ordered = sorted_moves(winning_cells_of, column_masks, current, mask, possible)
        if first & possible and ordered[0][1] != first:
            ordered.sort(key=lambda scored: scored[1] != first)
        best, best_move = -math.inf, 0
        for index, (_, move, child_threats) in enumerate(ordered):
            if index == 0:
                score = -negamax(opponent, mask | move, moves + 1, -beta, -alpha, child_threats, depth - 1)
            else:
                score = -negamax(opponent, mask | move, moves + 1, -alpha - null_width, -alpha, child_threats,
                                 depth - 1)
                if alpha < score < beta:
                    score = -negamax(opponent, mask | move, moves + 1, -beta, -score, child_threats, depth - 1)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        lower = best if best > original_alpha else -math.inf
        upper = best if best < beta else math.inf
        if entry is not None and entry[0] == depth:
            lower, upper = max(lower, entry[1]), min(upper, entry[2])
        entries[key] = (depth, lower, upper, best_move)
        return best

    return negamax, lambda: nodes


def deepening(position: Position, table: VariationTable | None = None, limit: SearchLimit = NO_LIMIT,
              evaluate: Evaluation | None = None, first_column: int | None = None) -> Iterator[Estimate]:
    """One ``Estimate`` per completed depth of ``position`` (not over), until ``limit`` or a proof.

    ``first_column`` is searched first at depth 1 (a hint, such as the column the previous move's
    search expected); later depths start with the previous depth's best. The iterations stop once
    a value is proven or a depth reaches the end of the game.
    """
    if position.is_over():
        raise ValueError(f"the game is over in {position!r}: there is no move to search")
    shape = position.geometry
    current, mask, moves = position.current, position.mask, position.moves
    wins = position.winning_columns()
    if wins:
        yield Estimate(wins[0], float(win_score(shape, moves)), 0, 1, True)
        return
    safe = position.non_losing_columns()
    if not safe:
        threats = position.opponent_winning_cells() & shape.possible(mask)
        block = [c for c in position.legal_columns() if threats & shape.column_masks[c]]
        yield Estimate((block or position.legal_columns())[0], -float(win_score(shape, moves + 1)), 0, 1, True)
        return
    if len(safe) == 1:
        yield Estimate(safe[0], 0.0, 0, 1, False)  # forced: nothing to weigh, whatever it is worth
        return
    table = table if table is not None else VariationTable()
    negamax, counter = variation_negamax(shape, evaluate or line_evaluator(shape), table, limit)
    opponent = current ^ mask
    order = [c for c in safe if c == first_column] + [c for c in safe if c != first_column]
    remaining = shape.cells - moves
    with paused_gc():
        for depth in range(1, min(remaining, MAX_SEARCH_PLIES) + 1):
            before = counter()
            try:
                alpha, best = -math.inf, order[0]
                for column in order:
                    move = position.move_bit(column)
                    threats = shape.winning_cells_of(current | move, mask | move)
                    if alpha == -math.inf:
                        score = -negamax(opponent, mask | move, moves + 1, -math.inf, math.inf, threats, depth - 1)
                    else:
                        score = -negamax(opponent, mask | move, moves + 1, -alpha - NULL_WIDTH, -alpha, threats,
                                         depth - 1)
                        if score > alpha:
                            score = -negamax(opponent, mask | move, moves + 1, -math.inf, -score, threats, depth - 1)
                    if score > alpha:
                        alpha, best = score, column
            except _OutOfTime:
                return
            exact = depth >= remaining
            yield Estimate(best, alpha, depth, counter() - before, exact)
            if exact or abs(alpha) >= PROVEN:
                return
            order = [best] + [c for c in order if c != best]
