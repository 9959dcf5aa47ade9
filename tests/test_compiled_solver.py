"""The compiled solver a submission carries: built reproducibly for Kaggle, loaded in order, stopped on time.

The committed library must be what ``make core`` builds from the committed ``solver.c`` today (the
``ziglang`` wheel of the tests' tools), for Linux x86-64 needing glibc 2.28 at most. In a process of
its own, each way of loading (the library, ``solver.c`` compiled here, none) is taken as
``CONNECTX_CORE`` forces it or as the machine allows, and says so on stderr; a search given a
deadline returns within it with bounds that hold the exact score.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from connectx.agents.core.data_files import read_data
from connectx.agents.core.position import Position
from connectx.agents.search import compiled_solver
from connectx.agents.search.compiled_solver import CORE_MARK, LIBRARY, new_compiled_solver, wait_for_core
from connectx.solver.shipped_library import fresh_build
from connectx.submission.compiled_core import GLIBC_CEILING, glibc_needed

POSITIONS = Path(__file__).resolve().parents[1] / "positions"
X86_64 = 62
"""ELF's ``e_machine`` for x86-64."""

SAY_AND_SEARCH = """
from connectx.agents.core.position import Position
from connectx.agents.search.compiled_solver import new_compiled_solver, say_core, wait_for_core
first = new_compiled_solver()
wait_for_core(60)
solver = new_compiled_solver()
say_core()
print(first is not None)
print(None if solver is None else (solver.kind, solver.search(Position.from_moves("3246313")).lower))
"""


def test_the_committed_library_is_what_make_core_builds_from_the_committed_source() -> None:
    assert fresh_build() == read_data(LIBRARY), "solver.c changed since the library was built: run make core"


def test_the_library_is_for_linux_x86_64_and_needs_glibc_2_28_at_most() -> None:
    library = read_data(LIBRARY)
    assert library[:4] == b"\x7fELF" and library[4] == 2 and int.from_bytes(library[18:20], "little") == X86_64
    needs = glibc_needed(library)
    assert needs and max(needs) <= GLIBC_CEILING, needs


def run_core(environment: dict[str, str]) -> tuple[str, str]:
    """``SAY_AND_SEARCH`` in a fresh process with ``environment`` added: what it printed and said on stderr."""
    done = subprocess.run(
        [sys.executable, "-c", SAY_AND_SEARCH],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **environment},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip(), done.stderr


@pytest.mark.parametrize("forced,kind", [("", "binary"), ("source", "source"), ("python", None)])
def test_each_core_loads_as_forced_and_says_so(forced: str, kind: str | None) -> None:
    """The library is there at once; solver.c compiles in the background, so the first call has none yet."""
    out, err = run_core({"CONNECTX_CORE": forced})
    at_once, searched = out.splitlines()
    assert at_once == str(kind == "binary")
    assert searched == ("None" if kind is None else f"('{kind}', -2)"), "Test_L1_R3's 3246313 scores -2"
    said = [line for line in err.splitlines() if line.startswith(CORE_MARK)]
    assert len(said) == 1 and said[0].startswith(f"{CORE_MARK} {kind or 'python'}")
    if forced:
        assert f"CONNECTX_CORE={forced}" in said[0]


def test_without_the_library_or_a_compiler_it_falls_back_to_python_saying_why(tmp_path: Path) -> None:
    """A machine where the library does not load (forced past it) and no compiler runs: the pure-Python search."""
    out, err = run_core({"CONNECTX_CORE": "source", "CC": str(tmp_path / "no-such-compiler")})
    assert out.splitlines() == ["False", "None"]
    assert "solver.c did not compile here" in err


def test_a_library_that_does_not_load_falls_back_to_the_source(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled_solver, "_loading", [])
    monkeypatch.setattr(
        compiled_solver, "read_data", lambda name: b"not a library" if name == LIBRARY else read_data(name)
    )
    assert new_compiled_solver() is None, "compiling in the background: the pure-Python search plays meanwhile"
    wait_for_core(60)
    solver = new_compiled_solver()
    assert solver is not None and solver.kind == "source"
    assert "the shipped library did not load" in compiled_solver._loading[0].said


def test_a_search_given_a_deadline_returns_within_it_with_bounds_that_hold_the_score() -> None:
    solver = new_compiled_solver()
    assert solver is not None
    for line in (POSITIONS / "Test_L1_R3").read_text().splitlines()[:8]:
        moves, score = line.split()
        started = time.perf_counter()
        found = solver.search(Position.from_moves(moves), seconds=0.2)
        assert time.perf_counter() - started < 0.3, moves
        assert found.lower <= int(score) <= found.upper and found.column is not None, moves
        assert found.complete == found.exact or not found.complete


def test_a_node_cap_is_kept_and_gives_the_same_answer_every_time() -> None:
    position = Position.from_moves("2454")
    answers = []
    for _ in range(2):
        solver = new_compiled_solver()
        assert solver is not None
        answers.append(solver.search(position, nodes=20_000))
    assert answers[0] == answers[1] and answers[0].nodes <= 20_000 + 64 and not answers[0].complete
