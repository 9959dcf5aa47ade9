"""``connectx solve`` against the reference solver and BitBully: CPU and wall time on the same positions, in one run.

Each solver solves the first positions of two benchmark files (Test_L2_R2[:200] and
Test_L1_R2[:100] by default) with no time limit, as a user runs it: ``connectx solve --no-cache
--time-limit 0`` (every core, no shipped scores), Pascal Pons' ``c4solver`` (without its opening
book) and BitBully's `mtdf` from 0 (its wheel, without its opening book). CPU is user + system
time of the whole process tree; the runs are interleaved and each figure is the median of
``--runs``, so a shared machine's load falls on every solver alike, and the ratios are the figures
that mean something. Every printed score must equal the file's.

The two yardsticks are AGPL programs run as they are, never part of this repository:
``--build-reference DIR`` clones and builds the reference in DIR (outside the repository), or
``--reference PATH`` names a built ``c4solver``; ``--install-bitbully DIR`` makes a virtual
environment in DIR with BitBully from the package registry, or ``--bitbully-python PATH`` names an
interpreter that has it. Without them only our own times are printed.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.conditions import machine_conditions

REPOSITORY = Path(__file__).resolve().parents[1]
POSITIONS = REPOSITORY / "positions"
SETS = (("Test_L2_R2", 200), ("Test_L1_R2", 100))
"""The issue's two sets: the middle game (medium) and the beginning (medium)."""
REFERENCE_REPOSITORY = "https://github.com/PascalPons/connect4"
BITBULLY_SCRIPT = """
import sys
from bitbully import bitbully_core
solver = bitbully_core.BitBullyCore()  # no opening book
for line in sys.stdin:
    moves = line.strip()
    board = bitbully_core.BoardCore()
    board.play([int(digit) - 1 for digit in moves])
    print(moves, solver.mtdf(board, 0), flush=False)
"""
"""BitBully's solver as its wheel offers it: MTD(f) from a first guess of 0, one table kept across positions."""


@dataclass(frozen=True)
class Contender:
    """A solver run as a command: its name, the command, and whether it reads the expected scores too."""

    name: str
    command: list[str]
    reads_scores: bool


@dataclass(frozen=True)
class Timing:
    cpu: float
    wall: float


def run_once(contender: Contender, lines: Sequence[str]) -> Timing:
    """One run of ``contender`` on ``lines`` (``MOVES SCORE``): its process tree's CPU seconds and wall seconds.

    SystemExit when it fails or prints a score other than the file's.
    """
    feed = lines if contender.reads_scores else [line.split()[0] for line in lines]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as empty:  # a working directory with no opening book in it
        result = subprocess.run(
            contender.command, input="\n".join(feed) + "\n", capture_output=True, text=True, cwd=empty
        )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0 or result.stdout.split("\n")[: len(lines)] != list(lines):
        raise SystemExit(
            f"{contender.name} failed or gave another score (exit {result.returncode}): {result.stderr.strip()[:300]}"
        )
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timing(cpu, wall)


def build_reference(directory: Path, source: str) -> Path:
    """Pons' ``c4solver`` cloned from ``source`` and built in ``directory`` (kept for the next run)."""
    if directory.resolve().is_relative_to(REPOSITORY):
        raise SystemExit(
            f"--build-reference {directory}: choose a folder outside the repository; "
            "the reference is AGPL and never part of it"
        )
    checkout = directory / "connect4"
    binary = checkout / "c4solver"
    if not binary.exists():
        if not checkout.exists():
            subprocess.run(["git", "clone", "--depth", "1", source, str(checkout)], check=True)
        subprocess.run(["make", "-C", str(checkout), "c4solver"], check=True)
    return binary


def install_bitbully(directory: Path) -> Path:
    """An interpreter in a virtual environment in ``directory`` with BitBully installed (kept for the next run)."""
    if directory.resolve().is_relative_to(REPOSITORY):
        raise SystemExit(f"--install-bitbully {directory}: choose a folder outside the repository")
    python = directory / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(directory)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "bitbully"], check=True)
    return python


