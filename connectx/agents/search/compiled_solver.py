"""The compiled exact solver, inside the agent: a position and a limit in, what was proven by then out.

Kaggle's ConnectX was won by an agent that carried its compiled solver inside its one submission
file. This is how ours does: ``solver.c`` and a library compiled from it for Kaggle's machines
(Linux x86-64, generic x86-64 code, glibc 2.2.5 symbols, built by ``make core``) ship as the
agents' data, and ``connectx build`` embeds both. ``new_compiled_solver`` loads one, tried once a
process, and gives each caller a solver with a table of its own:

1. ``binary``: the shipped library, written to a private temporary folder and loaded with ctypes;
2. ``source``: ``solver.c`` compiled there with the machine's C compiler (``$CC``, ``cc`` or ``gcc``),
   in a thread of its own, so the moves go on meanwhile (a fifth of a second on an idle machine);
3. neither: None, and the agent plays its pure-Python search, as strong as it was before the core
   (and while a compile is under way).

``CONNECTX_CORE=python`` or ``CONNECTX_CORE=source`` forces the later steps (for tests, and for
users who distrust binaries). Whatever is loaded, and why an earlier step failed, is said once on
stderr after ``CORE_MARK`` when the agent first searches (``say_core``), where ``connectx validate``
reads which core played.

``CompiledSolver.search`` is the one door to the C search, the same for the agents, the analysis
and the book (``connectx.solver.native`` wraps it): the C code checks its own limit, so a search
given the move's remaining seconds returns within them, exact or with the bounds it proved.
"""

from __future__ import annotations

import ctypes
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path

from connectx.agents.core.data_files import read_data
from connectx.agents.core.position import Position

LIBRARY = "solver_core_linux_x86_64.so"
"""The shipped library, compiled for 7x6 (``make core``)."""
SOURCE = "solver.c"
CORE_VARIABLE = "CONNECTX_CORE"
"""The environment variable that forces a fallback: ``python`` (no compiled solver) or ``source``."""
CORE_MARK = "[connectx core]"
"""How the agent begins the line that says which core it loaded."""
BOARD = (6, 7, 4)
"""The board the shipped library and the compile flags below are for: rows, columns, inarow."""
COMPILE_FLAGS = ("-O2", "-shared", "-fPIC", "-DWIDTH=7", "-DHEIGHT=6")
COMPILE_SECONDS = 30.0
"""How long a compile may take before the agent gives up on it and plays in Python."""
TABLE_LOG2 = 19
"""The table's 2^19 entries (4 MB): small enough to stay in the processor's caches
(docs/benchmarks.md)."""
COMPLETE, STOPPED, INVALID_POSITION, BOUNDS_WRONG = 0, 1, -1, -2
"""``cx_search``'s answers (solver.c)."""
NO_NODE_CAP = 2**64 - 1


class _Request(ctypes.Structure):
    _fields_ = [
        ("lower", ctypes.c_int),
        ("upper", ctypes.c_int),
        ("seconds", ctypes.c_double),
        ("nodes", ctypes.c_uint64),
        ("centre_first", ctypes.c_int),
    ]


class _Result(ctypes.Structure):
    _fields_ = [("lower", ctypes.c_int), ("upper", ctypes.c_int), ("column", ctypes.c_int), ("nodes", ctypes.c_uint64)]


@dataclass(frozen=True)
class CoreSearch:
    """What one search proved: the score lies in ``lower..upper`` (exact when they meet, on the C
    solver's scale, ``connectx.agents.core.scores``'), ``column`` is the best found (one proven to
    reach ``lower`` once a search proved it, else the most promising; None with no move), ``nodes``
    the positions entered, ``complete`` whether it ended before its limit."""

    lower: int
    upper: int
    column: int | None
    nodes: int
    complete: bool

    @property
    def exact(self) -> bool:
        return self.lower == self.upper


