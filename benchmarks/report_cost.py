"""The CPU time a report profile will take: sample games of every cell, times the games each cell plays.

For each cell of each experiment of the profile, plays the cell's first ``--samples`` games (its own
schedule: the same seeds and openings the report plays, seats alternating) one at a time in this
process, and records each game's CPU seconds. A cell's estimate is its games times the mean CPU
seconds of its sample games; the profile's is the sum. One core, one game at a time: run it at
``nice -n 19`` beside other work, since CPU seconds do not stretch with the load.

    .venv/bin/python -m benchmarks.report_cost --profile full --samples 2 --out out/bench/report_cost.jsonl

Resumable: cells already in ``--out`` are not played again, and the total is printed from all of them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from connectx.evaluation.game_in_process import play_game
from connectx.papers.experiments.catalogue import PROFILES, experiments
from connectx.papers.experiments.runner import cell_plan


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", choices=sorted(PROFILES), default="full")
    parser.add_argument("--samples", type=int, default=2, help="sample games per cell (default 2: one per seat)")
    parser.add_argument("--out", type=Path, default=Path("out/bench/report_cost.jsonl"))
    parser.add_argument("--only", action="append", default=[], metavar="KEY", help="only this experiment")
    args = parser.parse_args(argv)
    if args.samples < 1:
        print("report_cost: --samples must be 1 or more", file=sys.stderr)
        return 2
    profile = PROFILES[args.profile]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    done = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            done[(row["experiment"], row["cell"])] = row
    for experiment in experiments(profile):
        if args.only and experiment.key not in args.only:
            continue
        for cell in experiment.cells:
            key = (experiment.key, cell.slug)
            if key not in done:
                plan = cell_plan(profile, experiment, cell)
                seconds = []
                for index in range(min(args.samples, plan.games)):
                    record = play_game(plan.game_spec(index))
                    seconds.append(record.cpu_seconds)
                row = {
                    "experiment": experiment.key,
                    "cell": cell.slug,
                    "games": plan.games,
                    "sample_cpu": seconds,
                    "estimate_cpu": plan.games * sum(seconds) / len(seconds),
                }
                with args.out.open("a") as handle:
                    handle.write(json.dumps(row) + "\n")
                done[key] = row
            row = done[key]
            print(
                f"{experiment.key:16} {cell.slug[:70]:70} {row['games']:4} games x "
                f"{sum(row['sample_cpu']) / len(row['sample_cpu']):7.2f} s = {row['estimate_cpu'] / 3600:6.2f} h",
                flush=True,
            )
    by_experiment: dict[str, float] = {}
    for (key, _), row in done.items():
        by_experiment[key] = by_experiment.get(key, 0.0) + row["estimate_cpu"]
    for key, seconds in by_experiment.items():
        print(f"{key:16} {seconds / 3600:8.2f} CPU hours")
    print(f"{'total':16} {sum(by_experiment.values()) / 3600:8.2f} CPU hours")
    return 0


if __name__ == "__main__":
    sys.exit(main())
