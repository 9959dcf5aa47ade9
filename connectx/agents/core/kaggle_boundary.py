"""The one place that knows Kaggle's conventions: observations in, a plain ``int`` column out.

Kaggle's board format (``position_from_board``, ``board_of``, ``mark_of``) and its episodes' steps
(``FAULT_STATUSES``, ``played_actions``) live only here; the strategies see a ``Position`` and a
``Deadline``.

Kaggle hands agents a flat board (row 0 on top, marks 1 and 2, ``obs.mark`` for the side to
move) and a configuration (``rows``, ``columns``, ``inarow``, ``actTimeout``); the shared budget
is ``obs.remainingOverageTime`` (``timeout`` and ``agentTimeout`` are obsolete). It marks a numpy
integer INVALID and crashes on a float, so every answer leaves here as a Python ``int``, and
``GuardedAgent`` makes sure an agent never raises and never plays an illegal column, and keeps a
record of every fault it absorbed, so tests and benchmarks can fail on a fault the game never saw.
"""

from __future__ import annotations

import enum
import math
import operator
import sys
import time
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from connectx.agents.core.position import ROW_SYMBOLS, Position
from connectx.agents.core.search_time import Deadline, OverageBank
from connectx.agents.core.strategy import MoveStats, Strategy

DEFAULT_MARGIN = 0.3
"""Seconds kept back from ``actTimeout`` for Kaggle's own overhead and timer jitter."""
FAULT_STATUSES = ("ERROR", "INVALID", "TIMEOUT")
"""Kaggle's statuses of an agent whose action was not played (it faulted and lost)."""
FAULT_MARK = "[fault absorbed]"
"""How ``GuardedAgent`` begins each report of a fault it covered with a legal move: ``connectx validate`` finds
our agents' own faults by it, and any other line an agent writes to stderr is only that, never a failure."""


def field(record: Any, name: str, default: Any = None) -> Any:
    """``record.name`` for Kaggle's Struct, dicts and plain objects alike."""
    if isinstance(record, dict):
        return record.get(name, default)
    return getattr(record, name, default)


def position_from_board(
    board: Sequence[int], rows: int, columns: int, inarow: int = 4, mark: int | None = None
) -> Position:
    """The position on Kaggle's flat board (row 0 on top, 0 empty, marks 1 and 2).

    The side to move is ``mark`` when given (Kaggle's ``obs.mark``; ValueError if the stone counts
    say otherwise), else the player whose turn it is by stone count (player 1 moves first).
    """
    cells = [int(value) for value in board]
    if len(cells) != rows * columns:
        raise ValueError(f"board has {len(cells)} cells, expected rows x columns = {rows} x {columns}")
    for index, value in enumerate(cells):
        if value not in (0, 1, 2):
            raise ValueError(
                f"cell value {value} at row {index // columns}, column {index % columns}: expected 0, 1 or 2"
            )
    text = "/".join("".join(ROW_SYMBOLS[v] for v in cells[r * columns : (r + 1) * columns]) for r in range(rows))
    position = Position.from_rows(text, inarow)
    if mark is not None and mark != mark_of(position):
        raise ValueError(f"mark {mark} is not to move: by the stone counts it is player {mark_of(position)}'s turn")
    return position


def played_actions(steps: Sequence[Sequence[Any]]) -> Iterator[tuple[int, int, Any]]:
    """``(step, seat, action)`` of every move an episode's ``steps`` played, in order.

    A step holds one state per agent; the move of step ``i`` is the action of the agent that was
    ACTIVE at step ``i - 1``, unless Kaggle then marked it with a fault status (its action was not
    played). The action is as Kaggle recorded it: a reader that trusts nothing checks it.
    """
    for number in range(1, len(steps)):
        before, after = steps[number - 1], steps[number]
        for seat in range(len(before)):
            if field(before[seat], "status") == "ACTIVE" and field(after[seat], "status") not in FAULT_STATUSES:
                yield number, seat, field(after[seat], "action")


def board_of(position: Position) -> list[int]:
    """Kaggle's flat board of ``position`` (row 0 on top) with player 1 / player 2 marks."""
    return [ROW_SYMBOLS.index(symbol) for symbol in position.rows_text() if symbol != "/"]


def mark_of(position: Position) -> int:
    """Kaggle's mark (1 or 2) of the side to move."""
    return 1 if position.moves % 2 == 0 else 2


def read_position(observation: Any, configuration: Any) -> Position:
    """The position in a Kaggle observation, from the point of view of ``obs.mark``."""
    return position_from_board(
        list(field(observation, "board")),
        rows=int(field(configuration, "rows", 6)),
        columns=int(field(configuration, "columns", 7)),
        inarow=int(field(configuration, "inarow", 4)),
        mark=int(field(observation, "mark")),
    )


def read_deadline(
    observation: Any, configuration: Any, margin: float = DEFAULT_MARGIN, started_at: float | None = None
) -> Deadline:
    """The move's deadline: ``actTimeout`` less ``margin``, with the overage bank on the side."""
    start = time.perf_counter() if started_at is None else started_at
    act_timeout = float(field(configuration, "actTimeout", 2.0))
    overage = float(field(observation, "remainingOverageTime", 0.0) or 0.0)
    budget = max(0.05, act_timeout - margin)
    return Deadline(start, start + budget, OverageBank(overage - margin))


def to_column(value: Any) -> int:
    """``value`` as a plain ``int``; TypeError for anything that is not an integer (floats included)."""
    if isinstance(value, bool):
        raise TypeError(f"column {value!r} is a bool, not an integer")
    return int(operator.index(value))


