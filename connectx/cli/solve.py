"""Solve Connect-X positions: each position's exact score, or what a time limit left proven.

Positions are 1-based column digits (4453), given as arguments or one a line on standard
input, each optionally followed by the score it is expected to have (the format of the
positions/ files). '' or (empty) is the empty board. Standard input is read and checked whole
before anything is solved; blank lines are skipped.

Scores are the side to move's: 0 a draw, positive a win (larger = sooner), negative a loss.
Each position gets --time-limit seconds (default 10; 0 for none). One line per position:

  MOVES SCORE                    solved exactly
  MOVES RANGE OUTCOME (stopped at the 10 s limit)
                                 the limit came first: RANGE is LOW..HIGH, proven to hold
                                 the score, or ? when nothing is proven yet; OUTCOME is won,
                                 lost, at-least-drawn, at-most-drawn or unknown
  MOVES S1 S2 ... SC             --analyze: the score of playing each column, - for a full
                                 one; where the limit came first a RANGE, and the line ends
                                 with (stopped at the 10 s limit)

MOVES is (empty) for the empty board. --stats puts the nodes searched and the seconds taken
before the (stopped ...) note. With --analyze an expected score is checked against the best
column's. A live progress line shows on stderr when it is a terminal and a position takes
more than a second.

Exit status: 0 every position solved (and as expected); 1 a score differs from the expected
one (reported on stderr); 3 the limit stopped a position (none differed); 2 bad input: one
line on stderr, nothing solved.

The Python API is agents.search.exact_search: solve(Position.from_moves("4453")).score, analyze(position).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import TextIO

from agents.core.position import Geometry, Position
from agents.core.scores import finished_score, win_score
from agents.core.search_time import SearchLimit
from agents.core.transposition_table import TranspositionTable
from agents.search.exact_search import next_probe, prove_at_least
from connectx.analysis.score_range import ScoreRange, best_of
from connectx.cli.options import INTERRUPTED, InputError, board_spec

NAME = "solve"
HELP = "solve positions exactly, or say what a time limit left proven (MOVES [EXPECTED] each)"

DEFAULT_TIME_LIMIT = 10.0
"""Seconds per position: enough for middle-game positions, and never a silent hang on early ones."""

EMPTY_BOARD = "(empty)"
"""How the empty board's move string is printed (and may be given back as input)."""

OUTCOME_SHARE = 0.5
"""Part of the limit spent on the exact score (``solve``'s probe order) before the remaining time
goes to proving the outcome first: fast on positions that solve in time, useful on those that do not."""

PROGRESS_DELAY = 1.0
"""Seconds a position runs before the progress line appears: quick solves never flicker it."""

PROGRESS_INTERVAL = 0.5
"""Seconds between redraws of the progress line."""


def outcome_word(scores: ScoreRange) -> str:
    """The OUTCOME field of a line the limit stopped: what the range proves of the game's result."""
    if scores.lower >= 1:
        return "won"
    if scores.upper <= -1:
        return "lost"
    if scores.exact:
        return "drawn"
    if scores.lower >= 0:
        return "at-least-drawn"
    if scores.upper <= 0:
        return "at-most-drawn"
    return "unknown"


def range_text(scores: ScoreRange, possible: ScoreRange) -> str:
    """``SCORE`` when exact, ``?`` when nothing beyond ``possible`` is proven, else ``LOW..HIGH``."""
    if scores.exact:
        return str(scores.lower)
    return "?" if scores == possible else f"{scores.lower}..{scores.upper}"


