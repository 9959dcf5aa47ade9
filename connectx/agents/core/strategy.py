"""What every agent module implements: a ``Strategy``, which the registry wraps in Kaggle's guard.

A strategy sees only the core: a ``Position`` from the side to move and the move's ``Deadline``;
it knows nothing of Kaggle's observations, marks or flat board (``kaggle_boundary`` converts
those), so a strategy can be searched, tested and benchmarked without Kaggle.
"""

from __future__ import annotations

from typing import Protocol

from connectx.agents.core.position import Position
from connectx.agents.core.search_time import Deadline

MoveStats = dict[str, int | float | str]
"""One move's search statistics: ``nodes``, ``depth`` and ``evaluations`` (ints), and where it
applies ``source`` (a str: ``book``, ``proof``, ``search``, ...); ``solver:trap=true`` adds its
reading of the opponent (``opponent``, a str, and ``untrappable``, a float)."""


class Strategy(Protocol):
    """A move for a position, a fresh start for a new game, and what the last move's search did.

    ``time_budget`` is the seconds per move the strategy was given (None: Kaggle's clock); the
    guard caps the move's deadline at it, so a strategy only ever obeys the deadline it receives.
    ``last_stats`` describes the search that chose the last move (a fresh dict every move).
    """

    time_budget: float | None
    last_stats: MoveStats

    def choose(self, position: Position, deadline: Deadline) -> int: ...

    def reset(self) -> None: ...
