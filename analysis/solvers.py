"""Which search bounds the positions of an analysis: the C solver where it can, Python otherwise.

The C solver (about a hundred times faster) plays 7x6 connect-4 only and needs a C compiler to
build; whether it builds and loads is found out once per process.
"""

from __future__ import annotations

import ctypes
import sys
from functools import cache
from typing import Protocol

from agents.position import Position
from analysis.native_solver import NativeSolver
from analysis.python_solver import PythonSolver
from analysis.score_range import ScoreRange

NATIVE_BOARD = (6, 7, 4)
"""rows, columns, inarow of the only board the C solver plays."""


class Solver(Protocol):
    """Bounds a position's score before a deadline; ``name`` says which search, ``calls`` how often it ran."""

    name: str
    calls: int

    def bound(self, position: Position, moves: str, known: ScoreRange, deadline: float) -> ScoreRange: ...

    def close(self) -> None: ...


@cache
def native_unavailable_reason() -> str | None:
    """Why the C solver cannot be used on this machine, or None if it can (checked once)."""
    from book.native import build_library

    try:
        ctypes.CDLL(str(build_library()))
    except (OSError, RuntimeError) as error:
        return str(error).splitlines()[0]
    return None


def make_solver(rows: int, columns: int, inarow: int, native: bool = True) -> Solver:
    """The C solver for a 7x6x4 board when ``native`` and it builds here, else the Python one.

    A C solver that was asked for and cannot be built is reported once on stderr.
    """
    if native and (rows, columns, inarow) == NATIVE_BOARD:
        reason = native_unavailable_reason()
        if reason is None:
            return NativeSolver()
        _warn_once(f"analysis: the C solver is unavailable ({reason}); using the slower Python solver")
    return PythonSolver()


@cache
def _warn_once(message: str) -> None:
    print(message, file=sys.stderr)
