"""Independent positions solved on several solvers at once, their answers handed back in the order asked.

The C solver releases the interpreter while it searches, so a thread per solver keeps every core
busy. One solver per thread, never shared: each keeps its own transposition table.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Generator, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from connectx.solver.interface import Solver

Item = TypeVar("Item")
Result = TypeVar("Result")


def solve_in_order(
    items: Iterable[Item], work: Callable[[Item, Solver], Result], solvers: Sequence[Solver]
) -> Generator[Result, None, None]:
    """``work(item, solver)`` for every item, up to ``len(solvers)`` at a time, yielded in the items' order.

    Closing the iterator early (Ctrl-C while printing) cancels what has not started and stops the
    solvers' searches under way.
    """
    idle: queue.SimpleQueue[Solver] = queue.SimpleQueue()
    for solver in solvers:
        idle.put(solver)

    def run(item: Item) -> Result:
        solver = idle.get()  # there are as many threads as solvers: one is always free here
        try:
            return work(item, solver)
        finally:
            idle.put(solver)

    with ThreadPoolExecutor(len(solvers), thread_name_prefix="solve") as pool:
        futures: list[Future[Result]] = [pool.submit(run, item) for item in items]
        try:
            for future in futures:
                yield future.result()
        finally:
            for future in futures:
                future.cancel()
            if not all(future.done() for future in futures):
                for solver in solvers:
                    solver.stop()
