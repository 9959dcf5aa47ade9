"""The exact solver over the shared benchmark positions: share solved within 1 s, times, nodes, nodes/s.

For each file of ``positions/`` (lines ``MOVES SCORE``), every position is solved from a
fresh transposition table (as the reference solver's benchmark does) and its score checked
against the file: a wrong score is a bug, reported and turned into exit status 1, never a figure.
Times are CPU seconds of this process (this machine is shared, so wall-clock time measures the
other jobs as much as the solver), with the wall-clock share within 1 s beside them.
The agent plays positions its opening book knows without searching, so the table also counts them
("in book") and the share either in the book or solved within 1 s. A position not solved within
``--cap`` seconds (wall clock) counts as not solved within 1 s and is left out of
the time and node figures (the table says how many).

``--limit N`` takes N positions per file spread evenly over it, for a run of minutes; the full
files take hours for the L1 ones. ``--results FILE`` records each position as a JSON line and
skips positions already there, so a long run in the background can be stopped and resumed::

    nohup .venv/bin/python -m benchmarks.solver_positions --results out/bench/solver_positions.jsonl \
        > out/bench/solver_positions.txt 2>&1 &
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.conditions import machine_conditions
from connectx.agents.core.position import Position
from connectx.agents.core.search_time import SearchLimit
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.players.opening_book import OpeningBook, load_opening_book
from connectx.agents.search.exact_search import solve

POSITIONS = Path(__file__).resolve().parents[1] / "positions"
FILES = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
REFERENCE_NODES = {
    "Test_L3_R1": 51,
    "Test_L2_R1": 449,
    "Test_L2_R2": 39_808,
    "Test_L1_R1": 3_296,
    "Test_L1_R2": 1_190_000,
}
"""Mean nodes of a reference C++ solver with the same techniques (Pons' connect4), measured on this machine."""


@dataclass(frozen=True)
class Measurement:
    file: str
    moves: str
    expected: int
    score: int | None
    nodes: int | None
    seconds: float
    cpu_seconds: float


def sample(lines: list[str], limit: int | None) -> list[str]:
    """``limit`` lines spread evenly over ``lines`` (all of them without a limit)."""
    if limit is None or limit >= len(lines):
        return lines
    return [lines[index * len(lines) // limit] for index in range(limit)]


def measure(file: str, line: str, cap: float) -> Measurement:
    moves, expected = line.split()
    position = Position.from_moves(moves)
    started, cpu_started = time.perf_counter(), time.process_time()
    solution = solve(position, TranspositionTable(), SearchLimit(started + cap))
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
    if solution is None:
        return Measurement(file, moves, int(expected), None, None, seconds, cpu_seconds)
    return Measurement(file, moves, int(expected), solution.score, solution.nodes, seconds, cpu_seconds)


def in_book(book: OpeningBook | None, moves: str) -> bool:
    """Whether the agent would play ``moves``'s position from the opening book."""
    if book is None:
        return False
    position = Position.from_moves(moves)
    return book.move_for(6, 7, 4, position.current, position.mask) is not None


def within_book_depth(book: OpeningBook, moves: str) -> bool:
    """Whether the book would hold the move of ``moves``'s side to move, had its strategy reached it."""
    return len(moves) <= (book.first_player_plies if len(moves) % 2 == 0 else book.second_player_plies)


def summary_row(file: str, results: list[Measurement], book: OpeningBook | None) -> str:
    """One table row; times are CPU seconds (the machine is shared), the wall-clock share beside them."""
    solved = [r for r in results if r.score is not None]
    booked = sum(1 for r in results if in_book(book, r.moves))
    fast_or_booked = sum(1 for r in results if in_book(book, r.moves) or (r.score is not None and r.cpu_seconds <= 1.0))
    book_cells = f"{booked} | {100 * fast_or_booked / len(results):.1f}% |"
    within_cpu = sum(1 for r in solved if r.cpu_seconds <= 1.0)
    within_wall = sum(1 for r in solved if r.seconds <= 1.0)
    wrong = sum(1 for r in solved if r.score != r.expected)
    if not solved:
        return f"| {file} | {len(results)} | 0.0% | 0.0% | {book_cells} - | - | - | - | - | {len(results)} | {wrong} |"
    times = [r.cpu_seconds for r in solved]
    nodes = [r.nodes or 0 for r in solved]
    mean_nodes = statistics.fmean(nodes)
    reference = REFERENCE_NODES.get(file)
    ratio = f"{mean_nodes / reference:.2f}" if reference else "-"
    return (
        f"| {file} | {len(results)} | {100 * within_cpu / len(results):.1f}% | "
        f"{100 * within_wall / len(results):.1f}% | {book_cells} {statistics.fmean(times):.4f} | "
        f"{statistics.median(times):.4f} | {mean_nodes:,.0f} | {ratio} | "
        f"{sum(nodes) / max(sum(times), 1e-9):,.0f} | "
        f"{len(results) - len(solved)} | {wrong} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", nargs="*", default=list(FILES), help="benchmark files to run (default: all)")
    parser.add_argument("--limit", type=int, default=None, help="positions per file, spread evenly (default: all)")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds before giving up on a position (default 60)")
    parser.add_argument("--results", type=Path, default=None, help="JSON lines file to record to and resume from")
    args = parser.parse_args(argv)
    done: dict[tuple[str, str], Measurement] = {}
    if args.results is not None and args.results.exists():
        for text in args.results.read_text().splitlines():
            try:
                record = Measurement(**json.loads(text))
            except (ValueError, TypeError):
                continue  # a line torn by a kill: measured again
            done[(record.file, record.moves)] = record
    try:
        book: OpeningBook | None = load_opening_book()
    except FileNotFoundError:
        book = None
    print(
        f"solver over {POSITIONS} ({machine_conditions()}); opening book: "
        + (f"{len(book)} positions" if book else "none"),
        flush=True,
    )
    rows = []
    failed = False
    for file in args.files:
        lines = sample((POSITIONS / file).read_text().split("\n"), args.limit)
        lines = [line for line in lines if line.strip()]
        results = []
        for line in lines:
            moves = line.split()[0]
            record = done.get((file, moves))
            if record is None or (record.score is None and record.seconds < args.cap):
                record = measure(file, line, args.cap)
                if args.results is not None:
                    args.results.parent.mkdir(parents=True, exist_ok=True)
                    with args.results.open("a") as out:
                        out.write(json.dumps(asdict(record)) + "\n")
            if record.score is not None and record.score != record.expected:
                print(f"WRONG SCORE {file} {record.moves}: solver {record.score}, file {record.expected}", flush=True)
                failed = True
            results.append(record)
        rows.append(summary_row(file, results, book))
        print(rows[-1], flush=True)
    print(f"\nfinished at load {machine_conditions().rsplit('load ', 1)[1]}")
    print(
        "| file | positions | within 1 s CPU | within 1 s wall | in book | in book or within 1 s CPU | mean CPU s "
        "| median CPU s | mean nodes | nodes / reference | nodes per CPU s | not solved within cap | wrong |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    for file in args.files if book is not None else ():
        shallow = [
            moves
            for moves in (line.split()[0] for line in (POSITIONS / file).read_text().split("\n") if line.strip())
            if within_book_depth(book, moves)
        ]
        if shallow:
            reached = sum(1 for moves in shallow if in_book(book, moves))
            print(
                f"{file}: {len(shallow)} positions lie within the book's depth; its strategy reaches {reached} and "
                "plays them from the book, and the agent following it never meets the others"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