@dataclass(frozen=True)
class Query:
    """One position to solve: its move string, the position, and the score it should have, if given."""

    moves: str
    position: Position
    expected: int | None

    @classmethod
    def parse(cls, text: str, shape: Geometry) -> Query:
        """``MOVES [EXPECTED_SCORE]``; MOVES may be ``(empty)``, as this command prints the empty board."""
        parts = text.split()
        if len(parts) > 2:
            raise InputError(f"{text.strip()!r}: expected MOVES or MOVES EXPECTED_SCORE")
        moves = parts[0] if parts and parts[0] != EMPTY_BOARD else ""
        try:
            position = Position.from_moves(moves, shape.rows, shape.columns, shape.inarow)
        except ValueError as error:
            raise InputError(str(error)) from None
        try:
            expected = int(parts[1]) if len(parts) == 2 else None
        except ValueError:
            raise InputError(f"{text.strip()!r}: the expected score {parts[1]!r} is not an integer") from None
        return cls(moves, position, expected)

    @property
    def name(self) -> str:
        return self.moves or EMPTY_BOARD


@dataclass(frozen=True)
class Answer:
    """What was proven about one query within its limit, ready to print."""

    query: Query
    scores: ScoreRange  # the position's score (with --analyze, the best column's)
    columns: dict[int, ScoreRange] | None  # --analyze: each legal column's score
    nodes: int  # nodes of the completed proofs
    seconds: float
    limit: float

    @property
    def stopped(self) -> str:
        return f"(stopped at the {self.limit:g} s limit)"

    @property
    def complete(self) -> bool:
        if self.columns is not None:
            return all(scores.exact for scores in self.columns.values())
        return self.scores.exact

    def line(self, stats: bool) -> str:
        position = self.query.position
        if self.columns is None:
            fields = [range_text(self.scores, ScoreRange.possible(position))]
            if not self.scores.exact:
                fields.append(outcome_word(self.scores))
        else:
            fields = [range_text(self.columns[column], ScoreRange.possible(position.play(column)).negated())
                      if column in self.columns else "-" for column in range(position.geometry.columns)]
        if stats:
            fields += [str(self.nodes), f"{self.seconds:.3f}"]
        if not self.complete:
            fields.append(self.stopped)
        return " ".join([self.query.name, *fields])

    def disagreement(self) -> str | None:
        """What contradicts the expected score, if anything does."""
        expected = self.query.expected
        if expected is None or self.scores.contains(expected):
            return None
        scores = self.scores
        proven = str(scores.lower) if scores.exact else f"{scores.lower}..{scores.upper} {self.stopped}"
        return f"{self.query.name} scores {proven}, expected {expected}"


class ProgressLine:
    """A live status line on a terminal, shown once a solve has run ``delay`` seconds and erased after.

    Only on a terminal: there ``\\r`` rewrites the line in place, while in a log or a pipe every
    update would become a line of noise among the real errors. A daemon thread redraws it; the
    search never waits on it (the thread sleeps between redraws, so it takes the GIL a few times
    a second at most).
    """

    def __init__(self, stream: TextIO, label: str, limit: float,
                 delay: float = PROGRESS_DELAY, interval: float = PROGRESS_INTERVAL) -> None:
        self.stream, self.label, self.limit = stream, label, limit
        self.delay, self.interval = delay, interval
        self.status = ""
        self.drawn = False
        self.done = threading.Event()
        self.started = time.perf_counter()
        self.thread = threading.Thread(target=self._run, name="connectx-solve-progress", daemon=True)

    def __enter__(self) -> ProgressLine:
        if self.stream.isatty():
            self.thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.done.set()
        if self.thread.is_alive():
            self.thread.join()
        if self.drawn:
            self.stream.write("\r\x1b[K")  # back to the line's start and erase it
            self.stream.flush()

    def show(self, status: str) -> None:
        """Set what the line says next time it is drawn (one attribute store: safe across threads)."""
        self.status = status

    def render(self) -> str:
        elapsed = time.perf_counter() - self.started
        limit = f" of {self.limit:g}" if math.isfinite(self.limit) else ""
        text = f"connectx solve: {self.label}: {elapsed:.0f} s{limit}, {self.status}"
        return text[:self._width() - 1]  # a line that wrapped could not be rewritten in place

    def _width(self) -> int:
        try:
            return os.get_terminal_size(self.stream.fileno()).columns
        except (OSError, ValueError):  # not a real terminal (io.UnsupportedOperation is both)
            return 80

    def _run(self) -> None:
        if self.done.wait(self.delay):
            return
        while not self.done.is_set():
            self.stream.write("\r" + self.render() + "\x1b[K")
            self.stream.flush()
            self.drawn = True
            self.done.wait(self.interval)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter  # keep the output table's layout
    parser.add_argument("positions", nargs="*", metavar="MOVES",
                        help="positions as 1-based column digits, '' for the empty board (default: read stdin)")
    parser.add_argument("--analyze", action="store_true",
                        help="print the score of every column ('-' if full) instead of the position's")
    parser.add_argument("--rows", type=int, default=6, help="board rows (default 6)")
    parser.add_argument("--columns", type=int, default=7, help="board columns, at most 9 (default 7)")
    parser.add_argument("--inarow", type=int, default=4, help="stones in a row to win (default 4)")
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                        help=f"seconds per position, 0 for no limit (default {DEFAULT_TIME_LIMIT:g}); "
                             "with --analyze shared by the columns")
    parser.add_argument("--stats", action="store_true", help="add the nodes searched and the seconds taken")


