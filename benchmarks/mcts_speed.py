"""How many simulations ``mcts`` runs per second on 7x6, and how closely it keeps its budget.

Positions are taken every few plies from seeded random games (the search cost depends on how
much board is left to roll out). On each, a fresh tree searches for ``--budget`` seconds; the
figures are simulations per second by game stage and the overshoot of the budget.

Usage: .venv/bin/python -m benchmarks.mcts_speed [--positions 24] [--budget 1.0]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from benchmarks.conditions import machine_conditions
from benchmarks.random_positions import random_positions
from connectx.agents.core.search_time import Deadline
from connectx.agents.players.mcts import MctsStrategy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=24, help="positions to search (default 24)")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds per search (default 1.0)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    print(f"mcts speed on 7x6: {args.positions} positions, {args.budget:.2f} s each; {machine_conditions()}")
    by_stage: dict[int, list[float]] = {}
    overshoots = []
    for index, position in enumerate(random_positions(args.positions, args.seed, lambda index, _: 4 * (index % 8))):
        strategy = MctsStrategy(time_budget=args.budget, seed=args.seed + index)
        deadline = Deadline.after(args.budget + 1.0)
        tree = strategy.search(position, deadline)
        elapsed = time.perf_counter() - deadline.started_at
        if tree.root.proven is None:
            overshoots.append(elapsed - args.budget)
        by_stage.setdefault(position.moves, []).append(tree.simulations / elapsed)
    for moves, rates in sorted(by_stage.items()):
        print(f"  after {moves:2d} plies: {statistics.mean(rates):7.0f} simulations/s ({len(rates)} positions)")
    every = [rate for rates in by_stage.values() for rate in rates]
    print(
        f"  all positions: mean {statistics.mean(every):.0f} simulations/s, min {min(every):.0f}, max {max(every):.0f}"
    )
    print(
        f"  budget overshoot over {len(overshoots)} searches that used the budget (the rest proved the game): "
        f"mean {statistics.mean(overshoots) * 1000:.1f} ms, max {max(overshoots) * 1000:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
