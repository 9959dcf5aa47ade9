"""Bound a connect-4 position's score before a deadline with the C solver (on the boards ``build.fits``).

The C search (``connectx/solver/native.py``) cannot be stopped once it starts, so it runs in a worker
process of its own: a search that outlives its deadline is ended by killing the worker, and the
next search starts a fresh one. The worker keeps its transposition table between positions while
it lives, which is what makes the positions of one game cheap after the first.

The C solver only answers "the exact score", but its ``floor`` argument turns one call into a
proof: ``solve(moves, floor=f)`` returns ``f`` when the score is at most ``f``, and otherwise the
exact score (it probes ``f`` first, then narrows above it). So, as in ``python_search``, the
outcome is settled before the exact score, and a deadline still leaves what was proved:

* floor 0: a win (exact), or "at most a draw";
* floor -1: a draw (exact), or "a loss";
* floor at the proven lower bound: the exact score.
"""

from __future__ import annotations

import math
import select
import subprocess
import sys
import time
import weakref
from pathlib import Path
from typing import TextIO

from connectx.agents.core.position import Position
from connectx.solver.score_range import ScoreRange

IMPORT_ROOT = Path(__file__).resolve().parents[2]
"""The directory holding the ``connectx`` package (a clone, or site-packages): the worker starts there, so
``-m connectx.solver.worker`` finds this copy of the package even when it is not installed."""

TABLE_LOG2 = 24
"""The worker's table: 2^24 entries of 5 bytes (84 MB; 9 bytes above 49 bitboard bits), allocated as it fills."""
START_SECONDS = 60.0
"""How long a new worker may take to load the library before the solver gives up on it."""
NO_FLOOR = -100
"""A floor below every score: a plain exact solve."""


class NativeWorkerError(RuntimeError):
    """The C solver's worker could not start or died on its own."""


def serve(requests: TextIO, replies: TextIO, table_log2: int, rows: int, columns: int) -> None:
    """The worker's loop: lines ``MOVES FLOOR`` in, ``score N`` (or ``refused WHY``) out, until input ends."""
    from connectx.solver.native import NativeSolver  # imported here: only the worker loads the library

    try:
        solver = NativeSolver(table_log2, rows, columns)
    except (OSError, RuntimeError, MemoryError) as error:
        print("failed", str(error).replace("\n", " "), file=replies, flush=True)
        return
    print("ready", file=replies, flush=True)
    for line in requests:
        moves, floor = line.split()
        try:
            print("score", solver.solve(moves.strip("-"), int(floor)).score, file=replies, flush=True)
        except ValueError as error:
            print("refused", error, file=replies, flush=True)


