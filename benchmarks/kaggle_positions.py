"""The built submission on the shared position files as Kaggle asks it: does each move keep the value?

For each position (the first ``--limit`` lines of each file: moves, then the exact score for the
side to move) the submission file is loaded afresh by Kaggle's own loader, in the isolated process
``connectx validate`` uses, the position is stepped into kaggle-environments with a full 60 s bank,
and the file is asked for its move on Kaggle's clock (``actTimeout`` plus what the bank allows;
a move past that is stopped there and counted as a TIMEOUT). The move keeps the game-theoretic
value when the position after it, solved exactly by the C solver here, has the opposite sign of
the file's score (a win stays a win, a draw a draw; every move of a lost position keeps it).

``--core binary|source|python`` forces the submission's core (``CONNECTX_CORE``; default: what
loads); ``--submission FILE`` asks a file built elsewhere (at another revision, say) instead.
``--results FILE`` keeps each position as a JSON line and skips those already there, so a run can
be stopped and resumed. Prints, per file: kept, the slowest move, the moves that drew on
the bank and the most one drew, and the timeouts; exit status 1 if any move gave the value away.

Usage: python -m benchmarks.kaggle_positions [--files Test_L1_R1 ...] [--limit 200] [--core python]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

from benchmarks.conditions import machine_conditions
from connectx.agents.core.position import Position
from connectx.agents.search.compiled_solver import CORE_MARK
from connectx.solver.native import NativeSolver
from connectx.submission.bundler import build_bundle
from connectx.submission.validator import run_isolated

POSITIONS = Path(__file__).resolve().parents[1] / "positions"
FILES = ("Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
CHUNK = 20
"""Positions per isolated process: a resumed run loses at most this many."""
ACT_TIMEOUT = 2.0


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def measure(path: Path, lines: list[str], solver: NativeSolver) -> list[dict[str, object]]:
    """One record per position of ``lines``: the file's move, its time and status, and whether it kept the value."""
    openings = [[int(digit) - 1 for digit in line.split()[0]] for line in lines]
    result = run_isolated(path, {"episodes": [], "configuration": {"actTimeout": ACT_TIMEOUT}, "positions": openings})
    records = []
    for line, answer in zip(lines, result.get("positions", []), strict=True):
        moves, expected = line.split()
        column = answer["column"]
        kept = False
        if answer["status"] not in ("ERROR", "INVALID", "TIMEOUT") and column is not None:
            after = Position.from_moves(moves).play(int(column))
            child = -solver.solve(moves + str(int(column) + 1)).score if not after.is_over() else abs(int(expected))
            kept = sign(child) == sign(int(expected))
        core = next((line for line in str(answer.get("stderr", "")).splitlines() if line.startswith(CORE_MARK)), "")
        records.append(
            {
                "moves": moves,
                "expected": int(expected),
                "column": column,
                "status": answer["status"],
                "seconds": answer["seconds"],
                "kept": kept,
                "core": core,
            }
        )
    return records


def report(name: str, records: list[dict[str, object]]) -> str:
    seconds = [float(record["seconds"] or 0.0) for record in records]
    drew = [value - ACT_TIMEOUT for value in seconds if value > ACT_TIMEOUT]
    kept = sum(bool(record["kept"]) for record in records)
    timeouts = sum(record["status"] == "TIMEOUT" for record in records)
    return (
        f"{name}: kept the value in {kept} of {len(records)}; slowest move {max(seconds, default=0):.2f} s; "
        f"{len(drew)} drew on the bank (most {max(drew, default=0):.2f} s); {timeouts} timeouts"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.kaggle_positions",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--files", nargs="+", default=list(FILES), choices=sorted(path.name for path in POSITIONS.glob("Test_*"))
    )
    parser.add_argument("--limit", type=int, default=200, help="the first N positions of each file (default 200)")
    parser.add_argument("--agent", default="solver", help="the registry agent to build (default solver)")
    parser.add_argument(
        "--submission",
        type=Path,
        help="ask this submission file instead of building --agent (say, one built at another revision, to compare)",
    )
    parser.add_argument("--core", choices=("binary", "source", "python"), help="force the submission's core")
    parser.add_argument("--results", type=Path, help="a JSON-lines file to keep and resume the positions in")
    args = parser.parse_args(argv)
    if args.core is not None:
        os.environ["CONNECTX_CORE"] = "" if args.core == "binary" else args.core
    done: dict[str, dict[str, object]] = {}
    if args.results is not None and args.results.exists():
        for line in args.results.read_text().splitlines():
            record = json.loads(line)
            done[f"{record['file']} {record['moves']}"] = record
    print(machine_conditions())
    solver = NativeSolver()
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "submission.py"
        if args.submission is not None:
            path.write_bytes(args.submission.read_bytes())
        else:
            path.write_text(build_bundle(args.agent).source)
        for name in args.files:
            lines = (POSITIONS / name).read_text().splitlines()[: args.limit]
            todo = [line for line in lines if f"{name} {line.split()[0]}" not in done]
            for start in range(0, len(todo), CHUNK):
                for record in measure(path, todo[start : start + CHUNK], solver):
                    record["file"] = name
                    done[f"{name} {record['moves']}"] = record
                    if args.results is not None:
                        args.results.parent.mkdir(parents=True, exist_ok=True)
                        with args.results.open("a") as handle:
                            handle.write(json.dumps(record) + "\n")
                print(f"  {name}: {min(start + CHUNK, len(todo))} of {len(todo)} asked", file=sys.stderr)
            records = [done[f"{name} {line.split()[0]}"] for line in lines]
            failed |= any(not record["kept"] for record in records)
            print(report(name, records))
            kinds = Counter(
                str(record["core"]).removeprefix(CORE_MARK).strip().split(",")[0]
                for record in records
                if record["core"]
            )
            searched = ", ".join(f"{kind} {count}" for kind, count in kinds.items()) or "none"
            print(
                f"  the core that searched: {searched}; the other {len(records) - sum(kinds.values())} said none "
                "(the book and the shipped scores answered, or the file has no compiled solver)"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
