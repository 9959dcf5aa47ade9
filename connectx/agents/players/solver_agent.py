"""``solver``: the opening book, then a search that plays perfectly wherever it can prove the result.

Each move, in order:

1. on 7x6x4, the opening book's move when it knows the position (perfect play in the opening,
   which no pure-Python search can prove within 2 s); the agent works the same without a book;
   off the book, the best column by the exact scores the agent ships
   (``connectx.agents.core.opening_scores``) where every child's score is there (every position
   through ply 7: so every position through ply 6, and more), with no search;
   on every other board, ``open_board_play`` instead of the steps below: a principal-variation
   search with an open-line and zugzwang evaluation, proofs once they are within reach, and
   overage only where it changes the move;
2. ``anytime_search.iterative_deepening`` within the move's time: depth-limited iterations with
   a threat evaluation for the first ``HEURISTIC_SHARE`` of it, then for the rest a proof that
   the position is won (else at least drawn) and the exact solve;
3. when nothing is proven yet and the move may draw on the overage bank (on Kaggle's clock: the
   guard gives a move capped at a ``time_budget`` no bank), the proofs once more with a slice of
   the bank, where a proof is worth the most: once a fifth of the board is filled, since earlier
   positions rarely finish.

With ``trap=True``, on 7x6 a position proven lost or drawn is answered by
``connectx.agents.search.trap_play`` instead: it reads from the opponent's moves how it errs and,
once it has seen it err, plays the move that keeps the outcome and gives this opponent the best
chance to slip (a perfect or unread opponent gets the moves above, unchanged). In the opening it
reads the opponent by the exact scores the agent ships (``connectx.agents.core.opening_scores``),
where no search could prove them, and plays the book's moves. It is off by default: measured by
``benchmarks/second_seat.py`` it plays as the longest loss (docs/ladder.md, "The second seat").

The transposition table lives in the strategy for the whole game, so the proofs of one move
speed up the next (and the trap's solves reuse it); it is emptied on a new game or a new board size.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from connectx.agents.core.opening_scores import load_opening_scores
from connectx.agents.core.position import Geometry, Position
from connectx.agents.core.search_result import SearchCounts, SearchResult, last_of
from connectx.agents.core.search_time import Deadline, SearchLimit
from connectx.agents.core.strategy import MoveStats
from connectx.agents.core.transposition_table import DEFAULT_CAPACITY, TranspositionTable
from connectx.agents.players.opening_book import load_opening_book
from connectx.agents.search.anytime_search import iterative_deepening, proofs
from connectx.agents.search.compiled_solver import CompiledSolver, CoreSearch, new_compiled_solver, say_core
from connectx.agents.search.exact_search import MAX_SEARCH_PLIES
from connectx.agents.search.open_board_play import OpenBoardPlay, move_source
from connectx.agents.search.opponent_model import parse_hypothesis
from connectx.agents.search.trap_play import TrapPlay

HEURISTIC_SHARE = 0.15
"""Share of a move's time given to the depth-limited iterations before the proofs start.

