"""Games per minute of the harness with 1 and 2 worker processes, on two workloads, against raw kaggle-environments.

``random`` vs ``kaggle:random`` measures the harness itself (handing the game to the watched game
process, building the environment, recording): the agents cost nothing. ``negamax`` vs
``kaggle:negamax`` is a real match where the agents' thinking dominates. Each workload is also
played raw, ``env.run`` in a loop in this process (``engine.run_game``: no watchdog, no record),
and each harness rate is printed as a share of that rate times its jobs: the harness's cost per
core. Raw and harness take turns in blocks (``--rounds``), so a change in the machine's load
falls on both. The pool's start-up (a fork server and one import of kaggle-environments per
worker) is timed separately and left out of the rates. The machine is shared, so the load average is
printed with each figure; compare the rates of one run, not figures from different runs. The
CPU seconds of each game barely depend on the load: 60 over their mean is roughly the rate of
one idle core (the parent's bookkeeping is not in it).

    .venv/bin/python -m benchmarks.harness_throughput [--games N] [--jobs 1 2] [--rounds 4]
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import time
from concurrent.futures import wait

from connectx.evaluation.engine import BoardConfig, kaggle_environments, run_game
from connectx.evaluation.match import run_match
from connectx.evaluation.scheduling import worker_pool

WORKLOADS = (("random", "kaggle:random"), ("negamax", "kaggle:negamax"))


def warm_pool(jobs: int):
    """A pool whose workers have all started and imported kaggle-environments, and how long that took."""
    started = time.perf_counter()
    pool = worker_pool(jobs)
    wait([pool.submit(time.sleep, 0.5) for _ in range(jobs)])
    return pool, time.perf_counter() - started


def raw_block(first: str, second: str, games: int, offset: int) -> float:
    """Seconds for ``games`` games of ``env.run`` in a loop in this process, seats alternating as a match's do."""
    started = time.perf_counter()
    for index, seats in zip(range(offset, offset + games), itertools.cycle([(first, second), (second, first)]),
                            strict=False):
        run_game(seats, BoardConfig(), seed=index)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per workload and job count (default 40)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="job counts to compare (default 1 2)")
    parser.add_argument("--rounds", type=int, default=4,
                        help="raw and harness take turns in this many blocks, so both see the same load (default 4)")
    args = parser.parse_args()
    kaggle_environments()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; {args.games} games per row, in {args.rounds} alternating blocks")
    print("| workload | jobs | pool start s | games | wall s | games/min | raw games/min (same blocks) "
          "| share of raw per core | CPU s/game | load avg (1 min) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    block = max(2, args.games // args.rounds // 2 * 2)  # whole colour-swapped pairs
    for first, second in WORKLOADS:
        for jobs in args.jobs:
            pool, start_up = warm_pool(jobs)
            harness = raw = 0.0
            records = []
            for number in range(args.rounds):
                raw += raw_block(first, second, block, number * block)
                started = time.perf_counter()
                records += run_match(first, second, block, executor=pool, jobs=jobs, seed=number).records
                harness += time.perf_counter() - started
            pool.shutdown(wait=True)
            games = len(records)
            rate, raw_rate = 60 * games / harness, 60 * games / raw
            print(f"| {first} vs {second} | {jobs} | {start_up:.1f} | {games} | {harness:.1f} | {rate:.1f} | "
                  f"{raw_rate:.1f} | {100 * rate / (jobs * raw_rate):.0f}% | "
                  f"{sum(r.cpu_seconds for r in records) / games:.3f} | {os.getloadavg()[0]:.1f} |", flush=True)


if __name__ == "__main__":
    main()
