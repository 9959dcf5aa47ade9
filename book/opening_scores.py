"""Solve every 7x6 position of one ply exactly, for the analysis's opening table (``make opening-scores``).

The analysis answers the opening at once only if it already knows the exact score of every
position there: a column's value at ply ``n`` is the score of a position at ply ``n + 1``. This
solves every position of ``--ply`` (5 by default: 2,144 positions once mirror images and
transpositions are folded) with the C solver; the table builder derives every shallower score
from them by negamax. Positions are queued by their parent, so each parent's children finish
together, and results are appended to a committed checkpoint as they arrive: stop it at any
time and rerun the same command to continue. Positions the opening book's generation already
solved are read from its checkpoint, not solved again.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

from tqdm import tqdm

from book.checkpoint import Checkpoint, read_solved
from book.generate import worker_solver
from book.levels import Solved
from book.paths import BOOK_POSITIONS, opening_scores
from connectx.agents.core.position import Position
from connectx.solver.build import build_library


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ply", type=int, default=7, help="the ply whose every position is solved (default 7)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--table-log2", type=int, default=26, help="C transposition table: 2^n entries, 5 B each")
    parser.add_argument("--budget-minutes", type=float, default=0.0, help="stop (resumably) after this long")
    parser.add_argument("--checkpoint", type=Path,
                        help="where results are appended (default: book/solved/opening_scores_ply<PLY>.jsonl.gz)")
    return parser


def positions_of_ply(ply: int) -> dict[int, str]:
    """Every unfinished position ``ply`` moves deep by canonical key, as one move string reaching it.

    Parents are expanded in order and children numbered in the order they are first reached, so
    siblings (which share most of their subtrees in the solver's table) sit next to each other.
    """
    level = {Position.initial().canonical_key(): ""}
    for _ in range(ply):
        deeper: dict[int, str] = {}
        for moves in level.values():
            position = Position.from_moves(moves)
            for column, child in position.children():
                if not position.is_winning_move(column) and not child.is_full():
                    deeper.setdefault(child.canonical_key(), f"{moves}{column + 1}")
        level = deeper
    return level


def _solve(job: tuple[str, int]) -> Solved:
    moves, table_log2 = job
    started = time.perf_counter()
    result = worker_solver(table_log2).solve(moves)
    return Solved(moves, result.score, -1, result.nodes, round(time.perf_counter() - started, 4))


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    os.nice(10)  # the machine is shared with test runs
    build_library()  # compile once here, not racing in every worker
    wanted = positions_of_ply(args.ply)
    checkpoint = Checkpoint(args.checkpoint or opening_scores(args.ply))
    known = read_solved(BOOK_POSITIONS)
    for key in wanted.keys() & known.keys() - checkpoint.solved.keys():
        checkpoint.add(key, known[key])
    missing = [(moves, key) for key, moves in wanted.items() if key not in checkpoint.solved]
    deadline = time.monotonic() + 60 * args.budget_minutes if args.budget_minutes else float("inf")
    keys = {moves: key for moves, key in missing}
    bar = tqdm(total=len(wanted), initial=len(wanted) - len(missing), unit="position", dynamic_ncols=True)
    try:
        with multiprocessing.Pool(args.workers) as pool:
            jobs = ((moves, args.table_log2) for moves, _ in missing)
            for solved in pool.imap_unordered(_solve, jobs):
                checkpoint.add(keys[solved.moves], solved)
                bar.update()
                if time.monotonic() > deadline:
                    print(f"\ntime budget of {args.budget_minutes} min reached: rerun to continue", flush=True)
                    return 3
    finally:
        bar.close()
        checkpoint.close()
    print(f"ply {args.ply}: all {len(wanted)} positions solved", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