Small, because past the opening book a proof within the move's time is what wins games, and
the depth-limited move is only the fallback when none comes."""

OVERAGE_SHARE = 0.25
"""Share of the remaining overage bank one move may take to finish a proof."""

MAX_OVERAGE_PER_MOVE = 8.0
"""Seconds of overage one move may take at most, so the bank lasts for several hard moves."""

OVERAGE_FROM_FILLED = 0.2
"""The overage bank is touched only once this share of the board is filled."""

BOOK_GEOMETRY = (6, 7, 4)

Data = TypeVar("Data")


class SolverStrategy:
    """Book, then iterative deepening and exact solving, with one table for the game."""

    def __init__(
        self,
        time_budget: float | None = None,
        max_nodes: int | None = None,
        table_capacity: int | None = None,
        use_book: bool = True,
        trap: bool = False,
        assume: str | None = None,
    ) -> None:
        if time_budget is not None and time_budget <= 0:
            raise ValueError(f"solver time_budget {time_budget}: expected a positive number of seconds per move")
        if max_nodes is not None and max_nodes < 1:
            raise ValueError(f"solver max_nodes {max_nodes}: expected a positive number of nodes per move")
        self.time_budget = time_budget
        self.max_nodes = max_nodes
        self.table = TranspositionTable(DEFAULT_CAPACITY if table_capacity is None else table_capacity)
        # Loaded now, not inside a move: decoding takes about 0.3 s, more than a short actTimeout
        # leaves a move (on Kaggle a submission is made while its first move's clock already runs).
        self._book = _loaded(load_opening_book) if use_book else None
        self._geometry: Geometry | None = None
        self.open_board = OpenBoardPlay(time_budget, max_nodes, table_capacity=table_capacity)
        assumed = parse_hypothesis(assume) if assume is not None else None
        if assumed is not None and not trap:
            raise ValueError(f"solver assume={assume}: it says how the trap reads the opponent; add trap=true")
        self._scores = _loaded(load_opening_scores) if use_book else None
        # Started with the agent, inside the first move's clock on Kaggle: a library loads in a millisecond;
        # where it cannot, solver.c compiles in the background while the pure-Python search plays.
        self._compiled = new_compiled_solver()
        self.trap_play = TrapPlay(opening=self._scores, assumed=assumed) if trap else None
        self.last_stats: MoveStats = {}

    def choose(self, position: Position, deadline: Deadline) -> int:
        if position.geometry != self._geometry:
            self.table.clear()
            self._geometry = position.geometry
        booked = self.book_move(position)
        known = self.trap_play.opening_result(position, booked) if self.trap_play is not None else None
        if known is not None and self.trap_play is not None:
            counts = SearchCounts()
            column = self.trap_play.choose(
                position, known, self.table, deadline, self.max_nodes, counts, booked=booked is not None
            )
            self.last_stats = {
                "nodes": counts.nodes,
                "depth": 0,
                "evaluations": counts.evaluations,
                "source": self.trap_play.last_source or ("book" if column == booked else "scores"),
                **self.trap_play.reading(),
            }
            return column
        if booked is not None:
            if self.trap_play is not None:
                self.trap_play.played(position, booked)
            self.last_stats = {"nodes": 0, "depth": 0, "evaluations": 0, "source": "book"}
            return booked
        scored = self._scores.best(position) if self._scores is not None and self.trap_play is None else None
        if scored is not None:
            # Off the book but every child's exact score is shipped: the value is kept with no search.
            self.last_stats = {"nodes": 0, "depth": 0, "evaluations": 0, "source": "scores"}
            return scored[0]
        if _board_of(position) != BOOK_GEOMETRY:
            column = self.open_board.choose(position, deadline)
            self.last_stats = self.open_board.last_stats
            return column
        if self._compiled is None:
            self._compiled = new_compiled_solver()  # a compile under way may have finished
        say_core()
        if self._compiled is not None and self.trap_play is None:
            return self._compiled_move(self._compiled, position, deadline)
        counts = SearchCounts()
        last = last_of(iterative_deepening(position, self.table, *self._limits(deadline), counts=counts))
        if last is not None and not last.proven and self.max_nodes is None:
            last = self._with_overage(position, deadline, counts) or last
        self.last_stats = {
            "nodes": counts.nodes,
            "depth": last.depth if last else 0,
            "evaluations": counts.evaluations,
            "source": move_source(last),
        }
        column = last.column if last is not None else position.legal_columns()[0]
        if self.trap_play is None:
            return column
        if last is None:
            self.trap_play.played(position, column)
            return column
        column = self.trap_play.choose(position, last, self.table, deadline, self.max_nodes, counts)
        self.last_stats.update(nodes=counts.nodes, evaluations=counts.evaluations, **self.trap_play.reading())
        if self.trap_play.last_source:
            self.last_stats["source"] = self.trap_play.last_source
        return column

    def _compiled_move(self, solver: CompiledSolver, position: Position, deadline: Deadline) -> int:
        """The C search's column within the move, and with a slice of the bank while the outcome is open.

        The C code checks its own limit, so the move ends on time; under a node cap (``max_nodes``)
        the column is the same on any machine.
        """
        known = self._scores.score(position) if self._scores is not None else None
        lower, upper = _range_to_prove(known)
        if self.max_nodes is None:
            found = solver.search(position, seconds=deadline.remaining(), lower=lower, upper=upper)
            slice_ = _bank_slice(deadline)
            if not _outcome_known(found) and slice_ > 0:
                found = solver.search(
                    position, seconds=deadline.extended(slice_).remaining(), lower=found.lower, upper=found.upper
                )
        else:
            found = solver.search(position, nodes=self.max_nodes, lower=lower, upper=upper)
        source = "exact" if found.exact else "proof" if _outcome_known(found) else "search"
        self.last_stats = {"nodes": found.nodes, "depth": 0, "evaluations": 0, "source": source, "core": solver.kind}
        return found.column if found.column is not None else position.legal_columns()[0]

    def reset(self) -> None:
        self.table.clear()
        if self._compiled is not None:
            self._compiled.close()  # a fresh table each game: a node-capped game replays the same
        self._compiled = new_compiled_solver()
        self.open_board.reset()
        if self.trap_play is not None:
            self.trap_play.reset()

    def _limits(self, deadline: Deadline) -> tuple[SearchLimit, SearchLimit]:
        """``(exact, heuristic)`` limits: node counts when capped (reproducible), else the clock."""
        if self.max_nodes is not None:
            heuristic_nodes = max(1, int(HEURISTIC_SHARE * self.max_nodes))
            return SearchLimit(max_nodes=self.max_nodes - heuristic_nodes), SearchLimit(max_nodes=heuristic_nodes)
        started = time.perf_counter()
        stop_at = deadline.expires_at
        return SearchLimit(stop_at), SearchLimit(started + HEURISTIC_SHARE * max(0.0, stop_at - started))

    def _with_overage(self, position: Position, deadline: Deadline, counts: SearchCounts) -> SearchResult | None:
        """The proofs' last result with a slice of the overage bank, or None if nothing is proven again."""
        empty = position.geometry.cells - position.moves
        if position.moves < OVERAGE_FROM_FILLED * position.geometry.cells or empty > MAX_SEARCH_PLIES:
            return None  # too early to prove anything, or too big a board for the proofs to run
        slice_ = _bank_slice(deadline)
        if slice_ <= 0:
            return None  # no bank: Kaggle's is empty, or the guard capped the move at a time budget
        return last_of(proofs(position, self.table, deadline.extended(slice_).limit(), counts))

    def book_move(self, position: Position) -> int | None:
        """The opening book's move for ``position``, or None where the book does not answer (or is off)."""
        if self._book is None or _board_of(position) != BOOK_GEOMETRY:
            return None
        shape = position.geometry
        column = self._book.move_for(shape.rows, shape.columns, shape.inarow, position.current, position.mask)
        if column is None or not position.can_play(column):
            return None
        return column


