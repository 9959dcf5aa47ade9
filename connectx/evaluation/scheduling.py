"""Where games run: any ``concurrent.futures.Executor``; by default a pool of worker processes.

Matches and tournaments only ``submit`` a picklable game function and a ``GameSpec``, so a
distributed executor (one that ships the call to other machines) can be plugged in unchanged.
The default workers start from a fork server and import kaggle-environments once; each plays its
games in a watched game process forked from it (see ``game.GameProcess``), which a game that goes
wrong costs its life, never the next game's. Workers and game processes end with the run's process,
even one killed by SIGKILL (``orphans``).
"""

from __future__ import annotations

import itertools
import multiprocessing
import multiprocessing.forkserver
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from connectx.evaluation.engine import kaggle_environments
from connectx.evaluation.game_record import GameRecord, GameSpec
from connectx.evaluation.option_words import OptionError
from connectx.evaluation.orphans import exit_when_gone
from connectx.evaluation.provenance import Provenance, run_provenance

GameFunction = Callable[[GameSpec], GameRecord]
"""What an executor runs for each game: ``game.play_isolated`` (with its watchdog) by default."""


def default_jobs() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def _prepare_worker(run: int) -> None:
    """Leave Ctrl-C to the parent (it stops the run), end with the run's process ``run`` however it ends (its
    games' processes end with this one), and import kaggle-environments up front."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_when_gone(run)
    kaggle_environments()


def check_jobs(jobs: int | None) -> None:
    """ValueError unless ``jobs`` is None (one per core) or a count of worker processes."""
    if jobs is not None and jobs < 1:
        raise OptionError("{jobs}={count}: at least one worker process is needed", count=jobs)


@contextmanager
def _ctrl_c_deferred() -> Iterator[None]:
    """Hold a Ctrl-C until the block is done, then raise it: a worker the pool starts meanwhile is in its process
    table when the interrupt stops the run, so it is killed with the others, not left to find the pool gone."""
    if threading.current_thread() is not threading.main_thread():  # only the main thread receives signals
        yield
        return
    pressed: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: pressed.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pressed:
        raise KeyboardInterrupt


def _start_fork_server() -> None:
    """Start multiprocessing's fork server (and its resource tracker) with Ctrl-C ignored.

    Ctrl-C goes to the whole foreground group, and only the parent should answer it, with one line.
    These helpers ignore it once running, but a press while they start would print a traceback
    from their start-up; an ignored signal stays ignored through ``exec`` (and the workers the fork
    server forks inherit it). A press in the few milliseconds this takes is lost, never half-handled.
    """
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


def worker_pool(jobs: int | None = None) -> ProcessPoolExecutor:
    """``jobs`` worker processes (default: the cores), ready to play games."""
    check_jobs(jobs)
    count = default_jobs() if jobs is None else jobs
    _start_fork_server()
    return ProcessPoolExecutor(
        count,
        mp_context=multiprocessing.get_context("forkserver"),
        initializer=_prepare_worker,
        initargs=(os.getpid(),),
    )


def stop_workers(executor: Executor) -> None:
    """Cancel what has not started and, for our own process pool, kill the games in flight.

    ``shutdown`` alone would wait for running games (minutes, for a hung agent); the pool has no
    public way to stop its workers, so its process table is used when it is there.
    """
    processes = list((getattr(executor, "_processes", None) or {}).values())  # shutdown forgets them
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.kill()
    for process in processes:
        process.join()  # dead at once: one still starting can no longer reach for the parent's queues


class InlineExecutor(Executor):
    """Runs each call at once in the caller's thread: for tests and for fake game functions."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:
            future.set_exception(error)
        return future


def play_schedule(
    specs: Iterable[GameSpec],
    game_function: GameFunction,
    on_record: Callable[[GameRecord], bool],
    jobs: int | None = None,
    executor: Executor | None = None,
) -> bool:
    """Play ``specs`` on ``executor`` (default: a pool of ``jobs`` workers), in order, as they finish.

    ``on_record`` gets each finished game and returns True to stop: no new game starts after that,
    games already running finish and are passed on too. Only a couple of games per worker are
    queued ahead, so a stop takes effect quickly, and ``specs`` is read only as games are queued:
    a generator may choose each game from the records passed on so far (a ladder's pairings).
    On any exception (Ctrl-C included) the games in flight are abandoned and the exception
    propagates. Returns whether ``on_record`` stopped it. Each record gets the run's provenance
    (``provenance.run_provenance``), taken as the first games start.
    """
    upcoming = iter(specs)
    first = next(upcoming, None)
    if first is None:
        return False  # a resumed run with nothing left: no pool to start, no code to digest
    concurrency = jobs or default_jobs()
    provenance: Provenance | None = None
    own = executor is None
    pool = worker_pool(jobs) if executor is None else executor
    ahead = max(2, 2 * concurrency)
    pending: Iterator[GameSpec] | None = itertools.chain([first], upcoming)
    running: set[Future[GameRecord]] = set()
    stopped = False
    try:
        while pending is not None or running:
            while pending is not None and len(running) < ahead:
                spec = next(pending, None)
                if spec is None:
                    pending = None
                else:
                    with _ctrl_c_deferred():
                        running.add(pool.submit(game_function, spec))
            if provenance is None:  # read (git, the code digest) while the first games start, not before them
                provenance = run_provenance(concurrency)
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                if on_record(replace(future.result(), provenance=provenance)):
                    stopped = True
            if stopped:
                pending = None
    except BaseException:
        stop_workers(pool)
        raise
    if own:
        pool.shutdown(wait=True)
    return stopped
