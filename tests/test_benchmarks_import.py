"""Every benchmark module imports: a moved function must not break a measurement nobody runs in the suite."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

BENCHMARKS = sorted(
    path.stem for path in (Path(__file__).resolve().parents[1] / "benchmarks").glob("*.py") if path.stem != "__init__"
)


def test_the_benchmarks_are_found() -> None:
    assert {"solve_speed", "second_seat", "harness_throughput"} <= set(BENCHMARKS)


@pytest.mark.parametrize("name", BENCHMARKS)
def test_a_benchmark_module_imports(name: str) -> None:
    module = importlib.import_module(f"benchmarks.{name}")
    assert callable(getattr(module, "main", None)) or module.__doc__
