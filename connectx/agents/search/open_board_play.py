"""How ``solver`` plays where no opening book helps: principal-variation search on a clock that fits the board.

Each move, in order:

1. a forced move (an immediate win, or at most one move that does not hand the opponent a line)
   is answered at once: nothing to weigh, and no time or overage spent on it;
2. when an exact proof is within reach (at most ``PROOF_REACH`` empty cells), the exact search's
   proofs (``anytime_search.proofs``: a won position is kept won, a drawn one is never lost, then
   the exact solve) for ``PROOF_SHARE`` of the move's time;
3. ``principal_variation.deepening`` with the open-line and threat evaluation for the rest of the
   move's time. A new depth starts only while less than ``SOFT_SHARE`` of the move's time is
   spent (a depth takes several times the one before, so a late start would rarely finish);
4. once a draw is proven (by the proofs, or by a depth that reached the end of the game), the
   moves that keep it are proven one by one and the depth-limited search chooses among them,
   within ``DRAW_SHARE`` of the move's time: against perfect play they are all the same, but the
   one the evaluation likes best leaves a fallible opponent the most ways to go wrong;
5. overage, in the two cases where more time changes the move played, and on Kaggle's clock only:
   within a proof's reach and nothing proven, the proofs once more with a slice of the bank (the
   depth-limited move stands if they fail); out of reach, when the last depth's best move differs
   from the best of the depth two below (the same parity: depths of opposite parity often
   alternate between two moves), ``UNSTABLE_OVERAGE`` to finish one more depth.

The tables live for the whole game (emptied on a new game or board size), so one move's search
speeds up the next.
"""

from __future__ import annotations

import time

from connectx.agents.core.position import Geometry, Position
from connectx.agents.core.search_result import SearchCounts, SearchResult, last_of
from connectx.agents.core.search_time import Deadline, SearchLimit
from connectx.agents.core.strategy import MoveStats
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.heuristics.line_evaluation import LineEvaluation, LineWeights, line_evaluator
from connectx.agents.search.anytime_search import proofs
from connectx.agents.search.exact_search import prove_at_least
from connectx.agents.search.principal_variation import VariationTable, deepening

PROOF_REACH = 25
"""Empty cells from which the exact proofs are tried: a 5x5 board from its first move, and about
the point where a proof on a 4-in-a-row board finishes in a second of Python."""

PROOF_SHARE = 0.5
"""Share of the move's time the proofs may take before the depth-limited search gets the rest."""

PROOF_OVERAGE = 4.0
"""Seconds of overage at most that one move may draw to finish a proof within reach."""

SOFT_SHARE = 0.9
"""No new depth starts once this share of the move's time is spent. Late, because a depth cut short
still fills the game-long table for the next move: in play a late start beat an earlier one. On
Kaggle's clock a new depth may start until 1.53 s of the 1.7 s a move gets;
``benchmarks/other_boards.py`` reports the mean and the largest move time."""

DRAW_SHARE = 0.3
"""Share of the move's time spent, once a draw is proven, on choosing among the moves that keep it:
against perfect play they are all the same, so the time goes to the one that leaves a fallible
opponent the most ways to go wrong, and the rest of the move's time stays unspent."""

UNSTABLE_OVERAGE = 1.0
"""Seconds of overage a move may draw when its last two depths disagree on the best move."""

OVERAGE_SHARE = 0.1
"""At most this share of the bank on any one draw, so it lasts the whole game."""