def run(args: argparse.Namespace) -> int:
    try:
        return _solve_all(args)
    except KeyboardInterrupt:
        print("connectx solve: interrupted", file=sys.stderr)
        return INTERRUPTED


def _solve_all(args: argparse.Namespace) -> int:
    limit = _time_limit(args)
    queries = _queries(args)
    status = 0
    for query in queries:
        answer = answer_query(query, args.analyze, limit, sys.stderr)
        print(answer.line(args.stats), flush=True)
        disagreement = answer.disagreement()
        if disagreement is not None:
            print(f"connectx solve: {disagreement}", file=sys.stderr)
            status = 1
        elif not answer.complete and status == 0:
            status = 3
    return status


def answer_query(query: Query, analyze: bool, limit: float, progress_stream: TextIO) -> Answer:
    """Solve one query within ``limit`` seconds (``math.inf`` for none), one table shared by every proof."""
    table = TranspositionTable()  # fresh per position, so --stats counts are reproducible
    started = time.perf_counter()
    deadline = started + limit
    with ProgressLine(progress_stream, query.name, limit) as progress:
        if analyze:
            columns, nodes = bound_columns(query.position, table, deadline, progress.show)
            scores = best_of(list(columns.values()))
        else:
            scores, nodes = bound_score(query.position, table, deadline, progress.show)
            columns = None
    return Answer(query, scores, columns, nodes, time.perf_counter() - started, limit)


def bound_score(position: Position, table: TranspositionTable, deadline: float,
                show: Callable[[str], None] = lambda status: None) -> tuple[ScoreRange, int]:
    """The score of ``position`` as narrowed by null-window proofs until exact or ``deadline``.

    Each proof (``prove_at_least``) narrows the range, and a stop at the deadline keeps every
    proof completed before it. Targets follow ``solve``'s order (near 0 first, then halfway),
    which solves a position as fast as ``solve`` does, for the first ``OUTCOME_SHARE`` of the
    time; a proof still running then is stopped (the table keeps its finished sub-searches) and,
    while the outcome is open, the rest of the time first tests won (>= 1) and then not lost
    (>= 0). Returns the range and the nodes of the completed proofs.
    """
    over = finished_score(position)
    if over is not None:
        return ScoreRange.exactly(over), 0
    started = time.perf_counter()
    outcome_from = started + OUTCOME_SHARE * (deadline - started)
    scores, nodes = ScoreRange.possible(position), 0
    while not scores.exact:
        now = time.perf_counter()
        if now >= deadline:
            break
        outcome_target = _outcome_target(scores)
        if outcome_target is not None and now < outcome_from:
            target, stop_at = _exact_target(scores), outcome_from  # solve's order until the outcome's turn
        elif outcome_target is not None:
            target, stop_at = outcome_target, deadline
        else:
            target, stop_at = _exact_target(scores), deadline
        show(f"score {range_text(scores, ScoreRange.possible(position))}, proving >= {target}")
        proof = prove_at_least(position, target, table, SearchLimit(stop_at))
        if proof is not None:
            scores, nodes = scores.narrowed(target, proof.holds), nodes + proof.nodes
    return scores, nodes


