"""Build and load the C solver (``solver.c``) that the book generator and the analysis need for speed.

``solver.c`` ships inside the package; ``build_library`` compiles it on first use into the per-user
cache directory (``user_cache``), one library for each board size, named by a hash of the source
and the compiler flags, so a changed source is rebuilt and an unchanged one never is, whatever the
files' times say. Only a C compiler is needed, never a committed binary. It plays four in a row on
any board whose bitboard fits 64 bits (``fits``).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from connectx.agents.core.position import Position
from connectx.analysis.user_cache import user_cache_directory

INVALID_POSITION = -1000
FLOOR_TOO_HIGH = -1001


def fits(rows: int, columns: int, inarow: int) -> bool:
    """Whether the C solver plays this board: four in a row, ``columns * (rows + 1)`` bits at most 64
    (one sentinel bit a column) and single-digit columns (its moves are column digits)."""
    return inarow == 4 and columns <= 9 and columns * (rows + 1) <= 64


def build_library(rows: int = 6, columns: int = 7) -> Path:
    """The shared library of ``solver.c`` for the board, compiled unless this source's build exists.

    RuntimeError (one line first) when no compiler is found or compiling fails; OSError when the
    cache directory cannot be written.
    """
    if not fits(rows, columns, 4):
        raise ValueError(f"the C solver cannot play a {columns}x{rows} board: {columns} x ({rows} + 1) "
                         "is more than 64 bits or more than 9 columns")
    source = resources.files("connectx.analysis").joinpath("solver.c").read_bytes()
    flags = ["-O2", "-Wall", "-shared", "-fPIC", f"-DWIDTH={columns}", f"-DHEIGHT={rows}"]
    digest = hashlib.sha256(source + " ".join(flags).encode()).hexdigest()[:16]
    library = user_cache_directory() / "solver" / f"libsolver-{columns}x{rows}-{digest}.so"
    if library.exists():
        return library
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise RuntimeError("no C compiler found: install gcc (apt-get install gcc) or set CC")
    library.parent.mkdir(parents=True, exist_ok=True)
    # Built in a private directory beside the target and renamed into place: processes compiling
    # at once each finish their own copy, and a reader only ever sees a complete library.
    with tempfile.TemporaryDirectory(dir=library.parent, prefix=".build-") as work:
        source_path, partial = Path(work) / "solver.c", Path(work) / library.name
        source_path.write_bytes(source)
        command = [compiler, *flags, "-o", str(partial), str(source_path)]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"compiling solver.c failed: {' '.join(command)}\n{result.stderr}")
        partial.replace(library)
    return library


@dataclass(frozen=True)
class Solution:
    """An exact result: ``score`` for the side to move, its best ``column`` (-1 if not asked), and the
    ``nodes`` the search took."""

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

    def solve(self, moves: str, floor: int = -100) -> Solution:
        """The exact score of the position reached by ``moves`` (1-based column digits)."""
        self._library.book_reset_node_count()
        score = self._library.book_solve(moves.encode("ascii"), floor)
        self._check(moves, score)
        return Solution(score, -1, self._library.book_node_count())

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
