"""Solve Connect-X positions: each position's exact score, or what a time limit left proven.

Positions are 1-based column digits (4453), given as arguments or one a line on standard
input, each optionally followed by the score it is expected to have (the format of the
positions/ files). '' or (empty) is the empty board. Standard input is read and checked whole
before anything is solved; blank lines are skipped.

Scores are the side to move's, as in the positions/ files: 0 a draw, positive a win (larger =
sooner), negative a loss. Each position gets --time-limit seconds (default 10; 0 for none). One
line per position:

  MOVES SCORE                    solved exactly
  MOVES RANGE (WORDS; stopped at the 10 s limit)
                                 the limit came first: RANGE is LOW..HIGH, proven to hold the
                                 score, or ? when nothing is proven yet; WORDS say it as every
                                 front does ("draw or win", "win in <=5", ...)
  MOVES  1: V1  2: V2 ... C: VC  --analyze: the value of playing each column in the words every
                                 front uses ("win in 3", "draw", "loss in 5", "full"; where the
                                 limit came first the bound proven, "draw or win", or a short
                                 search's estimate), and the line ends with (stopped at the
                                 10 s limit) where a column is not exact
  MOVES S1 S2 ... SC             --analyze --scores: the same as numbers for tools, the score
                                 of playing each column, - for a full one, a RANGE where the
                                 limit came first

MOVES is (empty) for the empty board. --stats puts the seconds taken and the solver before the
note. With --analyze an expected score is checked against the best column's.

The search is the analysis engine's (connectx analyze and the page use it too): on 7x6 the
shipped exact scores of the opening and the --cache first, then the compiled (C) solver on the
boards it plays where a C compiler is present, else the pure-Python one; the outcome is proven
before the exact score, so a stopped search still says who wins where it can.

Exit status: 0 every position solved (and as expected); 1 a score differs from the expected
one (reported on stderr); 3 the limit stopped a position (none differed); 2 bad input: one
line on stderr, nothing solved.

The Python API is connectx.analysis.game_analysis: position_value and column_values.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass

from connectx.agents.core.move_string import MAX_DIGIT_COLUMNS, digits_fit
from connectx.agents.core.position import Geometry, Position
from connectx.analysis.game_analysis import column_values, position_value
from connectx.analysis.solved_cache import SolvedCache
from connectx.cli.options import (
    INTERRUPTED,
    InputError,
    add_board_size_arguments,
    add_engine_arguments,
    analysis_engine,
    board_spec,
)
from connectx.cli.progress import ProgressBar
from connectx.evaluation.scheduling import default_jobs
from connectx.solver.in_order import solve_in_order
from connectx.solver.interface import Solver, make_solver
from connectx.solver.score_range import ScoreRange, best_of, describe

NAME = "solve"
HELP = "solve positions exactly, or say what a time limit left proven (MOVES [EXPECTED] each)"

DEFAULT_TIME_LIMIT = 10.0
"""Seconds per position: enough for middle-game positions, and never a silent hang on early ones."""

EMPTY_BOARD = "(empty)"
"""How the empty board's move string is printed (and may be given back as input)."""


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
    seconds: float
    limit: float
    solver: str

    @property
    def stopped(self) -> str:
        return f"stopped at the {self.limit:g} s limit"

    @property
    def complete(self) -> bool:
        if self.columns is not None:
            return all(scores.exact for scores in self.columns.values())
        return self.scores.exact

    def line(self, stats: bool, scores: bool = False) -> str:
        """The answer's line: the position's score, or with ``columns`` each column's value in words (as
        numbers with ``scores``); ``stats`` adds the seconds and the solver."""
        position = self.query.position
        shape = position.geometry
        words = ""
        if self.columns is None:
            fields = [range_text(self.scores, ScoreRange.possible(position))]
            if not self.scores.exact:
                words = describe(self.scores, shape, position.moves) + "; "
        elif scores:
            fields = [
                range_text(self.columns[column], ScoreRange.possible(position.play(column)).negated())
                if column in self.columns
                else "-"
                for column in range(shape.columns)
            ]
        else:
            fields = [
                f" {column + 1}: {describe(self.columns.get(column), shape, position.moves)}"
                for column in range(shape.columns)
            ]
        if stats:
            fields += [f"{self.seconds:.3f}", self.solver]
        if not self.complete:
            fields.append(f"({words}{self.stopped})")
        return " ".join([self.query.name, *fields])

    def disagreement(self) -> str | None:
        """What contradicts the expected score, if anything does."""
        expected = self.query.expected
        if expected is None or self.scores.contains(expected):
            return None
        scores = self.scores
        proven = str(scores.lower) if scores.exact else f"{scores.lower}..{scores.upper} ({self.stopped})"
        return f"{self.query.name} scores {proven}, expected {expected}"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter  # keep the output table's layout
    parser.add_argument(
        "positions",
        nargs="*",
        metavar="MOVES",
        help="positions as 1-based column digits, '' for the empty board (default: read stdin)",
    )
    parser.add_argument(
        "--analyze",
        action="store_true",
        help="print the value of every column, in words, instead of the position's score",
    )
    parser.add_argument(
        "--scores", action="store_true", help="with --analyze: the columns' scores as numbers ('-' if full), for tools"
    )
    add_board_size_arguments(parser)
    parser.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help=f"seconds per position, 0 for no limit (default {DEFAULT_TIME_LIMIT:g}); "
        "with --analyze shared by the columns",
    )
    parser.add_argument("--stats", action="store_true", help="add the seconds taken and the solver that searched")
    add_engine_arguments(parser)