def bound_columns(position: Position, table: TranspositionTable, deadline: float,
                  show: Callable[[str], None] = lambda status: None) -> tuple[dict[int, ScoreRange], int]:
    """The score of playing each legal column (0-based), each column given an equal share of the time left."""
    columns = sorted(position.legal_columns())
    scores, nodes = {}, 0
    for index, column in enumerate(columns):
        if position.is_winning_move(column):
            scores[column] = ScoreRange.exactly(win_score(position.geometry, position.moves))
            continue
        now = time.perf_counter()
        share = now + (deadline - now) / (len(columns) - index)

        def show_column(status: str, column: int = column) -> None:
            show(f"column {column + 1}: {status}")

        child, child_nodes = bound_score(position.play(column), table, share, show_column)
        scores[column], nodes = child.negated(), nodes + child_nodes
    return scores, nodes


def _exact_target(scores: ScoreRange) -> int:
    """The next score to prove on the way to the exact one: ``solve``'s null-window order (Pons)."""
    return next_probe(scores.lower, scores.upper) + 1


def _outcome_target(scores: ScoreRange) -> int | None:
    """The score to prove to settle the outcome (won, drawn or lost), None once it is settled."""
    if scores.lower <= 0 < scores.upper:
        return 1
    if scores.lower < 0 <= scores.upper:
        return 0
    return None


def _time_limit(args: argparse.Namespace) -> float:
    """The limit in seconds, ``math.inf`` for none (``--time-limit 0``)."""
    seconds = args.time_limit
    if not seconds >= 0:  # also refuses NaN
        raise InputError(f"--time-limit {seconds:g}: expected seconds per position, or 0 for no limit")
    return seconds if seconds > 0 else math.inf


def _queries(args: argparse.Namespace) -> list[Query]:
    """Every query, all parsed before any is solved, so bad input writes nothing."""
    if not 1 <= args.columns <= 9:
        raise InputError(f"--columns {args.columns}: moves are column digits 1-9, so expected 1 to 9 columns")
    shape = board_spec(args).geometry
    if args.positions:
        queries = [Query.parse(text, shape) for text in args.positions]
    else:
        queries = []
        for number, line in enumerate(_stdin_lines(), start=1):
            try:
                queries += [Query.parse(line, shape)] if line.strip() else []
            except InputError as error:
                raise InputError(f"standard input line {number}: {error}") from None
    for query in queries:
        if args.analyze and query.position.is_over():
            ending = "game is already won" if query.position.is_won() else "board is full"
            raise InputError(f"--analyze {query.name}: the {ending}, so no column can be played; "
                           "give a position still in play")
    return queries


def _stdin_lines() -> list[str]:
    """Standard input's lines, decoded as UTF-8 whatever the locale says."""
    if sys.stdin.isatty():
        raise InputError("no positions: give them as arguments (connectx solve 4453) "
                       "or as lines on standard input (connectx solve < positions/Test_L3_R1)")
    raw = getattr(sys.stdin, "buffer", None)
    if raw is None:  # a text stream with no bytes underneath (tests use io.StringIO)
        return sys.stdin.read().splitlines()
    data = raw.read()
    try:
        return data.decode("utf-8").splitlines()
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise InputError(f"standard input line {line} is not UTF-8 text: expected lines of column digits") from None
