"""Build and load the C solver (``solver.c``) that the book generator and the analysis need for speed.

The library is compiled on first use into ``connectx/book/build/`` (ignored by git), one for each board
size, and rebuilt whenever the source is newer, so a fresh clone only needs a C compiler, never a
committed binary. It plays four in a row on any board whose bitboard fits 64 bits (``fits``).
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from agents.core.position import Position

BOOK_DIR = Path(__file__).resolve().parent
BUILD_DIR = BOOK_DIR / "build"
SOURCE = BOOK_DIR / "solver.c"
INVALID_POSITION = -1000
FLOOR_TOO_HIGH = -1001


def fits(rows: int, columns: int, inarow: int) -> bool:
    """Whether the C solver plays this board: four in a row, ``columns * (rows + 1)`` bits at most 64
    (one sentinel bit a column) and single-digit columns (its moves are column digits)."""
    return inarow == 4 and columns <= 9 and columns * (rows + 1) <= 64


def build_library(rows: int = 6, columns: int = 7) -> Path:
    """Compile ``solver.c`` for the board into a shared library unless an up-to-date one exists."""
    if not fits(rows, columns, 4):
        raise ValueError(f"the C solver cannot play a {columns}x{rows} board: {columns} x ({rows} + 1) "
                         "is more than 64 bits or more than 9 columns")
    library = BUILD_DIR / f"libsolver-{columns}x{rows}.so"
    if library.exists() and library.stat().st_mtime >= SOURCE.stat().st_mtime:
        return library
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise RuntimeError("no C compiler found: install gcc (apt-get install gcc) or set CC")
    BUILD_DIR.mkdir(exist_ok=True)
    partial = library.with_suffix(f".{os.getpid()}.tmp")
    command = [compiler, "-O2", "-Wall", "-shared", "-fPIC", f"-DWIDTH={columns}", f"-DHEIGHT={rows}",
               "-o", str(partial), str(SOURCE)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"compiling {SOURCE} failed:\n{' '.join(command)}\n{result.stderr}")
    partial.replace(library)
    return library


@dataclass(frozen=True)
class Solved:
    """An exact result: ``score`` for the side to move and its best ``column`` (-1 if not asked)."""

    score: int
    column: int
    nodes: int


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

    def solve(self, moves: str, floor: int = -100) -> Solved:
        """The exact score of the position reached by ``moves`` (1-based column digits)."""
        self._library.book_reset_node_count()
        score = self._library.book_solve(moves.encode("ascii"), floor)
        self._check(moves, score)
        return Solved(score, -1, self._library.book_node_count())

    def best_move(self, moves: str, floor: int = -100) -> Solved:
        """The exact score and the best column (highest score, then nearest the centre).

        ``floor`` is a score the position is already known to reach; it only saves work.
        """
        column = ctypes.c_int(-1)
        self._library.book_reset_node_count()
        score = self._library.book_best_move(moves.encode("ascii"), floor, ctypes.byref(column))
        self._check(moves, score)
        return Solved(score, column.value, self._library.book_node_count())

    def best_move_of(self, position: Position, floor: int = -100) -> Solved:
        """``best_move`` for a ``Position`` of this solver's board (a game's position needs no move history)."""
        shape = position.geometry
        if (shape.rows, shape.columns, shape.inarow) != self.board:
            raise ValueError(f"this C solver plays {self._board_name()} only, not "
                             f"{shape.columns}x{shape.rows} with {shape.inarow} in a row")
        column = ctypes.c_int(-1)
        self._library.book_reset_node_count()
        score = self._library.book_best_move_bits(position.current, position.mask, floor, ctypes.byref(column))
        self._check(repr(position), score)
        return Solved(score, column.value, self._library.book_node_count())

    def _board_name(self) -> str:
        rows, columns, inarow = self.board
        return f"{columns}x{rows} with {inarow} in a row"

    def _check(self, moves: str, score: int) -> None:
        if score == INVALID_POSITION:
            raise ValueError(f"{moves!r} is not a legal unfinished position of {self._board_name()}")
        if score == FLOOR_TOO_HIGH:
            raise ValueError(f"no move of {moves!r} reaches the floor given: pass a true lower bound of its score")
