"""Load the C solver built by ``build`` through ctypes: one process's exact solves, its table kept warm.

The book's tools call it directly (they solve for hours with no deadline); the analysis reaches it
through ``worker``, which runs it in a process it can kill at a deadline.
"""

from __future__ import annotations

import ctypes

from connectx.agents.core.position import Position
from connectx.agents.search.exact_search import Solution
from connectx.solver.build import build_library

INVALID_POSITION = -1000
FLOOR_TOO_HIGH = -1001


class NativeSolver:
    """One process's handle on the C solver; its transposition table persists across calls.

    Keeping the table between positions is the point: neighbouring book positions share most
    of their subtrees, so later solves are much cheaper than the first. It plays one board size,
    7x6 unless ``rows`` and ``columns`` say otherwise (ValueError for a board it does not play, see ``fits``).
    """

    def __init__(self, log2_table_entries: int = 25, rows: int = 6, columns: int = 7) -> None:
        library = ctypes.CDLL(str(build_library(rows, columns)))
        self.board = (rows, columns, 4)
        """rows, columns, inarow, as ``Geometry`` orders them."""
        library.book_init.argtypes = [ctypes.c_int]
        library.book_solve.argtypes = [ctypes.c_char_p, ctypes.c_int]
        library.book_best_move.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
        library.book_best_move_bits.argtypes = [ctypes.c_uint64, ctypes.c_uint64, ctypes.c_int,
                                                ctypes.POINTER(ctypes.c_int)]
        library.book_node_count.restype = ctypes.c_uint64
        if not library.book_init(log2_table_entries):
            raise MemoryError(
                f"the C solver could not allocate 2^{log2_table_entries} table entries: use a smaller table"
            )
        self._library = library

    def solve(self, moves: str, floor: int = -100) -> Solution:
        """The exact score of the position reached by ``moves`` (1-based column digits)."""
        self._library.book_reset_node_count()
        score = self._library.book_solve(moves.encode("ascii"), floor)
        self._check(moves, score)
        return Solution(score, None, self._library.book_node_count())

    def best_move(self, moves: str, floor: int = -100) -> Solution:
        """The exact score and the best column (highest score, then nearest the centre).

        ``floor`` is a score the position is already known to reach; it only saves work.
        """
        column = ctypes.c_int(-1)
        self._library.book_reset_node_count()
        score = self._library.book_best_move(moves.encode("ascii"), floor, ctypes.byref(column))
        self._check(moves, score)
        return Solution(score, column.value, self._library.book_node_count())

    def best_move_of(self, position: Position, floor: int = -100) -> Solution:
        """``best_move`` for a ``Position`` of this solver's board (a game's position needs no move history)."""
        shape = position.geometry
        if (shape.rows, shape.columns, shape.inarow) != self.board:
            raise ValueError(f"this C solver plays {self._board_name()} only, not "
                             f"{shape.columns}x{shape.rows} with {shape.inarow} in a row")
        column = ctypes.c_int(-1)
        self._library.book_reset_node_count()
        score = self._library.book_best_move_bits(position.current, position.mask, floor, ctypes.byref(column))
        self._check(repr(position), score)
        return Solution(score, column.value, self._library.book_node_count())

    def _board_name(self) -> str:
        rows, columns, inarow = self.board
        return f"{columns}x{rows} with {inarow} in a row"

    def _check(self, moves: str, score: int) -> None:
        if score == INVALID_POSITION:
            raise ValueError(f"{moves!r} is not a legal unfinished position of {self._board_name()}")
        if score == FLOOR_TOO_HIGH:
            raise ValueError(f"no move of {moves!r} reaches the floor given: pass a true lower bound of its score")
