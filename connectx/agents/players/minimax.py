"""``minimax``: the optimised minimax of Sheoran et al. (2021), as alpha-beta negamax.

The search is negamax with alpha-beta pruning on the mover-relative position. At the horizon it
scores the position with the paper's window-count table (``window_table``), maintained stone by
stone as the search walks the tree, and memoises every evaluation by position key for the rest
of the move, so no window is recounted and no position is evaluated twice. The depth follows
the paper: 4 plies while more than a third of the cells are empty, 5 from then on. Kang, Wang &
Hu's heuristics H1 and H2 (``paper_heuristics``) can replace the window evaluation.

Scores: ``connectx.agents.core.scores``' scale moved out by ``WIN_OFFSET`` (``scores.beyond``), so a sooner win
scores higher, and every win outranks every evaluation. With ``rules="ours"`` (the default) two
rules go beyond the paper: a position whose side to move can complete a line at once scores as
that win, even at the horizon (one ply of tactics the static evaluation would miss), and moves
that hand the opponent an immediate line are skipped (this changes no value: the tree would find
that loss one ply later).

``rules="paper"`` is the papers' search as written (Sheoran et al. Sec. 3.2.1, Kang et al. Sec.
3.2): every legal move is searched, and a node is a leaf when the depth is exhausted or the game
is over (the last move made a line, or the board is full); every leaf, a finished game included,
is scored by the static evaluation. The window evaluation counts a completed line as a window of
inarow stones (81 points), H1 as its Feature 1 (so H1 with Feature 1 switched off does not see a
line); H2 has no term for a line, so under the paper's rules a finished line is scored as a
decided win or loss, as H2's source program does (Kang et al.'s reference [14]: 255 - depth).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from connectx.agents.core.position import Geometry, Position
from connectx.agents.core.scores import beyond, loss_score, win_score
from connectx.agents.core.search_result import SearchResult, deepen, last_of
from connectx.agents.core.search_time import NO_LIMIT, Deadline, OutOfTime, SearchLimit, clock_check_mask
from connectx.agents.core.strategy import MoveStats
from connectx.agents.heuristics.paper_heuristics import (
    H1_FEATURES,
    h1,
    h2,
    parse_features,
    parse_window_weights,
    window_score,
    window_weights,
)
from connectx.agents.heuristics.window_table import WindowTable

WIN_OFFSET = 10**15
"""Added to every decided score's magnitude: above every evaluation (H1 sums stay below 10**14 on any
board Kaggle plays)."""
INFINITY = 10**18
EVALUATIONS = ("window", "h1", "h2")
RULES = ("ours", "paper")
"""``ours``: a win one ply ahead counts at the horizon and moves handing the opponent a line are
skipped; ``paper``: the papers' plain search, every leaf (a finished game too) scored statically."""


def adaptive_depth(position: Position) -> int:
    """The paper's depth rule: 4 while more than a third of the cells are empty, else 5.

    "More than a third" is strict: with exactly a third empty (14 of 42) the search goes to 5.
    """
    empty = position.geometry.cells - position.moves
    return 4 if 3 * empty > position.geometry.cells else 5


