"""Solve every 7x6 position of one ply exactly, for the analysis's opening table (``make opening-scores``).

The analysis answers the opening at once only if it already knows the exact score of every
position there: a column's value at ply ``n`` is the score of a position at ply ``n + 1``. This
solves every position of ``--ply`` with the C solver (6 by default: 8,231 positions once mirror
images and transpositions are folded; ply 7's 27,109 cost 14-17 CPU hours, see
``docs/opening-book.md``); the table builder derives every shallower score from them by negamax.
Positions are queued by their parent, so each parent's children finish together, and results
are appended to a committed checkpoint as they arrive: stop it at any time and rerun the same
command to continue. A position whose score is known already (the book's generation solved it,
or a deeper ply's checkpoint holds all its children) is recorded, not solved again, and every
other starts from the floor its parents' and children's known scores give it.
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
from book.opening_table import positions_by_ply, recorded_scores, with_derived_scores
from book.paths import BOOK_POSITIONS, opening_scores, opening_scores_by_ply
from connectx.agents.core.position import Position
from connectx.solver.build import build_library


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ply", type=int, default=6, help="the ply whose every position is solved (default 6)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--table-log2", type=int, default=26, help="C transposition table: 2^n entries, 5 B each")
    parser.add_argument("--budget-minutes", type=float, default=0.0, help="stop (resumably) after this long")
    parser.add_argument(
        "--checkpoint",
        type=Path,
        help="where results are appended (default: book/solved/opening_scores_ply<PLY>.jsonl.gz)",
    )
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


def known_scores() -> tuple[dict[int, Solved], dict[int, int]]:
    """Every record the book's generation and the other plies' runs hold, and every score known:
    those records' and the shallower positions' derived from them (``opening_table``'s negamax)."""
    checkpoints = opening_scores_by_ply()
    records = {
        key: record for path in (BOOK_POSITIONS, *checkpoints.values()) for key, record in read_solved(path).items()
    }
    scores = with_derived_scores(recorded_scores(records.values()), max(checkpoints, default=0))
    return records, scores


def floors(ply: int, scores: dict[int, int]) -> dict[int, int]:
    """For positions of ``ply``, the best score each is already known to reach.

    The side to move in a parent could have played into any of its children, so a child scores
    at least minus its parent's exact score; a position scores at least minus any child's. A
    floor only saves the solver work (one null-window test settles a position whose floor is exact).
    """
    parents, level = positions_by_ply(ply)[-2:]
    floor: dict[int, int] = {}
    for parent_key, parent in parents.items():
        if parent_key in scores:
            for column, child in parent.children():
                if not parent.is_winning_move(column):
                    key = child.canonical_key()
                    floor[key] = max(floor.get(key, -scores[parent_key]), -scores[parent_key])
    for key, position in level.items():
        for _, child in position.children():
            child_score = scores.get(child.canonical_key())
            if child_score is not None:
                floor[key] = max(floor.get(key, -child_score), -child_score)
    return floor


def _solve(job: tuple[str, int, int]) -> Solved:
    moves, floor, table_log2 = job
    started = time.perf_counter()
    result = worker_solver(table_log2).solve(moves, floor)
    return Solved(moves, result.score, -1, result.nodes, round(time.perf_counter() - started, 4))


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    os.nice(10)  # the machine is shared with test runs
    build_library()  # compile once here, not racing in every worker
    wanted = positions_of_ply(args.ply)
    try:
        records, scores = known_scores()
    except ValueError as error:
        print(f"book.opening_scores: {error}; nothing solved", file=sys.stderr)
        return 1
    checkpoint = Checkpoint(args.checkpoint or opening_scores(args.ply))
    for key in wanted.keys() & scores.keys() - checkpoint.solved.keys():  # known already: recorded as found
        checkpoint.add(key, records.get(key) or Solved(wanted[key], scores[key], -1, 0, 0.0))
    floor = floors(args.ply, scores)
    missing = [(moves, key) for key, moves in wanted.items() if key not in checkpoint.solved]
    deadline = time.monotonic() + 60 * args.budget_minutes if args.budget_minutes else float("inf")
    keys = {moves: key for moves, key in missing}
    bar = tqdm(total=len(wanted), initial=len(wanted) - len(missing), unit="position", dynamic_ncols=True)
    try:
        with multiprocessing.Pool(args.workers) as pool:
            jobs = ((moves, floor.get(key, -100), args.table_log2) for moves, key in missing)
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
