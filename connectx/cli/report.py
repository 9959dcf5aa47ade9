"""Reproduce the seed papers' experiments (Sheoran et al. 2021, Kang, Wang & Hu 2019) and write a report.

Plays every experiment through the harness into OUT/<profile>/runs/ (one directory per match,
always resumed: run the same command again to continue an interrupted report; --resume also says so
when OUT holds no report to continue, a mistyped --out) and writes
OUT/<profile>/report.md with one PNG per figure: each result with its 95% interval beside the
paper's number, and a verdict. --quick is a smoke run of about 280 games (under 10 minutes on 2
cores); the full profile plays the paper-sized counts listed in connectx/papers/experiments/catalogue.py.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from connectx.cli.options import (
    INTERRUPTED,
    InputError,
    add_cluster_argument,
    add_code_change_argument,
    check_output_directory,
    games_executor,
    positive_int,
)
from connectx.evaluation.match import MatchResult
from connectx.evaluation.results_store import PLAN_FILE
from connectx.evaluation.scheduling import default_jobs
from connectx.papers.experiments.catalogue import FULL, QUICK, experiments
from connectx.papers.experiments.design import Cell, Experiment
from connectx.papers.experiments.runner import (
    cell_directory,
    check_experiments,
    chosen_experiments,
    play_experiments,
    run_conditions,
)
from connectx.papers.writing.markdown import write_report

NAME = "report"
HELP = "reproduce the seed papers' experiments and write a Markdown report with figures and intervals"
NEEDS = ("matplotlib",)
"""The report's figures are part of its answer, so it needs matplotlib."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="the smoke profile: a few games per point")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("reports"),
        help="parent directory; the report goes to OUT/quick or OUT/full (default reports/)",
    )
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=default_jobs(),
        help=f"worker processes playing games at once (default: the cores, {default_jobs()})",
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="KEY",
        help="run and report only this experiment (repeatable): " + ", ".join(e.key for e in experiments(QUICK)),
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the report in OUT, and say so if OUT holds none (without it, a report "
        "found there is continued too)",
    )
    add_cluster_argument(parser)
    add_code_change_argument(parser)


def run(args: argparse.Namespace) -> int:
    profile = QUICK if args.quick else FULL
    out = args.out / profile.name
    try:
        chosen = chosen_experiments(profile, args.only)
    except ValueError as error:
        raise InputError(f"--only: {error}") from None
    check_output_directory(out, "out")
    recorded = any((cell_directory(out, e, cell) / PLAN_FILE).is_file() for e in chosen for cell in e.cells)
    if args.resume and not recorded:
        raise InputError(
            f"--resume: {out} holds no report's games to continue; check --out and --quick, or leave "
            "out --resume to start the report there"
        )
    checked = check_experiments(profile, out, args.only, allow_code_change=args.allow_code_change)
    cells = sum(len(e.cells) for e in chosen)
    done = [0]

    def on_cell(experiment: Experiment, cell: Cell, match: MatchResult, seconds: float) -> None:
        done[0] += 1
        total = match.summary.total
        print(
            f"[{done[0]}/{cells}] {experiment.key}: {cell.first} vs {cell.second}: W-D-L "
            f"{total.wins}-{total.draws}-{total.losses} ({seconds:.0f} s)",
            flush=True,
        )

    started = time.perf_counter()
    try:
        with games_executor(args) as (executor, jobs):
            results = play_experiments(checked, jobs=jobs, executor=executor, on_cell=on_cell)
    except KeyboardInterrupt:
        print(
            f"\nconnectx report: interrupted; the finished games are under {out / 'runs'}. Run the same "
            "command again to continue.",
            file=sys.stderr,
        )
        return INTERRUPTED
    conditions = run_conditions() + [f"this invocation played up to {jobs} game{'s' if jobs != 1 else ''} at a time"]
    path = write_report(profile, results, out, conditions, time.perf_counter() - started)
    print(f"report in {path}")
    return 0