class MinimaxSearch:
    """The search for one move: fail-soft alpha-beta negamax over one root position.

    It owns the window table and the evaluation memo, both valid for this root only. With
    ``memo`` off it recounts every window at every horizon node and caches nothing, which is
    the paper's unoptimised baseline (same tree, same values, more work). With ``pruning`` off
    it never cuts at beta, so it visits the whole tree to its depth: plain minimax, every value
    exact, the same best columns, more nodes (Kang et al.'s baseline for alpha-beta).
    """

    def __init__(
        self,
        root: Position,
        evaluation: str = "window",
        weights: tuple[int, ...] | None = None,
        memo: bool = True,
        limit: SearchLimit = NO_LIMIT,
        rules: str = "ours",
        features: frozenset[int] = H1_FEATURES,
        pruning: bool = True,
    ) -> None:
        """``weights`` are for 1..inarow stones in a window (default: the paper's, ``window_weights``);
        ``rules`` is one of ``RULES``; ``features`` are H1's features in use."""
        if evaluation not in EVALUATIONS:
            raise ValueError(f"evaluation {evaluation!r}: expected one of {', '.join(EVALUATIONS)}")
        if rules not in RULES:
            raise ValueError(f"rules {rules!r}: expected one of {', '.join(RULES)}")
        self.root = root
        self.paper = rules == "paper"
        self.features = features
        # Under the paper's rules a finished line is scored by the evaluation, except H2's (see the module's
        # docstring); H1 without its Feature 1 does not see a line at all, as the paper's Table 7 plays it.
        self.line_is_evaluated = evaluation != "h2"
        self.shape: Geometry = root.geometry
        if weights is not None and len(weights) != self.shape.inarow:
            raise ValueError(
                f"{len(weights)} window weights for inarow {self.shape.inarow}: "
                "give one weight per stone count 1..inarow"
            )
        self.weights = (0,) + weights if weights is not None else window_weights(self.shape.inarow)
        self.memo = memo
        self.pruning = pruning
        self.limit = limit
        self.incremental = memo and evaluation == "window"
        self.table = WindowTable(root) if self.incremental else None
        self.cache: dict[int, int] = {}
        self.static = self._static_evaluation(evaluation)
        self.nodes = 0
        self.evaluations = 0
        self.check_mask = clock_check_mask(self.shape)

    def _static_evaluation(self, evaluation: str) -> Callable[[int, int, int], int]:
        """``(current, mask, moves) -> score`` for the side to move, computed from scratch."""
        shape, weights = self.shape, self.weights
        if evaluation == "h1":
            features = self.features
            return lambda current, mask, moves: h1(shape, current, current ^ mask, features)
        if evaluation == "h2":
            return lambda current, mask, moves: h2(shape, current, current ^ mask)
        if self.incremental:
            table = self.table
            assert table is not None
            return lambda current, mask, moves: table.score(moves % 2, weights)
        return lambda current, mask, moves: window_score(shape, current, current ^ mask, weights)

    def evaluate(self, current: int, mask: int, moves: int) -> int:
        """The static score for the side to move, memoised by position key when ``memo`` is on."""
        if not self.memo:
            self.evaluations += 1
            return self.static(current, mask, moves)
        key = current + mask
        score = self.cache.get(key)
        if score is None:
            self.evaluations += 1
            score = self.cache[key] = self.static(current, mask, moves)
        return score

    def search(self, depth: int, first: int | None = None) -> SearchResult:
        """The exact value of the root at ``depth`` plies and every column that reaches it.

        Each root move is searched with alpha one below the best so far, so a move that ties the
        best comes back with its exact value and ties can be broken fairly by the caller.
        ``first`` is searched first (the best move of the previous depth).
        """
        self.nodes += 1  # the root is a position the search entered, as every child is
        shape, root = self.shape, self.root
        possible = shape.possible(root.mask)
        if self.paper:
            return self._root_moves(possible, depth, first)
        wins = root.winning_cells() & possible
        if wins:
            return SearchResult(
                tuple(root.winning_columns()), beyond(win_score(shape, root.moves), WIN_OFFSET), depth, self.nodes
            )
        safe = shape.non_losing(root.current, root.mask)
        if not safe:
            return SearchResult(
                tuple(root.legal_columns()), beyond(loss_score(shape, root.moves), WIN_OFFSET), depth, self.nodes
            )
        return self._root_moves(safe, depth, first)

    def _root_moves(self, moves: int, depth: int, first: int | None) -> SearchResult:
        """Every root move among the cells ``moves``, ``first`` first, and the columns that reach the best value."""
        shape, root = self.shape, self.root
        order = [c for c in shape.centre_order if moves & shape.column_masks[c]]
        if first in order:
            order.remove(first)
            order.insert(0, first)
        best, columns = -INFINITY, []
        for column in order:
            score = -self._child(
                root.current, root.mask, root.moves, moves & shape.column_masks[column], depth - 1, -INFINITY, 1 - best
            )  # alpha best - 1: a tie comes back exact
            if score > best:
                best, columns = score, [column]
            elif score == best:
                columns.append(column)
        return SearchResult(tuple(sorted(columns)), best, depth, self.nodes)

    def _child(self, current: int, mask: int, moves: int, move: int, depth: int, alpha: int, beta: int) -> int:
        """The negamax value of the position after ``move``, from the opponent's side."""
        table = self.table
        if table is not None:
            table.place(move, moves % 2)
        try:
            return self._negamax(current ^ mask, mask | move, moves + 1, depth, alpha, beta)
        finally:
            if table is not None:
                table.remove(move, moves % 2)

    def _negamax(self, current: int, mask: int, moves: int, depth: int, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta: exact inside (alpha, beta), else a bound on the side that failed."""
        self.nodes += 1
        if not self.nodes & self.check_mask and self.limit.expired():
            raise OutOfTime
        shape = self.shape
        if self.paper:
            return self._paper_node(current, mask, moves, depth, alpha, beta)
        if shape.winning_cells(current, mask) & shape.possible(mask):
            return beyond(win_score(shape, moves), WIN_OFFSET)
        if moves == shape.cells:
            return 0
        if depth <= 0:
            return self.evaluate(current, mask, moves)
        safe = shape.non_losing(current, mask)  # moves handing the opponent a line are skipped: 0 if all do
        if not safe:
            return beyond(loss_score(shape, moves), WIN_OFFSET)
        return self._best_move_score(current, mask, moves, safe, depth, alpha, beta)

    def _paper_node(self, current: int, mask: int, moves: int, depth: int, alpha: int, beta: int) -> int:
        """The papers' node: a leaf (depth spent, a line, a full board) is evaluated, else every move searched."""
        shape = self.shape
        if shape.has_line(current ^ mask):
            if not self.line_is_evaluated:
                return beyond(-win_score(shape, moves - 1), WIN_OFFSET)
            return self.evaluate(current, mask, moves)
        if depth <= 0 or moves == shape.cells:
            return self.evaluate(current, mask, moves)
        return self._best_move_score(current, mask, moves, shape.possible(mask), depth, alpha, beta)

    def _best_move_score(
        self, current: int, mask: int, moves: int, movable: int, depth: int, alpha: int, beta: int
    ) -> int:
        """The best score among the moves in ``movable`` (one bit per column), centre first, cut at ``beta``
        unless ``pruning`` is off."""
        shape = self.shape
        best = -INFINITY
        for column in shape.centre_order:
            move = movable & shape.column_masks[column]
            if not move:
                continue
            score = -self._child(current, mask, moves, move, depth - 1, -beta, -alpha)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta and self.pruning:
                        break
        return best

    def deepen(self, depth: int) -> SearchResult:
        """Iterative deepening to ``depth``: the result of the deepest depth finished within the limit.

        Depth 1 always finishes (it runs without the limit); deeper ones stop at the limit and are
        then discarded.
        """
        limit = self.limit

        def at_depth(plies: int, previous: SearchResult | None) -> SearchResult:
            self.limit = limit if previous is not None else NO_LIMIT
            return self.search(plies, previous.column if previous is not None else None)

        try:
            last = last_of(deepen(at_depth, range(1, depth + 1), limit))
        finally:
            self.limit = limit
        assert last is not None, "depth 1 runs without a limit"
        return last


WEIGHTS_FORM = "positive integers separated by '/', one per stone count 1..inarow, like 1/3/9/81 for 4 in a row"


def window_weights_of(text: str, inarow: int | None = None) -> tuple[int, ...]:
    """The ``weights`` parameter as numbers, checked: all positive and, given ``inarow``, that many."""
    try:
        weights = parse_window_weights(text)
    except ValueError:
        weights = ()
    if not weights or min(weights) < 1 or (inarow is not None and len(weights) != inarow):
        count = f"{inarow} " if inarow is not None else ""
        raise ValueError(f"weights={text}: expected {count}{WEIGHTS_FORM}")
    return weights


def check_board(parameters: Mapping[str, Any], shape: Geometry) -> None:
    """ValueError unless the parameters suit ``shape``: one window weight per stone count 1..inarow."""
    if parameters.get("weights") is not None:
        window_weights_of(parameters["weights"], shape.inarow)


class MinimaxStrategy:
    """Chooses by alpha-beta at the adaptive (or a fixed) depth; a seeded generator breaks ties."""

    def __init__(
        self,
        depth: int | None = None,
        evaluation: str = "window",
        weights: str | None = None,
        memo: bool = True,
        seed: int | None = None,
        rules: str = "ours",
        features: str = "1234",
        pruning: bool = True,
    ) -> None:
        if depth is not None and depth < 1:
            raise ValueError(f"minimax depth {depth}: expected 1 or more, or none for the paper's 4/5 rule")
        if evaluation not in EVALUATIONS:
            raise ValueError(f"evaluation {evaluation!r}: expected one of {', '.join(EVALUATIONS)}")
        if rules not in RULES:
            raise ValueError(f"rules={rules}: expected one of {', '.join(RULES)}")
        self.features = parse_features(features)
        if evaluation != "h1" and self.features != H1_FEATURES:
            raise ValueError(f"features={features}: H1's features apply only with evaluation=h1")
        self.depth = depth
        self.evaluation = evaluation
        self.rules = rules
        self.weights = None if weights is None else window_weights_of(weights)
        self.memo = memo
        self.pruning = pruning
        self.seed = seed
        self.rng = random.Random(seed)
        self.last_search: MinimaxSearch | None = None
        self.last_result: SearchResult | None = None
        self.time_budget: float | None = None
        self.last_stats: MoveStats = {}

    def search_for(self, position: Position, limit: SearchLimit = NO_LIMIT) -> MinimaxSearch:
        """A fresh search over ``position`` configured as this strategy is."""
        return MinimaxSearch(
            position, self.evaluation, self.weights, self.memo, limit, self.rules, self.features, self.pruning
        )

    def choose(self, position: Position, deadline: Deadline) -> int:
        search = self.search_for(position, deadline.limit())
        depth = self.depth if self.depth is not None else adaptive_depth(position)
        result = search.deepen(depth)
        self.last_search, self.last_result = search, result
        self.last_stats = {
            "nodes": search.nodes,
            "depth": result.depth,
            "evaluations": search.evaluations,
            "source": "search",
        }
        return self.rng.choice(result.columns)

    def reset(self) -> None:
        self.rng = random.Random(self.seed)
        self.last_search = self.last_result = None


def make_strategy(
    depth: int | None = None,
    evaluation: str = "window",
    weights: str | None = None,
    memo: bool = True,
    seed: int | None = None,
    rules: str = "ours",
    features: str = "1234",
    pruning: bool = True,
) -> MinimaxStrategy:
    """Sheoran et al.'s minimax: depth 4/5 by the paper's rule unless ``depth`` is given.

    ``evaluation`` is ``window`` (the paper's), ``h1`` or ``h2`` (Kang, Wang & Hu); ``weights``
    replaces the window weights for 1..inarow stones, written ``1/3/9/81``; ``memo=false`` turns
    off the incremental table and the evaluation memo (same moves, slower: Sheoran's unoptimised
    minimax, which recounts every window at every leaf); ``seed`` breaks ties.

    ``rules=paper`` searches as the papers wrote it: every legal move, and every leaf (the depth
    exhausted, or the game over) scored by the evaluation; ``rules=ours`` (the default) adds two
    rules, a win one ply ahead counted at the horizon and no move that hands the opponent a line.
    ``features`` (with ``evaluation=h1`` only) lists the digits of H1's features in use, ``1234``
    all four (Kang et al.'s Tables 7 and 8 use single features and combinations, like ``34``).
    ``pruning=false`` turns alpha-beta's cut-off off: the whole tree to the same depth, the same
    moves, more nodes (the plain minimax Kang et al. say alpha-beta makes efficient).

    Sheoran's agents as written: ``rules=paper,memo=false,depth=1`` (2, 3) for the unoptimised
    minimax of the paper's depths up to 3, ``rules=paper`` for the optimised one at depth 4/5.
    Kang's: ``rules=paper,evaluation=h1,depth=4`` (H1 with all features), ``evaluation=h2`` for H2.
    """
    return MinimaxStrategy(depth, evaluation, weights, memo, seed, rules, features, pruning)
