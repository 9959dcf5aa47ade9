"""Build the compiled solver the agents ship (``make core``): the same bytes on any machine that builds it.

A submission carries ``agents/data/solver_core_linux_x86_64.so``, compiled from ``agents/data/solver.c``
for Kaggle's machines whatever the machine building it: by the ``ziglang`` wheel's cross compiler
(clang with its own glibc stubs), for Linux x86-64 with generic x86-64 code, against glibc 2.28's
symbols (so it loads on glibc 2.28 or newer; it needs only `calloc`, `free` and
`clock_gettime`), stripped, with no build id. The same compiler version and flags give the
same bytes, which ``tests/test_compiled_solver.py`` checks against the committed library.

Usage: python -m connectx.solver.shipped_library [--check]
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

from connectx.agents.search.compiled_solver import LIBRARY, SOURCE

DATA = Path(__file__).resolve().parents[1] / "agents" / "data"
TARGET = "x86_64-linux-gnu.2.28"
"""Kaggle's image runs Ubuntu 22.04 (glibc 2.35); 2.28 leaves room for older machines."""
FLAGS = (
    "-target",
    TARGET,
    "-mcpu=x86_64",
    "-O2",
    "-shared",
    "-fPIC",
    "-s",
    "-Wl,--build-id=none",
    "-DWIDTH=7",
    "-DHEIGHT=6",
)


def compile_library(source: Path, output: Path) -> None:
    """``source`` compiled into ``output`` with the ``ziglang`` wheel's ``zig cc`` and ``FLAGS``.

    RuntimeError with the install to run when ``ziglang`` is missing, or with the compiler's error.
    """
    if importlib.util.find_spec("ziglang") is None:
        raise RuntimeError("the ziglang wheel is not installed: `make install-dev`, or pip install ziglang")
    done = subprocess.run(
        [sys.executable, "-m", "ziglang", "cc", *FLAGS, "-o", str(output), str(source)], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(f"zig cc failed on {source}:\n{done.stderr}")


def fresh_build() -> bytes:
    """The library's bytes as ``make core`` would write them now."""
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / LIBRARY
        compile_library(DATA / SOURCE, output)
        return output.read_bytes()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m connectx.solver.shipped_library", description=__doc__)
    parser.add_argument("--check", action="store_true", help="only say whether the committed library is current")
    args = parser.parse_args(argv)
    built = fresh_build()
    shipped = DATA / LIBRARY
    if args.check:
        current = shipped.exists() and shipped.read_bytes() == built
        print(f"{shipped}: {'current' if current else 'OUT OF DATE: run make core'}")
        return 0 if current else 1
    shipped.write_bytes(built)
    print(f"wrote {shipped}: {len(built):,} bytes from {DATA / SOURCE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