def _range_to_prove(known: int | None) -> tuple[int, int]:
    """The range a search starts from when the shipped scores hold the position's own ``known`` score (every
    position through ply 7) but not all its children's: what is left is to prove a column that keeps the
    outcome, a far smaller search than finding it (8 s against 48 s on the hardest of Test_L1_R3's). Without a
    known score, every score is possible (the C search clips the range to the position's)."""
    if known is None:
        return -100, 100
    if known > 0:
        return 0, known  # won: a column proven to win at all keeps it
    if known == 0:
        return -1, 0  # drawn: a column proven to draw
    return -100, known


def _bank_slice(deadline: Deadline) -> float:
    """The seconds of the overage bank one move may draw to finish a proof: a share of what is left, capped."""
    return min(MAX_OVERAGE_PER_MOVE, OVERAGE_SHARE * deadline.overage)


def _outcome_known(found: CoreSearch) -> bool:
    """Whether a search settled who wins (a won, drawn or lost position), so its column keeps the value."""
    return found.lower > 0 or found.upper < 0 or found.lower == found.upper


def _board_of(position: Position) -> tuple[int, int, int]:
    """``(rows, columns, inarow)`` of ``position``'s board, as ``BOOK_GEOMETRY`` writes it."""
    shape = position.geometry
    return shape.rows, shape.columns, shape.inarow


def _loaded(load: Callable[[], Data]) -> Data | None:
    """``load()``, or None if it fails: a missing or damaged data file costs what it serves (the book, the
    trap's opening), never the game."""
    try:
        return load()
    except Exception:
        return None


def make_strategy(
    time_budget: float | None = None,
    seed: int | None = None,
    max_nodes: int | None = None,
    use_book: bool = True,
    table_size: int | None = None,
    trap: bool = False,
    assume: str | None = None,
) -> SolverStrategy:
    """The solver agent.

    ``time_budget`` caps the seconds per move (default: Kaggle's ``actTimeout`` less the safety
    margin, plus slices of the overage bank). ``max_nodes`` searches a fixed number of nodes per
    move instead of watching the clock, which makes games reproducible (choose a cap that fits
    the time limit). ``table_size`` bounds every transposition table in entries (default: each
    table's own, about 250 MB at most). The search has no randomness: ``seed`` is accepted like
    every agent's, and the same position always gets the same move under ``max_nodes``.

    ``trap=true`` reads the opponent and sets traps once lost or drawn (the module docstring);
    it is off by default, since ``benchmarks/second_seat.py`` measured no gain over the longest
    loss, and with it off the solver plays as it always has.
    ``assume=KIND`` (with ``trap=true``) takes the opponent to be that kind from the first move,
    unread and with no gate (``random:0.1``, ``margin:1``, ``horizon:4``; ``opponent_model`` has
    the kinds): the trap's ceiling when the kind is right, and what a wrong guess costs when not.
    """
    return SolverStrategy(time_budget, max_nodes, table_size, use_book, trap, assume)
