"""Exact negamax alpha-beta: the proven score of a position and a move that achieves it.

Scores are ``connectx.agents.core.scores``' scale (Pons' convention, as in ``positions/``): 0 for a draw; a win
with the stone played when ``moves`` stones are on the board scores ``(cells + 1 - moves) // 2``; a
loss is the opponent's win, negated. The hot loops write those formulas inline (a call per node
costs more than the arithmetic), each with a comment naming the ``scores`` function it is.

The search is Pons' solver on the shared bitboard core, working on plain ints (never ``Position``
objects) inside the loop:

* only non-losing moves are searched (``Geometry.non_losing``'s rule), and a position whose
  mover could win at once is never entered: its parent has already won there instead;
* the window is clipped to the scores still possible and to the bound in the transposition table
  (upper or lower, whichever was stored last for that position);
* moves are tried in ``move_order``'s order, and the winning cells each move creates are handed
  to the child as the threats it faces, so no node computes them twice;
* the root narrows the score with null-window searches, probing near 0 first (where most
  positions lie), then halfway towards the bound.

``negamax`` is fail-soft: a result ``r`` with ``alpha < r < beta`` is exact, ``r <= alpha`` an
upper bound, ``r >= beta`` a lower bound. Bounds are stored only when a node completes, so the
table never holds anything from a search the clock cut short: ``OutOfTime`` unwinds past every
store. The garbage collector is paused meanwhile: the search allocates only ints, tuples and
short lists that hold no cycles, and a collection in the middle of a timed move is pure latency.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from connectx.agents.core.move_order import ScoredMove, centre_first_masks, sorted_moves
from connectx.agents.core.position import Geometry, Position
from connectx.agents.core.scores import finished_score, win_score
from connectx.agents.core.search_result import SearchCounts
from connectx.agents.core.search_time import NO_LIMIT, OutOfTime, SearchLimit, clock_check_mask
from connectx.agents.core.transposition_table import LOWER_BOUND_OFFSET, LOWER_BOUND_THRESHOLD, TranspositionTable
from connectx.agents.heuristics.horizon_evaluation import Evaluation, evaluator

MAX_SEARCH_PLIES = 400
"""The deepest any search recurses. Each ply is one Python frame, and 400 leave 600 of CPython's
default 1000 to the callers (Kaggle's runner, a test runner), so no search depends on the
recursion limit: the exact searches refuse positions with more empty cells than this (no exact
search of that many finishes within a move anyway), and the depth-limited ones deeper depths."""

Negamax = Callable[[int, int, int, int, int, int], int]
"""``negamax(current, mask, moves, alpha, beta, threats) -> score`` (see ``exact_negamax``)."""

DepthLimitedNegamax = Callable[[int, int, int, float, float, int, int], float]
"""``negamax(current, mask, moves, alpha, beta, threats, depth) -> value`` (see ``depth_limited_negamax``)."""


class SearchTooDeep(ValueError):
    """A search that would recurse deeper than ``MAX_SEARCH_PLIES``."""


@dataclass(frozen=True)
class Solution:
    """The exact score of a position for the side to move, and a column that achieves it.

    ``column`` is None only when the game is already over. ``nodes`` counts the positions the
    search entered.
    """

    score: int
    column: int | None
    nodes: int


@dataclass(frozen=True)
class Proof:
    """Whether the side to move can score at least ``target``; if it ``holds``, ``column`` does."""

    target: int
    holds: bool
    column: int | None
    nodes: int


@dataclass(frozen=True)
class Estimate:
    """The best column found by a depth-limited search and its value.

    ``score`` is a proven win (>= 1) or loss (<= -1) in ``Solution``'s scale, or a horizon
    estimate strictly between; it is exact when ``exact`` (the search saw the end of every line
    of play). ``nodes`` counts the positions the search entered.
    """

    score: float
    column: int
    exact: bool
    depth: int
    nodes: int


class NodeCounter:
    """How many nodes a search built by ``exact_negamax`` (or ``depth_limited_negamax``) has entered
    so far, and how many horizon evaluations it made."""

    def __init__(self, read: Callable[[], int], read_evaluations: Callable[[], int] = lambda: 0) -> None:
        self.read = read
        self.read_evaluations = read_evaluations

    @property
    def nodes(self) -> int:
        return self.read()

    @property
    def evaluations(self) -> int:
        return self.read_evaluations()

    def add_to(self, counts: SearchCounts | None) -> None:
        """Add this search's nodes (and the root's) and evaluations to ``counts``, if given."""
        if counts is not None:
            counts.nodes += self.nodes + 1
            counts.evaluations += self.evaluations


def _check_depth(plies: int) -> None:
    """Raise ``SearchTooDeep`` unless a search may recurse ``plies`` deep."""
    if plies > MAX_SEARCH_PLIES:
        raise SearchTooDeep(
            f"a search {plies} plies deep would recurse past the bound of {MAX_SEARCH_PLIES} "
            "plies (one Python frame each)"
        )


@contextmanager
def paused_gc() -> Iterator[None]:
    """Keep the garbage collector off for the duration, restoring its previous state."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def exact_negamax(shape: Geometry, table: TranspositionTable, limit: SearchLimit) -> tuple[Negamax, NodeCounter]:
    """A fail-soft exact negamax for ``shape`` over ``table``, raising ``OutOfTime`` at ``limit``.

    ``negamax(current, mask, moves, alpha, beta, threats)`` scores a position whose mover cannot
    win at once; ``threats`` are the opponent's winning cells. Everything the loop touches is a
    local of this closure, which is what CPython reads fastest.
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
    nodes = 0

    def negamax(current: int, mask: int, moves: int, alpha: int, beta: int, threats: int) -> int:
        nonlocal nodes
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
        low = -((cells - 2 - moves) // 2)  # we survive the next move, so at worst we lose two plies later
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        high = (cells - 1 - moves) // 2  # we cannot win now, so at best with our next stone
        key = current + mask  # unique per position: mask's bits mark each column's height, current's who owns them
        packed = probe(key)
        if packed is not None:
            if packed > LOWER_BOUND_THRESHOLD:  # lower bounds are stored offset far above any score
                low = packed - LOWER_BOUND_OFFSET
                if alpha < low:
                    alpha = low
                    if alpha >= beta:
                        return alpha
            elif packed < high:  # an upper bound, stored as itself
                high = packed
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        opponent = current ^ mask  # the child sees the board from the opponent's side: negamax, no colours
        # Moves creating the most winning cells first (alpha-beta cuts soonest on the best move); each
        # move's winning cells are the threats its child faces, so the child need not compute them.
        for _, move, child_threats in sorted_moves(winning_cells_of, column_masks, current, mask, possible):
            score = -negamax(opponent, mask | move, moves + 1, -beta, -alpha, child_threats)
            if score >= beta:  # fail high: the score is at least this, so it is stored as a lower bound
                entries[key] = score + LOWER_BOUND_OFFSET
                return score
            if score > alpha:
                alpha = score
        entries[key] = alpha  # no move beat alpha's final value: an upper bound (exact when inside the window)
        return alpha

    return negamax, NodeCounter(lambda: nodes)


def depth_limited_negamax(
    shape: Geometry, evaluate: Evaluation, limit: SearchLimit
) -> tuple[DepthLimitedNegamax, NodeCounter]:
    """A fail-soft negamax to a fixed depth, scoring the horizon with ``evaluate``.

    Same rules as ``exact_search.exact_negamax`` (the mover cannot win at once, ``threats`` are the
    opponent's winning cells, non-losing moves only, window clipped to the possible scores), plus
    a depth: at depth 0 a position that is not decided yet is worth ``evaluate``.
    """
    cells = shape.cells
    non_losing_moves = shape.non_losing_moves
    winning_cells_of = shape.winning_cells_of
    column_masks = centre_first_masks(shape)
    clock = time.perf_counter
    stop_at, max_nodes = limit.stop_at, limit.max_nodes
    check_mask = clock_check_mask(shape)
    nodes = 0
    evaluations = 0

    def negamax(current: int, mask: int, moves: int, alpha: float, beta: float, threats: int, depth: int) -> float:
        nonlocal nodes, evaluations
        nodes += 1
        if not nodes & check_mask and (clock() >= stop_at or nodes >= max_nodes):  # one node in 1024
            raise OutOfTime
        possible = non_losing_moves(mask, threats)
        if not possible:
            return -((cells - moves) // 2)  # every move hands the opponent a win: scores.loss_score
        if moves >= cells - 2:  # neither side can win with the last two stones (checked above): a draw
            return 0
        if depth <= 0:  # the horizon: a value strictly inside (-1, 1), below every decided score
            evaluations += 1
            return evaluate(current, mask, moves, threats)
        low = -((cells - 2 - moves) // 2)  # we survive the next move, so at worst we lose two plies later
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        high = (cells - 1 - moves) // 2
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        opponent = current ^ mask
        for _, move, child_threats in sorted_moves(winning_cells_of, column_masks, current, mask, possible):
            score = -negamax(opponent, mask | move, moves + 1, -beta, -alpha, child_threats, depth - 1)
            if score >= beta:
                return score
            if score > alpha:
                alpha = score
        return alpha

    return negamax, NodeCounter(lambda: nodes, lambda: evaluations)


def solve(
    position: Position,
    table: TranspositionTable | None = None,
    limit: SearchLimit = NO_LIMIT,
    counts: SearchCounts | None = None,
) -> Solution | None:
    """The exact score of ``position`` and a best column, or None if the ``limit`` came first.

    ``counts``, when given, gets the nodes searched added, whether the search finished or not.

    Among moves with the best score the one
    found first in move order is played: a win is always the fastest one, a loss the slowest.
    Raises ``SearchTooDeep`` when a search is needed and more than ``MAX_SEARCH_PLIES`` cells are empty.
    """
    root = _root_moves(position)
    if isinstance(root, Solution):
        if counts is not None:
            counts.nodes += root.nodes
        return root
    shape = position.geometry
    _check_depth(shape.cells - position.moves)
    mask, moves = position.mask, position.moves
    negamax, counter = exact_negamax(shape, table if table is not None else TranspositionTable(), limit)
    low = -((shape.cells - moves) // 2)
    high = (shape.cells + 1 - moves) // 2
    best = root[0][1]
    with paused_gc():
        try:
            while low < high:
                probe = next_probe(low, high)
                # A null window (probe, probe + 1) only answers "above probe or not?", and cuts far more.
                score, move = _root_search(negamax, root, position.current ^ mask, mask, moves, probe, probe + 1)
                if score <= probe:
                    high = score
                else:
                    low, best = score, move
        except OutOfTime:
            return None
        finally:
            counter.add_to(counts)
    return Solution(low, shape.column_of(best), counter.nodes + 1)


def prove_at_least(
    position: Position,
    target: int,
    table: TranspositionTable | None = None,
    limit: SearchLimit = NO_LIMIT,
    counts: SearchCounts | None = None,
) -> Proof | None:
    """Whether the side to move can score at least ``target``, or None if the ``limit`` came first.

    One null-window search: much cheaper than ``solve``, and all an agent needs to keep a won
    position won (``target`` 1) or a drawn one from being lost (``target`` 0). Raises
    ``SearchTooDeep`` like ``solve``; ``counts`` as ``solve``'s.
    """
    root = _root_moves(position)
    if isinstance(root, Solution):
        if counts is not None:
            counts.nodes += root.nodes
        holds = root.score >= target
        return Proof(target, holds, root.column if holds else None, root.nodes)
    shape = position.geometry
    _check_depth(shape.cells - position.moves)
    mask, moves = position.mask, position.moves
    negamax, counter = exact_negamax(shape, table if table is not None else TranspositionTable(), limit)
    with paused_gc():
        try:
            score, move = _root_search(negamax, root, position.current ^ mask, mask, moves, target - 1, target)
        except OutOfTime:
            return None
        finally:
            counter.add_to(counts)
    holds = score >= target
    return Proof(target, holds, shape.column_of(move) if holds else None, counter.nodes + 1)


def search_depth(
    position: Position,
    depth: int,
    limit: SearchLimit = NO_LIMIT,
    first_column: int | None = None,
    counts: SearchCounts | None = None,
) -> Estimate | None:
    """The best column of ``position`` searched ``depth`` plies deep, or None if the ``limit`` came first.

    ``first_column``, when it is a candidate, is searched first (the previous iteration's best).
    Raises ``SearchTooDeep`` when that would recurse more than ``MAX_SEARCH_PLIES`` deep; ``counts``
    as ``solve``'s, with the horizon evaluations too.
    """
    root = _root_moves(position)
    if isinstance(root, Solution):
        if counts is not None:
            counts.nodes += root.nodes
        return Estimate(float(root.score), root.column if root.column is not None else -1, True, depth, root.nodes)
    shape = position.geometry
    _check_depth(min(depth, shape.cells - position.moves))
    if first_column is not None:
        first = [entry for entry in root if shape.column_of(entry[1]) == first_column]
        root = first + [entry for entry in root if shape.column_of(entry[1]) != first_column]
    negamax, counter = depth_limited_negamax(shape, evaluator(shape), limit)
    opponent, mask, moves = position.current ^ position.mask, position.mask, position.moves
    alpha, best = -math.inf, root[0][1]
    with paused_gc():
        try:
            for _, move, threats in root:
                score = -negamax(opponent, mask | move, moves + 1, -math.inf, -alpha, threats, depth - 1)
                if score > alpha:
                    alpha, best = score, move
        except OutOfTime:
            return None
        finally:
            counter.add_to(counts)
    exact = depth >= shape.cells - moves
    return Estimate(alpha, shape.column_of(best), exact, depth, counter.nodes + 1)


def analyze(
    position: Position,
    table: TranspositionTable | None = None,
    limit: SearchLimit = NO_LIMIT,
    counts: SearchCounts | None = None,
) -> dict[int, int] | None:
    """The exact score of playing each legal column (0-based), or None if the ``limit`` came first.

    The limit applies to each column's solve; ``counts`` gets their nodes. Raises ``SearchTooDeep`` like ``solve``.
    """
    table = table if table is not None else TranspositionTable()
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


def column_scores(
    position: Position, table: TranspositionTable, limit: SearchLimit = NO_LIMIT, counts: SearchCounts | None = None
) -> dict[int, int] | None:
    """``analyze`` for the players (``fallible``'s exact moves, ``solver``'s trap): a board with more empty cells
    than an exact search may recurse gets None, like a limit that came first, rather than an exception."""
    if position.geometry.cells - position.moves > MAX_SEARCH_PLIES:
        return None
    return analyze(position, table, limit, counts)


def _root_moves(position: Position) -> Solution | list[ScoredMove]:
    """The root's non-losing moves in search order, or the Solution when no search is needed.

    No search is needed when the game is over, the mover wins at once, every move loses at once
    (then the move blocks one of the threats, or is the first legal one), or at most two cells
    are left and the mover can neither win nor be beaten at once (a draw).
    """
    over = finished_score(position)
    if over is not None:
        return Solution(over, None, 0)
    shape = position.geometry
    current, mask, moves = position.current, position.mask, position.moves
    possible = shape.possible(mask)
    wins = shape.winning_cells_of(current, mask) & possible
    if wins:
        return Solution(win_score(shape, moves), _first_column(shape, wins), 1)
    candidates = shape.non_losing(current, mask)
    if not candidates:
        threats = shape.winning_cells_of(current ^ mask, mask)
        return Solution(-win_score(shape, moves + 1), _first_column(shape, (threats & possible) or possible), 1)
    ordered = sorted_moves(shape.winning_cells_of, centre_first_masks(shape), current, mask, candidates)
    if moves >= shape.cells - 2:
        return Solution(0, shape.column_of(ordered[0][1]), 1)
    return ordered


def _root_search(
    negamax: Negamax, ordered: list[ScoredMove], opponent: int, mask: int, moves: int, alpha: int, beta: int
) -> tuple[int, int]:
    """Fail-soft ``(score, move)`` over the root's ordered moves; on a fail-low the move means nothing."""
    best = ordered[0][1]
    for _, move, threats in ordered:
        score = -negamax(opponent, mask | move, moves + 1, -beta, -alpha, threats)
        if score >= beta:
            return score, move
        if score > alpha:
            alpha, best = score, move
    return alpha, best


def next_probe(low: int, high: int) -> int:
    """The null window to test next inside ``[low, high)``: near 0 first, then halfway (Pons)."""
    probe = low + (high - low) // 2
    half_low = -((-low) // 2)  # low / 2 rounded towards 0 (Python's // rounds towards minus infinity)
    if probe <= 0 and half_low < probe:  # most positions score near 0: probe there before halving the range
        return half_low
    if probe >= 0 and high // 2 > probe:
        return high // 2
    return probe


def _first_column(shape: Geometry, cells: int) -> int:
    """The first column centre-first holding one of ``cells``."""
    return next(column for column in shape.centre_order if cells & shape.column_masks[column])
