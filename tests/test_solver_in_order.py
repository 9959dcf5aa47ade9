"""Positions solved side by side come back in the order asked, each solver used by one thread at a time."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from connectx.solver.in_order import solve_in_order


class Recorder:
    """A stand-in solver that notes whether two threads ever used it at once."""

    def __init__(self) -> None:
        self.busy = False
        self.overlapped = False


def test_answers_come_in_the_order_asked_and_the_solvers_work_at_once() -> None:
    solvers = [Recorder(), Recorder()]
    running, most = 0, 0
    lock = threading.Lock()

    def work(item: int, solver: Any) -> tuple[int, int]:
        nonlocal running, most
        with lock:
            solver.overlapped |= solver.busy
            solver.busy, running = True, running + 1
            most = max(most, running)
        time.sleep(0.02 * (item % 3))  # later items often finish first
        with lock:
            solver.busy, running = False, running - 1
        return item, id(solver)

    started = time.perf_counter()
    answers = list(solve_in_order(range(12), work, solvers))  # type: ignore[arg-type]
    assert [item for item, _ in answers] == list(range(12))
    assert most == 2 and not any(solver.overlapped for solver in solvers)
    assert {solver for _, solver in answers} == {id(solver) for solver in solvers}
    assert time.perf_counter() - started < 0.02 * 12  # side by side: less than one after another


def test_an_error_reaches_the_caller_in_its_place() -> None:
    def work(item: int, solver: Any) -> int:
        if item == 2:
            raise ValueError("position 2 is not legal")
        return item

    answers = solve_in_order(range(5), work, [Recorder()])  # type: ignore[arg-type]
    assert [next(answers), next(answers)] == [0, 1]
    with pytest.raises(ValueError, match="position 2"):
        next(answers)
