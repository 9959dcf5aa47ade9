"""The exact solver of two checkouts over the same position files, interleaved in one run: nodes and nodes/s.

Each checkout's own ``benchmarks/solver_positions.py`` runs (with that checkout's virtualenv) on
one position file at a time, alternating before/after per file (before first in odd rounds, after
first in even ones) and repeating the whole round, so both see the same machine load. The table
gives each file's mean nodes (which must be identical when the search did not change) and nodes
per CPU second, averaged over the rounds, with the ratio::

    .venv/bin/python benchmarks/solver_before_after.py --before ../before --after . --rounds 2
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

LIMITS = {"Test_L3_R1": 100, "Test_L2_R1": 100, "Test_L2_R2": 30, "Test_L1_R1": 100, "Test_L1_R2": 6}
"""Positions per file, spread evenly over it: a few minutes per checkout and round (Test_L1_R3's
positions take minutes each, so it is left out)."""


def row(checkout: Path, file: str, limit: int, cap: float) -> tuple[float, float, int]:
    """``(mean nodes, nodes per CPU second, positions not solved within the cap)`` of one file."""
    completed = subprocess.run(
        [str(checkout / ".venv/bin/python"), "benchmarks/solver_positions.py", "--files", file, "--limit", str(limit),
         "--cap", str(cap)], cwd=checkout, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        raise SystemExit(f"{checkout}: {file} failed (exit {completed.returncode}):\n{completed.stdout[-2000:]}"
                         f"{completed.stderr[-2000:]}")
    line = next(text for text in completed.stdout.splitlines() if text.startswith(f"| {file} |"))
    cells = [cell.strip() for cell in line.strip("|").split("|")]
    return float(cells[8].replace(",", "")), float(cells[10].replace(",", "")), int(cells[11])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, required=True, help="the checkout to compare against")
    parser.add_argument("--after", type=Path, default=Path("."), help="the checkout measured (default: this one)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of before/after per file (default 2)")
    parser.add_argument("--cap", type=float, default=300.0, help="seconds before giving up on a position")
    args = parser.parse_args(argv)
    results: dict[tuple[str, str], list[tuple[float, float, int]]] = {}
    for round_ in range(args.rounds):
        for file, limit in LIMITS.items():
            order = (("before", args.before), ("after", args.after))
            for label, checkout in order if round_ % 2 == 0 else order[::-1]:  # who goes first alternates
                results.setdefault((file, label), []).append(row(checkout.resolve(), file, limit, args.cap))
                print(f"round {round_ + 1} {file} {label}: {results[(file, label)][-1]}", flush=True)
    print("\n| file | positions | mean nodes before | mean nodes after | nodes/s before | nodes/s after "
          "| after/before |")
    print("|---|---|---|---|---|---|---|")
    for file, limit in LIMITS.items():
        before, after = results[(file, "before")], results[(file, "after")]
        speed_before = sum(r[1] for r in before) / len(before)
        speed_after = sum(r[1] for r in after) / len(after)
        print(f"| {file} | {limit} | {before[0][0]:,.0f} | {after[0][0]:,.0f} | {speed_before:,.0f} | "
              f"{speed_after:,.0f} | {speed_after / speed_before:.3f} |")
    same = all(results[(f, "before")][0][0] == results[(f, "after")][0][0] for f in LIMITS)
    print("node counts identical" if same else "NODE COUNTS DIFFER")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
