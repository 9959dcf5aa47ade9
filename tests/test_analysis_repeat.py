"""The same analysis again, through ``connectx analyze``: answered from the cache with no search, the same rows.

The first run's game is cut short by its time limit on purpose, so that what the cache must keep
is not only exact scores but the bounds a search left and the estimates of open columns. The
second run's solver fails if it is asked anything, and so does the estimating search.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

import connectx.analysis.cached_solver
from connectx.agents.core.position import Position
from connectx.analysis.solved_cache import FORMAT, SolvedCache
from connectx.cli.main import main
from connectx.solver.native_search import NativeSearchSolver
from connectx.solver.python_search import PythonSolver
from connectx.solver.score_range import ScoreRange

GAME = "75447455777445"
"""The opening of ``docs/analysis.md``'s example game: from ply 7 on, a short limit leaves bounds and estimates."""
FIRST_PLY = "7"
LIMIT = "0.3"


def analyse(cache: Path, capsys: pytest.CaptureFixture[str], limit: str = LIMIT) -> tuple[dict[str, Any], float]:
    """``connectx analyze --json`` of the game with ``cache``: its JSON and the seconds it took."""
    started = time.perf_counter()
    status = main(
        ["analyze", "--moves", GAME, "--from-ply", FIRST_PLY, "--time-limit", limit, "--json", "--cache", str(cache)]
    )
    seconds = time.perf_counter() - started
    out, err = capsys.readouterr()
    assert status == 0, err
    return json.loads(out), seconds


def searched(*args: object, **kwargs: object) -> None:
    raise AssertionError("searched, though the cache holds the answer")


def refuse_to_search(monkeypatch: pytest.MonkeyPatch, estimates: bool = True) -> None:
    """Make every solver fail if called, and with ``estimates`` the estimating search too."""
    monkeypatch.setattr(NativeSearchSolver, "bound", searched)
    monkeypatch.setattr(PythonSolver, "bound", searched)
    if estimates:
        monkeypatch.setattr(connectx.analysis.cached_solver, "search_estimate", searched)


def count_searches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the solvers' searches (one element per search) while letting them run."""
    searches: list[int] = []
    for solver in (NativeSearchSolver, PythonSolver):

        def counted(self: Any, *args: Any, original: Any = solver.bound) -> ScoreRange:
            searches.append(1)
            result: ScoreRange = original(self, *args)
            return result

        monkeypatch.setattr(solver, "bound", counted)
    return searches


def test_the_same_analysis_again_searches_nothing_and_gives_the_same_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, first_seconds = analyse(tmp_path, capsys)
    inexact = [ply for ply in first["plies"] if not ply["exact"]]
    assert inexact and any(estimate is not None for ply in inexact for estimate in ply["estimates"])
    with monkeypatch.context() as patched:
        refuse_to_search(patched)
        second, second_seconds = analyse(tmp_path, capsys)
        lower, lower_seconds = analyse(tmp_path, capsys, limit="0.2")  # a lower limit: the same answers
    assert second == first and lower == first
    assert second_seconds < first_seconds / 3 and lower_seconds < first_seconds / 3, (first_seconds, second_seconds)


def test_a_higher_limit_searches_again_and_keeps_what_it_finds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, _ = analyse(tmp_path, capsys)
    with monkeypatch.context() as patched:
        searches = count_searches(patched)
        analyse(tmp_path, capsys, limit="0.6")
    assert searches
    with monkeypatch.context() as patched:
        refuse_to_search(patched)
        again, _ = analyse(tmp_path, capsys)  # the lower limit again: answered by what the higher one found
    for before, after in zip(first["plies"], again["plies"], strict=True):
        for old, new in zip(before.get("bounds") or [], after.get("bounds") or [], strict=False):
            if old is not None and new is not None:
                assert old[0] <= new[0] <= new[1] <= old[1]  # only ever narrower
        assert after["exact"] or not before["exact"]


def test_a_cache_file_of_the_first_format_is_read_and_a_damaged_line_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, _ = analyse(tmp_path, capsys)
    path = tmp_path / "solved-7x6x4.jsonl"
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"format": FORMAT}
    ranges = [line for line in lines[1:] if "estimate" not in json.loads(line)]
    # As the first format wrote it: no header, no estimates; then a line cut short and bytes that are not text.
    path.write_bytes("\n".join(ranges).encode() + b'\n{"key": 1, "lo\n\xff\xfe{"key"\n')
    with monkeypatch.context() as patched:
        refuse_to_search(patched, estimates=False)  # the bounds all come from the old file; estimates it had none
        again, _ = analyse(tmp_path, capsys)
    assert [ply.get("bounds") for ply in again["plies"]] == [ply.get("bounds") for ply in first["plies"]]
    assert [ply["scores"] for ply in again["plies"]] == [ply["scores"] for ply in first["plies"]]


def test_a_cache_file_of_a_newer_format_is_left_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "solved-7x6x4.jsonl"
    written = json.dumps({"format": FORMAT + 1}) + "\n" + json.dumps({"key": 1, "something": "new"}) + "\n"
    path.write_text(written)
    analyse(tmp_path, capsys)
    assert path.read_text() == written
    cache = SolvedCache(tmp_path, None)
    cache.put(Position.from_moves("4"), ScoreRange.exactly(-1))
    cache.close()
    assert path.read_text() == written and cache.get(Position.from_moves("4")) is not None  # kept in memory only
