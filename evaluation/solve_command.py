"""Solve positions exactly: ``MOVES SCORE`` for each, or the score of every column with --analyze.

Positions are 1-based column digits (``4453``), given as arguments or one per line on standard
input, each optionally followed by the score it is expected to have (the format of the shared
benchmark files). Scores are the side to move's: 0 a draw, positive a win (larger = sooner),
negative a loss. A score that differs from the expected one is reported and makes the exit
status 1; a malformed line or a position not solved within --time-limit makes it 2.

The Python API is ``agents.alphabeta``: ``solve(Position.from_moves("4453")).score`` and
``analyze(position)``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from agents.alphabeta import SearchLimit, analyze, solve
from agents.position import Position
from agents.transposition_table import TranspositionTable

NAME = "solve"
HELP = "solve positions exactly (MOVES [EXPECTED] per line or argument)"


@dataclass(frozen=True)
class Query:
    """One line of input: a move string and the score it should have, if given."""

    moves: str
    expected: int | None

    @classmethod
    def parse(cls, text: str) -> Query:
        parts = text.split()
        if len(parts) > 2:
            raise ValueError(f"{text.strip()!r}: expected MOVES or MOVES EXPECTED_SCORE")
        moves = parts[0] if parts else ""
        try:
            expected = int(parts[1]) if len(parts) == 2 else None
        except ValueError:
            raise ValueError(f"{text.strip()!r}: the expected score {parts[1]!r} is not an integer") from None
        return cls(moves, expected)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("positions", nargs="*", metavar="MOVES",
                        help="positions as 1-based column digits, '' for the empty board (default: read stdin)")
    parser.add_argument("--analyze", action="store_true", help="print the score of every column ('-' if full)")
    parser.add_argument("--rows", type=int, default=6, help="board rows (default 6)")
    parser.add_argument("--columns", type=int, default=7, help="board columns (default 7)")
    parser.add_argument("--inarow", type=int, default=4, help="stones in a row to win (default 4)")
    parser.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                        help="give up on a position after this long (default: no limit)")
    parser.add_argument("--stats", action="store_true", help="append the nodes searched and the seconds taken")


def run(args: argparse.Namespace) -> int:
    if args.time_limit is not None and args.time_limit <= 0:
        print(f"connectx solve: --time-limit {args.time_limit}: expected a positive number of seconds", file=sys.stderr)
        return 2
    lines: Iterable[str] = args.positions if args.positions else _stdin_lines()
    status = 0
    for text in lines:
        try:
            query = Query.parse(text)
            position = Position.from_moves(query.moves, args.rows, args.columns, args.inarow)
        except ValueError as error:
            print(f"connectx solve: {error}", file=sys.stderr)
            status = 2
            continue
        table = TranspositionTable()  # fresh per position, so --stats counts are reproducible
        started = time.perf_counter()
        limit = SearchLimit(started + args.time_limit) if args.time_limit is not None else SearchLimit()
        if args.analyze:
            scores = analyze(position, table, limit)
            answer = None if scores is None else " ".join(
                str(scores[c]) if c in scores else "-" for c in range(args.columns))
            nodes = None
        else:
            solution = solve(position, table, limit)
            answer = None if solution is None else str(solution.score)
            nodes = None if solution is None else solution.nodes
        elapsed = time.perf_counter() - started
        if answer is None:
            print(f"connectx solve: {query.moves or '(empty)'} not solved within {args.time_limit} s", file=sys.stderr)
            status = 2
            continue
        stats = f" {nodes if nodes is not None else '-'} {elapsed:.3f}" if args.stats else ""
        print(f"{query.moves} {answer}{stats}", flush=True)
        if query.expected is not None and not args.analyze and int(answer) != query.expected:
            print(f"connectx solve: {query.moves} scores {answer}, expected {query.expected}", file=sys.stderr)
            status = max(status, 1)
    return status


def _stdin_lines() -> Iterator[str]:
    for line in sys.stdin:
        if line.strip():
            yield line