class FaultKind(enum.Enum):
    """What went wrong in a move the guard answered for the strategy (or answered late)."""

    RAISED = "raised"
    """The strategy raised (in ``choose`` or ``reset``); the first legal column was played."""
    ILLEGAL = "illegal"
    """The strategy answered a full or missing column, or something that is not an integer."""
    UNREADABLE = "unreadable"
    """The observation or configuration could not be read; the first open column was played."""
    LATE = "late"
    """The answer came after ``actTimeout`` plus whatever the move drew from the overage bank."""


@dataclass(frozen=True)
class Fault:
    """One fault the guard absorbed: its kind, what happened, and when.

    ``moves`` is how many stones were on the board (None when the observation was unreadable).
    """

    kind: FaultKind
    detail: str
    moves: int | None


@dataclass(frozen=True)
class OverageDraw:
    """A move that ran past ``actTimeout`` on overage its strategy drew from the bank on purpose.

    Not a fault (Kaggle takes the time from the bank), but worth counting: the bank is shared by
    the whole game. ``seconds`` is how far past ``actTimeout`` the move went, ``granted`` how much
    the strategy drew.
    """

    moves: int
    seconds: float
    granted: float


class GuardedAgent:
    """Kaggle's ``agent(observation, configuration)`` around a ``Strategy``, guarded.

    It never raises and never returns an illegal column: a failure inside the strategy is
    reported on stderr and answered with the first legal column centre-first, so one bug costs a
    move, not the game. Every such fault, and every answer later than ``actTimeout`` (plus what
    the move drew from the overage bank), is kept in ``faults``; moves that ran long on drawn
    overage are kept in ``overage_draws``. A board with fewer stones than the last one seen is a
    new game, and the strategy is reset, so state kept between moves never leaks across games.
    A strategy with a ``time_budget`` gets a deadline capped at it (and no overage): the one place
    a budget is applied. ``last_stats`` is the search statistics of the last move the strategy
    chose (empty when the guard answered for it), which the harness records with the game.
    """

    def __init__(self, name: str, strategy: Strategy, margin: float = DEFAULT_MARGIN) -> None:
        self.name = name
        self.strategy = strategy
        self.margin = margin
        self.faults: list[Fault] = []
        self.last_stats: MoveStats = {}
        self.overage_draws: list[OverageDraw] = []
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
        self.last_stats = {}
        try:
            position = read_position(observation, configuration)
            act_timeout = float(field(configuration, "actTimeout", 2.0))
            deadline = read_deadline(observation, configuration, self.margin, started_at)
            if self.strategy.time_budget is not None:
                deadline = deadline.capped(self.strategy.time_budget)
        except Exception:
            self._record(FaultKind.UNREADABLE, "could not read the observation", None, with_traceback=True)
            return _first_open_column(observation, configuration)
        column = self._choose(position, deadline)
        self._check_time(position, act_timeout, deadline, started_at)
        return column

    def _choose(self, position: Position, deadline: Deadline) -> int:
        """The strategy's column, or the first legal one (centre first) once the fault is recorded."""
        legal = position.legal_columns()
        fallback = legal[0] if legal else 0
        try:
            if position.moves <= self._stones_seen:
                self.strategy.reset()
            self._stones_seen = position.moves
            answer = self.strategy.choose(position, deadline)
            # A fresh dict per move, so a record never shares (or sees later changes to) a strategy's.
            stats = dict(self.strategy.last_stats)
        except Exception:
            self._record(FaultKind.RAISED, f"failed on {position!r}", position.moves, with_traceback=True)
            return fallback
        try:
            column = to_column(answer)
        except Exception:
            self._record(
                FaultKind.ILLEGAL,
                f"answered {answer!r}, not a column, in {position!r}; playing {fallback}",
                position.moves,
            )
            return fallback
        if column not in legal:
            self._record(
                FaultKind.ILLEGAL, f"chose illegal column {column} in {position!r}; playing {fallback}", position.moves
            )
            return fallback
        self.last_stats = stats
        return column

    def _check_time(self, position: Position, act_timeout: float, deadline: Deadline, started_at: float) -> None:
        """Record a late answer as a fault, and a long one paid for by drawn overage as a draw."""
        elapsed = time.perf_counter() - started_at
        if elapsed <= act_timeout:
            return
        granted = deadline.bank.drawn
        if elapsed > act_timeout + granted:
            drew = f" and the {granted:.3f} s it drew from the overage bank" if granted else ""
            self._record(
                FaultKind.LATE,
                f"answered after {elapsed:.3f} s, past actTimeout {act_timeout:g} s{drew}, in {position!r}",
                position.moves,
            )
        else:
            self.overage_draws.append(OverageDraw(position.moves, elapsed - act_timeout, granted))

    def _record(self, kind: FaultKind, detail: str, moves: int | None, with_traceback: bool = False) -> None:
        """Keep the fault and say it on stderr (with the traceback of the exception being handled)."""
        self.faults.append(Fault(kind, detail, moves))
        if with_traceback:
            print(
                f"{FAULT_MARK} {self.name}: {detail}; playing a legal fallback move\n{traceback.format_exc()}",
                file=sys.stderr,
            )
        else:
            print(f"{FAULT_MARK} {self.name}: {detail}", file=sys.stderr)


def _first_open_column(observation: Any, configuration: Any) -> int:
    """A legal column read straight off the raw board, for observations the core rejects."""
    try:
        board = list(field(observation, "board"))
        columns = int(field(configuration, "columns", 7))
        return next(c for c in range(columns) if board[c] == 0)
    except Exception:
        return 0
