"""Which search bounds the positions of an analysis: the C solver where it can, Python otherwise.

The C solver (about a hundred times faster) plays four in a row on boards up to 64 bitboard bits
(``connectx.analysis.native.fits``: 7x6, 7x7, 8x7, 9x6, ...) and needs a C compiler to build; whether it
builds and loads for a board is found out once per process.
"""

from __future__ import annotations

import ctypes
from functools import cache
from typing import Protocol

from connectx.agents.core.position import Position
from connectx.analysis.native import build_library, fits
from connectx.analysis.native_solver import NativeWorkerSolver
from connectx.analysis.python_solver import PythonSolver
from connectx.analysis.score_range import ScoreRange


class Solver(Protocol):
    """Bounds a position's score before a deadline; ``name`` says which search, ``calls`` how often it ran."""

    name: str
    calls: int

    def bound(self, position: Position, moves: str, known: ScoreRange, deadline: float) -> ScoreRange: ...

    def close(self) -> None: ...


@cache
def native_unavailable_reason(rows: int = 6, columns: int = 7) -> str | None:
    """Why the C solver cannot be used for this board on this machine, or None if it can (checked once a board)."""
    try:
        ctypes.CDLL(str(build_library(rows, columns)))
    except (OSError, RuntimeError) as error:
        return str(error).splitlines()[0]
    return None


def make_solver(rows: int, columns: int, inarow: int, native: bool = True) -> Solver:
    """The C solver when ``native``, it plays the board and it builds here, else the Python one.

    Which one it is shows in its ``name``; ``native_unavailable_reason`` says why it is not the C
    one (a command line prints that, this layer prints nothing).
    """
    if native and fits(rows, columns, inarow) and native_unavailable_reason(rows, columns) is None:
        return NativeWorkerSolver(rows=rows, columns=columns)
    return PythonSolver()
