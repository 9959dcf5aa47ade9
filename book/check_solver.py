"""Check the C solver against the shared scored positions: ``python3 -m book.check_solver``.

Every line of ``positions/*`` is a move string and the exact score for the side to move.
The book is only as right as its solver, so any disagreement fails the check with the lines
that differ.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from book.paths import POSITIONS
from connectx.solver.native import NativeSolver

DEFAULT_FILES = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", default=DEFAULT_FILES, help="position files (names or paths)")
    parser.add_argument("--positions", type=Path, default=POSITIONS, help="folder of the named files")
    parser.add_argument("--lines", type=int, default=200, help="first N lines of each file")
    return parser


def check_file(solver: NativeSolver, path: Path, lines: int) -> list[str]:
    """Solve the first ``lines`` positions of ``path``, print the effort, return the wrong lines."""
    wrong = []
    nodes = []
    seconds = []
    for line in path.read_text().splitlines()[:lines]:
        moves, expected = line.split()
        started = time.perf_counter()
        result = solver.solve(moves)
        seconds.append(time.perf_counter() - started)
        nodes.append(result.nodes)
        if result.score != int(expected):
            wrong.append(f"{path.name}: {moves} expected {expected}, solver says {result.score}")
    count = len(nodes)
    print(
        f"{path.name:12} {count:4} positions  {len(wrong)} wrong  mean {sum(nodes) / count:12,.0f} nodes  "
        f"max {max(nodes):13,} nodes  mean {1000 * sum(seconds) / count:8.2f} ms  max {1000 * max(seconds):8.1f} ms"
    )
    return wrong


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    paths = [Path(name) if Path(name).exists() else args.positions / name for name in args.files]
    missing = [str(path) for path in paths if not path.exists()]
    if missing:
        print(f"missing position files: {', '.join(missing)} (pass --positions DIR)", file=sys.stderr)
        return 2
    solver = NativeSolver(24)
    wrong = [line for path in paths for line in check_file(solver, path, args.lines)]
    for line in wrong:
        print("WRONG", line, file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
