"""Build the C solver (``solver.c``) on first use: the library ``native`` loads.

``solver.c`` ships inside the package, with the agents' data (a submission carries it too:
``connectx.agents.search.compiled_solver``); ``build_library`` compiles it into the per-user cache
directory (``user_cache``), one library for each board size, named by a hash of the source and
the compiler flags, so a changed source is rebuilt and an unchanged one never is, whatever the
files' times say. Only a C compiler is needed, never a committed binary. It plays four in a row on
any board whose bitboard fits 64 bits (``fits``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from connectx.agents.core.data_files import read_data
from connectx.agents.search.compiled_solver import SOURCE
from connectx.solver.user_cache import user_cache_directory


def fits(rows: int, columns: int, inarow: int) -> bool:
    """Whether the C solver plays this board: four in a row, ``columns * (rows + 1)`` bits at most 64
    (one sentinel bit a column) and single-digit columns (its moves are column digits)."""
    return inarow == 4 and columns <= 9 and columns * (rows + 1) <= 64


def build_library(rows: int = 6, columns: int = 7) -> Path:
    """The shared library of ``solver.c`` for the board, compiled unless this source's build exists.

    RuntimeError (one line first) when no compiler is found or compiling fails; OSError when the
    cache directory cannot be written.
    """
    if not fits(rows, columns, 4):
        raise ValueError(
            f"the C solver cannot play a {columns}x{rows} board: {columns} x ({rows} + 1) "
            "is more than 64 bits or more than 9 columns"
        )
    source = read_data(SOURCE)
    flags = ["-O2", "-Wall", "-shared", "-fPIC", f"-DWIDTH={columns}", f"-DHEIGHT={rows}"]
    digest = hashlib.sha256(source + " ".join(flags).encode()).hexdigest()[:16]
    library = user_cache_directory() / "solver" / f"libsolver-{columns}x{rows}-{digest}.so"
    if library.exists():
        return library
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise RuntimeError("no C compiler found: install gcc (apt-get install gcc) or set CC")
    library.parent.mkdir(parents=True, exist_ok=True)
    # Built in a private directory beside the target and renamed into place: processes compiling
    # at once each finish their own copy, and a reader only ever sees a complete library.
    with tempfile.TemporaryDirectory(dir=library.parent, prefix=".build-") as work:
        source_path, partial = Path(work) / "solver.c", Path(work) / library.name
        source_path.write_bytes(source)
        command = [compiler, *flags, "-o", str(partial), str(source_path)]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"compiling solver.c failed: {' '.join(command)}\n{result.stderr}")
        partial.replace(library)
    return library
