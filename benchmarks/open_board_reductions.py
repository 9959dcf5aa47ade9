"""What late-move reductions save the solver's search on boards without a book: nodes to a depth.

``connectx.agents.search.principal_variation`` searches late moves of a node a ply shallower first
(``REDUCED_FROM``, ``REDUCTION``). This script searches middlegame positions of 8x7/4 and 9x7/4
(8 to 16 random moves from the empty board, ``random_positions``, kept when the mover has at
least two safe moves) to ``--depth`` with and without the reductions, each from an empty table, and
prints per board the nodes and seconds of both, their ratios, and how often the two searches
chose the same move where neither proved a result. The nodes are exact; the seconds are one run
on a shared machine, so read their ratio, not their value.

Usage: .venv/bin/python -m benchmarks.open_board_reductions [--depth 12] [--positions 12] [--seed 5]
"""

from __future__ import annotations

import argparse
import time

from benchmarks.conditions import machine_conditions
from benchmarks.random_positions import random_positions
from connectx.agents.core.position import Position
from connectx.agents.core.search_result import SearchResult
from connectx.agents.search.principal_variation import PROVEN, VariationTable, deepening

BOARDS = ((7, 8, 4), (7, 9, 4))
"""Rows, columns, in a row: 8x7/4 and 9x7/4, boards without an opening book (``other_boards``')."""


def search(position: Position, depth: int, reductions: bool) -> tuple[int, float, SearchResult]:
    """Nodes and seconds to complete ``depth`` (or a proof before it), and the last result."""
    started, nodes = time.perf_counter(), 0
    last: SearchResult | None = None
    for last in deepening(position, VariationTable(), reductions=reductions):
        nodes += last.nodes
        if last.depth >= depth:
            break
    assert last is not None
    return nodes, time.perf_counter() - started, last


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=12, help="depth to complete (default 12)")
    parser.add_argument("--positions", type=int, default=12, help="positions per board (default 12)")
    parser.add_argument("--seed", type=int, default=5, help="seed of the random positions (default 5)")
    args = parser.parse_args(argv)
    print(f"late-move reductions, nodes to depth {args.depth}; {machine_conditions()}", flush=True)
    for rows, columns, inarow in BOARDS:
        totals = {True: [0, 0.0], False: [0, 0.0]}
        same = unproven = 0
        # a surplus of positions, since those with a single safe move have nothing to search
        candidates = random_positions(
            4 * args.positions, args.seed, lambda _, rng: rng.randrange(8, 17), (rows, columns, inarow)
        )
        for position in [p for p in candidates if len(p.non_losing_columns()) > 1][: args.positions]:
            results = {}
            for reductions in (False, True):
                nodes, seconds, results[reductions] = search(position, args.depth, reductions)
                totals[reductions][0] += nodes
                totals[reductions][1] += seconds
            if all(abs(result.score) < PROVEN for result in results.values()):
                unproven += 1
                same += results[True].column == results[False].column
        (full_nodes, full_seconds), (reduced_nodes, reduced_seconds) = totals[False], totals[True]
        print(
            f"{columns}x{rows}/{inarow}, {args.positions} positions: nodes {reduced_nodes:,} reduced against "
            f"{full_nodes:,} ({reduced_nodes / full_nodes:.2f}x), seconds {reduced_seconds:.1f} against "
            f"{full_seconds:.1f} ({reduced_seconds / full_seconds:.2f}x); the same move in {same} of the "
            f"{unproven} unproven",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