class CompiledSolver:
    """One handle on a loaded C solver and its transposition table, kept across searches (a game's
    positions share most of their subtrees). ``kind`` says how it was loaded: ``binary``, ``source``
    or ``host`` (``connectx.solver.build``'s library, outside a submission)."""

    def __init__(
        self, library: ctypes.CDLL, kind: str, log2_table_entries: int = TABLE_LOG2, board: tuple[int, int, int] = BOARD
    ) -> None:
        library.cx_solver_new.restype = ctypes.c_void_p
        library.cx_solver_new.argtypes = [ctypes.c_int]
        library.cx_solver_free.argtypes = [ctypes.c_void_p]
        library.cx_solver_stop.argtypes = [ctypes.c_void_p]
        library.cx_solver_resume.argtypes = [ctypes.c_void_p]
        library.cx_search.argtypes = [
            ctypes.c_void_p,
            ctypes.c_uint64,
            ctypes.c_uint64,
            ctypes.POINTER(_Request),
            ctypes.POINTER(_Result),
        ]
        handle = library.cx_solver_new(log2_table_entries)
        if not handle:
            raise MemoryError(
                f"the C solver could not allocate 2^{log2_table_entries} table entries: use a smaller table"
            )
        self.library = library
        self.kind = kind
        self.board = board
        self._handle = handle
        self._free = weakref.finalize(self, library.cx_solver_free, handle)  # the table goes with the solver

    def plays(self, position: Position) -> bool:
        shape = position.geometry
        return (shape.rows, shape.columns, shape.inarow) == self.board

    def board_name(self) -> str:
        rows, columns, inarow = self.board
        return f"{columns}x{rows} with {inarow} in a row"

    def search(
        self,
        position: Position,
        seconds: float | None = None,
        nodes: int | None = None,
        lower: int = -100,
        upper: int = 100,
        centre_first: bool = False,
    ) -> CoreSearch:
        """What can be proven of ``position``'s score in ``seconds`` or ``nodes`` (None: no limit), from a
        known true range ``lower..upper``. Under a limit the outcome is settled before the exact score.
        ``centre_first`` names, once the score is exact, the best column nearest the centre.

        ValueError for a position this solver does not play, one that is over, or a range that is
        not true of it.
        """
        if not self.plays(position):
            shape = position.geometry
            raise ValueError(
                f"this C solver plays {self.board_name()} only, not "
                f"{shape.columns}x{shape.rows} with {shape.inarow} in a row"
            )
        request = _Request(
            lower,
            upper,
            float("inf") if seconds is None else max(0.0, seconds),
            NO_NODE_CAP if nodes is None else max(0, nodes),
            int(centre_first),
        )
        result = _Result()
        status = self.library.cx_search(
            self._handle, position.current, position.mask, ctypes.byref(request), ctypes.byref(result)
        )
        if status == INVALID_POSITION:
            raise ValueError(f"{position!r} is not a legal unfinished position of {self.board_name()}")
        if status == BOUNDS_WRONG:
            raise ValueError(
                f"the score of {position!r} is not in the range given, {lower}..{upper}: pass what is proven of it"
            )
        return CoreSearch(
            result.lower, result.upper, result.column if result.column >= 0 else None, result.nodes, status == COMPLETE
        )

    def stop(self) -> None:
        """Make the search under way (in another thread) return now, and every one after it until ``resume``."""
        self.library.cx_solver_stop(self._handle)

    def resume(self) -> None:
        self.library.cx_solver_resume(self._handle)

    def close(self) -> None:
        """Free the table now rather than when the solver is collected; it is not used again."""
        self._free()


@dataclass
class _Loading:
    """The process's compiled library as it loads: ``library`` (with how it was loaded) once there is one,
    ``said`` once the way it loaded is settled, ``compiling`` while ``solver.c`` compiles in the background."""

    library: tuple[ctypes.CDLL, str] | None = None
    said: str = ""
    compiling: threading.Thread | None = None
    announced: bool = False


_loading: list[_Loading] = []
"""Tried once a process (a list, so the module needs no global statement)."""