class _Worker:
    """One worker process (``python -m connectx.solver.worker``) and the pipes to it.

    A separate interpreter rather than ``multiprocessing``: nothing of the caller's program is
    imported again in it, so any script can analyse games without a ``__main__`` guard.
    """

    def __init__(self, table_log2: int, rows: int, columns: int) -> None:
        """Start the process for the board; ``wait_until_ready`` waits for it to load the library."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "connectx.solver.worker", str(table_log2), str(rows), str(columns)],
            cwd=IMPORT_ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
            # A process group of its own: a terminal's Ctrl-C reaches the caller alone, even while this worker
            # is still starting; the caller decides, and ends the worker itself.
            process_group=0,
        )
        self.started = False
        self.busy = False
        """Whether a search is under way: closing then must not wait for it."""
        # A worker left running by a caller that never closed the solver dies with this object.
        weakref.finalize(self, _kill, self.process)

    def wait_until_ready(self) -> None:
        """Wait until the worker has loaded the library (at once if it already said so)."""
        if self.started:
            return
        kind, detail = self._receive(time.perf_counter() + START_SECONDS)
        if kind != "ready":
            self.stop()
            raise NativeWorkerError(f"the C solver's worker could not start: {detail or 'no answer'}")
        self.started = True

    def ask(self, moves: str, floor: int, deadline: float) -> int | None:
        """``solve(moves, floor)`` in the worker, or None if the deadline comes first (then stop this worker)."""
        assert self.process.stdin is not None
        # "-" stands for the empty move string, so that every request line has two fields.
        self.process.stdin.write(f"{moves or '-'} {floor}\n")
        self.process.stdin.flush()
        self.busy = True
        kind, value = self._receive(deadline)
        self.busy = False
        if kind == "timeout":
            self.stop()
            return None
        if kind != "score":
            raise ValueError(f"the C solver refused {moves!r}: {value}")
        return int(value)

    def _receive(self, deadline: float) -> tuple[str, str]:
        """The worker's next reply line as ``(kind, rest)``, or ``("timeout", "")`` at the deadline."""
        assert self.process.stdout is not None
        # One request is in flight at a time, so nothing waits in the file's buffer when select() is asked.
        wait = None if math.isinf(deadline) else max(0.0, deadline - time.perf_counter())
        ready, _, _ = select.select([self.process.stdout], [], [], wait)
        if not ready:
            return "timeout", ""
        line = self.process.stdout.readline()
        if not line:
            self.stop()
            raise NativeWorkerError("the C solver's worker died")
        kind, _, rest = line.strip().partition(" ")
        return kind, rest

    def stop(self) -> None:
        """End the worker now: it may be deep in a search that would not return for hours."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()

    def close(self) -> None:
        """Let an idle worker finish on its own (its input ends), then make sure it has; a busy one ends now
        (an interrupted caller must not wait for a search it no longer wants)."""
        assert self.process.stdin is not None
        if self.busy:
            self.stop()
            return
        try:
            self.process.stdin.close()
            self.process.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.stop()


def _kill(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
        process.wait()


class NativeWorkerSolver:
    """The C solver in a worker process behind ``bound``, for one board (7x6 unless told; ``interface.make_solver``
    checks that it plays it): ``python_search.PythonSolver``'s counterpart.

    ``calls`` counts the positions searched and ``restarts`` the workers killed at a deadline.
    """

    name = "native"
    fallback: str | None = None

    def __init__(self, table_log2: int = TABLE_LOG2, rows: int = 6, columns: int = 7) -> None:
        self.table_log2 = table_log2
        self.rows = rows
        self.columns = columns
        self.calls = 0
        self.restarts = 0
        self._worker: _Worker | None = None
        self._spare: _Worker | None = None

    def bound(self, position: Position, moves: str, known: ScoreRange, deadline: float) -> ScoreRange:
        """The tightest range proven for the position ``moves`` (1-based digits) by ``deadline``.

        ``known`` is what is already proven. Waiting for a worker to start is not counted against
        the deadline: a kill must not make the next position start late.
        """
        self.calls += 1
        lower, upper = known.lower, known.upper
        while lower < upper:
            if deadline == math.inf:  # nothing to settle before a deadline: one exact search is cheapest
                floor = lower if lower > ScoreRange.possible(position).lower else NO_FLOOR
            elif lower <= 0 < upper:
                floor = 0
            elif lower < 0 == upper:
                floor = -1
            else:
                floor = lower if lower > ScoreRange.possible(position).lower else NO_FLOOR
            started = time.perf_counter()
            worker = self._ready_worker()
            deadline += time.perf_counter() - started
            score = worker.ask(moves, floor, deadline)
            if score is None:
                self._worker = None
                self.restarts += 1
                break
            if score > floor:
                lower = upper = score
            else:
                upper = floor
        return ScoreRange(lower, upper)

    def _ready_worker(self) -> _Worker:
        """The live worker, or the spare in its place, a new spare then loading meanwhile.

        Spares start once a deadline has killed a worker: then kills tend to recur, and a spare
        (an idle process whose table is not touched until it works) saves waiting for a fresh
        interpreter after each; a run that never hits a deadline never pays for one.
        """
        if self._worker is None:
            self._worker = self._spare if self._spare is not None else self._start_worker()
            self._spare = self._start_worker() if self.restarts else None
        self._worker.wait_until_ready()
        return self._worker

    def _start_worker(self) -> _Worker:
        return _Worker(self.table_log2, self.rows, self.columns)

    def close(self) -> None:
        for worker in (self._worker, self._spare):
            if worker is not None:
                worker.close()
        self._worker = self._spare = None


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout, *map(int, sys.argv[1:4]))
