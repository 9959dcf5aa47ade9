"""Perfect 7x6x4 play by the C solver, as a Kaggle agent file: the opponent that tests the book's edge.

It needs a C compiler and this repository on disk, so it is a measuring tool for ``benchmarks/``,
never an agent to submit. Kaggle's loader executes an agent file's source without ``__file__``,
so ``write_agent_file`` writes a two-line file that puts this repository on ``sys.path`` and
binds ``perfect_move`` as its last callable.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from book.paths import REPOSITORY
from connectx.agents.core.kaggle_boundary import read_position
from connectx.solver.native import NativeSolver


@lru_cache(maxsize=1)
def _solver() -> NativeSolver:
    """One solver per process (each game is a process of its own), its table warm between moves."""
    return NativeSolver(23)


def perfect_move(observation: Any, configuration: Any) -> int:
    """The fastest win, else a draw, else the slowest loss; the column nearest the centre on ties."""
    column = _solver().best_move_of(read_position(observation, configuration)).column
    assert column is not None, "Kaggle asks for a move only while the game is on"
    return column


def write_agent_file(path: Path) -> Path:
    """Write the agent file Kaggle's loader takes for ``perfect_move`` and return its path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        '"""Perfect 7x6x4 play by the C solver of book/perfect_play.py (a benchmark opponent)."""\n'
        f"import sys\nsys.path.insert(0, {str(REPOSITORY)!r})\n"
        "from book.perfect_play import perfect_move as agent  # noqa: E402\n"
    )
    return path