def new_compiled_solver() -> CompiledSolver | None:
    """A solver with a fresh table on the process's compiled library, or None where none has loaded (yet: a
    compile may still be under way, and a later call may have one)."""
    if not _loading:
        _loading.append(_start(os.environ.get(CORE_VARIABLE, "").strip().lower()))
    library = _loading[0].library
    return None if library is None else CompiledSolver(*library)


def say_core() -> None:
    """Say once, on stderr after ``CORE_MARK``, which core plays and why an earlier one did not, once that is
    settled: an agent calls it whenever it searches, so a game its book answered says nothing."""
    if _loading and _loading[0].said and not _loading[0].announced:
        _loading[0].announced = True
        print(f"{CORE_MARK} {_loading[0].said}", file=sys.stderr)


def wait_for_core(seconds: float) -> None:
    """Wait up to ``seconds`` for a compile under way: for tools and tests that want the core settled."""
    compiling = _loading[0].compiling if _loading else None
    if compiling is not None:
        compiling.join(seconds)


def _start(forced: str) -> _Loading:
    """The shipped library loaded now (a millisecond), or else ``solver.c`` compiling in a thread of its own,
    so a slow compiler never holds up a move; ``forced`` skips to a later step."""
    loading = _Loading()
    started = time.perf_counter()
    if forced == "python":
        loading.said = f"python (no compiled solver); {CORE_VARIABLE}=python"
        return loading
    reasons: list[str] = []
    if forced == "source":
        reasons.append(f"{CORE_VARIABLE}=source")
    else:
        folder = Path(tempfile.mkdtemp(prefix="connectx-core-"))  # private: mode 0700, this user's only
        try:
            loading.library = (_checked(_shipped_library(folder)), "binary")
            loading.said = f"binary, loaded in {time.perf_counter() - started:.3f} s"
            return loading
        except (OSError, AttributeError) as error:
            reasons.append(f"the shipped library did not load ({error})")
        finally:
            shutil.rmtree(folder, ignore_errors=True)  # a loaded library stays mapped once its file is gone
    loading.compiling = threading.Thread(
        target=_compile, args=(loading, reasons, started), daemon=True, name="connectx-core-compile"
    )
    loading.compiling.start()
    return loading


def _compile(loading: _Loading, reasons: list[str], started: float) -> None:
    """``solver.c`` compiled and loaded into ``loading``, or the reason it was not; the pure-Python search plays
    until then."""
    folder = Path(tempfile.mkdtemp(prefix="connectx-core-"))
    try:
        loading.library = (_checked(_compiled_source(folder)), "source")
        said = f"source, compiled and loaded in {time.perf_counter() - started:.3f} s"
    except (OSError, AttributeError, RuntimeError, subprocess.SubprocessError) as error:
        reasons.append(f"solver.c did not compile here ({error})")
        said = "python (no compiled solver)"
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    loading.said = said + "".join(f"; {reason}" for reason in reasons)


def _checked(library: ctypes.CDLL) -> ctypes.CDLL:
    """``library``, once it has the entry points this module calls (AttributeError if one is missing)."""
    for name in ("cx_solver_new", "cx_solver_free", "cx_solver_stop", "cx_solver_resume", "cx_search"):
        getattr(library, name)
    return library


def _shipped_library(folder: Path) -> ctypes.CDLL:
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
        raise OSError(f"it is for Linux x86-64, this is {platform.system()} {platform.machine()}")
    path = folder / LIBRARY
    path.write_bytes(read_data(LIBRARY))
    return ctypes.CDLL(str(path))


def _compiled_source(folder: Path) -> ctypes.CDLL:
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise RuntimeError("no C compiler")
    source, library = folder / SOURCE, folder / "solver_core.so"
    source.write_bytes(read_data(SOURCE))
    done = subprocess.run(
        [compiler, *COMPILE_FLAGS, "-o", str(library), str(source)],
        capture_output=True,
        text=True,
        timeout=COMPILE_SECONDS,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{compiler} exited {done.returncode}: {done.stderr.strip()[-300:]}")
    return ctypes.CDLL(str(library))