class OpenBoardPlay:
    """The non-book play of ``solver``: its tables and its time rules.

    ``time_budget`` caps the seconds per move and ``max_nodes`` replaces the clock by node
    counts (reproducible games); either turns the overage bank off, as in ``SolverStrategy``.
    ``table_capacity`` bounds both tables in entries (default: each table's own).
    """

    def __init__(
        self,
        time_budget: float | None = None,
        max_nodes: int | None = None,
        weights: LineWeights | None = None,
        proof_reach: int = PROOF_REACH,
        soft_share: float = SOFT_SHARE,
        unstable_overage: float = UNSTABLE_OVERAGE,
        table_capacity: int | None = None,
    ) -> None:
        self.time_budget = time_budget
        self.max_nodes = max_nodes
        self.weights = weights
        self.proof_reach = proof_reach
        self.soft_share = soft_share
        self.unstable_overage = unstable_overage
        self.table = VariationTable() if table_capacity is None else VariationTable(table_capacity)
        self.exact_table = TranspositionTable() if table_capacity is None else TranspositionTable(table_capacity)
        self.last_stats: MoveStats = {}
        self._geometry: Geometry | None = None
        self._evaluate: LineEvaluation | None = None

    def reset(self) -> None:
        self.table.clear()
        self.exact_table.clear()

    def choose(self, position: Position, deadline: Deadline) -> int:
        if position.geometry != self._geometry:
            self.reset()
            self._geometry = position.geometry
            self._evaluate = line_evaluator(position.geometry, self.weights)
        started = time.perf_counter()
        stop_at = deadline.expires_at
        on_kaggle_clock = self.time_budget is None and self.max_nodes is None
        if self.time_budget is not None:
            stop_at = min(stop_at, started + self.time_budget)
        counts = SearchCounts()
        forced = bool(position.winning_columns()) or len(position.non_losing_columns()) <= 1
        provable = not forced and position.geometry.cells - position.moves <= self.proof_reach
        chosen = self._prove(position, self._proof_limit(started, stop_at), counts) if provable else None
        if chosen is None:
            chosen = self._deepen(position, deadline, stop_at, on_kaggle_clock and not provable, counts)
        if chosen is not None and chosen.proven and chosen.score == 0 and not forced:
            chosen = self._liveliest_draw(position, chosen, started, stop_at, counts)
        if provable and on_kaggle_clock and not (chosen is not None and chosen.proven):
            # Nothing proven within the move's time: a slice of the bank may turn the estimate into a certainty.
            slice_ = min(PROOF_OVERAGE, OVERAGE_SHARE * deadline.overage)
            if slice_ > 0:
                chosen = self._prove(position, deadline.extended(slice_).limit(), counts) or chosen
        self.last_stats = {
            "nodes": counts.nodes,
            "depth": chosen.depth if chosen else 0,
            "evaluations": counts.evaluations,
            "source": move_source(chosen),
        }
        return chosen.column if chosen is not None else position.legal_columns()[0]

    def _proof_limit(self, started: float, stop_at: float) -> SearchLimit:
        """The proofs' share of the move: ``PROOF_SHARE`` of its time, or half its nodes."""
        if self.max_nodes is None:
            return SearchLimit(started + PROOF_SHARE * (stop_at - started))
        return SearchLimit(max_nodes=self.max_nodes // 2)

    def _prove(self, position: Position, limit: SearchLimit, counts: SearchCounts) -> SearchResult | None:
        """The proofs' last result if a proof holds (or the exact solve is done) within ``limit``, else None."""
        return last_of(proofs(position, self.exact_table, limit, counts))

    def _liveliest_draw(
        self, position: Position, drawn: SearchResult, started: float, stop_at: float, counts: SearchCounts
    ) -> SearchResult:
        """Of the moves that keep a proven draw, the one the depth-limited search values most.

        Every one of them draws against perfect play; the one the evaluation likes best leaves a
        fallible opponent the most ways to go wrong. ``drawn`` stands if the clock runs out first.
        """
        if self.max_nodes is None:
            limit = SearchLimit(max(time.perf_counter(), started + DRAW_SHARE * (stop_at - started)))
        else:
            limit = SearchLimit(max_nodes=self.max_nodes // 4)
        drawing = []
        for column in position.non_losing_columns():
            proof = prove_at_least(position.play(column), 1, self.exact_table, limit, counts)
            if proof is None:
                return drawn
            if not proof.holds:  # the opponent cannot win after it
                drawing.append(column)
        if len(drawing) <= 1:
            return drawn
        liveliest = last_of(
            deepening(position, self.table, limit, self._evaluate, drawn.column, counts, columns=drawing)
        )
        if liveliest is None:
            return drawn
        return SearchResult((liveliest.column,), 0.0, drawn.depth, drawn.nodes + liveliest.nodes, proven=True)

    def _deepen(
        self, position: Position, deadline: Deadline, stop_at: float, may_draw: bool, counts: SearchCounts
    ) -> SearchResult | None:
        """The last depth the clock (and, if ``may_draw``, one draw on the bank) let finish; None if none did."""
        started = time.perf_counter()
        soft_at = started + self.soft_share * max(0.0, stop_at - started)
        limit = SearchLimit(stop_at, self.max_nodes if self.max_nodes is not None else float("inf"))
        columns: dict[int, int] = {}  # the best column of each completed depth
        last: SearchResult | None = None
        drawn = False
        wanted = 0
        while True:
            for result in deepening(
                position, self.table, limit, self._evaluate, last.column if last is not None else None, counts
            ):
                if last is None or result.depth > last.depth or result.proven and not last.proven:
                    last = result
                    columns[result.depth] = result.column
                if self.max_nodes is None and result.depth >= wanted and time.perf_counter() >= soft_at:
                    break
            if (
                last is None
                or not may_draw
                or drawn
                or last.proven
                or columns.get(last.depth - 2, last.column) == last.column
            ):
                return last
            slice_ = min(self.unstable_overage, OVERAGE_SHARE * deadline.overage)
            if slice_ <= 0:
                return last
            # The best move changed since the last depth of the same parity (depths of opposite
            # parity often alternate between two moves): one more depth decides between them.
            drawn = True
            limit = SearchLimit(deadline.extended(slice_).expires_at)
            soft_at = time.perf_counter()
            wanted = last.depth + 1  # the table replays the depths done so far in a moment


def move_source(result: SearchResult | None) -> str:
    """What chose the move, for its statistics: the exact solve, a proof, the depth-limited search, or nothing."""
    if result is None:
        return "fallback"
    if result.exact:
        return "exact"
    return "proof" if result.proven else "search"