def contenders(args: argparse.Namespace) -> list[Contender]:
    """Ours first, then the reference and BitBully where the options give them."""
    found = [
        Contender(
            "connectx solve",
            [sys.executable, "-m", "connectx", "solve", "--no-cache", "--time-limit", "0"],
            reads_scores=True,
        )
    ]
    reference = build_reference(args.build_reference, args.reference_source) if args.build_reference else args.reference
    if reference is not None:
        found.append(Contender("reference (c4solver)", [str(Path(reference).resolve())], reads_scores=False))
    bitbully = install_bitbully(args.install_bitbully) if args.install_bitbully else args.bitbully_python
    if bitbully is not None:
        found.append(Contender("BitBully (mtdf)", [str(bitbully), "-c", BITBULLY_SCRIPT], reads_scores=False))
    return found


def ratio(value: float, base: float | None) -> str:
    return "-" if base is None or base <= 0 else f"{value / base:.2f}x"


def table(solvers: Sequence[Contender], lines: Sequence[str], runs: int) -> str:
    """Every solver's median CPU and wall seconds on ``lines`` over ``runs`` interleaved runs, and their ratios
    to the reference's and BitBully's (``-`` where that one is not run)."""
    timings: dict[str, list[Timing]] = {solver.name: [] for solver in solvers}
    for _ in range(runs):
        for solver in solvers:
            timings[solver.name].append(run_once(solver, lines))
    cpu = {name: statistics.median(t.cpu for t in found) for name, found in timings.items()}
    wall = {name: statistics.median(t.wall for t in found) for name, found in timings.items()}
    bases = [next((name for name in timings if name.startswith(prefix)), None) for prefix in ("reference", "BitBully")]
    rows = [
        f"  {'solver':<22} {'CPU s':>7} {'wall s':>7}   {'CPU/ref':>7} {'wall/ref':>8}   "
        f"{'CPU/BitBully':>12} {'wall/BitBully':>13}"
    ]
    for name in timings:
        ratios = [(ratio(cpu[name], cpu.get(base or "")), ratio(wall[name], wall.get(base or ""))) for base in bases]
        rows.append(
            f"  {name:<22} {cpu[name]:7.2f} {wall[name]:7.2f}   {ratios[0][0]:>7} {ratios[0][1]:>8}   "
            f"{ratios[1][0]:>12} {ratios[1][1]:>13}"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sets",
        nargs="+",
        default=[f"{name}:{count}" for name, count in SETS],
        metavar="FILE:COUNT",
        help="position files of positions/ and how many of their first lines (default Test_L2_R2:200 Test_L1_R2:100)",
    )
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs of every solver; medians (default 3)")
    parser.add_argument("--reference", type=Path, help="a built c4solver (Pascal Pons' reference solver)")
    parser.add_argument(
        "--build-reference",
        type=Path,
        metavar="DIR",
        help="clone and build the reference in DIR, outside the repository (reused if built)",
    )
    parser.add_argument(
        "--reference-source",
        default=REFERENCE_REPOSITORY,
        help=f"where --build-reference clones from (default {REFERENCE_REPOSITORY})",
    )
    parser.add_argument("--bitbully-python", type=Path, help="a Python interpreter with the bitbully package")
    parser.add_argument(
        "--install-bitbully",
        type=Path,
        metavar="DIR",
        help="make a virtual environment in DIR with bitbully from the package registry (reused)",
    )
    args = parser.parse_args(argv)
    solvers = contenders(args)
    print(
        f"no time limit, no cache, no opening books; CPU = user + system of the process tree, "
        f"medians of {args.runs} interleaved runs ({machine_conditions()})"
    )
    for spec in args.sets:
        name, _, count = spec.partition(":")
        lines = (POSITIONS / name).read_text().splitlines()[: int(count or 1000)]
        print(f"\n{name}[:{len(lines)}], every score exact:")
        print(table(solvers, lines, args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
