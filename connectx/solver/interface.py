"""One interface to bound a position's score, and the one place that picks the search behind it.

The C solver (about a hundred times faster) plays four in a row on boards up to 64 bitboard bits
(``build.fits``: 7x6, 7x7, 8x7, 9x6, ...) and needs a C compiler to build; whether it builds and
loads for a board is found out once per process. Everywhere else the pure-Python search answers.
"""

from __future__ import annotations

import ctypes
from functools import cache
from typing import Protocol

from connectx.agents.board_spec import STANDARD_BOARD, BoardSpec
from connectx.agents.core.position import Position
from connectx.solver.build import build_library, fits
from connectx.solver.native_search import NativeSearchSolver
from connectx.solver.python_search import PythonSolver
from connectx.solver.score_range import ScoreRange


class Solver(Protocol):
    """Bounds a position's score before a deadline; ``name`` says which search, ``calls`` how often it ran.

    ``fallback`` is why the C solver is not the one searching although it was asked for and plays the
    board (it could not be built or loaded here), else None: the command line says so once.
    """

    name: str
    calls: int
    fallback: str | None

    def bound(self, position: Position, moves: str, known: ScoreRange, deadline: float) -> ScoreRange: ...

    def stop(self) -> None:
        """End the search under way in another thread as soon as the search can, and make later ``bound`` calls
        answer what they are given: for a caller that is shutting down."""

    def close(self) -> None: ...


@cache
def native_unavailable_reason(board: BoardSpec = STANDARD_BOARD) -> str | None:
    """Why the C solver cannot search ``board`` on this machine, or None if it can (checked once a board)."""
    if not fits(board.rows, board.columns, board.inarow):
        return f"it does not play {board}: four in a row only, on boards of up to 9 columns and 64 bitboard bits"
    try:
        ctypes.CDLL(str(build_library(board.rows, board.columns)))
    except (OSError, RuntimeError) as error:
        return str(error).splitlines()[0]
    return None


def make_solver(board: BoardSpec = STANDARD_BOARD, native: bool = True) -> Solver:
    """The C solver when ``native`` and it can search ``board`` here, else the Python one (its ``name`` says
    which, its ``fallback`` why the C one was asked for and is not there)."""
    reason = native_unavailable_reason(board) if native else None
    if native and reason is None:
        return NativeSearchSolver(rows=board.rows, columns=board.columns)
    fallback = reason if native and fits(board.rows, board.columns, board.inarow) else None
    return PythonSolver(fallback=fallback)
