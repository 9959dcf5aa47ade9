"""Games per minute of the same match on a local pool of 2 jobs and on a local Dask cluster of 2 workers.

Both play one match, ``negamax`` (depth-capped, so a game depends on its seed only) against
``kaggle:negamax``, into run directories of their own. The machine is shared and its load drifts,
so the match is played in rounds that alternate between the two, each round resuming both runs
with more games; the rates add up the rounds' wall time. Start-up (the pool's fork server and
workers, the cluster's scheduler and workers, one import of kaggle-environments per worker) is
timed apart and left out of the rates. Both runs must come out game for game the same.

Then the worker-kill check: the same match again on the cluster, one worker killed (SIGKILL)
while it holds games; every game must be stored exactly once, the same as the local run's.

    .venv/bin/python benchmarks/cluster_throughput.py [--games 400] [--rounds 4] [--kill-games 40]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import tempfile
import time
from collections import Counter
from concurrent.futures import Executor, wait
from pathlib import Path

from conditions import machine_conditions

from evaluation.cluster import ClusterExecutor, open_cluster
from evaluation.engine import kaggle_environments
from evaluation.game import GameRecord
from evaluation.match import MatchResult, MatchSummary, run_match
from evaluation.scheduling import worker_pool

FIRST, SECOND, SEED, JOBS = "negamax", "kaggle:negamax", 2026, 2


def outcome(record: GameRecord) -> tuple[object, ...]:
    return record.index, record.seed, record.moves, record.winner, record.statuses, record.cause


def play_round(executor: Executor, games: int, out: Path) -> tuple[MatchResult, float]:
    started = time.perf_counter()
    result = run_match(FIRST, SECOND, games, seed=SEED, jobs=JOBS, executor=executor, out=out, resume=True)
    return result, time.perf_counter() - started


def kill_check(cluster: ClusterExecutor, games: int, out: Path, reference: dict[int, tuple[object, ...]]) -> str:
    """Play ``games`` on the cluster, kill a busy worker after a quarter of them, and count what was stored."""
    pids = cluster.client.run(os.getpid)
    killed: list[int] = []

    def kill_a_busy_worker(record: GameRecord, summary: MatchSummary) -> None:
        busy = [worker for worker, keys in cluster.client.processing().items() if keys and worker in pids]
        if not killed and summary.total.games >= games // 4 and busy:
            killed.append(pids[busy[0]])
            os.kill(killed[0], signal.SIGKILL)

    result = run_match(FIRST, SECOND, games, seed=SEED, jobs=JOBS, executor=cluster, out=out,
                       on_game=kill_a_busy_worker)
    lines = (out / "games.jsonl").read_text().splitlines()
    counts = Counter(json.loads(line)["index"] for line in lines)
    duplicates = sum(count - 1 for count in counts.values())
    same = sum(outcome(record) == reference.get(record.index) for record in result.records)
    return (f"worker kill: {'killed worker pid ' + str(killed[0]) if killed else 'NO worker killed'} after "
            f"{games // 4} games; games played {len(result.records)} of {games}, games stored {len(lines)}, "
            f"distinct {len(counts)}, duplicates {duplicates}, missing {games - len(counts)}; "
            f"{same} of {len(result.records)} the same as the local run's")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games of the match (default 400)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds alternating local and cluster (default 4)")
    parser.add_argument("--kill-games", type=int, default=40, help="games of the worker-kill check (default 40)")
    args = parser.parse_args()
    kaggle_environments()
    print(f"{FIRST} vs {SECOND}, {args.games} games, seed {SEED}, in {args.rounds} alternating rounds; "
          f"{machine_conditions()}", flush=True)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cluster-throughput-") as scratch, \
            open_cluster(f"local:{JOBS}") as cluster:
        cluster.client.run(kaggle_environments)
        cluster_start = time.perf_counter() - started
        started = time.perf_counter()
        pool = worker_pool(JOBS)
        wait([pool.submit(time.sleep, 0.5) for _ in range(JOBS)])
        pool_start = time.perf_counter() - started
        runs = {"local pool, --jobs 2": (pool, Path(scratch, "local")),
                "Dask local:2": (cluster, Path(scratch, "cluster"))}
        walls = dict.fromkeys(runs, 0.0)
        results: dict[str, MatchResult] = {}
        print("| round | games | runs on | wall s | games/min | load avg (1 min) |\n|---:|---:|---|---:|---:|---:|")
        for number in range(1, args.rounds + 1):
            games = args.games * number // args.rounds
            order = list(runs) if number % 2 else list(reversed(runs))
            for name in order:
                executor, out = runs[name]
                before = len(results[name].records) if name in results else 0
                results[name], wall = play_round(executor, games, out)
                walls[name] += wall
                print(f"| {number} | {games - before} | {name} | {wall:.1f} | {60 * (games - before) / wall:.1f} | "
                      f"{os.getloadavg()[0]:.2f} |", flush=True)
        pool.shutdown(wait=True)
        rates = {name: 60 * args.games / wall for name, wall in walls.items()}
        local, dask = rates.values()
        print(f"\nstart-up, not in the rates: pool {pool_start:.1f} s, cluster {cluster_start:.1f} s")
        for name, rate in rates.items():
            print(f"{name}: {args.games} games in {walls[name]:.1f} s = {rate:.1f} games/min")
        print(f"cluster / local: {dask / local:.3f} ({100 * (dask / local - 1):+.1f}%)")
        local_games, cluster_games = (results[name].records for name in runs)
        same = sum(outcome(a) == outcome(b) for a, b in zip(local_games, cluster_games, strict=True))
        print(f"game for game: {same} of {len(local_games)} the same", flush=True)
        reference = {record.index: outcome(record) for record in local_games}
        print(kill_check(cluster, min(args.kill_games, args.games), Path(scratch, "kill"), reference), flush=True)
    print(f"done; {machine_conditions()}")


if __name__ == "__main__":
    main()
