"""How fast ``minimax`` searches on 7x6, and what the memoised window table saves.

The positions are every position of seeded self-play games (random two-ply openings, then
minimax against itself). On each, the same search runs with the memo (incremental window table
plus evaluation cache) and without it (every window recounted at every horizon node), so the
ratios compare identical trees: the node counts must match, only the work per node differs.
The two runs on a position follow each other, so a change in the machine's load hits both.

Usage: .venv/bin/python -m benchmarks.minimax_speed [--games 20] [--depth 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass

from benchmarks.conditions import machine_conditions
from connectx.agents.core.position import Position
from connectx.agents.core.search_time import Deadline
from connectx.agents.players.minimax import MinimaxSearch, MinimaxStrategy, adaptive_depth


@dataclass(frozen=True)
class Measurement:
    position: Position
    depth: int
    nodes: int
    evaluations: int
    seconds: float


def self_play_positions(games: int, seed: int) -> list[Position]:
    """Every non-final position of ``games`` seeded minimax self-play games on 7x6."""
    rng = random.Random(seed)
    positions = []
    for game in range(games):
        players = [MinimaxStrategy(seed=seed + 2 * game), MinimaxStrategy(seed=seed + 2 * game + 1)]
        position = Position.initial()
        for _ in range(2):
            position = position.play(rng.choice(position.legal_columns()))
        while not position.is_over():
            positions.append(position)
            column = players[position.moves % 2].choose(position, Deadline.after(60))
            position = position.play(column)
    return positions


def measure(position: Position, depth: int, memo: bool) -> Measurement:
    search = MinimaxSearch(position, memo=memo)
    started = time.perf_counter()
    search.deepen(depth)
    return Measurement(position, depth, search.nodes, search.evaluations, time.perf_counter() - started)


def summarise(label: str, runs: list[Measurement]) -> None:
    slowest = max(runs, key=lambda run: run.seconds)
    print(
        f"  {label:<22} nodes/move mean {statistics.mean(r.nodes for r in runs):8.0f}  "
        f"max {max(r.nodes for r in runs):6d}  evaluations/move {statistics.mean(r.evaluations for r in runs):7.0f}  "
        f"time/move mean {statistics.mean(r.seconds for r in runs) * 1000:6.1f} ms  "
        f"p99 {sorted(r.seconds for r in runs)[int(0.99 * (len(runs) - 1))] * 1000:6.1f} ms  "
        f"slowest {slowest.seconds * 1000:6.1f} ms (move {slowest.position.moves + 1}, depth {slowest.depth})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="self-play games to take positions from (default 20)")
    parser.add_argument(
        "--depth", type=int, default=5, help="the fixed depth measured besides the 4/5 rule (default 5)"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    positions = self_play_positions(args.games, args.seed)
    print(f"minimax speed on 7x6: {len(positions)} positions from {args.games} self-play games; {machine_conditions()}")
    for label, depth_of in ((f"depth {args.depth}", lambda p: args.depth), ("adaptive 4/5", adaptive_depth)):
        pairs = [(measure(p, depth_of(p), memo=True), measure(p, depth_of(p), memo=False)) for p in positions]
        memoised, recounted = [on for on, _ in pairs], [off for _, off in pairs]
        if any(a.nodes != b.nodes for a, b in zip(memoised, recounted, strict=True)):
            print("  node counts differ with and without the memo: the two searches are not the same tree")
            return 1
        print(f"{label}:")
        summarise("memo on", memoised)
        summarise("memo off (recount)", recounted)
        time_ratio = sum(r.seconds for r in recounted) / sum(r.seconds for r in memoised)
        eval_ratio = sum(r.evaluations for r in recounted) / sum(r.evaluations for r in memoised)
        print(
            f"  memo saves: total time x{time_ratio:.2f} (off/on, same run, same positions), "
            f"evaluations computed x{eval_ratio:.2f}, nodes x1.00 (identical trees)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