def run(args: argparse.Namespace) -> int:
    try:
        return _solve_all(args)
    except KeyboardInterrupt:
        print("connectx solve: interrupted", file=sys.stderr)
        return INTERRUPTED


def _solve_all(args: argparse.Namespace) -> int:
    limit = _time_limit(args)
    queries = _queries(args)
    board = board_spec(args)
    status = 0
    with analysis_engine(args, board, NAME) as (solver, cache):
        # The compiled solver searches on threads of its own: one solver a core solves the positions side by side.
        solvers = [solver] + [
            make_solver(board) for _ in range(min(default_jobs(), len(queries)) - 1) if solver.name == "native"
        ]
        progress = ProgressBar(len(queries), 0, unit="position", only_on_terminal=True)
        answers = solve_in_order(
            queries, lambda query, searcher: answer_query(query, args.analyze, limit, searcher, cache), solvers
        )
        try:
            for answer in answers:
                progress.write(answer.line(args.stats, args.scores))
                disagreement = answer.disagreement()
                if disagreement is not None:
                    print(f"connectx solve: {disagreement}", file=sys.stderr)
                    status = 1
                elif not answer.complete and status == 0:
                    status = 3
                progress.update("")
        finally:
            answers.close()
            progress.close()
            for extra in solvers[1:]:
                extra.close()
    return status


def answer_query(query: Query, analyze: bool, limit: float, solver: Solver, cache: SolvedCache) -> Answer:
    """Solve one query within ``limit`` seconds (``math.inf`` for none) with the analysis engine."""
    started = time.perf_counter()
    position, moves = query.position, query.moves
    if analyze:
        values = column_values(position, moves, limit, solver, cache)
        columns = {column: value for column, value in enumerate(values) if value is not None}
        scores = best_of(list(columns.values()))
    else:
        scores, columns = position_value(position, moves, limit, solver, cache), None
    return Answer(query, scores, columns, time.perf_counter() - started, limit, solver.name)


def _time_limit(args: argparse.Namespace) -> float:
    """The limit in seconds, ``math.inf`` for none (``--time-limit 0``)."""
    seconds = args.time_limit
    if not seconds >= 0:  # also refuses NaN
        raise InputError(f"--time-limit {seconds:g}: expected seconds per position, or 0 for no limit")
    return seconds if seconds > 0 else math.inf


def _queries(args: argparse.Namespace) -> list[Query]:
    """Every query, all parsed before any is solved, so bad input writes nothing."""
    if args.scores and not args.analyze:
        raise InputError("--scores goes with --analyze: without it each line already gives the position's score")
    if not digits_fit(args.columns):
        raise InputError(
            f"--columns {args.columns}: moves are column digits 1-{MAX_DIGIT_COLUMNS}, so expected 1 to "
            f"{MAX_DIGIT_COLUMNS} columns"
        )
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
            raise InputError(
                f"--analyze {query.name}: the {ending}, so no column can be played; give a position still in play"
            )
    return queries


def _stdin_lines() -> list[str]:
    """Standard input's lines, decoded as UTF-8 whatever the locale says."""
    if sys.stdin.isatty():
        raise InputError(
            "no positions: give them as arguments (connectx solve 4453) "
            "or as lines on standard input (connectx solve < positions/Test_L3_R1)"
        )
    raw = getattr(sys.stdin, "buffer", None)
    if raw is None:  # a text stream with no bytes underneath (tests use io.StringIO)
        return sys.stdin.read().splitlines()
    data: bytes = raw.read()
    try:
        return data.decode("utf-8").splitlines()
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InputError(f"standard input line {line} is not UTF-8 text: expected lines of column digits") from None
