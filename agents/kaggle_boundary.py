"""The one place that knows Kaggle's conventions: observations in, a plain ``int`` column out.

Kaggle hands agents a flat board (row 0 on top, marks 1 and 2, ``obs.mark`` for the side to
move) and a configuration (``rows``, ``columns``, ``inarow``, ``actTimeout``); the shared budget
is ``obs.remainingOverageTime`` (``timeout`` and ``agentTimeout`` are obsolete). It marks a numpy
integer INVALID and crashes on a float, so every answer leaves here as a Python ``int``, and
``GuardedAgent`` makes sure an agent never raises and never plays an illegal column.
"""

from __future__ import annotations

import math
import operator
import sys
import time
import traceback
from dataclasses import dataclass
from typing import Any, Protocol

from agents.position import Position

DEFAULT_MARGIN = 0.3
"""Seconds kept back from ``actTimeout`` for Kaggle's own overhead and timer jitter."""


def field(record: Any, name: str, default: Any = None) -> Any:
    """``record.name`` for Kaggle's Struct, dicts and plain objects alike."""
    if isinstance(record, dict):
        return record.get(name, default)
    return getattr(record, name, default)


@dataclass(frozen=True)
class Deadline:
    """When a move must be answered, measured on ``time.perf_counter``.

    ``expires_at`` is the end of the per-move budget; ``overage`` the shared bank the search may
    dip into through ``extended`` when a move is worth more than the usual budget.
    """

    started_at: float
    expires_at: float
    overage: float = 0.0

    @classmethod
    def after(cls, seconds: float, overage: float = 0.0) -> Deadline:
        """A deadline ``seconds`` from now."""
        now = time.perf_counter()
        return cls(now, now + max(0.0, seconds), max(0.0, overage))

    def remaining(self) -> float:
        """Seconds left, never negative."""
        return max(0.0, self.expires_at - time.perf_counter())

    def expired(self) -> bool:
        return time.perf_counter() >= self.expires_at

    def extended(self, seconds: float) -> Deadline:
        """This deadline pushed back by up to ``seconds`` of the overage bank (what is left of it)."""
        extra = min(max(0.0, seconds), self.overage)
        return Deadline(self.started_at, self.expires_at + extra, self.overage - extra)


def read_position(observation: Any, configuration: Any) -> Position:
    """The position in a Kaggle observation, from the point of view of ``obs.mark``."""
    return Position.from_board(
        list(field(observation, "board")),
        rows=int(field(configuration, "rows", 6)),
        columns=int(field(configuration, "columns", 7)),
        inarow=int(field(configuration, "inarow", 4)),
        mark=int(field(observation, "mark")),
    )


def read_deadline(observation: Any, configuration: Any, margin: float = DEFAULT_MARGIN,
                  started_at: float | None = None) -> Deadline:
    """The move's deadline: ``actTimeout`` less ``margin``, with the overage bank on the side."""
    start = time.perf_counter() if started_at is None else started_at
    act_timeout = float(field(configuration, "actTimeout", 2.0))
    overage = float(field(observation, "remainingOverageTime", 0.0) or 0.0)
    budget = max(0.05, act_timeout - margin)
    return Deadline(start, start + budget, max(0.0, overage - margin))


def to_column(value: Any) -> int:
    """``value`` as a plain ``int``; TypeError for anything that is not an integer (floats included)."""
    if isinstance(value, bool):
        raise TypeError(f"column {value!r} is a bool, not an integer")
    return int(operator.index(value))


class Strategy(Protocol):
    """What an agent module implements: a move for a position, and a fresh start for a new game."""

    def choose(self, position: Position, deadline: Deadline) -> int: ...

    def reset(self) -> None: ...


class GuardedAgent:
    """Kaggle's ``agent(observation, configuration)`` around a ``Strategy``, guarded.

    It never raises and never returns an illegal column: a failure inside the strategy is
    reported on stderr and answered with the first legal column centre-first, so one bug costs a
    move, not the game. A board with fewer stones than the last one seen is a new game, and the
    strategy is reset, so state kept between moves never leaks across games.
    """

    def __init__(self, name: str, strategy: Strategy, margin: float = DEFAULT_MARGIN) -> None:
        self.name = name
        self.strategy = strategy
        self.margin = margin
        self._stones_seen = -1
        self._first_move_started_at = math.inf

    def __repr__(self) -> str:
        return f"<agent {self.name}>"

    def count_first_move_from(self, started_at: float) -> None:
        """Start the first move's clock at ``started_at`` (a ``time.perf_counter`` reading).

        Kaggle loads a submission file inside the first move's time, so a bundle records when
        its loading began and hands that here: the search then budgets for what is really left.
        """
        self._first_move_started_at = started_at

    def __call__(self, observation: Any, configuration: Any) -> int:
        started_at = min(time.perf_counter(), self._first_move_started_at)
        self._first_move_started_at = math.inf
        try:
            position = read_position(observation, configuration)
        except Exception:
            self._report("could not read the observation")
            return _first_open_column(observation, configuration)
        if position.moves <= self._stones_seen:
            self.strategy.reset()
        self._stones_seen = position.moves
        legal = position.legal_columns()
        try:
            column = to_column(self.strategy.choose(position, read_deadline(observation, configuration,
                                                                             self.margin, started_at)))
        except Exception:
            self._report(f"failed on {position!r}")
            return legal[0]
        if column not in legal:
            print(f"{self.name}: chose illegal column {column} in {position!r}; playing {legal[0]}", file=sys.stderr)
            return legal[0]
        return column

    def _report(self, what: str) -> None:
        print(f"{self.name}: {what}; playing a legal fallback move\n{traceback.format_exc()}", file=sys.stderr)


def _first_open_column(observation: Any, configuration: Any) -> int:
    """A legal column read straight off the raw board, for observations the core rejects."""
    try:
        board = list(field(observation, "board"))
        columns = int(field(configuration, "columns", 7))
        return next(c for c in range(columns) if board[c] == 0)
    except Exception:
        return 0
