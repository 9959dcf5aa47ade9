"""``connectx solve`` with the compiled engine against the pure-Python one: the same positions, in one run.

Both solve the first ``--count`` positions of a benchmark file (``Test_L2_R2`` by default) with no
time limit and no cache (``--no-cache`` also leaves out the shipped exact scores), as people run
the command; every printed score must equal the file's. The machine is shared, so only the
ratio of the two times means much; the target is the compiled engine at least 15 times faster.

It also prints the compiled run against the reference: Pascal Pons' ``c4solver`` (not vendored
here) takes 0.90-1.0 s for the same 200 positions on this 2-core machine class, so the target is
about 1 s of wall time, start-up included. The start-up is the same command on one position
the solver settles at once (the last line of ``Test_L3_R1``): the interpreter, the imports and
the solver's worker processes, before any search.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

POSITIONS = Path(__file__).resolve().parents[1] / "positions"
TARGET_RATIO = 15.0
REFERENCE_SECONDS = 1.0
"""The reference solver's time on the first 200 positions of Test_L2_R2 on this machine class."""
RUNS = 3


def solve_seconds(lines: list[str], native: bool) -> float:
    """Seconds ``connectx solve`` takes on ``lines`` (exit 0 and every score as expected, else an error)."""
    command = [sys.executable, "-m", "connectx", "solve", "--no-cache", "--time-limit", "0"]
    command += [] if native else ["--no-native"]
    started = time.perf_counter()
    result = subprocess.run(command, input="\n".join(lines) + "\n", capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode != 0 or result.stdout.splitlines() != lines:
        raise SystemExit(f"connectx solve {'native' if native else 'python'} failed (exit {result.returncode}): "
                         f"{result.stderr.strip()[:300]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", default="Test_L2_R2", help="a file of positions/ (default Test_L2_R2)")
    parser.add_argument("--count", type=int, default=200, help="its first COUNT positions (default 200)")
    args = parser.parse_args(argv)
    lines = (POSITIONS / args.file).read_text().splitlines()[:args.count]
    native = statistics.median(solve_seconds(lines, native=True) for _ in range(RUNS))
    instant = (POSITIONS / "Test_L3_R1").read_text().splitlines()[-1:]
    start_up = statistics.median(solve_seconds(instant, native=True) for _ in range(RUNS))
    python = solve_seconds(lines, native=False)
    ratio = python / native
    print(f"connectx solve, first {len(lines)} positions of {args.file}, no limit, no cache "
          f"({platform.processor() or platform.machine()}, Python {platform.python_version()}):")
    print(f"  compiled (C) engine {native:7.2f} s, every score exact (median of {RUNS}; start-up {start_up:.2f} s); "
          f"the reference solver's {REFERENCE_SECONDS:g} s: {'met' if native <= REFERENCE_SECONDS else 'NOT met'}")
    print(f"  pure-Python engine  {python:7.2f} s, every score exact")
    print(f"  ratio {ratio:.1f}x (target >= {TARGET_RATIO:g}x): {'met' if ratio >= TARGET_RATIO else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
