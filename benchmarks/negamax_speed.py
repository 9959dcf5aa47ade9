"""Nodes per second of our negamax against kaggle's built-in negamax, same positions, same depth.

Both search depth 4 from the same positions in one run (the machine is shared, so only the ratio
is meaningful). Kaggle's nodes are counted by wrapping the module-level ``play`` its negamax calls
once per child, plus one for the root.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from benchmarks.random_positions import random_positions
from connectx.agents.core.kaggle_boundary import board_of, mark_of
from connectx.agents.players.negamax import NegamaxSearch
from connectx.evaluation.engine import kaggle_submodule


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    kaggle_connectx = kaggle_submodule("envs.connectx.connectx")
    structify = kaggle_submodule("utils").structify

    kaggle_nodes = 0
    original_play = kaggle_connectx.play

    def counted_play(*play_args):
        nonlocal kaggle_nodes
        kaggle_nodes += 1
        return original_play(*play_args)

    kaggle_connectx.play = counted_play
    config = structify({"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2})
    ours_nodes = ours_time = kaggle_time = 0.0
    positions = random_positions(args.positions, args.seed, lambda _, rng: rng.randint(2, 16))
    for position in positions:
        search = NegamaxSearch(4, random.Random(args.seed))
        start = time.perf_counter()
        search.best_move(position)
        ours_time += time.perf_counter() - start
        ours_nodes += search.nodes

        observation = structify({"board": board_of(position), "mark": mark_of(position)})
        kaggle_nodes += 1
        start = time.perf_counter()
        kaggle_connectx.negamax_agent(observation, config)
        kaggle_time += time.perf_counter() - start
    kaggle_connectx.play = original_play

    ours_rate, kaggle_rate = ours_nodes / ours_time, kaggle_nodes / kaggle_time
    print(
        f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
        f"{len(positions)} positions, depth 4"
    )
    print(f"{'agent':<16}{'nodes':>10}{'seconds':>10}{'nodes/s':>12}{'s/move':>9}")
    print(
        f"{'negamax (ours)':<16}{ours_nodes:>10.0f}{ours_time:>10.2f}{ours_rate:>12.0f}"
        f"{ours_time / len(positions):>9.3f}"
    )
    print(
        f"{'kaggle:negamax':<16}{kaggle_nodes:>10.0f}{kaggle_time:>10.2f}{kaggle_rate:>12.0f}"
        f"{kaggle_time / len(positions):>9.3f}"
    )
    print(f"ours is {ours_rate / kaggle_rate:.1f}x faster per node and {kaggle_time / ours_time:.1f}x faster per move")


if __name__ == "__main__":
    main()
