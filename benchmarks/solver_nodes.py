"""Mean nodes of the C solver over whole position files, against the reference C++ solver's, and the Python search's.

The C solver (``connectx/agents/data/solver.c``) counts its nodes over the whole file, each position from
an empty table as the reference does, and every score is checked; the target is mean nodes within
1.5x of the reference's. CPython cannot solve all of Test_L1_R2 (a million nodes a position on
average) within a session, so the pure-Python search (``connectx.agents.search.exact_search.solve``,
Pons' algorithm) is counted on the first ``--check`` positions of each file that the C solver
finishes within ``CHECK_MAX_NODES``: its nodes over the C solver's, which no longer match since the
C search added the enhanced transposition cut-off and the early close of a window near 0 to that
algorithm and searches its root move by move (they agreed within 5% before). Needs a C compiler.

Usage: .venv/bin/python -m benchmarks.solver_nodes [FILE ...] [--limit N] [--check 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from benchmarks.conditions import machine_conditions
from benchmarks.solver_positions import POSITIONS, REFERENCE_NODES, sample
from connectx.agents.core.position import Position
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.search.exact_search import solve
from connectx.solver.native import NativeSolver

CHECK_MAX_NODES = 500_000
"""Only positions the C solver finishes within this many nodes are solved in Python too (seconds each)."""
TABLE_LOG2 = 23
"""C table of 2^23 entries, about the reference solver's 8M."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", default=["Test_L1_R2", "Test_L1_R3"])
    parser.add_argument("--limit", type=int, help="positions per file, spread evenly (default: all)")
    parser.add_argument("--check", type=int, default=20, help="positions per file also solved in Python")
    args = parser.parse_args(argv)
    print(f"the C solver's node counts, fresh table per position; {machine_conditions()}", flush=True)
    rows, failed = [], False
    for name in args.files:
        lines = [
            line.split() for line in sample((POSITIONS / name).read_text().splitlines(), args.limit) if line.strip()
        ]
        nodes, ratios, wrong, started = [], [], 0, time.perf_counter()
        for moves, expected in lines:
            native = NativeSolver(TABLE_LOG2).solve(moves)
            nodes.append(native.nodes)
            wrong += native.score != int(expected)
            if len(ratios) < args.check and native.nodes <= CHECK_MAX_NODES:
                ours = solve(Position.from_moves(moves), TranspositionTable())
                assert ours is not None
                ratios.append(ours.nodes / max(1, native.nodes))
                if ours.score != native.score:
                    print(f"DIFFERENT SCORE {name} {moves}: Python {ours.score}, C {native.score}", flush=True)
                    failed = True
        failed = failed or wrong > 0
        reference = REFERENCE_NODES.get(name)
        mean = statistics.fmean(nodes)
        checked = f"{min(ratios):.4f}-{max(ratios):.4f} ({len(ratios)})" if ratios else "- (0)"  # --check 0
        rows.append(
            f"| {name} | {len(nodes)} | {mean:,.0f} | {statistics.median(nodes):,.0f} | "
            f"{f'{mean / reference:.2f}' if reference else '-'} | {checked} | {wrong} | "
            f"{time.perf_counter() - started:.0f} |"
        )
        print(rows[-1], flush=True)
    print(
        "\n| file | positions | mean nodes | median nodes | mean / reference | Python nodes / C nodes (positions) "
        "| wrong | seconds |"
    )
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
