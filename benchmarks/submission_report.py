"""Build and validate every registered agent: file size, load time, first-move and slowest-move time.

Each agent is built with its defaults into ``out/submissions/<name>.py`` and fully validated
(five games in kaggle-environments at ``actTimeout``). Agents on a clock use most of each move,
so a full run takes a few minutes per such agent; ``--act-timeout 0.5`` shortens it.

Usage: .venv/bin/python -m benchmarks.submission_report [--agents negamax mcts] [--act-timeout 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from benchmarks.conditions import machine_conditions
from connectx.agents.registry import REGISTRY
from connectx.submission.bundler import build_bundle
from connectx.submission.module_graph import BuildError
from connectx.submission.validator import validate_file

OUTPUT_DIR = Path("out/submissions")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", nargs="+", default=sorted(REGISTRY), help="registry specs (default: all)")
    parser.add_argument("--act-timeout", type=float, default=2.0, help="Kaggle's actTimeout (default 2)")
    parser.add_argument(
        "--overage-reserve",
        type=float,
        default=None,
        metavar="SECONDS",
        help="let later moves draw on the overage bank down to this (as connectx validate)",
    )
    args = parser.parse_args(argv)
    print(f"submission report, actTimeout {args.act_timeout:g} s; {machine_conditions()}")
    print(f"{'agent':<12}{'bytes':>10}  {'data':<24}{'load s':>8}{'first s':>9}{'slowest s':>11}{'wall s':>8}  verdict")
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    failed = 0
    for spec in args.agents:
        try:
            bundle = build_bundle(spec)
        except BuildError as error:
            failed += 1
            print(f"{spec:<12}cannot be built: {error}", flush=True)
            continue
        path = OUTPUT_DIR / f"{spec.partition(':')[0]}.py"
        path.write_text(bundle.source, encoding="utf-8")
        started = time.perf_counter()
        report = validate_file(path, act_timeout=args.act_timeout, overage_reserve=args.overage_reserve)
        wall = time.perf_counter() - started
        data = ", ".join(bundle.data_files) or "-"
        figures = [report.load_seconds, report.first_move_seconds, report.slowest_move_seconds]
        load, first, slowest = (f"{value:.3f}" if value is not None else "-" for value in figures)
        verdict = "valid" if report.passed else "INVALID: " + "; ".join(c.name for c in report.failures())
        failed += not report.passed
        print(
            f"{spec:<12}{report.size_bytes:>10,}  {data:<24}{load:>8}{first:>9}{slowest:>11}{wall:>8.0f}  {verdict}",
            flush=True,
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
