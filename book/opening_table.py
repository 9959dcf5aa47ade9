"""Write the analysis's table of exact 7x6 opening scores: ``python -m book.opening_table`` (``make book``).

The table (``connectx/analysis/data/exact_scores_7x6.npz``, package data read by
``connectx.analysis.exact_scores``) gathers, under canonical keys:

* every position the opening book's generation solved (``solved/book_positions.jsonl.gz``);
* every position ``book.opening_scores`` solved (``solved/opening_scores_ply<N>.jsonl.gz``: every
  position of one ply), as far as its runs have got;
* every shallower position whose children are all known, by negamax: a position where the side
  to move wins at once scores ``(cells + 1 - moves) // 2`` (``solver.c``'s convention), any other
  the best of its children's negated scores. A solved record of such a position must agree.

The checkpoints stay in the repository (the generators resume from them); only the table ships.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from book.checkpoint import read_solved
from book.levels import Solved
from book.paths import BOOK_POSITIONS, OPENING_TABLE, opening_scores_by_ply
from connectx.agents.core.position import Position
from connectx.analysis.exact_scores import write_table

BOARD = (6, 7, 4)
"""rows, columns, inarow of the book and of the table."""
SOLVED_PLIES = opening_scores_by_ply()
"""The checkpoints of whole plies solved so far: positions shallower than the deepest are derived from
their children where the records do not hold them."""


def recorded_scores(records: Iterable[Solved]) -> dict[int, int]:
    """``{canonical_key: score}`` of solved records (7x6 move strings); ValueError if two disagree."""
    scores: dict[int, int] = {}
    for record in records:
        key = Position.from_moves(record.moves).canonical_key()
        if scores.setdefault(key, record.score) != record.score:
            raise ValueError(f"{record.moves!r} is recorded with two scores: {scores[key]} and {record.score}")
    return scores


def positions_by_ply(deepest: int) -> list[dict[int, Position]]:
    """Every unfinished 7x6 position of plies 0 to ``deepest`` by canonical key, one list entry a ply."""
    levels = [{Position.initial(*BOARD).canonical_key(): Position.initial(*BOARD)}]
    for _ in range(deepest):
        deeper: dict[int, Position] = {}
        for position in levels[-1].values():
            for column, child in position.children():
                if not position.is_winning_move(column) and not child.is_full():
                    deeper.setdefault(child.canonical_key(), child)
        levels.append(deeper)
    return levels


def derived_score(position: Position, known: dict[int, int]) -> int | None:
    """The exact score of ``position`` by negamax over its children's known scores; None if one is unknown."""
    if position.winning_columns():
        return (position.geometry.cells + 1 - position.moves) // 2
    best: int | None = None
    for _, child in position.children():
        if child.is_full():
            child_score: int | None = 0
        else:
            child_score = known.get(child.canonical_key())
        if child_score is None:
            return None
        best = -child_score if best is None else max(best, -child_score)
    return best


def with_derived_scores(known: dict[int, int], plies: int) -> dict[int, int]:
    """``known`` and every position shallower than ``plies`` whose score follows from its children's.

    Deepest first, so each ply's derived scores serve the ply above. ValueError where a recorded
    score contradicts its children's.
    """
    scores = dict(known)
    for level in reversed(positions_by_ply(plies - 1)):
        for key, position in level.items():
            score = derived_score(position, scores)
            if score is None:
                continue
            if scores.setdefault(key, score) != score:
                raise ValueError(f"{position!r} is recorded as {scores[key]}, but its children make it {score}")
    return scores


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "checkpoints",
        nargs="*",
        type=Path,
        default=[BOOK_POSITIONS, *SOLVED_PLIES.values()],
        help="gzip JSON-lines files of solved positions (default: the book's and every ply's "
        "of the opening; a missing one is skipped)",
    )
    parser.add_argument(
        "--derive-below",
        type=int,
        default=max(SOLVED_PLIES, default=5),
        metavar="PLY",
        help="derive the positions shallower than this from their children (default: the deepest ply solved)",
    )
    parser.add_argument("-o", "--out", type=Path, default=OPENING_TABLE, help="the table to write")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    records = [record for path in args.checkpoints for record in read_solved(path).values()]
    try:
        scores = with_derived_scores(recorded_scores(records), args.derive_below)
    except ValueError as error:
        print(f"book.opening_table: {error}; no table written", file=sys.stderr)
        return 1
    write_table(args.out, BOARD, scores)
    levels = positions_by_ply(args.derive_below)
    known = ", ".join(f"{sum(key in scores for key in level)}/{len(level)}" for level in levels)
    print(
        f"wrote {args.out}: {len(scores):,} positions, {args.out.stat().st_size:,} bytes; "
        f"known of plies 0-{args.derive_below}: {known}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
