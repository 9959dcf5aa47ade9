"""``connectx solve`` with the compiled engine against the pure-Python one: the same positions, in one run.

Both solve the first ``--count`` positions of a benchmark file (``Test_L2_R2`` by default) with no
time limit and no cache (``--no-cache`` also leaves out the shipped exact scores), as people run
the command; every printed score must equal the file's. The machine is shared, so only the
ratio of the two times means much; the target is the compiled engine at least 15 times faster.
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
import time
from pathlib import Path

POSITIONS = Path(__file__).resolve().parents[1] / "positions"
TARGET_RATIO = 15.0


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
    native = solve_seconds(lines, native=True)
    python = solve_seconds(lines, native=False)
    ratio = python / native
    print(f"connectx solve, first {len(lines)} positions of {args.file}, no limit, no cache "
          f"({platform.processor() or platform.machine()}, Python {platform.python_version()}):")
    print(f"  compiled (C) engine {native:7.2f} s, every score exact")
    print(f"  pure-Python engine  {python:7.2f} s, every score exact")
    print(f"  ratio {ratio:.1f}x (target >= {TARGET_RATIO:g}x): {'met' if ratio >= TARGET_RATIO else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
