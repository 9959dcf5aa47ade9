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
from pathlib import Path

from agents.opening_book import decode_opening_book
from agents.position import Position
from book.check_solver import DEFAULT_FILES, DEFAULT_POSITIONS, check_file
from book.checkpoint import Checkpoint
from book.generate import BOOK_PATH, CHECKPOINT_PATH
from book.native import NativeSolver

SAMPLE_PATH = Path(__file__).resolve().parent / "book_sample.json"


def move_scores(solver: NativeSolver, moves: str) -> list[int | None]:
    """The exact score for the side to move of each column (None where the column is full)."""
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
            scores.append(-solver.solve(moves + str(column + 1)).score)
    return scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-ply", type=int, default=3, help="positions sampled at each ply")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    solver = NativeSolver(26)
    wrong = [line for name in DEFAULT_FILES for line in check_file(solver, DEFAULT_POSITIONS / name, 50)]
    if wrong:
        print("the C solver disagrees with the shared positions; no sample written:", *wrong, sep="\n", file=sys.stderr)
        return 1
    book = decode_opening_book(BOOK_PATH.read_bytes())
    in_book = {key for key, _ in book.entries()}
    by_ply: dict[int, list[str]] = {}
    for key, solved in Checkpoint(CHECKPOINT_PATH).solved.items():
        if key in in_book:
            by_ply.setdefault(len(solved.moves), []).append(solved.moves)
    rng = random.Random(args.seed)
    sample = []
    for ply in sorted(by_ply):
        # the two shallowest plies are costly to solve move by move, and known well already
        chosen = rng.sample(sorted(by_ply[ply]), min(args.per_ply, len(by_ply[ply]))) if ply >= 4 else []
        for moves in chosen:
            sample.append({"moves": moves, "move_scores": move_scores(solver, moves)})
            print(f"ply {ply}: {moves} {sample[-1]['move_scores']}", flush=True)
    SAMPLE_PATH.write_text(json.dumps(sample, indent=1) + "\n")
    print(f"wrote {len(sample)} positions to {SAMPLE_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
