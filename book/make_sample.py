"""Write ``book/book_sample.json``: exact scores of every move in a sample of book positions.

The tests cannot run the C solver (they must not need a compiler), so this records what it
says about a few dozen book positions, chosen at every ply the book covers. The C solver is
checked against the shared positions first, and the file is refused if it disagrees with them.
Run ``python3 -m book.make_sample`` after generating the book.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from book.check_solver import DEFAULT_FILES, check_file
from book.checkpoint import read_solved
from book.levels import Solved
from book.paths import BOOK_FILE, BOOK_POSITIONS, BOOK_SAMPLE, POSITIONS
from connectx.agents.core.position import Position
from connectx.agents.players.opening_book import decode_opening_book
from connectx.solver.native import NativeSolver


def move_scores(solver: NativeSolver, moves: str, known: dict[int, Solved]) -> list[int | None]:
    """The exact score for the side to move of each column (None where the column is full).

    A child already solved by the generator (a position of the other side's book) is read from
    the checkpoint; any other child is solved here.
    """
    position = Position.from_moves(moves)
    scores: list[int | None] = []
    for column in range(position.geometry.columns):
        if not position.can_play(column):
            scores.append(None)
        elif position.is_winning_move(column):
            scores.append((position.geometry.cells + 1 - position.moves) // 2)
        elif position.moves + 1 == position.geometry.cells:
            scores.append(0)
        else:
            child = known.get(position.play(column).canonical_key())
            scores.append(-(child.score if child else solver.solve(moves + str(column + 1)).score))
    return scores


def children_known(moves: str, known: dict[int, Solved]) -> bool:
    """Whether every child that is not an immediate win is already solved in the checkpoint."""
    position = Position.from_moves(moves)
    return all(
        position.is_winning_move(column) or position.play(column).canonical_key() in known
        for column in position.legal_columns()
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-ply", type=int, default=3, help="positions sampled at each ply")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--solve-from-ply", type=int, default=7, help="shallower samples need solved children")
    args = parser.parse_args(argv)
    solver = NativeSolver(26)
    wrong = [line for name in DEFAULT_FILES for line in check_file(solver, POSITIONS / name, 20)]
    if wrong:
        print("the C solver disagrees with the shared positions; no sample written:", *wrong, sep="\n", file=sys.stderr)
        return 1
    book = decode_opening_book(BOOK_FILE.read_bytes())
    in_book = {key for key, _ in book.entries()}
    known = read_solved(BOOK_POSITIONS)
    by_ply: dict[int, list[str]] = {}
    for key, solved in known.items():
        if key in in_book:
            by_ply.setdefault(len(solved.moves), []).append(solved.moves)
    rng = random.Random(args.seed)
    sample = []
    for ply in sorted(by_ply):
        candidates = sorted(by_ply[ply])
        if ply < args.solve_from_ply:
            # shallow positions are costly to solve move by move: take those the checkpoint answers
            candidates = [moves for moves in candidates if children_known(moves, known)]
        for moves in rng.sample(candidates, min(args.per_ply, len(candidates))):
            sample.append({"moves": moves, "move_scores": move_scores(solver, moves, known)})
            print(f"ply {ply}: {moves} {sample[-1]['move_scores']}", flush=True)
    BOOK_SAMPLE.write_text(json.dumps(sample, indent=1) + "\n")
    print(f"wrote {len(sample)} positions to {BOOK_SAMPLE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
