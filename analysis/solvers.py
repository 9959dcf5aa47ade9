"""Which search bounds the positions of an analysis: the C solver where it can, Python otherwise.

The C solver (about a hundred times faster) plays 7x6 connect-4 only and needs a C compiler to
build; whether it builds and loads is found out once per process.
"""

from __future__ import annotations

import ctypes
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

    Which one it is shows in its ``name``; ``native_unavailable_reason`` says why it is not the C
    one (a command line prints that, this layer prints nothing).
    """
    if native and (rows, columns, inarow) == NATIVE_BOARD and native_unavailable_reason() is None:
        return NativeSolver()
    return PythonSolver()
