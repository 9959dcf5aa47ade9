"""Generate the 7x6 connect-4 opening book: ``python3 -m book.generate``.

The book is a strategy tree per side (see ``book/levels.py``), solved one ply level at a time
with the C solver in two worker processes at low priority (``nice 10``: the machine is shared).
Whenever a level is fully solved, the book file and ``book/book_stats.json`` are rewritten, so
the book on disk is always complete for the plies it claims. Results are checkpointed to
``book/solved/book_positions.jsonl.gz`` (committed, so another machine can deepen the book): stop it at
any time (or let the time budget stop it) and rerun the same command to continue where it stopped.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import queue
import statistics
import sys
import time
from functools import lru_cache

from book.book_file import encode_opening_book
from book.checkpoint import Checkpoint
from book.levels import Solved, Task, canonical_column, next_level, root_level
from book.paths import BOOK_FILE, BOOK_POSITIONS, BOOK_STATS, BOOK_WALL_SECONDS
from connectx.solver.build import build_library
from connectx.solver.native import NativeSolver


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first-player-plies", type=int, default=16, help="deepest even ply holding our move")
    parser.add_argument("--second-player-plies", type=int, default=15, help="deepest odd ply holding our move")
    parser.add_argument("--budget-minutes", type=float, default=120.0, help="stop (resumably) after this long")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--table-log2", type=int, default=28, help="C transposition table: 2^n entries, 5 B each")
    return parser


@lru_cache(maxsize=1)
def worker_solver(table_log2: int) -> NativeSolver:
    """One solver per worker process, so its transposition table stays warm between the positions it solves."""
    return NativeSolver(table_log2)


def _solve(job: tuple[Task, int]) -> Solved:
    task, table_log2 = job
    started = time.perf_counter()
    result = worker_solver(table_log2).best_move(task.moves, task.floor)
    assert result.column is not None, "book positions are unfinished, so each has a best column"
    return Solved(task.moves, result.score, result.column, result.nodes, round(time.perf_counter() - started, 4))


class Generation:
    """Level-by-level book building for both sides at once, the checkpoint, and the clock.

    The two sides' trees are independent, so each starts its next level as soon as its own
    level is solved: no worker waits for the other side's slowest position.
    """

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.checkpoint = Checkpoint(BOOK_POSITIONS)
        self.levels: dict[int, dict[int, Task]] = {}
        self.complete = {0: -2, 1: -1}  # deepest fully solved ply, by ply parity (first, second player)
        self.remaining: dict[int, int] = {}
        self.solved_this_run = 0
        self.last_progress = 0.0
        self.started = time.monotonic()
        self.earlier_wall_seconds = 0.0
        if BOOK_WALL_SECONDS.exists():
            self.earlier_wall_seconds = json.loads(BOOK_WALL_SECONDS.read_text())["seconds"]
        self.results: queue.SimpleQueue[Solved | BaseException] = queue.SimpleQueue()
        self.in_flight: dict[str, tuple[int, int]] = {}  # moves -> (ply, canonical key)

    def wall_seconds(self) -> float:
        return self.earlier_wall_seconds + time.monotonic() - self.started

    def save_wall_clock(self) -> None:
        BOOK_WALL_SECONDS.write_text(json.dumps({"seconds": round(self.wall_seconds(), 1)}))

    def level(self, ply: int) -> dict[int, Task]:
        """The positions of ``ply`` (the level two plies up must be solved)."""
        if ply not in self.levels:
            if ply < 2:
                self.levels[ply] = root_level(ply)
            else:
                self.levels[ply] = next_level(self.checkpoint.solved[key] for key in self.level(ply - 2))
        return self.levels[ply]

    def run(self, pool: multiprocessing.pool.Pool) -> bool:
        """Solve every level of both trees; False if the time budget stopped it first."""
        deadline = self.started + 60 * self.args.budget_minutes
        for ply in (0, 1):
            self._start_level(ply, pool)
        while self.remaining:
            try:
                result = self.results.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                print(f"\ntime budget of {self.args.budget_minutes} min reached: rerun to continue", flush=True)
                return False
            if isinstance(result, BaseException):
                raise result
            ply, key = self.in_flight.pop(result.moves)
            self.checkpoint.add(key, result)
            self.solved_this_run += 1
            self.remaining[ply] -= 1
            self._progress()
            if self.remaining[ply] == 0:
                del self.remaining[ply]
                self._finish_level(ply, pool)
        return True

    def _start_level(self, ply: int, pool: multiprocessing.pool.Pool) -> None:
        """Queue every unsolved position of ``ply``, siblings together (they share subtrees)."""
        solved = self.checkpoint.solved
        unsolved = [(task.moves, key, task) for key, task in self.level(ply).items() if key not in solved]
        if not unsolved:
            self._finish_level(ply, pool)
            return
        self.remaining[ply] = len(unsolved)
        for moves, key, task in sorted(unsolved):
            self.in_flight[moves] = (ply, key)
            job = (task, self.args.table_log2)
            pool.apply_async(_solve, (job,), callback=self.results.put, error_callback=self.results.put)

    def _finish_level(self, ply: int, pool: multiprocessing.pool.Pool) -> None:
        self.complete[ply % 2] = ply
        print(f"\nply {ply} solved: {len(self.level(ply))} positions", flush=True)
        if min(self.complete.values()) >= 0 and self.solved_this_run:  # a resumed run re-walks solved levels first
            self.write_book()
        if ply + 2 <= self._deepest(ply + 2):
            self._start_level(ply + 2, pool)

    def _deepest(self, ply: int) -> int:
        return int(self.args.first_player_plies if ply % 2 == 0 else self.args.second_player_plies)

    def _progress(self) -> None:
        """One status line, rewritten in place at most every few seconds."""
        if time.monotonic() - self.last_progress < 5:
            return
        self.last_progress = time.monotonic()
        elapsed = time.monotonic() - self.started
        rate = self.solved_this_run / elapsed
        levels = ", ".join(
            f"ply {ply}: {len(self.level(ply)) - left}/{len(self.level(ply))}"
            for ply, left in sorted(self.remaining.items())
        )
        eta = sum(self.remaining.values()) / rate / 60 if rate else float("inf")
        print(
            f"\r{levels}; {rate:.2f} positions/s, these levels in ~{eta:.1f} min, "
            f"total {self.wall_seconds() / 60:.1f} min   ",
            end="",
            flush=True,
        )

    def write_book(self) -> None:
        """Write the book and its stats for every fully solved level of both sides."""
        first_plies, second_plies = self.complete[0], self.complete[1]
        included = [*range(0, first_plies + 1, 2), *range(1, second_plies + 1, 2)]
        entries = {ply: [self.checkpoint.solved[key] for key in self.level(ply)] for ply in sorted(included)}
        columns_by_key = {
            key: canonical_column(self.checkpoint.solved[key]) for ply in included for key in self.level(ply)
        }
        data = encode_opening_book(columns_by_key, 6, 7, 4, first_plies, second_plies)
        BOOK_FILE.parent.mkdir(parents=True, exist_ok=True)
        BOOK_FILE.write_bytes(data)
        self.save_wall_clock()
        stats = {
            "board": "7x6, 4 in a row",
            "first_player_plies": first_plies,
            "second_player_plies": second_plies,
            "entries": len(columns_by_key),
            "entries_by_ply": {str(ply): len(solved) for ply, solved in entries.items()},
            "file_bytes": len(data),
            "generation_wall_seconds": round(self.wall_seconds(), 1),
            "solver_seconds": round(sum(s.seconds for level in entries.values() for s in level), 1),
            "solver_nodes": sum(s.nodes for level in entries.values() for s in level),
            "workers": self.args.workers,
            "solver_effort_by_ply": {str(ply): _level_summary(solved) for ply, solved in entries.items()},
        }
        BOOK_STATS.write_text(json.dumps(stats, indent=2) + "\n")
        print(
            f"wrote {BOOK_FILE.name}: {len(columns_by_key)} entries, {len(data)} bytes, "
            f"first player plies 0-{first_plies}, second player plies 1-{second_plies}"
        )


def _level_summary(level: list[Solved]) -> dict[str, float]:
    """Solver effort for one level: what positions at the book's edge cost the C solver."""
    nodes = sorted(s.nodes for s in level)
    return {
        "positions": len(level),
        "mean_nodes": round(statistics.fmean(nodes)),
        "median_nodes": nodes[len(nodes) // 2],
        "p99_nodes": nodes[min(len(nodes) - 1, int(0.99 * len(nodes)))],
        "max_nodes": nodes[-1],
        "mean_seconds": round(statistics.fmean(s.seconds for s in level), 4),
    }


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    os.nice(10)  # the machine is shared with test runs
    build_library()  # compile once here, not racing in every worker
    generation = Generation(args)
    try:
        with multiprocessing.Pool(args.workers) as pool:
            finished = generation.run(pool)
    finally:
        generation.save_wall_clock()
        generation.checkpoint.close()
    return 0 if finished else 3


if __name__ == "__main__":
    sys.exit(main())
